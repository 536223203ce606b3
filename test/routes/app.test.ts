import { describe, expect, it } from 'vitest';
import { api, expectError } from '../helpers/request';

describe('app skeleton', () => {
  it('GET /health answers ok after a D1 round trip', async () => {
    const res = await api('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('unknown routes answer 404 JSON', async () => {
    expectError(await api('GET', '/nope'), 404, 'NOT_FOUND');
  });
});
