// Edge caching of the public function list and of the calendar feeds (src/middleware/cached.ts):
// ETag, If-None-Match → 304, the Cache API keyed by URL and region (funcoes) or token-bearing path (feeds).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { funcoes, users } from '../../src/db/schema';
import { db, makeCatalog, makeUser } from '../helpers/factories';
import { makeEvento } from '../helpers/operacoes';
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

// Calendar feeds (GET /ical/{token}.ics): the same middleware, keyed by the token-bearing path, FEED_TTL 300 s.
describe('GET /ical/{token}.ics: ETag and edge cache', () => {
  const FEED = { EDGE_CACHE_TTL_SECONDS: '300' };
  const feedApi = (method: string, path: string, opts: ApiOptions = {}) =>
    request(method, path, { ...opts, bindings: { ...FEED, ...opts.bindings } });
  const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const settle = () => new Promise((r) => setTimeout(r, 50)); // the cache write runs in the background (waitUntil)
  async function feedOfViewer() {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    await makeEvento('SP', viewer, { dataEvento: future(5) });
    const res = await feedApi('GET', '/api/me/calendario', { token: viewer.token });
    return { viewer, path: new URL(res.body.url as string).pathname };
  }

  it('answers a strong ETag, Cache-Control: private, no-cache and its calendar type; If-None-Match → 304, empty body', async () => {
    const { path } = await feedOfViewer();
    const res = await feedApi('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('etag')).toMatch(STRONG);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.body).toContain('BEGIN:VEVENT');
    const etag = res.headers.get('etag')!;
    const again = await feedApi('GET', path, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('content-type')).toBeNull();
    expect((await feedApi('GET', path, { headers: { 'if-none-match': '"x"' } })).status).toBe(200);
  });

  it('the ETag holds between polls when nothing changed, even with the Cache API off (DTSTAMP is the last change)', async () => {
    const { viewer, path } = await feedOfViewer();
    const off = { bindings: { EDGE_CACHE_TTL_SECONDS: '0' } };
    const first = await feedApi('GET', path, off);
    await new Promise((r) => setTimeout(r, 1100)); // a new second: a request-time DTSTAMP would differ
    const second = await feedApi('GET', path, { ...off, headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(second.status).toBe(304);
    await makeEvento('SP', viewer, { dataEvento: future(6) });
    const changed = await feedApi('GET', path, { ...off, headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });

  it('a repeated poll within the TTL is served from the cache without touching D1 (a change waits for the TTL)', async () => {
    const { viewer, path } = await feedOfViewer();
    const miss = await feedApi('GET', path, { countQueries: true });
    expect(miss.roundTrips).toBe(1);
    await settle();
    await makeEvento('SP', viewer, { dataEvento: future(7) });
    const hit = await feedApi('GET', path, { countQueries: true });
    expect(hit.status).toBe(200);
    expect(hit.roundTrips).toBe(0);
    expect(hit.body).toBe(miss.body);
    expect(hit.headers.get('etag')).toBe(miss.headers.get('etag'));
    expect(hit.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  });

  it('rotating: the new url never meets the old entry; the old url is 404 at once in the colo that rotated', async () => {
    const { viewer, path } = await feedOfViewer();
    const old = await feedApi('GET', path);
    await settle();
    const rotated = await feedApi('POST', '/api/me/calendario/rotacionar', { token: viewer.token });
    expect(rotated.status).toBe(200);
    const newPath = new URL(rotated.body.url as string).pathname;
    const fresh = await feedApi('GET', newPath, { countQueries: true });
    expect(fresh.status).toBe(200);
    expect(fresh.roundTrips).toBe(1); // a miss: its own key, read from D1
    const gone = await feedApi('GET', path, { countQueries: true });
    expect(gone.status).toBe(404);
    expect(gone.roundTrips).toBe(1);
    expect(gone.headers.get('etag')).toBeNull();
    expect(old.status).toBe(200);
  });

  it('rotated in another colo (no purge here): the old url answers from this cache until the TTL ends, as documented', async () => {
    const { viewer, path } = await feedOfViewer();
    const old = await feedApi('GET', path);
    await settle();
    // The Cache API off for the rotation: it cannot reach this cache, as a rotation in another colo cannot.
    const rotated = await feedApi('POST', '/api/me/calendario/rotacionar', {
      token: viewer.token,
      bindings: { EDGE_CACHE_TTL_SECONDS: '0' },
    });
    expect(rotated.status).toBe(200);
    const stale = await feedApi('GET', path, { countQueries: true });
    expect(stale.status).toBe(200);
    expect(stale.roundTrips).toBe(0);
    expect(stale.body).toBe(old.body);
    // D1 already refuses it: without the cached copy it is 404.
    expect((await feedApi('GET', path, { bindings: { EDGE_CACHE_TTL_SECONDS: '0' } })).status).toBe(404);
  });

  it('turning the feed off drops it from this colo’s cache at once', async () => {
    const { viewer, path } = await feedOfViewer();
    expect((await feedApi('GET', path)).status).toBe(200);
    await settle();
    expect((await feedApi('DELETE', '/api/me/calendario', { token: viewer.token })).status).toBe(204);
    expect((await feedApi('GET', path)).status).toBe(404);
  });

  it('errors are never cached: an unknown token is 404 from D1 each time; a 404 feed becomes 200 when it exists', async () => {
    const unknown = `/ical/${'B'.repeat(43)}.ics`;
    for (let i = 0; i < 2; i++) {
      const res = await feedApi('GET', unknown, { countQueries: true });
      expect(res.status).toBe(404);
      expect(res.roundTrips).toBe(1);
      expect(res.headers.get('etag')).toBeNull();
      await settle();
    }
    const { viewer, path } = await feedOfViewer();
    await db.update(users).set({ ativo: false }).where(eq(users.id, viewer.id));
    expect((await feedApi('GET', path)).status).toBe(404);
    await settle();
    await db.update(users).set({ ativo: true }).where(eq(users.id, viewer.id));
    expect((await feedApi('GET', path)).status).toBe(200);
  });
});
