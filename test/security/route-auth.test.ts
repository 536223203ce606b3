import { describe, expect, it } from 'vitest';
import { ROLES } from '../../src/db/schema';
import { makeUser, tokenFor } from '../helpers/factories';
import { protectedRoutes } from '../helpers/protected-routes';
import { api, expectError } from '../helpers/request';

describe.each(protectedRoutes)('$method $path', (route) => {
  it('answers 401 UNAUTHENTICATED without a token', async () => {
    expectError(await api(route.method, route.path, { body: route.body }), 401, 'UNAUTHENTICATED');
  });

  it('answers 401 for a token signed with another secret', async () => {
    const forged = await (
      await import('../../src/lib/tokens')
    ).signAccessToken(
      { id: crypto.randomUUID(), role: 'SUPERADMIN', empresaId: null },
      'another-secret-another-secret-123456',
      900,
      crypto.randomUUID(),
    );
    expectError(await api(route.method, route.path, { body: route.body, token: forged.token }), 401, 'UNAUTHENTICATED');
  });

  it('answers 401 for the token of a user that no longer exists', async () => {
    const token = await tokenFor(crypto.randomUUID(), 'SUPERADMIN');
    expectError(await api(route.method, route.path, { body: route.body, token }), 401, 'UNAUTHENTICATED');
  });

  const denied = ROLES.filter((r) => !route.allowed.includes(r));
  if (denied.length > 0) {
    it.each(denied)('answers 403 FORBIDDEN to %s', async (role) => {
      const user = await makeUser({ role });
      expectError(await api(route.method, route.path, { body: route.body, token: user.token }), 403, 'FORBIDDEN');
    });
  }

  it('lets an allowed role through authorization', async () => {
    const user = await makeUser({ role: route.allowed[0]! });
    const res = await api(route.method, route.path, { body: route.body, token: user.token });
    expect([401, 403]).not.toContain(res.status);
  });
});
