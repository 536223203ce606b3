// D1 Sessions API (src/db/session.ts): every request runs on one session; its bookmark travels in
// `x-d1-bookmark` and is accepted back.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { isBookmark, requestDb } from '../../src/db/session';
import { makeAdmin, uniq } from '../helpers/factories';
import { api, BASE } from '../helpers/request';

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

describe('x-d1-bookmark', () => {
  it('a read answers the bookmark of its session', async () => {
    const res = await api('GET', '/api/funcoes');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-d1-bookmark')).toMatch(BOOKMARK);
  });

  it('round trip: the bookmark of a write, sent back, gives a read that sees the write', async () => {
    const admin = await makeAdmin();
    const nome = uniq('Curso');
    const created = await api('POST', '/api/cursos', { token: admin.token, body: { nome } });
    expect(created.status).toBe(201);
    const bookmark = created.headers.get('x-d1-bookmark')!;
    expect(bookmark).toMatch(BOOKMARK);
    const read = await api('GET', '/api/cursos', { token: admin.token, headers: { 'x-d1-bookmark': bookmark } });
    expect(read.status).toBe(200);
    expect((read.body as { nome: string }[]).map((c) => c.nome)).toContain(nome);
    // Bookmarks only move forward: the read's is at least the write's.
    expect(read.headers.get('x-d1-bookmark')! >= bookmark).toBe(true);
  });

  it('a malformed bookmark is ignored (the read starts unconstrained), never an error', async () => {
    for (const bad of ['zzz', "'; drop table users; --", '0'.repeat(200)]) {
      const res = await api('GET', '/api/funcoes', { headers: { 'x-d1-bookmark': bad } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-d1-bookmark')).toMatch(BOOKMARK);
    }
  });

  it('an answer that ran no query carries no bookmark', async () => {
    const res = await api('GET', '/api/cursos', { token: 'not-a-token' });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-d1-bookmark')).toBeNull(); // no query ran
  });

  it('is exposed to browsers through CORS, and may be sent by them', async () => {
    const origin = 'https://app.example.com';
    const bindings = { ...env, CORS_ORIGINS: origin };
    const { createApp } = await import('../../src/app');
    const pre = await createApp().request(
      `${BASE}/api/funcoes`,
      {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-d1-bookmark' },
      },
      bindings,
    );
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-d1-bookmark');
    const res = await createApp().request(`${BASE}/api/funcoes`, { headers: { origin } }, bindings);
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('x-d1-bookmark');
  });
});

describe('requestDb()', () => {
  it('accepts only the shape of a D1 bookmark', () => {
    expect(isBookmark('00000000-00000008-00000000-00000000000000000000000000000000')).toBe(true);
    expect(isBookmark('first-primary')).toBe(false);
    expect(isBookmark(undefined)).toBe(false);
  });

  it('starts writes on the primary and reads where the bookmark says', () => {
    const seen: (string | undefined)[] = [];
    const fake = {
      withSession(arg?: string) {
        seen.push(arg);
        return env.DB.withSession(arg);
      },
    } as unknown as D1Database;
    const bm = '00000000-00000008-00000000-00000000000000000000000000000000';
    requestDb(fake, 'POST', bm);
    requestDb(fake, 'GET', bm);
    requestDb(fake, 'GET', 'bad');
    requestDb(fake, 'HEAD', undefined);
    expect(seen).toEqual(['first-primary', bm, 'first-unconstrained', 'first-unconstrained']);
  });

  it('falls back to the plain binding when it has no sessions', () => {
    const plain = { prepare: env.DB.prepare.bind(env.DB), batch: env.DB.batch.bind(env.DB) } as unknown as D1Database;
    expect(requestDb(plain, 'GET', undefined).bookmark()).toBeNull();
  });
});
