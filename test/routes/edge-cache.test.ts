// Edge caching of the public function list (src/middleware/cached.ts): ETag, If-None-Match → 304,
// the Cache API keyed by URL and region.
import { describe, expect, it } from 'vitest';
import { funcoes } from '../../src/db/schema';
import { makeCatalog } from '../helpers/factories';
import { api as request, type ApiOptions } from '../helpers/request';

// The edge cache is off in the other test files (test/setup/vars.ts); on here, at the production TTL.
const api = (method: string, path: string, opts: ApiOptions = {}) =>
  request(method, path, { ...opts, bindings: { EDGE_CACHE_TTL_SECONDS: '60' } });

const STRONG = /^"[0-9a-f]{32}"$/;

describe('GET /api/funcoes: ETag and edge cache', () => {
  it('answers a strong ETag from the content and Cache-Control: no-cache', async () => {
    await makeCatalog(funcoes, 'MG');
    const res = await api('GET', '/api/funcoes', { regiao: 'MG' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(STRONG);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-total-count')).toBe(String((res.body as unknown[]).length));
  });

  it('If-None-Match with the current ETag is 304 with an empty body; another tag is 200', async () => {
    const first = await api('GET', '/api/funcoes?limit=5', { regiao: 'SP' });
    const etag = first.headers.get('etag')!;
    const again = await api('GET', '/api/funcoes?limit=5', { regiao: 'SP', headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const list = await api('GET', '/api/funcoes?limit=5', {
      regiao: 'SP',
      headers: { 'if-none-match': `"0000", ${etag}` },
    });
    expect(list.status).toBe(304);
    const other = await api('GET', '/api/funcoes?limit=5', { regiao: 'SP', headers: { 'if-none-match': '"x"' } });
    expect(other.status).toBe(200);
    expect(other.body).toEqual(first.body);
  });

  it('a repeated request is served from the cache without touching D1', async () => {
    await makeCatalog(funcoes, 'SP');
    const path = `/api/funcoes?limit=7`;
    const miss = await api('GET', path, { countQueries: true });
    expect(miss.roundTrips).toBe(1);
    await new Promise((r) => setTimeout(r, 50)); // the cache write runs in the background (waitUntil)
    const hit = await api('GET', path, { countQueries: true });
    expect(hit.status).toBe(200);
    expect(hit.body).toEqual(miss.body);
    expect(hit.headers.get('etag')).toBe(miss.headers.get('etag'));
    expect(hit.roundTrips).toBe(0);
    // Within the TTL a new entry is not yet visible here (bounded staleness, 60 s).
    await makeCatalog(funcoes, 'SP');
    expect((await api('GET', path)).body).toEqual(miss.body);
  });

  it('keys by region: MG and SP never share an answer', async () => {
    const mg = await makeCatalog(funcoes, 'MG');
    const sp = await api('GET', '/api/funcoes?limit=200', { regiao: 'SP' });
    const mgList = await api('GET', '/api/funcoes?limit=200', { regiao: 'MG' });
    expect((mgList.body as { id: string }[]).map((f) => f.id)).toContain(mg.id);
    expect((sp.body as { id: string }[]).map((f) => f.id)).not.toContain(mg.id);
    expect(sp.headers.get('etag')).not.toBe(mgList.headers.get('etag'));
  });

  it('errors are never cached: an unknown region is 400 each time', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await api('GET', '/api/funcoes', { regiao: 'XX' });
      expect(res.status).toBe(400);
      expect(res.headers.get('etag')).toBeNull();
    }
  });
});
