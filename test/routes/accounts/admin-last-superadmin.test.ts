// Own file: storage is isolated per file, so the SUPERADMINs made here are the only ones.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { users } from '../../../src/db/schema';
import { db, makeAdmin } from '../../helpers/factories';
import { api } from '../../helpers/request';

const superadmins = () => db.select().from(users).where(eq(users.role, 'SUPERADMIN'));

it('never lets the last SUPERADMIN disappear when two delete each other at once', async () => {
  await db.delete(users);
  const a = await makeAdmin();
  const b = await makeAdmin();
  const results = await Promise.all([
    api('DELETE', `/api/admin/users/${b.id}`, { token: a.token }),
    api('DELETE', `/api/admin/users/${a.id}`, { token: b.token }),
  ]);
  const statuses = results.map((r) => r.status).sort();
  // One wins; the other is refused by the SQL guard (409) or finds its own account gone (401).
  expect(statuses[0]).toBe(200);
  expect([401, 409]).toContain(statuses[1]);
  expect(await superadmins()).toHaveLength(1);
});

it('never demotes the last SUPERADMIN when two demote each other at once', async () => {
  await db.delete(users);
  const a = await makeAdmin();
  const b = await makeAdmin();
  const results = await Promise.all([
    api('PATCH', `/api/admin/users/${b.id}/role`, { token: a.token, body: { role: 'RESEARCHER' } }),
    api('PATCH', `/api/admin/users/${a.id}/role`, { token: b.token, body: { role: 'RESEARCHER' } }),
  ]);
  const statuses = results.map((r) => r.status).sort();
  // One wins; the other is refused by the SQL guard (409) or has already lost the role (403).
  expect(statuses[0]).toBe(200);
  expect([403, 409]).toContain(statuses[1]);
  expect(await superadmins()).toHaveLength(1);
});
