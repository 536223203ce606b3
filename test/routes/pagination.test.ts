// Own file: it counts rows, so it needs a database no other suite writes to.
import { beforeAll, describe, expect, it } from 'vitest';
import { agenda, convites, cursos, empresas, funcoes, precos, tiposEventos } from '../../src/db/schema';
import { MAX_PAGE } from '../../src/lib/pagination';
import { db, makeAdmin, makeCatalog, makeFot, makeProfissional, makeUser, type TestUser } from '../helpers/factories';
import { api, expectError } from '../helpers/request';

let admin: TestUser;
let pro: TestUser;
let eventId = '';
const routes: { path: string; token: () => string }[] = [];

beforeAll(async () => {
  admin = await makeAdmin();
  pro = await makeUser({ role: 'profissional' });
  for (let i = 0; i < 3; i++) await makeUser({ ativo: false });
  const tipos = [];
  for (let i = 0; i < 3; i++) {
    await makeCatalog(cursos);
    await makeCatalog(empresas);
    tipos.push(await makeCatalog(tiposEventos));
  }
  const f = await makeCatalog(funcoes);
  await makeCatalog(funcoes);
  await makeCatalog(funcoes);
  for (const t of tipos)
    await db
      .insert(precos)
      .values({ regiao: 'SP', tipoEventoId: t.id, funcaoProfissionalId: f.id, valorCentavos: 100 });
  const mine = await makeProfissional('SP', { usuarioId: pro.id }, [f.id]);
  const others = [await makeProfissional('SP', {}, [f.id]), await makeProfissional('SP', {}, [f.id])];
  const events = [];
  for (let i = 0; i < 3; i++) {
    const fot = await makeFot('SP');
    const [e] = await db
      .insert(agenda)
      .values({
        regiao: 'SP',
        userId: admin.id,
        fotId: fot.id,
        tipoEventoId: tipos[0]!.id,
        dataEvento: `2027-0${i + 1}-01`,
      })
      .returning();
    events.push(e!);
  }
  eventId = events[0]!.id;
  for (const p of [mine, ...others])
    await db.insert(convites).values({ agendaId: eventId, profissionalId: p.id, funcaoId: f.id });
  for (const e of events.slice(1))
    await db.insert(convites).values({ agendaId: e.id, profissionalId: mine.id, funcaoId: f.id });
  const asAdmin = () => admin.token;
  for (const path of [
    '/api/admin/users',
    '/api/admin/users/pending',
    '/api/cursos',
    '/api/empresas',
    '/api/funcoes',
    '/api/tipos-eventos',
    '/api/cadastro-fot',
    '/api/profissionais',
    '/api/agenda',
    `/api/agenda/${eventId}/convites`,
  ]) {
    routes.push({ path, token: asAdmin });
  }
  routes.push({ path: '/api/convites', token: () => pro.token });
});

describe('pagination of every list route', () => {
  it('covers the list routes', () => expect(routes.length).toBe(11));

  it('answers the whole list without limit/offset, with X-Total-Count', async () => {
    for (const r of routes) {
      const res = await api('GET', r.path, { token: r.token() });
      expect(res.status, r.path).toBe(200);
      expect(Array.isArray(res.body), r.path).toBe(true);
      expect(res.body.length, r.path).toBeGreaterThanOrEqual(3);
      expect(res.headers.get('x-total-count'), r.path).toBe(String(res.body.length));
    }
  });

  it('pages are consecutive slices of the whole list, and the total stays the whole count', async () => {
    for (const r of routes) {
      const sep = r.path.includes('?') ? '&' : '?';
      const all = (await api('GET', r.path, { token: r.token() })).body.map((x: { id: string }) => x.id);
      const pages: string[] = [];
      for (let offset = 0; offset < all.length; offset += 2) {
        const res = await api('GET', `${r.path}${sep}limit=2&offset=${offset}`, { token: r.token() });
        expect(res.status, r.path).toBe(200);
        expect(res.body.length, r.path).toBeLessThanOrEqual(2);
        expect(res.headers.get('x-total-count'), r.path).toBe(String(all.length));
        pages.push(...res.body.map((x: { id: string }) => x.id));
      }
      expect(pages, r.path).toEqual(all);
      const beyond = await api('GET', `${r.path}${sep}offset=${all.length + 5}`, { token: r.token() });
      expect(beyond.body, r.path).toEqual([]);
    }
  });

  it('validates limit and offset', async () => {
    for (const r of routes) {
      for (const q of ['limit=0', `limit=${MAX_PAGE + 1}`, 'limit=abc', 'limit=1.5', 'offset=-1', 'offset=x']) {
        const res = await api('GET', `${r.path}?${q}`, { token: r.token() });
        expectError(res, 400, 'VALIDATION_FAILED');
      }
    }
  });

  it("a page of event types carries exactly its types' prices", async () => {
    const res = await api('GET', '/api/tipos-eventos?limit=1&offset=1', { token: admin.token });
    expect(res.body).toHaveLength(1);
    expect(res.body[0].precos).toHaveLength(1);
    expect(res.body[0].precos[0].tipo_evento_id).toBe(res.body[0].id);
  });

  it('a page of agenda events carries their teams and invitations filter by page too', async () => {
    const res = await api('GET', '/api/agenda?limit=1', { token: admin.token });
    expect(res.body).toHaveLength(1);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(Array.isArray(res.body[0].equipe)).toBe(true);
  });
});
