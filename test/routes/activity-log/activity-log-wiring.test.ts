// Every kind of write through the API leaves its activity-log entry (docs/decisions.md#d15), with
// the actor, the entity and {campo: {antes, depois}}; secrets never appear and bank/PIX fields are
// masked. Failed writes leave none: test/security/failures.test.ts (each batch failing at each statement).
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import {
  agenda,
  convites,
  funcoes,
  lancamentos,
  notifications,
  precos,
  refreshTokens,
  tiposEventos,
} from '../../../src/db/schema';
import { entriesOf, lastSeq, logEntries, type LogEntry } from '../../helpers/activity-log';
import {
  db,
  makeAdmin,
  makeCatalog,
  makeEmpresa,
  makeFot,
  makeFotRefs,
  makeNotifications,
  makeProfissional,
  makeUser,
  nextFot,
  PASSWORD,
  uniq,
  type TestUser,
} from '../../helpers/factories';
import { api } from '../../helpers/request';
import { keptColumnsAfterAll } from '../../helpers/kept-columns';

// Every team row these tests touched keeps its event's region, date and accepted count (triggers).
keptColumnsAfterAll();

let admin: TestUser;
beforeAll(async () => {
  admin = await makeAdmin();
});

/** The one entry of `acao` on `id`, written by the last request. */
async function entry(id: string | null, acao: string, since: number): Promise<LogEntry> {
  const found = (id ? await entriesOf(id, acao) : await logEntries({ acao })).filter((e) => e.seq > since);
  expect(found, `${acao} on ${id}`).toHaveLength(1);
  return found[0]!;
}

/** No secret in any form: the password, a PBKDF2 hash, a token. */
function expectNoSecrets(e: LogEntry, ...secrets: string[]) {
  const text = JSON.stringify(e);
  expect(text).not.toMatch(/pbkdf2|senha_hash|token_hash|ExponentPushToken/i);
  for (const s of secrets) expect(text).not.toContain(s);
}

describe('auth', () => {
  it('register, login (success and each failure), refresh, reuse, logout, PUT /api/me', async () => {
    let since = await lastSeq();
    const email = `${uniq('reg')}@example.com`;
    const reg = await api('POST', '/auth/register', {
      body: { email, senha: 'senha-de-registro', nome: 'Registrada', role: 'RESEARCHER' },
    });
    expect(reg.status).toBe(201);
    const r = await entry(reg.body.id, 'auth.register', since);
    expect(r).toMatchObject({ ator_id: reg.body.id, ator_role: 'RESEARCHER', regiao: null, entidade: 'users' });
    expect(r.dados.email).toEqual({ depois: email });
    expectNoSecrets(r, 'senha-de-registro', reg.body.refresh_token);

    // Pending: refused, logged as a failure.
    since = await lastSeq();
    expect((await api('POST', '/auth/login', { body: { email, senha: 'senha-de-registro' } })).status).toBe(401);
    expect((await entry(reg.body.id, 'auth.login_failed', since)).dados.motivo).toEqual({ depois: 'conta_pendente' });

    const u = await makeUser({ role: 'RESEARCHER' });
    since = await lastSeq();
    expect((await api('POST', '/auth/login', { body: { email: u.email, senha: 'errada-123' } })).status).toBe(401);
    const wrong = await entry(u.id, 'auth.login_failed', since);
    expect(wrong).toMatchObject({ ator_id: null, ator_role: null });
    expect(wrong.dados).toEqual({ email: { depois: u.email }, motivo: { depois: 'senha_incorreta' } });
    expectNoSecrets(wrong, 'errada-123');
    since = await lastSeq();
    const ghost = `${uniq('ghost')}@example.com`;
    await api('POST', '/auth/login', { body: { email: ghost, senha: 'qualquer-1' } });
    const unknown = (await logEntries({ acao: 'auth.login_failed' })).filter((e) => e.seq > since);
    expect(unknown.map((e) => [e.entidade_id, e.dados.email, e.dados.motivo])).toEqual([
      [null, { depois: ghost }, { depois: 'email_desconhecido' }],
    ]);

    since = await lastSeq();
    const login = await api('POST', '/auth/login', { body: { email: u.email, senha: PASSWORD } });
    expect(login.status).toBe(200);
    expect(await entry(u.id, 'auth.login', since)).toMatchObject({ ator_id: u.id, ator_role: 'RESEARCHER' });

    since = await lastSeq();
    const refreshed = await api('POST', '/auth/refresh', { body: { refresh_token: login.body.refresh_token } });
    expect(refreshed.status).toBe(200);
    expectNoSecrets(await entry(u.id, 'auth.refresh', since), login.body.refresh_token, refreshed.body.refresh_token);
    // The spent token again, after the grace window (its spending moved a minute back): theft
    // detection ends every session, logged once.
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date(Date.now() - 60_000).toISOString() })
      .where(and(eq(refreshTokens.userId, u.id), isNotNull(refreshTokens.revokedAt)));
    since = await lastSeq();
    expect((await api('POST', '/auth/refresh', { body: { refresh_token: login.body.refresh_token } })).status).toBe(
      401,
    );
    await entry(u.id, 'auth.refresh_reused', since);
    since = await lastSeq();
    await api('POST', '/auth/refresh', { body: { refresh_token: login.body.refresh_token } });
    expect((await entriesOf(u.id, 'auth.refresh_reused')).filter((e) => e.seq > since)).toEqual([]);

    const again = await api('POST', '/auth/login', { body: { email: u.email, senha: PASSWORD } });
    since = await lastSeq();
    expect((await api('POST', '/auth/logout', { body: { refresh_token: again.body.refresh_token } })).status).toBe(200);
    expect(await entry(u.id, 'auth.logout', since)).toMatchObject({ ator_id: u.id, ator_role: 'RESEARCHER' });
    // A second logout with the same token ends nothing: no entry.
    since = await lastSeq();
    await api('POST', '/auth/logout', { body: { refresh_token: again.body.refresh_token } });
    expect((await entriesOf(u.id, 'auth.logout')).filter((e) => e.seq > since)).toEqual([]);

    // Theft detection ended every session (the factory's too): a new one.
    const fresh = await api('POST', '/auth/login', { body: { email: u.email, senha: PASSWORD } });
    since = await lastSeq();
    const me = await api('PUT', '/api/me', {
      token: fresh.body.access_token,
      body: { nome: 'Novo Nome', senha_atual: PASSWORD, nova_senha: 'nova-senha-9' },
    });
    expect(me.status).toBe(200);
    const upd = await entry(u.id, 'users.update_me', since);
    expect(upd.dados).toMatchObject({ nome: { depois: 'Novo Nome' }, credencial: { depois: 'alterada' } });
    expect(upd.dados.nome!.antes).toEqual(expect.any(String));
    expectNoSecrets(upd, 'nova-senha-9', PASSWORD);
  });

  it('PUT /api/me of a professional logs its profile change, bank fields masked', async () => {
    const u = await makeUser({ role: 'profissional' });
    const prof = await makeProfissional('MG', { usuarioId: u.id, contaPix: 'antiga@pix.com' });
    const since = await lastSeq();
    const res = await api('PUT', '/api/me', {
      token: u.token,
      body: { profissional: { conta_pix: 'nova-chave@pix.com', tipo_chave_pix: 'email' } },
    });
    expect(res.status).toBe(200);
    const e = await entry(prof.id, 'profissionais.update', since);
    expect(e).toMatchObject({ regiao: 'MG', ator_id: u.id });
    expect(e.dados.conta_pix).toEqual({ antes: '***.com', depois: '***.com' });
    expect(JSON.stringify(e)).not.toMatch(/antiga|nova-chave/);
  });
});

describe('admin users', () => {
  it('create, approve, role and delete', async () => {
    let since = await lastSeq();
    const created = await api('POST', '/api/admin/users', {
      token: admin.token,
      body: { email: `${uniq('c')}@example.com`, senha: 'senha-criada', nome: 'Criada', role: 'RESEARCHER' },
    });
    expect(created.status).toBe(201);
    const c = await entry(created.body.id, 'users.create', since);
    expect(c).toMatchObject({ ator_id: admin.id, ator_role: 'SUPERADMIN', regiao: null });
    expect(c.dados.role).toEqual({ depois: 'RESEARCHER' });
    expectNoSecrets(c, 'senha-criada');

    // An EVENT_OWNER belongs to a company (issue 32 item 18): the account has one before its role changes.
    const pending = await makeUser({ ativo: false, empresaId: (await makeEmpresa()).id });
    since = await lastSeq();
    expect((await api('PATCH', `/api/admin/users/${pending.id}/approve`, { token: admin.token })).status).toBe(200);
    expect((await entry(pending.id, 'users.approve', since)).dados).toEqual({ ativo: { antes: false, depois: true } });
    // Approving again changes nothing: no second entry.
    expect((await api('PATCH', `/api/admin/users/${pending.id}/approve`, { token: admin.token })).status).toBe(200);
    expect(await entriesOf(pending.id, 'users.approve')).toHaveLength(1);

    since = await lastSeq();
    const role = await api('PATCH', `/api/admin/users/${pending.id}/role`, {
      token: admin.token,
      body: { role: 'EVENT_OWNER' },
    });
    expect(role.status).toBe(200);
    expect((await entry(pending.id, 'users.role', since)).dados).toEqual({
      role: { antes: 'agenda_viewer', depois: 'EVENT_OWNER' },
    });

    since = await lastSeq();
    expect((await api('DELETE', `/api/admin/users/${pending.id}`, { token: admin.token })).status).toBe(200);
    const d = await entry(pending.id, 'users.delete', since);
    expect(d.dados.email).toEqual({ antes: pending.email });
    expectNoSecrets(d);
  });
});

describe('catalogs, event types and prices', () => {
  it('every catalog logs under its table name; a price logs its old and new value', async () => {
    let since = await lastSeq();
    for (const [path, field, entidade] of [
      ['/api/anos-formaturas', 'ano_semestre', 'anos_formaturas'],
      ['/api/empresas', 'nome', 'empresas'],
      ['/api/funcoes', 'nome', 'funcoes'],
      ['/api/tipos-servicos', 'nome', 'tipos_servicos'],
      ['/api/tipos-eventos', 'nome', 'tipos_eventos'],
    ] as const) {
      const value = uniq('v').slice(0, 20);
      const res = await api('POST', path, { token: admin.token, body: { [field]: value } });
      expect(res.status).toBe(201);
      expect((await entry(res.body.id, `${entidade}.create`, since)).dados).toEqual({ [field]: { depois: value } });
    }
    const tipo = await makeCatalog(tiposEventos);
    const funcao = await makeCatalog(funcoes);
    since = await lastSeq();
    const body = { tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor: 120.5 };
    const first = await api('POST', '/api/tipos-eventos/precos', { token: admin.token, body });
    expect(first.status).toBe(200);
    const p1 = await entry(first.body.id, 'precos.save', since);
    expect(p1.regiao).toBe('SP');
    expect(p1.dados.valor_centavos).toEqual({ antes: null, depois: 12050 });
    since = await lastSeq();
    await api('POST', '/api/tipos-eventos/precos', { token: admin.token, body: { ...body, valor: 99 } });
    expect((await entry(first.body.id, 'precos.save', since)).dados.valor_centavos).toEqual({
      antes: 12050,
      depois: 9900,
    });
    // A missing reference (404) writes no price and no entry.
    since = await lastSeq();
    const missing = await api('POST', '/api/tipos-eventos/precos', {
      token: admin.token,
      body: { ...body, funcao_profissional_id: crypto.randomUUID() },
    });
    expect(missing.status).toBe(404);
    expect((await logEntries({ acao: 'precos.save' })).filter((e) => e.seq > since)).toEqual([]);
  });
});

describe('FOT records, professionals, agenda', () => {
  it('FOT create, update, delete', async () => {
    const refs = await makeFotRefs();
    let since = await lastSeq();
    const res = await api('POST', '/api/cadastro-fot', {
      token: admin.token,
      body: {
        fot: nextFot(),
        empresa_id: refs.empresa.id,
        curso_id: refs.curso.id,
        ano_formatura_id: refs.ano.id,
        gastos_captacao: 10,
      },
    });
    expect(res.status).toBe(201);
    expect((await entry(res.body.id, 'cadastro_fot.create', since)).dados.gastos_captacao_centavos).toEqual({
      depois: 1000,
    });
    // The create's statements are built once per set of fields and bound per request
    // (db/cached-batch.ts): two creates of the same shape each log their own values and time.
    for (const preVenda of [true, false]) {
      since = await lastSeq();
      const before = new Date().toISOString();
      const body = {
        fot: nextFot(),
        empresa_id: refs.empresa.id,
        curso_id: refs.curso.id,
        ano_formatura_id: refs.ano.id,
        cidade: null,
        observacoes: `obs ${preVenda}`,
        pre_venda: preVenda,
      };
      const made = await api('POST', '/api/cadastro-fot', { token: admin.token, body });
      expect(made.status).toBe(201);
      const e = await entry(made.body.id, 'cadastro_fot.create', since);
      expect(e).toMatchObject({ ator_id: admin.id, ator_role: 'SUPERADMIN', regiao: 'SP', entidade_id: made.body.id });
      expect(e.created_at >= before).toBe(true);
      expect(e.request_id).toBe(made.headers.get('x-request-id'));
      expect(e.dados).toEqual({
        fot: { depois: body.fot },
        empresa_id: { depois: refs.empresa.id },
        curso_id: { depois: refs.curso.id },
        ano_formatura_id: { depois: refs.ano.id },
        cidade: { depois: null },
        observacoes: { depois: `obs ${preVenda}` },
        pre_venda: { depois: preVenda },
      });
      expect(made.body).toMatchObject({ pre_venda: preVenda, cidade: null, observacoes: `obs ${preVenda}` });
    }
    since = await lastSeq();
    await api('PUT', `/api/cadastro-fot/${res.body.id}`, { token: admin.token, body: { cidade: 'Santos' } });
    expect((await entry(res.body.id, 'cadastro_fot.update', since)).dados).toEqual({
      cidade: { antes: null, depois: 'Santos' },
    });
    since = await lastSeq();
    expect((await api('DELETE', `/api/cadastro-fot/${res.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await entry(res.body.id, 'cadastro_fot.delete', since)).dados.cidade).toEqual({ antes: 'Santos' });
  });

  it('professional create (with a login), update, delete: bank/PIX masked to the last 4', async () => {
    const f = await makeCatalog(funcoes);
    const email = `${uniq('pro')}@example.com`;
    let since = await lastSeq();
    const res = await api('POST', '/api/profissionais', {
      token: admin.token,
      body: {
        nome: 'Ana',
        email,
        senha: 'senha-da-ana',
        funcao_profissional_id: f.id,
        banco: '341',
        agencia: '1234-5',
        conta_pix: 'ana.souza@pix.com.br',
        tipo_chave_pix: 'email',
        cpf_cnpj_titular: '529.982.247-25',
      },
    });
    expect(res.status).toBe(201);
    const c = await entry(res.body.id, 'profissionais.create', since);
    expect(c.dados).toMatchObject({
      banco: { depois: '***' },
      agencia: { depois: '***34-5' },
      conta_pix: { depois: '***m.br' },
      cpf_cnpj_titular: { depois: '***4725' },
      funcoes_ids: { depois: [f.id] },
    });
    expectNoSecrets(c, 'senha-da-ana', 'ana.souza@pix', '52998224725');
    const login = await entry(res.body.usuario_id, 'users.create', since);
    expectNoSecrets(login, 'senha-da-ana');

    since = await lastSeq();
    const g = await makeCatalog(funcoes);
    await api('PUT', `/api/profissionais/${res.body.id}`, {
      token: admin.token,
      body: { cpf_cnpj_titular: '11.222.333/0001-81', funcoes_ids: [g.id] },
    });
    const u = await entry(res.body.id, 'profissionais.update', since);
    expect(u.dados.cpf_cnpj_titular).toEqual({ antes: '***4725', depois: '***0181' });
    expect(u.dados.funcoes_ids).toEqual({ antes: [f.id], depois: [f.id, g.id] });

    since = await lastSeq();
    expect((await api('DELETE', `/api/profissionais/${res.body.id}`, { token: admin.token })).status).toBe(200);
    expect(await entry(res.body.usuario_id, 'users.delete', since)).toBeTruthy();
    const d = await entry(res.body.id, 'profissionais.delete', since);
    expect(d.dados.conta_pix).toEqual({ antes: '***m.br' });
  });

  it('acceptances share one cached batch (db/cached-batch.ts): each logs its own actor, request, time and fee', async () => {
    const fot = await makeFot();
    const tipo = await makeCatalog(tiposEventos);
    const f = await makeCatalog(funcoes);
    await db
      .insert(precos)
      .values({ regiao: 'SP', tipoEventoId: tipo.id, funcaoProfissionalId: f.id, valorCentavos: 25_000 });
    const seen = new Set<string>();
    for (const day of ['2031-07-01', '2031-07-02']) {
      const [ev] = await db
        .insert(agenda)
        .values({ regiao: 'SP', fotId: fot.id, tipoEventoId: tipo.id, dataEvento: day })
        .returning();
      const pro = await makeUser({ role: 'profissional' });
      const prof = await makeProfissional('SP', { usuarioId: pro.id }, [f.id]);
      const [inv] = await db
        .insert(convites)
        .values({ agendaId: ev!.id, profissionalId: prof.id, funcaoId: f.id, convidadoPor: admin.id })
        .returning();
      const since = await lastSeq();
      const before = new Date().toISOString();
      const res = await api('PATCH', `/api/convites/${inv!.id}`, { token: pro.token, body: { status: 'aceito' } });
      expect(res.status).toBe(200);
      const requestId = res.headers.get('x-request-id');
      const accepted = await entry(inv!.id, 'convites.accept', since);
      expect(accepted).toMatchObject({
        ator_id: pro.id,
        ator_role: 'profissional',
        regiao: 'SP',
        request_id: requestId,
      });
      expect(accepted.created_at >= before).toBe(true);
      const [fee] = await db.select().from(lancamentos).where(eq(lancamentos.conviteId, inv!.id));
      expect(fee).toMatchObject({
        valorCentavos: 25_000,
        status: 'previsto',
        vencimento: day,
        profissionalId: prof.id,
        createdAt: res.body.respondido_em,
      });
      const feeEntry = await entry(fee!.id, 'lancamentos.create', since);
      expect(feeEntry).toMatchObject({ ator_id: pro.id, request_id: requestId, regiao: 'SP' });
      for (const id of [accepted.id, feeEntry.id, fee!.id]) {
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
      // The inviter is told, with this acceptance's time.
      const [note] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, admin.id), eq(notifications.createdAt, res.body.respondido_em)));
      expect(note).toMatchObject({ tipo: 'convite_respondido', dados: { convite_id: inv!.id, status: 'aceito' } });
    }
  });

  it('agenda create, update, delete; team quota; invite, answer, cancel', async () => {
    const fot = await makeFot();
    const tipo = await makeCatalog(tiposEventos);
    const f = await makeCatalog(funcoes);
    let since = await lastSeq();
    const ev = await api('POST', '/api/agenda', {
      token: admin.token,
      body: { fot_id: fot.id, tipo_evento_id: tipo.id, data_evento: '2031-05-02', horario: '19:00' },
    });
    expect(ev.status).toBe(201);
    expect((await entry(ev.body.id, 'agenda.create', since)).dados.data_evento).toEqual({ depois: '2031-05-02' });
    since = await lastSeq();
    await api('PUT', `/api/agenda/${ev.body.id}`, { token: admin.token, body: { horario: '20:00' } });
    expect((await entry(ev.body.id, 'agenda.update', since)).dados.horario).toEqual({
      antes: '19:00',
      depois: '20:00',
    });

    since = await lastSeq();
    await api('PUT', `/api/agenda/${ev.body.id}/equipe`, {
      token: admin.token,
      body: [{ funcao_id: f.id, quantidade: 2 }],
    });
    expect((await entry(ev.body.id, 'agenda.equipe', since)).dados.equipe).toEqual({
      antes: [],
      depois: [{ funcao_id: f.id, quantidade: 2, publicar: false, requer_aprovacao: false }],
    });

    const pro = await makeUser({ role: 'profissional' });
    const prof = await makeProfissional('SP', { usuarioId: pro.id }, [f.id]);
    since = await lastSeq();
    const inv = await api('POST', `/api/agenda/${ev.body.id}/convites`, {
      token: admin.token,
      body: { profissional_id: prof.id, funcao_id: f.id },
    });
    expect(inv.status).toBe(201);
    expect((await entry(inv.body.id, 'convites.create', since)).regiao).toBe('SP');
    since = await lastSeq();
    expect(
      (await api('PATCH', `/api/convites/${inv.body.id}`, { token: pro.token, body: { status: 'aceito' } })).status,
    ).toBe(200);
    expect(await entry(inv.body.id, 'convites.accept', since)).toMatchObject({
      ator_id: pro.id,
      regiao: 'SP',
      dados: { status: { antes: 'pendente', depois: 'aceito' } },
    });
    since = await lastSeq();
    expect((await api('DELETE', `/api/convites/${inv.body.id}`, { token: admin.token })).status).toBe(204);
    const cancelled = await entry(inv.body.id, 'convites.cancel', since);
    expect(cancelled.dados.status).toEqual({ antes: 'aceito' });
    // Not the invitation's kept copy of its event's date (drizzle/0042).
    expect(cancelled.dados).not.toHaveProperty('data_evento');

    // A refused acceptance (quota full) leaves no entry.
    const [full] = await db
      .insert(agenda)
      .values({ regiao: 'SP', fotId: fot.id, tipoEventoId: tipo.id, dataEvento: '2031-06-01' })
      .returning();
    await api('PUT', `/api/agenda/${full!.id}/equipe`, {
      token: admin.token,
      body: [{ funcao_id: f.id, quantidade: 0 }],
    });
    const [c2] = await db
      .insert(convites)
      .values({ agendaId: full!.id, profissionalId: prof.id, funcaoId: f.id })
      .returning();
    since = await lastSeq();
    expect(
      (await api('PATCH', `/api/convites/${c2!.id}`, { token: pro.token, body: { status: 'aceito' } })).status,
    ).toBe(409);
    expect((await entriesOf(c2!.id)).filter((e) => e.seq > since)).toEqual([]);
    since = await lastSeq();
    expect(
      (await api('PATCH', `/api/convites/${c2!.id}`, { token: pro.token, body: { status: 'recusado' } })).status,
    ).toBe(200);
    await entry(c2!.id, 'convites.decline', since);

    since = await lastSeq();
    expect((await api('DELETE', `/api/agenda/${ev.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await entry(ev.body.id, 'agenda.delete', since)).dados.horario).toEqual({ antes: '20:00' });
  });
});

describe('notifications and push tokens', () => {
  it('read, read-all, delete, push token add and remove; the token is never logged', async () => {
    const u = await makeUser();
    const [a, b, c] = await makeNotifications(u.id, 3);
    let since = await lastSeq();
    await api('PUT', `/api/v1/notifications/${a!.id}/read`, { token: u.token });
    expect((await entry(a!.id, 'notifications.read', since)).dados).toEqual({ lida: { antes: false, depois: true } });
    await api('PUT', `/api/v1/notifications/${a!.id}/read`, { token: u.token });
    expect(await entriesOf(a!.id, 'notifications.read')).toHaveLength(1);

    since = await lastSeq();
    await api('PUT', '/api/v1/notifications/read-all', { token: u.token });
    const all = (await logEntries({ ator_id: u.id, acao: 'notifications.read_all' })).filter((e) => e.seq > since);
    expect(all.map((e) => e.dados)).toEqual([{ quantidade: { depois: 2 } }]);
    await api('PUT', '/api/v1/notifications/read-all', { token: u.token });
    expect(await logEntries({ ator_id: u.id, acao: 'notifications.read_all' })).toHaveLength(1);

    since = await lastSeq();
    expect((await api('DELETE', `/api/v1/notifications/${b!.id}`, { token: u.token })).status).toBe(204);
    expect((await entry(b!.id, 'notifications.delete', since)).dados.titulo).toEqual({ antes: b!.titulo });
    void c;

    const token = `ExponentPushToken[${uniq('t')}]`;
    since = await lastSeq();
    const added = await api('POST', '/api/v1/notifications/push-token', {
      token: u.token,
      body: { token, plataforma: 'ios' },
    });
    expect(added.status).toBe(201);
    const s = await entry(added.body.id, 'push_tokens.save', since);
    expect(s.dados).toEqual({ plataforma: { depois: 'ios' } });
    expectNoSecrets(s, token);
    since = await lastSeq();
    await api('DELETE', '/api/v1/notifications/push-token', { token: u.token, body: { token } });
    expectNoSecrets(await entry(added.body.id, 'push_tokens.delete', since), token);
    // Removing a token the caller does not hold changes nothing: no entry.
    since = await lastSeq();
    await api('DELETE', '/api/v1/notifications/push-token', { token: u.token, body: { token } });
    expect((await logEntries({ acao: 'push_tokens.delete' })).filter((e) => e.seq > since)).toEqual([]);
  });
});
