// Edge caching of the public function list and of the calendar feeds (src/middleware/cached.ts):
// ETag, If-None-Match → 304, the Cache API under a listed entry: the region's whole list (funcoes),
// the token's path without the query (feeds). Credentialed requests never meet it; writes drop it.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { funcoes, users } from '../../src/db/schema';
import { db, label, makeAdmin, makeCatalog, makeUser, type TestUser, makeEvento, makePro } from '../helpers/factories';
import { api as request, type ApiOptions, type ApiResult } from '../helpers/request';

// The edge cache is off in the other test files (test/setup/vars.ts); on here, at the production TTL.
const api = (method: string, path: string, opts: ApiOptions = {}) =>
  request(method, path, { ...opts, bindings: { EDGE_CACHE_TTL_SECONDS: '60' } });

const STRONG = /^"[0-9a-f]{32}"$/;
const settle = () => new Promise((r) => setTimeout(r, 50)); // the cache write runs in the background (waitUntil)
const ids = (res: ApiResult) => (res.body as { id: string }[]).map((f) => f.id);

/** The region's public list cached in this colo: an anonymous read, then a hit. Answers the cached list. */
async function warm(regiao: string) {
  const first = await api('GET', '/api/funcoes', { regiao });
  await settle();
  const hit = await api('GET', '/api/funcoes', { regiao, countQueries: true });
  expect(hit.roundTrips).toBe(0);
  return first;
}

/** An administrator's write in the region, which drops its cached list in this colo. */
async function dropViaWrite(regiao: string) {
  const admin = await makeAdmin();
  const res = await api('POST', '/api/funcoes', { token: admin.token, regiao, body: { nome: label('F') } });
  expect(res.status).toBe(201);
}

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
    for (const path of ['/api/funcoes', '/api/funcoes?limit=5']) {
      const first = await api('GET', path, { regiao: 'SP' });
      const etag = first.headers.get('etag')!;
      const again = await api('GET', path, { regiao: 'SP', headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      const list = await api('GET', path, { regiao: 'SP', headers: { 'if-none-match': `"0000", ${etag}` } });
      expect(list.status).toBe(304);
      const other = await api('GET', path, { regiao: 'SP', headers: { 'if-none-match': '"x"' } });
      expect(other.status).toBe(200);
      expect(other.body).toEqual(first.body);
    }
  });

  it('a repeated request is served from the cache without touching D1', async () => {
    await dropViaWrite('SP');
    const miss = await api('GET', '/api/funcoes', { countQueries: true });
    expect(miss.roundTrips).toBe(1);
    await settle();
    const hit = await api('GET', '/api/funcoes', { countQueries: true });
    expect(hit.status).toBe(200);
    expect(hit.body).toEqual(miss.body);
    expect(hit.headers.get('etag')).toBe(miss.headers.get('etag'));
    expect(hit.roundTrips).toBe(0);
    // A write that ran in another colo (here: straight into D1, nothing dropped in this cache) is seen
    // here by anonymous readers within the TTL only (bounded staleness, 60 s).
    await makeCatalog(funcoes, 'SP');
    expect((await api('GET', '/api/funcoes')).body).toEqual(miss.body);
  });

  it('a page (any query) is never cached: D1 answers it each time', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await api('GET', '/api/funcoes?limit=7', { countQueries: true });
      expect(res.status).toBe(200);
      expect(res.roundTrips).toBe(1);
      await settle();
    }
  });

  it('keys by region: MG and SP never share an answer', async () => {
    const mg = await makeCatalog(funcoes, 'MG');
    await dropViaWrite('MG');
    const sp = await api('GET', '/api/funcoes', { regiao: 'SP' });
    const mgList = await api('GET', '/api/funcoes', { regiao: 'MG' });
    expect(ids(mgList)).toContain(mg.id);
    expect(ids(sp)).not.toContain(mg.id);
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

// Issue 32 item 2: an administrator's list after its own write, and what a write drops.
describe('GET /api/funcoes after a write: credentialed requests bypass the cache, writes drop it', () => {
  let admin: TestUser;
  beforeAll(async () => {
    admin = await makeAdmin();
  });
  const byHeader = () => ({ token: admin.token });
  const byCookie = () => ({ headers: { cookie: `access_token=${admin.token}` } });
  const nameOf = (res: ApiResult, id: string) =>
    (res.body as { id: string; nome: string }[]).find((f) => f.id === id)?.nome;

  it('an administrator who creates, renames or deletes a function sees the change at once with its token (header or cookie)', async () => {
    for (const how of [byHeader, byCookie]) {
      await warm('MG');
      const created = await api('POST', '/api/funcoes', {
        token: admin.token,
        regiao: 'MG',
        body: { nome: label('F') },
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect(ids(await api('GET', '/api/funcoes', { ...how(), regiao: 'MG' }))).toContain(id);

      await warm('MG');
      const nome = label('Renomeada');
      expect(
        (await api('PUT', `/api/funcoes/${id}`, { token: admin.token, regiao: 'MG', body: { nome } })).status,
      ).toBe(200);
      expect(nameOf(await api('GET', '/api/funcoes', { ...how(), regiao: 'MG' }), id)).toBe(nome);

      await warm('MG');
      expect((await api('DELETE', `/api/funcoes/${id}`, { token: admin.token, regiao: 'MG' })).status).toBe(200);
      expect(ids(await api('GET', '/api/funcoes', { ...how(), regiao: 'MG' }))).not.toContain(id);
    }
  });

  it("an anonymous reader after a write in this colo sees the change at once (the region's entry was dropped)", async () => {
    await warm('SP');
    const created = await api('POST', '/api/funcoes', { token: admin.token, regiao: 'SP', body: { nome: label('F') } });
    const id = created.body.id as string;
    const afterCreate = await api('GET', '/api/funcoes', { regiao: 'SP', countQueries: true });
    expect(afterCreate.roundTrips).toBe(1);
    expect(ids(afterCreate)).toContain(id);

    await warm('SP');
    const nome = label('Renomeada');
    await api('PUT', `/api/funcoes/${id}`, { token: admin.token, regiao: 'SP', body: { nome } });
    expect(nameOf(await api('GET', '/api/funcoes', { regiao: 'SP' }), id)).toBe(nome);

    await warm('SP');
    await api('DELETE', `/api/funcoes/${id}`, { token: admin.token, regiao: 'SP' });
    expect(ids(await api('GET', '/api/funcoes', { regiao: 'SP' }))).not.toContain(id);
  });

  it("a write drops only its own region's list", async () => {
    await warm('SP');
    await api('POST', '/api/funcoes', { token: admin.token, regiao: 'MG', body: { nome: label('F') } });
    expect((await api('GET', '/api/funcoes', { regiao: 'SP', countQueries: true })).roundTrips).toBe(0);
  });

  it('never answers a credentialed request from the cache, nor stores its answer', async () => {
    const before = await warm('SP');
    // A write that ran in another colo: nothing was dropped here.
    const elsewhere = await makeCatalog(funcoes, 'SP');
    const credentials: Record<string, string>[] = [
      { authorization: `Bearer ${admin.token}` },
      { authorization: admin.token },
      { cookie: `access_token=${admin.token}` },
      { authorization: 'Bearer not-a-token' }, // any credential, valid or not: the list is public
    ];
    for (const headers of credentials) {
      const res = await api('GET', '/api/funcoes', { regiao: 'SP', headers, countQueries: true });
      expect(res.status).toBe(200);
      expect(res.roundTrips).toBe(1);
      expect(ids(res)).toContain(elsewhere.id);
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      expect(res.headers.get('etag')).toMatch(STRONG);
    }
    await settle();
    // Anonymous readers still get the cached list: no credentialed answer was stored over it.
    const anon = await api('GET', '/api/funcoes', { regiao: 'SP', countQueries: true });
    expect(anon.roundTrips).toBe(0);
    expect(anon.body).toEqual(before.body);
    expect(ids(anon)).not.toContain(elsewhere.id);
  });
});

// Calendar feeds (GET /ical/{token}.ics): the same middleware, keyed by the token-bearing path, FEED_TTL 300 s.
describe('GET /ical/{token}.ics: ETag and edge cache', () => {
  const FEED = { EDGE_CACHE_TTL_SECONDS: '300' };
  const feedApi = (method: string, path: string, opts: ApiOptions = {}) =>
    request(method, path, { ...opts, bindings: { ...FEED, ...opts.bindings } });
  const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
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

  it('the query is not part of the entry: the url with any query meets the same cached feed', async () => {
    const { path } = await feedOfViewer();
    const miss = await feedApi('GET', `${path}?x=1`, { countQueries: true });
    expect(miss.status).toBe(200);
    expect(miss.roundTrips).toBe(1);
    await settle();
    for (const q of ['', '?x=1', '?y=2&x=1', '?']) {
      const hit = await feedApi('GET', `${path}${q}`, { countQueries: true });
      expect(hit.status).toBe(200);
      expect(hit.roundTrips).toBe(0);
      expect(hit.body).toBe(miss.body);
    }
  });

  // Issue 32 item 11: each way D1 stops answering a feed drops every cached variant of its url here.
  const ENDINGS: [string, (owner: { viewer: TestUser; profId?: string }) => Promise<number>][] = [
    [
      'rotated',
      async ({ viewer }) => (await feedApi('POST', '/api/me/calendario/rotacionar', { token: viewer.token })).status,
    ],
    [
      'turned off',
      async ({ viewer }) => (await feedApi('DELETE', '/api/me/calendario', { token: viewer.token })).status,
    ],
    [
      'its account deleted',
      async ({ viewer }) =>
        (await feedApi('DELETE', `/api/admin/users/${viewer.id}`, { token: (await makeAdmin()).token })).status,
    ],
    [
      'its professional profile (and so its login) deleted',
      async ({ profId }) =>
        (await feedApi('DELETE', `/api/profissionais/${profId}`, { token: (await makeAdmin()).token, regiao: 'SP' }))
          .status,
    ],
    [
      'its account moved to a role without feeds',
      async ({ viewer }) =>
        (
          await feedApi('PATCH', `/api/admin/users/${viewer.id}/role`, {
            token: (await makeAdmin()).token,
            body: { role: 'RESEARCHER' },
          })
        ).status,
    ],
  ];
  it.each(ENDINGS)('%s: the old url is 404 at once here, with or without a query', async (_, end) => {
    const pro = await makePro('SP');
    const res = await feedApi('GET', '/api/me/calendario', { token: pro.user.token });
    const path = new URL(res.body.url as string).pathname;
    const variants = [path, `${path}?x=1`, `${path}?nocache=${Date.now()}`];
    for (const v of variants) expect((await feedApi('GET', v)).status).toBe(200);
    await settle();
    for (const v of variants) expect((await feedApi('GET', v, { countQueries: true })).roundTrips).toBe(0);
    expect(await end({ viewer: pro.user, profId: pro.prof.id })).toBeLessThan(300);
    for (const v of variants) {
      const gone = await feedApi('GET', v);
      expect(gone.status).toBe(404);
      expect(gone.headers.get('etag')).toBeNull();
    }
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
