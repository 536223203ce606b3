// The D1 cost of every route (issue 8): at most 3 round trips per request, authentication
// included, and the same count with 1 row and with 1,000+ rows (GROW_ROWS). Own file: it fills the database.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getConfig } from '../../src/env';
import { deslocamentos, emailOutbox } from '../../src/db/schema';
import { openSecret } from '../../src/services/core/mail';
import { requestPasswordReset } from '../../src/services/accounts/password-reset';
import {
  agenda,
  agendaCheckin,
  agendaEquipe,
  convites,
  cursos,
  empresas,
  funcoes,
  lancamentos,
  pacotes,
  pedidos,
  precos,
  profissionais,
  regras,
  profissionalFuncoes,
  tiposEventos,
} from '../../src/db/schema';
import { chamadoMensagens, chamados, disponibilidades, pesquisaEnvios } from '../../src/db/schema';
import { sha256Hex } from '../../src/lib/tokens';
import { saoPauloDate } from '../../src/lib/dates';
import {
  db,
  makeAdmin,
  makeCatalog,
  makeFot,
  makeNotifications,
  makeProfissional,
  makeUser,
  nextFot,
  systemCategoryId,
  uniq,
  type TestUser,
} from '../helpers/factories';
import { api, authHeaders } from '../helpers/request';
import { runCron } from '../helpers/activity-log';
import { signedHeaders } from '../helpers/mercadopago';
import { buttonReply, signature } from '../helpers/whatsapp';
import { conviteToken } from '../../src/services/core/whatsapp';
import { makeLedger } from '../helpers/reliability';
import { FLORIANOPOLIS, makeInstituicao } from '../helpers/rules';
import { eventCode, eventKey, personalCode, personalKey, stepOf } from '../../src/services/checkin/codes';

const BUDGET = 3;

interface Call {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  /** A text/csv body (spreadsheet import). */
  csv?: string;
  token?: string;
  headers?: Record<string, string>;
  expect: number;
}

let admin: TestUser;
let viewer: TestUser;
let pro: TestUser;
const ctx: Record<string, string> = {};

async function world() {
  const f = await makeCatalog(funcoes);
  const tipo = await makeCatalog(tiposEventos);
  await db
    .insert(precos)
    .values({ regiao: 'SP', tipoEventoId: tipo.id, funcaoProfissionalId: f.id, valorCentavos: 100 });
  const fot = await makeFot('SP');
  const [ev] = await db
    .insert(agenda)
    .values({ regiao: 'SP', userId: viewer.id, fotId: fot.id, tipoEventoId: tipo.id, dataEvento: '2027-01-10' })
    .returning();
  await db.insert(agendaEquipe).values({ agendaId: ev!.id, funcaoId: f.id, quantidade: 5 });
  const mine = await makeProfissional('SP', { usuarioId: pro.id }, [f.id]);
  const [conv] = await db
    .insert(convites)
    .values({ agendaId: ev!.id, profissionalId: mine.id, funcaoId: f.id })
    .returning();
  await makeNotifications(pro.id, 3);
  const [pacote] = await db
    .insert(pacotes)
    .values({ regiao: 'SP', nome: uniq('Pacote'), precoCentavos: 10_000 })
    .returning();
  Object.assign(ctx, {
    funcao: f.id,
    tipo: tipo.id,
    fot: fot.id,
    event: ev!.id,
    prof: mine.id,
    convite: conv!.id,
    pacote: pacote!.id,
  });
}

/** GROW_ROWS more rows of everything a list reads. */
async function grow() {
  for (let i = 0; i < GROW_ROWS; i += 10) {
    const f = await makeCatalog(funcoes);
    const tipo = await makeCatalog(tiposEventos);
    const fot = await makeFot('SP');
    await db
      .insert(precos)
      .values({ regiao: 'SP', tipoEventoId: tipo.id, funcaoProfissionalId: ctx.funcao!, valorCentavos: 100 });
    const evs = await db
      .insert(agenda)
      .values(
        Array.from({ length: 10 }, () => ({
          regiao: 'SP',
          userId: viewer.id,
          fotId: fot.id,
          tipoEventoId: tipo.id,
          dataEvento: '2027-02-01',
        })),
      )
      .returning({ id: agenda.id });
    // Job listings (D17): every one of these events offers a place to the listing's professional.
    await db
      .insert(agendaEquipe)
      .values(evs.map((e) => ({ agendaId: e.id, funcaoId: ctx.funcao!, quantidade: 2, publicar: true })));
    for (let j = 0; j < 10; j++) {
      await makeCatalog(cursos);
      await makeCatalog(empresas);
      await makeUser({ ativo: false });
      const p = await makeProfissional('SP', {}, [f.id, ctx.funcao!]);
      await db.insert(convites).values({ agendaId: ctx.event!, profissionalId: p.id, funcaoId: ctx.funcao! });
      await db.insert(agenda).values({
        regiao: 'SP',
        userId: viewer.id,
        fotId: ctx.fot!,
        tipoEventoId: ctx.tipo!,
        dataEvento: '2027-03-01',
      });
    }
    const tickets = await db
      .insert(chamados)
      .values(
        // Half are another user's: a requester's list must not read them (chamados_solicitante_idx).
        Array.from({ length: 10 }, (_, k) => ({
          regiao: 'SP',
          solicitanteId: k % 2 ? viewer.id : pro.id,
          assunto: 'Mais',
          categoria: 'outro' as const,
        })),
      )
      .returning({ id: chamados.id });
    await db
      .insert(chamadoMensagens)
      .values(
        tickets.map((t) => ({ chamadoId: t.id, autorId: pro.id, corpo: 'm', createdAt: new Date().toISOString() })),
      );
    await makeNotifications(pro.id, 10);
    // 10 packages and 10 orders on the same FOT record per round.
    await db
      .insert(pacotes)
      .values(Array.from({ length: 10 }, () => ({ regiao: 'SP', nome: uniq('Pacote'), precoCentavos: 100 })));
    // D1 binds at most 100 parameters per statement: two inserts of 5.
    for (let k = 0; k < 2; k++)
      await db.insert(pedidos).values(
        Array.from({ length: 5 }, () => ({
          regiao: 'SP',
          fotId: ctx.fot!,
          pacoteId: ctx.pacote!,
          pacoteNome: 'Pacote',
          compradorNome: 'Formando',
          compradorEmail: 'f@example.com',
          compradorCpf: '52998224725',
          valorCentavos: 10_000,
          parcelas: 1,
          expiraEm: '2099-01-01T00:00:00.000Z',
          criadoPor: admin.id,
          idempotencyKey: uniq('grow'),
          requestHash: 'grow',
        })),
      );
    await db.insert(agendaEquipe).values({ agendaId: ctx.event!, funcaoId: f.id, quantidade: 2 });
  }
  void nextFot;
}

/** Every route, with fresh targets for the ones that consume them. */
async function calls(): Promise<Call[]> {
  const victim = await makeUser();
  const pending = await makeUser({ ativo: false });
  const roleTarget = await makeUser();
  const cursoDel = await makeCatalog(cursos);
  const fotDel = await makeFot('SP');
  const profDel = await makeProfissional('SP');
  const [evDel] = await db
    .insert(agenda)
    .values({ regiao: 'SP', userId: viewer.id, fotId: ctx.fot!, tipoEventoId: ctx.tipo!, dataEvento: '2027-04-01' })
    .returning();
  const invitee = await makeProfissional('SP', {}, [ctx.funcao!]);
  const answering = await makeUser({ role: 'profissional' });
  const answeringProf = await makeProfissional('SP', { usuarioId: answering.id }, [ctx.funcao!]);
  const [toAnswer] = await db
    .insert(convites)
    .values({ agendaId: ctx.event!, profissionalId: answeringProf.id, funcaoId: ctx.funcao! })
    .returning();
  if (phase === 'large') {
    // A long career: GROW_ROWS accepted events on other days. The double-booking rule reads the
    // accepted invitations of the event's three days only (convites.data_evento, drizzle/0042).
    const career = await db
      .select({ id: agenda.id })
      .from(agenda)
      .where(eq(agenda.dataEvento, '2027-02-01'))
      .limit(GROW_ROWS);
    for (let i = 0; i < career.length; i += 10)
      await db.insert(convites).values(
        career.slice(i, i + 10).map((e) => ({
          agendaId: e.id,
          profissionalId: answeringProf.id,
          funcaoId: ctx.funcao!,
          status: 'aceito' as const,
        })),
      );
  }
  // WhatsApp (D30): a consenting professional, and one with an invitation answered by its button.
  const canaisUser = await makeUser({ role: 'profissional' });
  // In MG: the SP lists of this file measure SP's rows.
  await makeProfissional('MG', { usuarioId: canaisUser.id, whatsapp: '(11) 98765-4321' });
  const waUser = await makeUser({ role: 'profissional' });
  const waNumber = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const waProf = await makeProfissional(
    'MG',
    { usuarioId: waUser.id, whatsapp: waNumber, whatsappE164: `+${waNumber}`, whatsappDesde: new Date().toISOString() },
    [ctx.funcao!],
  );
  const cancelProf = await makeProfissional('SP', {}, [ctx.funcao!]);
  const [toCancel] = await db
    .insert(convites)
    .values({ agendaId: ctx.event!, profissionalId: cancelProf.id, funcaoId: ctx.funcao! })
    .returning();
  // Job listings (D17): a fresh published place to apply to, an application to approve, and an
  // accepted invitation whose decline promotes a waiter.
  const vagaEvent = async (quantidade: number, requerAprovacao = false) => {
    const [ev] = await db
      .insert(agenda)
      .values({ regiao: 'SP', userId: viewer.id, fotId: ctx.fot!, tipoEventoId: ctx.tipo!, dataEvento: '2027-06-01' })
      .returning();
    await db
      .insert(agendaEquipe)
      .values({ agendaId: ev!.id, funcaoId: ctx.funcao!, quantidade, publicar: true, requerAprovacao });
    return ev!;
  };
  const toApply = await vagaEvent(3);
  const [waConvite] = await db
    .insert(convites)
    .values({ agendaId: (await vagaEvent(3)).id, profissionalId: waProf.id, funcaoId: ctx.funcao! })
    .returning();
  const waBody = buttonReply(
    waNumber,
    `aceitar:${await conviteToken(env.JWT_SECRET as string, waConvite!.id, waProf.id)}`,
  );
  const approvalEvent = await vagaEvent(3, true);
  const [toApprove] = await db
    .insert(convites)
    .values({
      agendaId: approvalEvent.id,
      profissionalId: (await makeProfissional('SP', {}, [ctx.funcao!])).id,
      funcaoId: ctx.funcao!,
      status: 'solicitado',
      origem: 'candidatura',
    })
    .returning();
  const releaseEvent = await vagaEvent(1);
  const releasing = await makeUser({ role: 'profissional' });
  const releasingProf = await makeProfissional('SP', { usuarioId: releasing.id }, [ctx.funcao!]);
  const [toRelease] = await db
    .insert(convites)
    .values({ agendaId: releaseEvent.id, profissionalId: releasingProf.id, funcaoId: ctx.funcao!, status: 'aceito' })
    .returning();
  const waiter = await makeUser({ role: 'profissional' });
  const waiterProf = await makeProfissional('SP', { usuarioId: waiter.id }, [ctx.funcao!]);
  await db
    .insert(convites)
    .values({ agendaId: releaseEvent.id, profissionalId: waiterProf.id, funcaoId: ctx.funcao!, status: 'espera' });
  const [note, noteDel] = await makeNotifications(pro.id, 2);
  const pushToken = uniq('ExponentPushToken');
  const login = await api('POST', '/auth/login', {
    body: { email: victim.email, senha: victim.password },
    headers: { 'cf-connecting-ip': uniq('ip') },
  });
  const a = admin.token;
  const email = () => `${uniq('b')}@example.com`;
  // A live reset token (as e-mailed) for the reset-password case.
  const resetting = await makeUser();
  const outboxId = await requestPasswordReset({ db, config: getConfig(env) }, resetting.email, new Date());
  const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, outboxId!));
  const resetToken = await openSecret(env.JWT_SECRET, mail!.segredo!);
  const invited = await makeUser({ role: 'profissional' });
  // Support tickets: one of the professional's, with a message, for the by-id routes.
  const [chamado] = await db
    .insert(chamados)
    .values({ regiao: 'SP', solicitanteId: pro.id, assunto: 'Budget', categoria: 'outro' })
    .returning();
  await db
    .insert(chamadoMensagens)
    .values({ chamadoId: chamado!.id, autorId: pro.id, corpo: 'm', createdAt: new Date().toISOString() });
  // Surveys: an active one with a per-professional question, a deletable one, and live links.
  const survey = await api('POST', '/api/pesquisas', {
    token: admin.token,
    body: {
      titulo: 'Budget',
      publico: 'cliente',
      status: 'ativa',
      perguntas: [
        { texto: 'Nota', tipo: 'nota_1_5', obrigatoria: true },
        { texto: 'Equipe', tipo: 'nota_1_5', criterio: 'qual_tec' },
        { texto: 'Opções', tipo: 'escolha_multipla', opcoes: ['a', 'b'] },
      ],
    },
  });
  const surveyAnon = await api('POST', '/api/pesquisas', {
    token: admin.token,
    body: { titulo: 'Anon', publico: 'cliente', anonima: true, perguntas: survey.body.perguntas },
  });
  const surveyDel = await api('POST', '/api/pesquisas', {
    token: admin.token,
    body: { titulo: 'Del', publico: 'formando' },
  });
  const linkTokens = [uniq('tok'), uniq('tok')];
  for (const t of linkTokens)
    await db.insert(pesquisaEnvios).values({
      pesquisaId: survey.body.id,
      agendaId: ctx.event!,
      email: `${uniq('l')}@example.com`,
      tokenHash: await sha256Hex(t),
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      createdAt: new Date().toISOString(),
    });
  const q1 = survey.body.perguntas[0].id;
  const imp = await api('POST', '/api/importacoes?tipo=profissionais', {
    token: admin.token,
    rawBody: importFile(),
    headers: { 'content-type': 'text/csv' },
  });
  const pacoteDel = (
    await db
      .insert(pacotes)
      .values({ regiao: 'SP', nome: uniq('Pacote'), precoCentavos: 1 })
      .returning()
  )[0]!;
  const pedidoBody = {
    fot_id: ctx.fot,
    pacote_id: ctx.pacote,
    comprador_nome: 'Formando',
    comprador_email: email(),
    comprador_cpf: '52998224725',
    parcelas: 1,
  };
  const pedidoKey = uniq('idem');
  const pedidoToCancel = await api('POST', '/api/pedidos', {
    token: a,
    body: pedidoBody,
    headers: { 'idempotency-key': uniq('c') },
  });
  const payId = uniq('pay');
  // Event operations (D16): an accepted member of the event, its call sheet, the viewer's feed.
  const member = await makeUser({ role: 'profissional' });
  const memberProf = await makeProfissional('SP', { usuarioId: member.id }, [ctx.funcao!]);
  const [accepted] = await db
    .insert(convites)
    .values({ agendaId: ctx.event!, profissionalId: memberProf.id, funcaoId: ctx.funcao!, status: 'aceito' })
    .returning();
  await api('PUT', `/api/agenda/${ctx.event}/logistica`, { token: admin.token, body: { traje: uniq('traje') } });
  const feedUrl = (await api('GET', '/api/me/calendario', { token: viewer.token })).body.url as string;
  const rotating = await makeUser({ role: 'agenda_viewer' });
  await api('GET', '/api/me/calendario', { token: rotating.token });
  const firstFeed = await makeUser({ role: 'agenda_viewer' });
  return [
    // First: the event code is valid for 15-30 s from when it is drawn.
    ...(await checkinCalls(a)),
    {
      name: 'forgot-password (known address)',
      method: 'POST',
      path: '/auth/forgot-password',
      body: { email: victim.email },
      expect: 202,
    },
    {
      name: 'forgot-password (unknown address)',
      method: 'POST',
      path: '/auth/forgot-password',
      body: { email: email() },
      expect: 202,
    },
    {
      name: 'reset-password',
      method: 'POST',
      path: '/auth/reset-password',
      body: { token: resetToken, nova_senha: 'nova-senha-123' },
      expect: 200,
    },
    {
      name: 'reset-password (unknown token)',
      method: 'POST',
      path: '/auth/reset-password',
      body: { token: uniq('tok'), nova_senha: 'nova-senha-123' },
      expect: 400,
    },
    { name: 'GET users/me', method: 'GET', path: '/api/users/me', token: pro.token, expect: 200 },
    {
      name: 'PUT users/me',
      method: 'PUT',
      path: '/api/users/me',
      token: pro.token,
      body: { telefone: '11 1' },
      expect: 200,
    },
    {
      name: 'admin convite-acesso',
      method: 'POST',
      path: `/api/admin/users/${invited.id}/convite-acesso`,
      token: a,
      expect: 202,
    },
    {
      name: 'register',
      method: 'POST',
      path: '/auth/register',
      body: { email: email(), senha: 'segredo123', nome: 'N', role: 'RESEARCHER' },
      expect: 201,
    },
    {
      name: 'login',
      method: 'POST',
      path: '/auth/login',
      body: { email: victim.email, senha: victim.password },
      expect: 200,
    },
    {
      name: 'login (wrong password)',
      method: 'POST',
      path: '/auth/login',
      body: { email: victim.email, senha: 'errada-123' },
      expect: 401,
    },
    {
      name: 'refresh',
      method: 'POST',
      path: '/auth/refresh',
      body: { refresh_token: login.body.refresh_token },
      expect: 200,
    },
    {
      name: 'logout',
      method: 'POST',
      path: '/auth/logout',
      body: { refresh_token: login.body.refresh_token },
      expect: 200,
    },
    { name: 'GET me', method: 'GET', path: '/api/me', token: pro.token, expect: 200 },
    {
      name: 'PUT me (password)',
      method: 'PUT',
      path: '/api/me',
      token: victim.token,
      body: { nome: 'X', senha_atual: victim.password, nova_senha: victim.password },
      expect: 200,
    },
    { name: 'admin list', method: 'GET', path: '/api/admin/users', token: a, expect: 200 },
    { name: 'admin pending', method: 'GET', path: '/api/admin/users/pending', token: a, expect: 200 },
    { name: 'admin list (page)', method: 'GET', path: '/api/admin/users?limit=20', token: a, expect: 200 },
    { name: 'admin pending (page)', method: 'GET', path: '/api/admin/users/pending?limit=20', token: a, expect: 200 },
    { name: 'admin get', method: 'GET', path: `/api/admin/users/${victim.id}`, token: a, expect: 200 },
    {
      name: 'admin create (admin role)',
      method: 'POST',
      path: '/api/admin/users',
      token: a,
      body: { email: email(), senha: 'segredo123', nome: 'N', role: 'BUSINESS_OWNER' },
      expect: 201,
    },
    { name: 'admin approve', method: 'PATCH', path: `/api/admin/users/${pending.id}/approve`, token: a, expect: 200 },
    {
      name: 'admin role',
      method: 'PATCH',
      path: `/api/admin/users/${roleTarget.id}/role`,
      token: a,
      body: { role: 'RESEARCHER' },
      expect: 200,
    },
    { name: 'admin delete', method: 'DELETE', path: `/api/admin/users/${victim.id}`, token: a, expect: 200 },
    { name: 'cidades search', method: 'GET', path: '/api/cidades?q=campinas&uf=SP', token: a, expect: 200 },
    { name: 'cidades of a state', method: 'GET', path: '/api/cidades?uf=MG', token: a, expect: 200 },
    { name: 'instituicoes list', method: 'GET', path: '/api/instituicoes', token: a, expect: 200 },
    {
      name: 'deslocamentos put',
      method: 'PUT',
      path: '/api/deslocamentos',
      token: a,
      body: { itens: [{ origem_ibge: 3509502, destino_ibge: 3550308, minutos: 90 }] },
      expect: 200,
    },
    { name: 'deslocamentos list', method: 'GET', path: '/api/deslocamentos', token: a, expect: 200 },
    {
      name: 'deslocamentos estimativa',
      method: 'GET',
      path: '/api/deslocamentos/estimativa?origem=3509502&destino=3525904',
      token: a,
      expect: 200,
    },
    {
      name: 'instituicoes create',
      method: 'POST',
      path: '/api/instituicoes',
      token: a,
      body: { nome: uniq('Instituicao'), sigla: 'X', cidade_ibge: 3509502 },
      expect: 201,
    },
    { name: 'instituicoes vincular', method: 'POST', path: '/api/instituicoes/vincular', token: a, expect: 200 },
    { name: 'cursos list', method: 'GET', path: '/api/cursos', token: a, expect: 200 },
    { name: 'funcoes list (public)', method: 'GET', path: '/api/funcoes', expect: 200 },
    {
      name: 'cursos create',
      method: 'POST',
      path: '/api/cursos',
      token: a,
      body: { nome: uniq('Curso') },
      expect: 201,
    },
    {
      name: 'cursos update',
      method: 'PUT',
      path: `/api/cursos/${cursoDel.id}`,
      token: a,
      body: { nome: uniq('Curso') },
      expect: 200,
    },
    { name: 'cursos delete', method: 'DELETE', path: `/api/cursos/${cursoDel.id}`, token: a, expect: 204 },
    { name: 'tipos-eventos list', method: 'GET', path: '/api/tipos-eventos', token: a, expect: 200 },
    { name: 'tipos-eventos list (page)', method: 'GET', path: '/api/tipos-eventos?limit=50', token: a, expect: 200 },
    {
      name: 'tipos-eventos update',
      method: 'PUT',
      path: `/api/tipos-eventos/${ctx.tipo}`,
      token: a,
      body: { nome: uniq('Tipo') },
      expect: 200,
    },
    {
      name: 'precos upsert',
      method: 'POST',
      path: '/api/tipos-eventos/precos',
      token: a,
      body: { tipo_evento_id: ctx.tipo, funcao_profissional_id: ctx.funcao, valor: 12.5 },
      expect: 200,
    },
    { name: 'precos of a type', method: 'GET', path: `/api/tipos-eventos/${ctx.tipo}/precos`, token: a, expect: 200 },
    { name: 'fot list', method: 'GET', path: '/api/cadastro-fot', token: a, expect: 200 },
    { name: 'fot list (page)', method: 'GET', path: '/api/cadastro-fot?limit=50', token: a, expect: 200 },
    { name: 'fot get', method: 'GET', path: `/api/cadastro-fot/${ctx.fot}`, token: a, expect: 200 },
    {
      name: 'fot update',
      method: 'PUT',
      path: `/api/cadastro-fot/${ctx.fot}`,
      token: a,
      body: { cidade: 'Santos' },
      expect: 200,
    },
    { name: 'fot delete', method: 'DELETE', path: `/api/cadastro-fot/${fotDel.id}`, token: a, expect: 204 },
    { name: 'profissionais list', method: 'GET', path: '/api/profissionais', token: a, expect: 200 },
    { name: 'profissionais list (page)', method: 'GET', path: '/api/profissionais?limit=50', token: a, expect: 200 },
    { name: 'profissionais contagem', method: 'GET', path: '/api/profissionais/contagem', token: a, expect: 200 },
    { name: 'profissional get', method: 'GET', path: `/api/profissionais/${ctx.prof}`, token: a, expect: 200 },
    {
      name: 'profissional create (team registration)',
      method: 'POST',
      path: '/api/profissionais',
      token: a,
      body: { nome: 'P', email: email(), senha: 'segredo123', funcoes_ids: [ctx.funcao] },
      expect: 201,
    },
    {
      name: 'profissional create (team registration, access invitation)',
      method: 'POST',
      path: '/api/profissionais',
      token: a,
      body: { nome: 'P', email: email(), funcoes_ids: [ctx.funcao] },
      expect: 201,
    },
    {
      name: 'profissional update',
      method: 'PUT',
      path: `/api/profissionais/${ctx.prof}`,
      token: a,
      body: { qual_tec: 4, funcoes_ids: [ctx.funcao] },
      expect: 200,
    },
    { name: 'profissional delete', method: 'DELETE', path: `/api/profissionais/${profDel.id}`, token: a, expect: 200 },
    { name: 'agenda list (admin)', method: 'GET', path: '/api/agenda', token: a, expect: 200 },
    { name: 'agenda list (agenda_viewer)', method: 'GET', path: '/api/agenda', token: viewer.token, expect: 200 },
    { name: 'agenda list (profissional)', method: 'GET', path: '/api/agenda', token: pro.token, expect: 200 },
    { name: 'agenda list (page)', method: 'GET', path: '/api/agenda?limit=50', token: a, expect: 200 },
    { name: 'agenda get', method: 'GET', path: `/api/agenda/${ctx.event}`, token: a, expect: 200 },
    {
      name: 'agenda create',
      method: 'POST',
      path: '/api/agenda',
      token: viewer.token,
      body: { fot_id: ctx.fot, tipo_evento_id: ctx.tipo, data_evento: '2027-05-01' },
      expect: 201,
    },
    {
      name: 'agenda update',
      method: 'PUT',
      path: `/api/agenda/${ctx.event}`,
      token: viewer.token,
      body: { horario: '10:00' },
      expect: 200,
    },
    { name: 'agenda delete', method: 'DELETE', path: `/api/agenda/${evDel!.id}`, token: viewer.token, expect: 204 },
    {
      name: 'equipe put',
      method: 'PUT',
      path: `/api/agenda/${ctx.event}/equipe`,
      token: a,
      body: [{ funcao_id: ctx.funcao, quantidade: 500 }],
      expect: 200,
    },
    {
      name: 'convite create',
      method: 'POST',
      path: `/api/agenda/${ctx.event}/convites`,
      token: a,
      body: { profissional_id: invitee.id, funcao_id: ctx.funcao },
      expect: 201,
    },
    { name: 'convites of an event', method: 'GET', path: `/api/agenda/${ctx.event}/convites`, token: a, expect: 200 },
    { name: 'my convites', method: 'GET', path: '/api/convites', token: pro.token, expect: 200 },
    {
      name: 'convite accept',
      method: 'PATCH',
      path: `/api/convites/${toAnswer!.id}`,
      token: answering.token,
      body: { status: 'aceito' },
      expect: 200,
    },
    { name: 'convite cancel', method: 'DELETE', path: `/api/convites/${toCancel!.id}`, token: a, expect: 204 },
    {
      name: 'whatsapp status of an event',
      method: 'GET',
      path: `/api/agenda/${ctx.event}/whatsapp`,
      token: a,
      expect: 200,
    },
    {
      name: 'canais put',
      method: 'PUT',
      path: '/api/me/canais',
      token: canaisUser.token,
      body: { whatsapp: true },
      expect: 200,
    },
    {
      name: 'webhook whatsapp (button reply accepts)',
      method: 'POST',
      path: '/webhooks/whatsapp',
      headers: { 'x-hub-signature-256': await signature(JSON.stringify(waBody)) },
      body: waBody,
      expect: 200,
    },
    { name: 'notifications list', method: 'GET', path: '/api/v1/notifications', token: pro.token, expect: 200 },
    {
      name: 'notifications unread-count',
      method: 'GET',
      path: '/api/v1/notifications/unread-count',
      token: pro.token,
      expect: 200,
    },
    {
      name: 'notification read',
      method: 'PUT',
      path: `/api/v1/notifications/${note!.id}/read`,
      token: pro.token,
      expect: 200,
    },
    {
      name: 'notifications read-all',
      method: 'PUT',
      path: '/api/v1/notifications/read-all',
      token: pro.token,
      expect: 200,
    },
    {
      name: 'push-token add',
      method: 'POST',
      path: '/api/v1/notifications/push-token',
      token: pro.token,
      body: { token: pushToken, plataforma: 'android' },
      expect: 201,
    },
    {
      name: 'push-token remove',
      method: 'DELETE',
      path: '/api/v1/notifications/push-token',
      token: pro.token,
      body: { token: pushToken },
      expect: 204,
    },
    {
      name: 'notification delete',
      method: 'DELETE',
      path: `/api/v1/notifications/${noteDel!.id}`,
      token: pro.token,
      expect: 204,
    },
    { name: 'logs list', method: 'GET', path: '/api/logs-atividade?limit=50', token: a, expect: 200 },
    {
      name: 'logs list (filters)',
      method: 'GET',
      path: `/api/logs-atividade?entidade=cursos&acao=cursos.create&ator_id=${admin.id}&de=2020-01-01`,
      token: a,
      expect: 200,
    },
    { name: 'logs verificacao', method: 'GET', path: '/api/logs-atividade/verificacao', token: a, expect: 200 },
    { name: 'pesquisas list', method: 'GET', path: '/api/pesquisas', token: a, expect: 200 },
    { name: 'me avaliacoes', method: 'GET', path: '/api/me/avaliacoes', token: pro.token, expect: 200 },
    {
      name: 'pesquisas list (page)',
      method: 'GET',
      path: '/api/pesquisas?limit=50&status=ativa',
      token: a,
      expect: 200,
    },
    {
      name: 'pesquisa create',
      method: 'POST',
      path: '/api/pesquisas',
      token: a,
      body: { titulo: 'Nova', publico: 'cliente', perguntas: [{ texto: 'Nota', tipo: 'nota_1_5' }] },
      expect: 201,
    },
    { name: 'pesquisa get', method: 'GET', path: `/api/pesquisas/${survey.body.id}`, token: a, expect: 200 },
    {
      name: 'pesquisa update',
      method: 'PUT',
      path: `/api/pesquisas/${surveyDel.body.id}`,
      token: a,
      body: { titulo: 'Outra', perguntas: [{ texto: 'Sim?', tipo: 'sim_nao' }] },
      expect: 200,
    },
    { name: 'pesquisa delete', method: 'DELETE', path: `/api/pesquisas/${surveyDel.body.id}`, token: a, expect: 204 },
    {
      name: 'pesquisa envios',
      method: 'POST',
      path: `/api/pesquisas/${survey.body.id}/envios`,
      token: a,
      body: { agenda_id: ctx.event, destinatarios: [{ email: email() }, { email: email() }] },
      expect: 201,
    },
    { name: 'pesquisa (public)', method: 'GET', path: `/p/pesquisas/${linkTokens[0]}`, expect: 200 },
    {
      name: 'pesquisa answer (public)',
      method: 'POST',
      path: `/p/pesquisas/${linkTokens[1]}/respostas`,
      body: { respostas: [{ pergunta_id: q1, valor: 4 }] },
      expect: 201,
    },
    {
      name: 'pesquisa resultados',
      method: 'GET',
      path: `/api/pesquisas/${survey.body.id}/resultados`,
      token: a,
      expect: 200,
    },
    {
      name: 'pesquisa respostas.csv',
      method: 'GET',
      path: `/api/pesquisas/${survey.body.id}/respostas.csv`,
      token: a,
      expect: 200,
    },
    {
      // An anonymous survey's file is made of its results: the survey, then resultados().
      name: 'pesquisa respostas.csv (anonymous)',
      method: 'GET',
      path: `/api/pesquisas/${surveyAnon.body.id}/respostas.csv`,
      token: a,
      expect: 200,
    },
    {
      name: 'chamado create',
      method: 'POST',
      path: '/api/chamados',
      token: pro.token,
      body: { assunto: 'Ajuda', categoria: 'agenda', mensagem: 'm', agenda_id: ctx.event },
      expect: 201,
    },
    { name: 'chamados list (requester)', method: 'GET', path: '/api/chamados', token: pro.token, expect: 200 },
    {
      name: 'chamados list (admin, page)',
      method: 'GET',
      path: '/api/chamados?limit=50&status=aberto',
      token: a,
      expect: 200,
    },
    { name: 'chamado get', method: 'GET', path: `/api/chamados/${chamado!.id}`, token: pro.token, expect: 200 },
    {
      name: 'chamado patch',
      method: 'PATCH',
      path: `/api/chamados/${chamado!.id}`,
      token: a,
      body: { responsavel_id: admin.id, status: 'resolvido', prioridade: 'alta' },
      expect: 200,
    },
    {
      name: 'chamado mensagem (reopens)',
      method: 'POST',
      path: `/api/chamados/${chamado!.id}/mensagens`,
      token: pro.token,
      body: { corpo: 'Ainda não' },
      expect: 201,
    },
    // Import and export (docs/decisions.md#d20): the same round trips for a file of 3 lines as of 5,000.
    { name: 'import template', method: 'GET', path: '/api/importacoes/modelos/agenda.csv', token: a, expect: 200 },
    {
      name: 'import upload',
      method: 'POST',
      path: '/api/importacoes?tipo=profissionais',
      token: a,
      csv: importFile(),
      expect: 201,
    },
    { name: 'import get', method: 'GET', path: `/api/importacoes/${imp.body.id}`, token: a, expect: 200 },
    {
      name: 'import erros.csv',
      method: 'GET',
      path: `/api/importacoes/${imp.body.id}/erros.csv`,
      token: a,
      expect: 200,
    },
    { name: 'import apply', method: 'POST', path: `/api/importacoes/${imp.body.id}/aplicar`, token: a, expect: 200 },
    { name: 'export agenda', method: 'GET', path: '/api/exportacoes/agenda.csv', token: a, expect: 200 },
    { name: 'export profissionais', method: 'GET', path: '/api/exportacoes/profissionais.csv', token: a, expect: 200 },
    { name: 'pacotes list', method: 'GET', path: '/api/pacotes', token: pro.token, expect: 200 },
    { name: 'pacotes list (page)', method: 'GET', path: '/api/pacotes?limit=50', token: a, expect: 200 },
    { name: 'pacote get', method: 'GET', path: `/api/pacotes/${ctx.pacote}`, token: a, expect: 200 },
    {
      name: 'pacote create',
      method: 'POST',
      path: '/api/pacotes',
      token: a,
      body: { nome: uniq('Pacote'), preco: 99.9 },
      expect: 201,
    },
    {
      name: 'pacote update',
      method: 'PUT',
      path: `/api/pacotes/${ctx.pacote}`,
      token: a,
      body: { preco: 100 },
      expect: 200,
    },
    { name: 'pacote delete', method: 'DELETE', path: `/api/pacotes/${pacoteDel.id}`, token: a, expect: 204 },
    {
      name: 'pedido create',
      method: 'POST',
      path: '/api/pedidos',
      token: a,
      headers: { 'idempotency-key': pedidoKey },
      body: pedidoBody,
      expect: 201,
    },
    {
      name: 'pedido create (same key again)',
      method: 'POST',
      path: '/api/pedidos',
      token: a,
      headers: { 'idempotency-key': pedidoKey },
      body: pedidoBody,
      expect: 200,
    },
    { name: 'pedidos list', method: 'GET', path: '/api/pedidos', token: a, expect: 200 },
    {
      name: 'pedidos list (filters, page)',
      method: 'GET',
      path: `/api/pedidos?fot_id=${ctx.fot}&status=pendente&limit=50`,
      token: a,
      expect: 200,
    },
    { name: 'pedido get', method: 'GET', path: `/api/pedidos/${pedidoToCancel.body.id}`, token: a, expect: 200 },
    {
      name: 'pedido cancel',
      method: 'POST',
      path: `/api/pedidos/${pedidoToCancel.body.id}/cancelar`,
      token: a,
      expect: 200,
    },
    {
      name: 'webhook mercadopago',
      method: 'POST',
      path: `/webhooks/mercadopago?data.id=${payId}&type=payment`,
      headers: await signedHeaders(payId),
      body: { data: { id: payId } },
      expect: 200,
    },
    // Event operations (D16).
    {
      name: 'logistica get',
      method: 'GET',
      path: `/api/agenda/${ctx.event}/logistica`,
      token: member.token,
      expect: 200,
    },
    {
      name: 'logistica put (change)',
      method: 'PUT',
      path: `/api/agenda/${ctx.event}/logistica`,
      token: a,
      body: { observacoes: uniq('obs') },
      expect: 200,
    },
    {
      name: 'convite confirmacao',
      method: 'PATCH',
      path: `/api/convites/${accepted!.id}/confirmacao`,
      token: member.token,
      expect: 200,
    },
    {
      name: 'convite ciente',
      method: 'PATCH',
      path: `/api/convites/${accepted!.id}/ciente`,
      token: member.token,
      expect: 200,
    },
    { name: 'calendario get (first)', method: 'GET', path: '/api/me/calendario', token: firstFeed.token, expect: 200 },
    { name: 'calendario get', method: 'GET', path: '/api/me/calendario', token: viewer.token, expect: 200 },
    {
      name: 'calendario rotate',
      method: 'POST',
      path: '/api/me/calendario/rotacionar',
      token: rotating.token,
      expect: 200,
    },
    { name: 'calendario delete', method: 'DELETE', path: '/api/me/calendario', token: rotating.token, expect: 204 },
    { name: 'ical feed', method: 'GET', path: new URL(feedUrl).pathname, expect: 200 },
    { name: 'vagas list', method: 'GET', path: '/api/vagas', token: pro.token, expect: 200 },
    { name: 'vagas list (page)', method: 'GET', path: '/api/vagas?limit=50', token: pro.token, expect: 200 },
    {
      name: 'vagas list (filters, page)',
      method: 'GET',
      path: `/api/vagas?funcao_id=${ctx.funcao}&de=2027-01-01&ate=2027-12-31&uf=SP&limit=50`,
      token: pro.token,
      expect: 200,
    },
    // By city: from the places of that city (drizzle/0040), whatever the number of others.
    {
      name: 'vagas list (city, page)',
      method: 'GET',
      path: '/api/vagas?cidade=Campinas&limit=50',
      token: pro.token,
      expect: 200,
    },
    {
      name: 'vaga apply',
      method: 'POST',
      path: `/api/vagas/${toApply.id}/candidaturas`,
      token: answering.token,
      body: { funcao_id: ctx.funcao },
      expect: 201,
    },
    {
      name: 'candidatura approve',
      method: 'PATCH',
      path: `/api/convites/${toApprove!.id}`,
      token: a,
      body: { status: 'aceito' },
      expect: 200,
    },
    {
      name: 'convite decline (promotes a waiter)',
      method: 'PATCH',
      path: `/api/convites/${toRelease!.id}`,
      token: releasing.token,
      body: { status: 'recusado' },
      expect: 200,
    },
    ...(await financeCalls(a)),
    ...(await availabilityCalls(a)),
    ...(await rulesCalls(a)),
    ...(await reliabilityCalls(a)),
    ...(await planningCalls(a)),
    ...(await rankingCalls(a)),
  ];
}

// Reliability (D28): the listing's professional's ledger (grown by GROW_ROWS rows in the large phase:
// its view answers every row), a contest to open and one to answer, the aggregates.
async function reliabilityCalls(a: string): Promise<Call[]> {
  const [mine] = await db
    .select({ id: profissionais.id })
    .from(profissionais)
    .where(eq(profissionais.usuarioId, pro.id));
  const ledger = await makeLedger({ id: mine!.id, regiao: 'SP' }, [
    { tipo: 'chegada', credito: 1, peso: 1, minutos: 0 },
    { tipo: 'chegada', credito: 0.5, peso: 1, minutos: 20 },
  ]);
  if (phase === 'large')
    for (let i = 0; i < GROW_ROWS; i += 100)
      await makeLedger(
        { id: mine!.id, regiao: 'SP' },
        Array.from({ length: 100 }, (_, k) => ({
          tipo: 'chegada' as const,
          credito: 1,
          peso: 1,
          diasAtras: (i + k) / 10,
        })),
      );
  const opened = await api('POST', '/api/profissionais/me/confiabilidade/contestacoes', {
    token: pro.token,
    body: { evento_id: ledger[1]!.id, motivo: 'trânsito parado' },
  });
  // A cancellation that counts (12 hours ahead, accepted two days ago) by a professional whose ledger
  // has GROW_ROWS rows in the large phase: the row and the score's refresh cost the same. In MG: the SP
  // lists of this file measure SP's rows.
  const cancelling = await makeUser({ role: 'profissional' });
  const cancellingProf = await makeProfissional('MG', { usuarioId: cancelling.id }, [ctx.funcao!]);
  if (phase === 'large')
    for (let i = 0; i < GROW_ROWS; i += 100)
      await makeLedger(
        { id: cancellingProf.id, regiao: 'MG' },
        Array.from({ length: 100 }, (_, k) => ({
          tipo: 'chegada' as const,
          credito: 1,
          peso: 1,
          diasAtras: (i + k) / 10,
        })),
      );
  const soon = new Date(Date.now() + 12 * 3_600_000 - 3 * 3_600_000).toISOString();
  const [soonEvent] = await db
    .insert(agenda)
    .values({
      regiao: 'MG',
      userId: viewer.id,
      fotId: ctx.fot!,
      tipoEventoId: ctx.tipo!,
      dataEvento: soon.slice(0, 10),
      horario: soon.slice(11, 16),
    })
    .returning();
  const [toCancelSoon] = await db
    .insert(convites)
    .values({
      agendaId: soonEvent!.id,
      profissionalId: cancellingProf.id,
      funcaoId: ctx.funcao!,
      status: 'aceito',
      respondidoEm: new Date(Date.now() - 48 * 3_600_000).toISOString(),
    })
    .returning();
  const c = '/api/confiabilidade/contestacoes';
  return [
    {
      name: 'convite decline (a late cancellation: ledger row and score)',
      method: 'PATCH',
      path: `/api/convites/${toCancelSoon!.id}`,
      token: cancelling.token,
      body: { status: 'recusado' },
      expect: 200,
    },
    {
      name: 'confiabilidade mine',
      method: 'GET',
      path: '/api/profissionais/me/confiabilidade',
      token: pro.token,
      expect: 200,
    },
    {
      name: 'confiabilidade of',
      method: 'GET',
      path: `/api/profissionais/${mine!.id}/confiabilidade`,
      token: a,
      expect: 200,
    },
    {
      name: 'confiabilidade contestar',
      method: 'POST',
      path: '/api/profissionais/me/confiabilidade/contestacoes',
      token: pro.token,
      body: { evento_id: ledger[0]!.id, motivo: 'cheguei antes' },
      expect: 201,
    },
    { name: 'confiabilidade contestacoes', method: 'GET', path: `${c}?status=aberta&limit=20`, token: a, expect: 200 },
    {
      name: 'confiabilidade abonar',
      method: 'PATCH',
      path: `${c}/${opened.body.id}`,
      token: a,
      body: { decisao: 'abonar', resposta: 'trânsito confirmado' },
      expect: 200,
    },
    { name: 'confiabilidade regioes', method: 'GET', path: '/api/confiabilidade/regioes', token: a, expect: 200 },
  ];
}

// Institution rules (D25): an institution of its own per phase, its rule, an event of its class.
async function rulesCalls(a: string): Promise<Call[]> {
  const inst = await makeInstituicao();
  const definicao = {
    quotas: [{ funcao_id: ctx.funcao, por_formandos: 20, arredondar: 'cima', limite: 'maximo' }],
    prazos: [{ tipo: 'credenciamento', quantidade: 5, unidade: 'dias_uteis', antes_de: 'data_evento' }],
    taxas: [{ descricao: 'Credencial', por: 'profissional', valor: 50 }],
    documentos: ['nome_completo', 'cpf'],
  };
  const body = (vigencia: string) => ({
    nome: uniq('Regra'),
    escopo: 'instituicao',
    instituicao_id: inst.id,
    vigencia_inicio: vigencia,
    definicao,
  });
  const rule = async (vigencia: string) =>
    (await api('POST', '/api/regras', { token: a, body: body(vigencia) })).body.id as string;
  const [toEdit, toDelete] = [await rule('2011-01-01'), await rule('2012-01-01')];
  const fot = await makeFot('SP', { instituicaoId: inst.id });
  const [ev] = await db
    .insert(agenda)
    .values({
      regiao: 'SP',
      userId: viewer.id,
      fotId: fot.id,
      tipoEventoId: ctx.tipo!,
      dataEvento: '2027-02-12',
      qtdFormandos: 57,
      cidadeIbge: FLORIANOPOLIS,
    })
    .returning();
  const day = { data: '2027-02-11', nome: 'Recesso', tipo: 'recesso', escopo: 'instituicao', instituicao_id: inst.id };
  const toRemove = (await api('POST', '/api/feriados', { token: a, body: { ...day, data: '2027-02-10' } })).body
    .id as string;
  const r = '/api/regras';
  return [
    { name: 'regras list', method: 'GET', path: r, token: a, expect: 200 },
    { name: 'regra get', method: 'GET', path: `${r}/${toEdit}`, token: a, expect: 200 },
    { name: 'regra create', method: 'POST', path: r, token: a, body: body('2013-01-01'), expect: 201 },
    { name: 'regra put', method: 'PUT', path: `${r}/${toEdit}`, token: a, body: body('2011-01-01'), expect: 200 },
    { name: 'regra delete', method: 'DELETE', path: `${r}/${toDelete}`, token: a, expect: 204 },
    {
      name: 'regras validar',
      method: 'POST',
      path: `${r}/validar`,
      token: viewer.token,
      body: { regra: body('2011-01-01'), evento: { data_evento: '2027-02-12', qtd_formandos: 57, uf: 'SC' } },
      expect: 200,
    },
    { name: 'agenda regras', method: 'GET', path: `/api/agenda/${ev!.id}/regras`, token: viewer.token, expect: 200 },
    {
      name: 'agenda regras aplicar',
      method: 'POST',
      path: `/api/agenda/${ev!.id}/regras/aplicar`,
      token: viewer.token,
      headers: { 'idempotency-key': uniq('aplicar') },
      expect: 201,
    },
    {
      name: 'credenciamento csv',
      method: 'GET',
      path: `/api/agenda/${ev!.id}/credenciamento.csv`,
      token: a,
      expect: 200,
    },
    {
      name: 'feriados list',
      method: 'GET',
      path: '/api/feriados?de=2027-01-01&ate=2027-12-31&uf=SC',
      token: viewer.token,
      expect: 200,
    },
    { name: 'feriado create', method: 'POST', path: '/api/feriados', token: a, body: day, expect: 201 },
    { name: 'feriado delete', method: 'DELETE', path: `/api/feriados/${toRemove}`, token: a, expect: 204 },
    {
      name: 'logistica patch',
      method: 'PATCH',
      path: `/api/agenda/${ev!.id}/logistica`,
      token: a,
      body: { credenciamento_enviado_em: '2027-02-01' },
      expect: 200,
    },
  ];
}

// QR check-in (D27): in MG (the SP lists of this file measure SP's rows), an event of today (no hours:
// its window is the whole day) with a coordinator and accepted members; in the large phase GROW_ROWS / 10
// members more (the list answers each; the readings and writes must not read them).
async function checkinCalls(a: string): Promise<Call[]> {
  const hoje = saoPauloDate(new Date());
  const fot = await makeFot('MG');
  const tipo = await makeCatalog(tiposEventos, 'MG');
  const funcao = await makeCatalog(funcoes, 'MG');
  const event = async () =>
    (
      await db
        .insert(agenda)
        .values({ regiao: 'MG', userId: viewer.id, fotId: fot.id, tipoEventoId: tipo.id, dataEvento: hoje })
        .returning()
    )[0]!;
  const [ev, toRotate] = [await event(), await event()];
  const accepted = async (usuarioId?: string) => {
    const p = await makeProfissional('MG', usuarioId ? { usuarioId } : {}, [funcao.id]);
    const [c] = await db
      .insert(convites)
      .values({ agendaId: ev.id, profissionalId: p.id, funcaoId: funcao.id, status: 'aceito' })
      .returning();
    return c!;
  };
  const coordUser = await makeUser({ role: 'profissional' });
  const coord = await accepted(coordUser.id);
  await db.insert(agendaCheckin).values({ agendaId: ev.id, coordenadorConviteId: coord.id });
  const [read, manual, absent] = [await accepted(), await accepted(), await accepted()];
  const checkedUser = await makeUser({ role: 'profissional' });
  await accepted(checkedUser.id);
  if (phase === 'large') for (let i = 0; i < GROW_ROWS / 10; i++) await accepted();
  const e = `/api/agenda/${ev.id}`;
  const headers = { 'x-regiao': 'MG' };
  const code = await eventCode(await eventKey(env.CHECKIN_SECRET as string, ev.id, 1), {
    versao: 1,
    agendaId: ev.id,
    step: stepOf(Date.now()),
  });
  const personal = await personalCode(await personalKey(env.CHECKIN_SECRET as string), {
    conviteId: read.id,
    step: stepOf(Date.now()),
  });
  const position = { latitude: -19.92, longitude: -43.94, precisao_m: 20 };
  return [
    {
      name: 'presenca (event code)',
      method: 'POST',
      path: '/api/presencas',
      token: checkedUser.token,
      body: { token: code, tipo: 'entrada', ...position },
      expect: 201,
    },
    { name: 'checkin settings', method: 'GET', path: `${e}/checkin`, token: a, headers, expect: 200 },
    {
      name: 'checkin settings put',
      method: 'PUT',
      path: `${e}/checkin`,
      token: a,
      headers,
      body: { raio_checkin_m: 250 },
      expect: 200,
    },
    { name: 'checkin qr', method: 'GET', path: `${e}/checkin/qr`, token: coordUser.token, headers, expect: 200 },
    { name: 'checkin chave', method: 'GET', path: `${e}/checkin/chave`, token: viewer.token, headers, expect: 200 },
    {
      name: 'checkin rotacionar',
      method: 'POST',
      path: `/api/agenda/${toRotate.id}/checkin/chave/rotacionar`,
      token: a,
      headers,
      expect: 200,
    },
    {
      name: 'presencas leituras',
      method: 'POST',
      path: `${e}/presencas/leituras`,
      token: coordUser.token,
      headers,
      body: { tokens: [personal, personal, 'A'.repeat(44)] },
      expect: 200,
    },
    {
      name: 'presenca manual',
      method: 'POST',
      path: `${e}/presencas/manual`,
      token: a,
      headers,
      body: {
        convite_id: manual.id,
        tipo: 'entrada',
        momento: new Date(Date.now() - 60_000).toISOString(),
        motivo: 'sem celular',
      },
      expect: 201,
    },
    { name: 'presencas list', method: 'GET', path: `${e}/presencas`, token: a, headers, expect: 200 },
    {
      name: 'convite checkin qr',
      method: 'GET',
      path: `/api/convites/${coord.id}/checkin/qr`,
      token: coordUser.token,
      expect: 200,
    },
    {
      name: 'convite falta',
      method: 'POST',
      path: `/api/convites/${absent.id}/falta`,
      token: a,
      headers,
      body: { motivo: 'não veio' },
      expect: 201,
    },
    {
      name: 'convite falta desfeita',
      method: 'DELETE',
      path: `/api/convites/${absent.id}/falta`,
      token: a,
      headers,
      body: { motivo: 'pessoa errada' },
      expect: 200,
    },
  ];
}

// The season planner (D26): a 90-day season of its own in region MG (two evenings' events, a class of
// an institution whose rule sizes its event (no quota), an accepted invitation, a declaration), made
// once, away from the region SP that grow() fills and from the other calls' declarations and
// invitations (the check-in's MG events are today's, its invitations grow: the season is in 2039): its
// reads must stay flat at both sizes (rows near the events and invitations in range, never the tables).
const planning: { funcao?: string; tipo?: string; instituicao?: string } = {};
async function planningWorld(a: string) {
  if (planning.funcao) return;
  const f = await makeCatalog(funcoes, 'MG');
  const tipo = await makeCatalog(tiposEventos, 'MG');
  Object.assign(planning, { funcao: f.id, tipo: tipo.id });
  const event = async (horario: string, horario_fim: string, quantidade: number, extra: object = {}) => {
    const fot = await makeFot('MG');
    const e = await api('POST', '/api/agenda', {
      token: a,
      regiao: 'MG',
      body: {
        fot_id: fot.id,
        tipo_evento_id: tipo.id,
        data_evento: '2039-12-10',
        horario,
        horario_fim,
        cidade_ibge: 3106200,
        ...extra,
      },
    });
    await api('PUT', `/api/agenda/${e.body.id}/equipe`, {
      token: a,
      regiao: 'MG',
      body: [{ funcao_id: f.id, quantidade }],
    });
    return e.body.id as string;
  };
  const baile = await event('22:00', '04:00', 3);
  await event('14:00', '17:00', 2, { qtd_estudios: 1 });
  // The institution's rule (D25) sizes its class's event, which has no quota: ceil(57 / 20) = 3.
  const inst = await makeInstituicao('MG');
  planning.instituicao = inst.id;
  await db.insert(regras).values({
    regiao: 'MG',
    nome: uniq('Regra'),
    escopo: 'instituicao',
    instituicaoId: inst.id,
    vigenciaInicio: '2039-01-01',
    definicao: JSON.stringify({
      quotas: [{ funcao_id: f.id, por_formandos: 20, arredondar: 'cima', limite: 'minimo' }],
      prazos: [],
      taxas: [],
      documentos: [],
    }),
  });
  const sized = await api('POST', '/api/agenda', {
    token: a,
    regiao: 'MG',
    body: {
      fot_id: (await makeFot('MG', { instituicaoId: inst.id })).id,
      tipo_evento_id: tipo.id,
      data_evento: '2039-12-10',
      horario: '10:00',
      horario_fim: '12:00',
      cidade_ibge: 3106200,
      qtd_formandos: 57,
    },
  });
  expect(sized.status, JSON.stringify(sized.body)).toBe(201);
  const [taken, out] = [await makeProfissional('MG', {}, [f.id]), await makeProfissional('MG', {}, [f.id])];
  await makeProfissional('MG', { temEstudio: true, qtdEstudio: 1 }, [f.id]);
  await db.insert(convites).values({ agendaId: baile, profissionalId: taken.id, funcaoId: f.id, status: 'aceito' });
  await db.insert(disponibilidades).values({
    profissionalId: out.id,
    tipo: 'indisponivel',
    dataInicio: '2039-12-10',
    dataFim: '2039-12-10',
    horaInicio: '20:00',
    horaFim: '23:59',
    origem: 'admin',
  });
}

async function planningCalls(a: string): Promise<Call[]> {
  await planningWorld(a);
  const season = 'de=2039-10-01&ate=2039-12-29';
  const eventos = [
    {
      data_evento: '2039-12-10',
      horario: '18:00',
      tipo_evento_id: planning.tipo,
      equipe: [{ funcao_id: planning.funcao, quantidade: 3 }],
    },
    {
      data_evento: '2039-12-11',
      tipo_evento_id: planning.tipo,
      cidade_ibge: 3106200,
      qtd_estudios: 1,
      qtd_formandos: 41,
      instituicao_id: planning.instituicao,
    },
  ];
  const cap = '/api/planejamento/capacidade';
  const mg = { 'x-regiao': 'MG' };
  return [
    { name: 'planejamento capacidade', method: 'GET', path: `${cap}?${season}`, token: a, headers: mg, expect: 200 },
    {
      name: 'planejamento capacidade (funcao, semana)',
      method: 'GET',
      path: `${cap}?${season}&funcao_id=${planning.funcao}&agrupar=semana`,
      token: a,
      headers: mg,
      expect: 200,
    },
    {
      name: 'planejamento capacidade (csv)',
      method: 'GET',
      path: `${cap}?${season}&funcao_id=${planning.funcao}`,
      token: a,
      headers: { ...mg, accept: 'text/csv' },
      expect: 200,
    },
    {
      name: 'planejamento simulacao',
      method: 'POST',
      path: '/api/planejamento/simulacao',
      token: a,
      headers: mg,
      body: { de: '2039-10-01', ate: '2039-12-29', funcao_id: planning.funcao, eventos },
      expect: 200,
    },
    { name: 'equipamentos list', method: 'GET', path: '/api/equipamentos', token: a, headers: mg, expect: 200 },
    {
      name: 'equipamentos put',
      method: 'PUT',
      path: '/api/equipamentos',
      token: a,
      headers: mg,
      body: {
        itens: [
          { recurso: 'qtd_estudios', quantidade: 2 },
          { recurso: 'qtd_pontos_led', quantidade: 4 },
        ],
      },
      expect: 200,
    },
  ];
}

// Ranking (D29), in region MG (the SP lists of this file measure SP's rows): a function of its own
// whose holders are the ranking's pool, 3 of them (one already invited) at 1 row, GROW_ROWS more in the
// large phase (rankingGrow); a fresh event per phase, its batch invitation of the first three, the weights.
// The events are in Belo Horizonte and the holders in Belo Horizonte or Betim, with a matrix row: every
// holder's travel (the distance, its matrix probes, D23's travel rule) is read.
const BH = 3106200;
const BETIM = 3106705;
const rank: { funcao?: string; event?: string; fot?: string; tipo?: string } = {};
const MG = { 'x-regiao': 'MG' };

async function rankingWorld() {
  if (rank.funcao) return;
  const f = await makeCatalog(funcoes, 'MG');
  const fot = await makeFot('MG');
  const tipo = await makeCatalog(tiposEventos, 'MG');
  const [ev] = await db
    .insert(agenda)
    .values({
      regiao: 'MG',
      fotId: fot.id,
      tipoEventoId: tipo.id,
      dataEvento: '2027-08-01',
      horario: '19:00',
      cidadeIbge: BH,
    })
    .returning();
  const holders = await Promise.all(
    [1, 2, 3].map(() => makeProfissional('MG', { cidade: 'Belo Horizonte', uf: 'MG' }, [f.id])),
  );
  await db.insert(convites).values({ agendaId: ev!.id, profissionalId: holders[0]!.id, funcaoId: f.id });
  await db
    .insert(deslocamentos)
    .values({ regiao: 'MG', origemIbge: BETIM, destinoIbge: BH, minutos: 40 })
    .onConflictDoNothing();
  Object.assign(rank, { funcao: f.id, event: ev!.id, fot: fot.id, tipo: tipo.id });
}

/** GROW_ROWS more holders of the ranking's function (10 profiles per insert: D1 binds at most 100 parameters). */
async function rankingGrow() {
  await rankingWorld();
  for (let i = 0; i < GROW_ROWS; i += 10) {
    const rows = await db
      .insert(profissionais)
      .values(
        Array.from({ length: 10 }, (_, k) => ({ regiao: 'MG', nome: `Titular ${i + k}`, cidade: 'Betim', uf: 'MG' })),
      )
      .returning({ id: profissionais.id });
    await db.insert(profissionalFuncoes).values(rows.map((r) => ({ profissionalId: r.id, funcaoId: rank.funcao! })));
  }
}

async function rankingCalls(a: string): Promise<Call[]> {
  await rankingWorld();
  const [batch] = await db
    .insert(agenda)
    .values({ regiao: 'MG', fotId: rank.fot!, tipoEventoId: rank.tipo!, dataEvento: '2027-08-02', cidadeIbge: BH })
    .returning();
  const pesos = {
    distancia: 2,
    avaliacao: 2,
    confiabilidade: 2,
    rodizio: 1,
    funcao: 1,
    preferencia: 1,
    responsividade: 1,
  };
  return [
    {
      name: 'ranking candidatos',
      method: 'GET',
      path: `/api/agenda/${rank.event}/candidatos?funcao_id=${rank.funcao}&limit=20`,
      token: a,
      headers: MG,
      expect: 200,
    },
    {
      name: 'ranking candidatos (excluidos)',
      method: 'GET',
      path: `/api/agenda/${rank.event}/candidatos?funcao_id=${rank.funcao}&limit=5&incluir_excluidos=true`,
      token: a,
      headers: MG,
      expect: 200,
    },
    {
      name: 'ranking convites lote',
      method: 'POST',
      path: `/api/agenda/${batch!.id}/convites/lote`,
      token: a,
      headers: MG,
      body: { funcao_id: rank.funcao, top_n: 3 },
      expect: 200,
    },
    { name: 'ranking pesos', method: 'GET', path: '/api/ranking/pesos', token: a, headers: MG, expect: 200 },
    {
      name: 'ranking pesos put',
      method: 'PUT',
      path: '/api/ranking/pesos',
      token: a,
      headers: MG,
      body: pesos,
      expect: 200,
    },
  ];
}

// Availability (D24): declarations of the listing's professional, a professional of the region, the summary.
async function availabilityCalls(a: string): Promise<Call[]> {
  const day = (n: number) => saoPauloDate(new Date(), n);
  const other = await makeProfissional('SP', {}, [ctx.funcao!]);
  const mineDecl = async () =>
    (
      await api('POST', '/api/profissionais/me/disponibilidades', {
        token: pro.token,
        body: { tipo: 'preferencial', data_inicio: day(40) },
      })
    ).body.id as string;
  const otherDecl = async () =>
    (
      await api('POST', `/api/profissionais/${other.id}/disponibilidades`, {
        token: a,
        body: { tipo: 'indisponivel', data_inicio: day(40) },
      })
    ).body.id as string;
  const [mine, theirs] = [await mineDecl(), await otherDecl()];
  const body = { tipo: 'indisponivel', data_inicio: day(50), data_fim: day(80), dias_semana: [0, 6], motivo: 'x' };
  const me = '/api/profissionais/me/disponibilidades';
  // The season poll (D24): one asking the listing's professional, one to close.
  const poll = { nome: 'Temporada', de: day(60), ate: day(90), funcao_ids: [ctx.funcao], prazo: day(30) };
  const camp = async () =>
    (await api('POST', '/api/campanhas-disponibilidade', { token: a, body: poll })).body.id as string;
  const [campanha, toClose] = [await camp(), await camp()];
  const c = `/api/campanhas-disponibilidade`;
  const datas = [60, 61, 62, 75].map((n, i) => ({ data: day(n), resposta: ['sim', 'nao', 'talvez', 'nao'][i] }));
  const of = `/api/profissionais/${other.id}/disponibilidades`;
  return [
    { name: 'disponibilidades mine', method: 'GET', path: me, token: pro.token, expect: 200 },
    { name: 'disponibilidade create (mine)', method: 'POST', path: me, token: pro.token, body, expect: 201 },
    { name: 'disponibilidade delete (mine)', method: 'DELETE', path: `${me}/${mine}`, token: pro.token, expect: 204 },
    { name: 'disponibilidades of', method: 'GET', path: of, token: a, expect: 200 },
    { name: 'disponibilidade create (admin)', method: 'POST', path: of, token: a, body, expect: 201 },
    { name: 'disponibilidade delete (admin)', method: 'DELETE', path: `${of}/${theirs}`, token: a, expect: 204 },
    {
      name: 'disponibilidades resumo',
      method: 'GET',
      path: `/api/disponibilidades/resumo?data=${day(40)}&funcao_id=${ctx.funcao}`,
      token: a,
      expect: 200,
    },
    { name: 'campanha create', method: 'POST', path: c, token: a, body: poll, expect: 201 },
    { name: 'campanhas list (profissional)', method: 'GET', path: c, token: pro.token, expect: 200 },
    { name: 'campanha get (profissional)', method: 'GET', path: `${c}/${campanha}`, token: pro.token, expect: 200 },
    {
      name: 'campanha answer',
      method: 'PUT',
      path: `${c}/${campanha}/respostas`,
      token: pro.token,
      body: { datas },
      expect: 200,
    },
    { name: 'campanha resultado', method: 'GET', path: `${c}/${campanha}/resultado`, token: a, expect: 200 },
    { name: 'campanha encerrar', method: 'POST', path: `${c}/${toClose}/encerrar`, token: a, expect: 200 },
  ];
}

// Finance (D18): one FOT and event that grow() fills with entries and contracts.
const fin: { fot?: string; event?: string; cat?: string } = {};

async function financeWorld() {
  if (fin.fot) return;
  const fot = await makeFot('SP');
  const tipo = await makeCatalog(tiposEventos);
  const [ev] = await db
    .insert(agenda)
    .values({ regiao: 'SP', fotId: fot.id, tipoEventoId: tipo.id, dataEvento: '2027-03-01' })
    .returning();
  Object.assign(fin, { fot: fot.id, event: ev!.id, cat: await systemCategoryId('SP', 'logistica') });
}

async function financeGrow() {
  await financeWorld();
  const rows = Array.from({ length: GROW_ROWS }, (_, i) => ({
    regiao: 'SP',
    tipo: 'despesa' as const,
    categoriaId: fin.cat!,
    descricao: `e${i}`,
    valorCentavos: 100 + i,
    vencimento: '2027-03-01',
    agendaId: fin.event!,
    fotId: fin.fot!,
  }));
  for (let i = 0; i < rows.length; i += 5) await db.insert(lancamentos).values(rows.slice(i, i + 5));
  for (let i = 0; i < 3; i++)
    await api('POST', '/api/financeiro/contratos', {
      token: admin.token,
      body: { fot_id: fin.fot, valor_total: 1000, parcelas: 40, primeiro_vencimento: '2027-01-31' },
    });
}

async function financeCalls(a: string): Promise<Call[]> {
  await financeWorld();
  const f = '/api/financeiro';
  const fresh = async () => {
    const res = await api('POST', `${f}/lancamentos`, {
      token: a,
      body: { tipo: 'despesa', categoria_id: fin.cat, descricao: 'x', valor: 10, vencimento: '2027-03-01' },
    });
    return res.body.id as string;
  };
  const [toPay, toCancel, toReverse] = [await fresh(), await fresh(), await fresh()];
  await api('POST', `${f}/lancamentos/${toReverse}/pagar`, { token: a });
  const entry = {
    tipo: 'despesa',
    categoria_id: fin.cat,
    descricao: 'x',
    valor: 10,
    vencimento: '2027-03-01',
    agenda_id: fin.event,
  };
  const tabela = {
    inss_aliquota: 11,
    inss_teto: 1000,
    irrf_faixas: [{ ate: null, aliquota: 0, deducao: 0 }],
    iss_aliquota: 0,
  };
  return [
    { name: 'fin categorias', method: 'GET', path: `${f}/categorias`, token: a, expect: 200 },
    {
      name: 'fin categoria create',
      method: 'POST',
      path: `${f}/categorias`,
      token: a,
      body: { nome: uniq('C'), tipo: 'despesa' },
      expect: 201,
    },
    { name: 'fin lancamentos', method: 'GET', path: `${f}/lancamentos?agenda_id=${fin.event}`, token: a, expect: 200 },
    {
      name: 'fin lancamentos paged',
      method: 'GET',
      path: `${f}/lancamentos?fot_id=${fin.fot}&limit=20`,
      token: a,
      expect: 200,
    },
    { name: 'fin lancamento create', method: 'POST', path: `${f}/lancamentos`, token: a, body: entry, expect: 201 },
    { name: 'fin lancamento get', method: 'GET', path: `${f}/lancamentos/${toPay}`, token: a, expect: 200 },
    { name: 'fin pagar', method: 'POST', path: `${f}/lancamentos/${toPay}/pagar`, token: a, expect: 200 },
    { name: 'fin cancelar', method: 'POST', path: `${f}/lancamentos/${toCancel}/cancelar`, token: a, expect: 200 },
    { name: 'fin estornar', method: 'POST', path: `${f}/lancamentos/${toReverse}/estornar`, token: a, expect: 200 },
    {
      name: 'fin contrato create',
      method: 'POST',
      path: `${f}/contratos`,
      token: a,
      body: { fot_id: fin.fot, valor_total: 100, parcelas: 12, primeiro_vencimento: '2027-01-10' },
      expect: 201,
    },
    { name: 'fin contratos', method: 'GET', path: `${f}/contratos?fot_id=${fin.fot}`, token: a, expect: 200 },
    { name: 'fin resultado fot', method: 'GET', path: `${f}/resultado?fot_id=${fin.fot}`, token: a, expect: 200 },
    {
      name: 'fin resultado evento',
      method: 'GET',
      path: `${f}/resultado?agenda_id=${fin.event}`,
      token: a,
      expect: 200,
    },
    {
      name: 'fin resultado periodo',
      method: 'GET',
      path: `${f}/resultado?de=2027-01-01&ate=2027-12-31`,
      token: a,
      expect: 200,
    },
    ...(await repasseCalls(a)),
    { name: 'fin tabelas', method: 'GET', path: `${f}/tabelas-tributarias`, token: a, expect: 200 },
    {
      name: 'fin tabela put',
      method: 'PUT',
      path: `${f}/tabelas-tributarias/2029-01-01`,
      token: a,
      body: tabela,
      expect: 200,
    },
  ];
}

let repasseMonth = 0;

/**
 * Payout batches: in each phase a month of its own with 1 fee per professional (small) or GROW_ROWS (large),
 * for the professional of `pro` and three others; batches made beforehand to approve, pay and cancel.
 */
async function repasseCalls(a: string): Promise<Call[]> {
  const f = '/api/financeiro';
  const mm = String(++repasseMonth).padStart(2, '0');
  const [de, ate] = [`2028-${mm}-01`, `2028-${mm}-28`];
  const fot = await makeFot('SP');
  const tipo = await makeCatalog(tiposEventos);
  const [ev] = await db
    .insert(agenda)
    .values({ regiao: 'SP', fotId: fot.id, tipoEventoId: tipo.id, dataEvento: `2028-${mm}-10` })
    .returning();
  const cat = { id: await systemCategoryId('SP', 'cache_profissional') };
  const [mine] = await db.select().from(profissionais).where(eq(profissionais.usuarioId, pro.id));
  const key = { contaPix: 'pix@example.com', tipoChavePix: 'email' as const };
  await db.update(profissionais).set(key).where(eq(profissionais.id, mine!.id));
  const others = [
    await makeProfissional('SP', key),
    await makeProfissional('SP', key),
    await makeProfissional('SP', key),
  ];
  const n = phase === 'small' ? 1 : GROW_ROWS;
  for (const p of [mine!, ...others]) {
    const fees = Array.from({ length: n }, (_, i) => ({
      regiao: 'SP',
      tipo: 'despesa' as const,
      categoriaId: cat!.id,
      descricao: `cachê ${i}`,
      valorCentavos: 10_000 + i,
      vencimento: `2028-${mm}-10`,
      agendaId: ev!.id,
      fotId: fot.id,
      profissionalId: p.id,
      origem: 'cache' as const,
    }));
    for (let i = 0; i < fees.length; i += 5) await db.insert(lancamentos).values(fees.slice(i, i + 5));
  }
  const batch = async (p: { id: string }, then?: string) => {
    const res = await api('POST', `${f}/repasses`, { token: a, body: { de, ate, profissional_ids: [p.id] } });
    if (then) await api('POST', `${f}/repasses/${res.body.id}/${then}`, { token: a });
    return res.body.id as string;
  };
  const [toApprove, toPay, toCancel] = [
    await batch(others[0]!),
    await batch(others[1]!, 'aprovar'),
    await batch(others[2]!),
  ];
  return [
    { name: 'fin repasse create', method: 'POST', path: `${f}/repasses`, token: a, body: { de, ate }, expect: 201 },
    { name: 'fin repasses', method: 'GET', path: `${f}/repasses?limit=50`, token: a, expect: 200 },
    { name: 'fin repasse get', method: 'GET', path: `${f}/repasses/${toPay}`, token: a, expect: 200 },
    { name: 'fin repasse aprovar', method: 'POST', path: `${f}/repasses/${toApprove}/aprovar`, token: a, expect: 200 },
    { name: 'fin repasse pix.csv', method: 'GET', path: `${f}/repasses/${toPay}/pix.csv`, token: a, expect: 200 },
    { name: 'fin repasse pagar', method: 'POST', path: `${f}/repasses/${toPay}/pagar`, token: a, expect: 200 },
    { name: 'fin repasse cancelar', method: 'POST', path: `${f}/repasses/${toCancel}/cancelar`, token: a, expect: 200 },
    {
      name: 'fin meus-pagamentos',
      method: 'GET',
      path: `${f}/meus-pagamentos?de=2028-01-01&ate=2028-12-31`,
      token: pro.token,
      expect: 200,
    },
  ];
}

/** Three new professionals with a login each (the apply creates accounts and invitations). */
const importFile = () =>
  [
    'nome;email;funcao_profissional;cpf_cnpj_titular',
    ...[1, 2, 3].map((i) => `Importado ${i};${uniq('imp')}@example.com;${ctx.funcao};`),
  ].join('\n');

/** Statements per request (a batch counts each of its statements), printed beside the round trips. */
const statements: Record<string, number> = {};
/** D1's rows read / written per request (meta.rows_read, meta.rows_written), at 1 row and at 1,000+. */
const rows: Record<string, { small?: string; large?: string }> = {};
let phase: 'small' | 'large' = 'small';
/**
 * D1 bills rows read. A route may read, beyond the rows it answers, at most PER_STATEMENT rows per
 * statement (the caller's user and session, guards, the activity log's chain) with 1 row of data; and
 * that excess must stay flat (within FLAT_SLACK) when the data grows by GROW_ROWS rows of each kind: no scan.
 */
/** Rows of each kind the second measurement adds (issue 20: the check holds at 1 and at 1,000 rows). */
const GROW_ROWS = 1000;
const PER_STATEMENT = 40;
const FLAT_SLACK = 30;

/**
 * Route cases whose reads beyond the answer grow with the data today (measured at GROW_ROWS rows,
 * when issue 20 added this check; reads outside a batch are counted since 2026-11-26, helpers/queries.ts): X-Total-Count counts every matching row, results and batches sum the
 * entries they do not list, quotas count the team, an unpaged list joins per row. A ratchet: none may
 * get 25% worse; lower a figure when a change brings it down, and a new route must be flat.
 * docs/performance.md ("The query budget test") says why they grow.
 */
const GROWS_WITH_DATA: Record<string, number> = {
  'tipos-eventos list': 204,
  // A page's prices: one probe of precos_regiao_tipo_idx per type of the page (0033; was 305 through the region's index).
  'tipos-eventos list (page)': 349,
  'fot list': 317,
  'fot list (page)': 153,
  'profissionais list': 8164,
  'profissionais list (page)': 374,
  'profissionais contagem': 103,
  'agenda list (admin)': 15294,
  'agenda list (agenda_viewer)': 15276,
  'agenda list (profissional)': 230,
  'agenda list (page)': 703,
  'agenda get': 211,
  'agenda update': 2253,
  'equipe put': 321,
  'convites of an event': 3029,
  'notifications read-all': 4019,
  'logs verificacao': 483,
  'chamados list (requester)': 508,
  'chamados list (admin, page)': 53,
  'export agenda': 208,
  'export profissionais': 1134,
  // Since D24's effects (w3-conflicts): the listing's professional has indisponivel declarations over
  // the grown day (availabilityCalls), so each listing row probes its declarations (hidden dates), and
  // the paged total counts the open places of its declared days to subtract the hidden ones (was
  // 10,054 and 475 before them). That count walked every open place of a declaration's range and probed
  // each (21,150, 6,744, 1,025, 1,033); it now visits only the days a declaration covers (the grown day
  // is a Monday, the declaration weekends only) and the probe reads the caller's indisponivel rows from
  // one covering index (disponibilidades_profissional_tipo_idx).
  'vagas list': 19151,
  'vagas list (page)': 757,
  'vagas list (filters, page)': 73,
  'vagas list (city, page)': 97,
  'fin lancamentos': 1004,
  'fin contratos': 170,
  // One kept row per day, category and tipo of the period (drizzle/0035): grows with the days that have entries, not with the entries.
  'fin resultado periodo': 83,
  'fin repasse create': 18328,
  'fin repasses': 4092,
  // Each entry paid moves its kept result sums (drizzle/0035; was 9,016 before them): the price of reading a result in one row per category.
  'fin repasse pagar': 15016,
  'fin repasse cancelar': 3009,
  'fin meus-pagamentos': 2014,
  // A one-off of the office: the distinct texts of the region's unlinked FOT records, to match them to the catalog.
  'instituicoes vincular': 109,
  // Availability (D24): head counts over a function's holders (GROW_ROWS of them here), by design: the
  // summary reads each holder's index entry and one probe of its declarations; the poll's result each
  // holder once and the answers it counts; the poll's create the holders it notifies. No kept count yet.
  'disponibilidades resumo': 4113,
  'campanha create': 2151,
  'campanha resultado': 1022,
  // QR check-in (D27): the attendance list answers the whole team, each member's invitation, profile and
  // function read to name it (GROW_ROWS / 10 members more here), as 'convites of an event' does.
  'presencas list': 327,
  // Reliability (D28): the view answers every row of the professional's ledger (GROW_ROWS of them here,
  // unpaged: LGPD art. 20), each read once from its index and once from the table. The score itself is
  // computed from the profile's kept sums: 'confiabilidade abonar' recomputes it for this same ledger flat.
  'confiabilidade mine': 1001,
  'confiabilidade of': 1001,
  // Ranking (D29): one statement over the function's holders (GROW_ROWS of them here), by design: about
  // 31 rows per holder (its index entry, profile and city, one probe each of its invitations to the event,
  // its accepted events of three days and of 30 days, its answered invitations, its declarations, its
  // travel to the event: the matrix probes and D23's travel rule, which reads the event and its city,
  // the CTEs' scans and the two sorts of the order); nothing read grows with the region's events. Was
  // 30,109 / 30,164 while the measured event had no city (no travel read): +4 rows per holder since.
  'ranking candidatos': 34120,
  'ranking candidatos (excluidos)': 34120,
  'ranking convites lote': 34214,
};

/**
 * Rows one answered or written row may cost, beyond FLAT_SLACK, as the data grows: its own row, a
 * sort of it (D1 bills a temp b-tree's rows as read again), and up to three joined rows (an
 * event's record, type and team function). What grows faster reads rows it neither answers nor
 * writes: a scan, a count, a sum.
 */
const PER_ROW = 5;

/**
 * The cases that grow faster than their answer and writes (measured at GROW_ROWS rows): the job
 * listings (about ten rows per listing, and the open places of events the caller is invited to,
 * read then skipped; filtered by state, the page walks the region's events in date order until it
 * has its rows: by city it starts from that city's places), an event change's recipients (the team's invitations, those of
 * professionals without an account included), the log's verification (the chain it checks) and a
 * period's result (one kept row per day with entries). A ratchet like GROWS_WITH_DATA, on growth beyond PER_ROW per row answered or written.
 */
const READS_BEYOND_ROWS: Record<string, number> = {
  'agenda update': 1663,
  'logs verificacao': 481,
  // Was 5,013 and 196 before the declarations' probe and hidden count, then 16,081, 6,446, 1,010 and
  // 1,013 until the hidden count walked only the declared days (GROWS_WITH_DATA says why).
  'vagas list': 14079,
  'vagas list (page)': 457,
  'vagas list (filters, page)': 58,
  'vagas list (city, page)': 78,
  'fin resultado periodo': 36,
  'instituicoes vincular': 102,
  'disponibilidades resumo': 4053,
  'campanha create': 1847,
  'campanha resultado': 1015,
  'ranking candidatos': 33915,
  'ranking candidatos (excluidos)': 33990,
  'ranking convites lote': 34005,
};

/**
 * The rule of both ratchets: a known case's figure may not get 25% worse; any other case's growth
 * must stay within FLAT_SLACK.
 */
const overRatchet = (known: number | undefined, figure: number, growth: number) =>
  known === undefined ? growth > FLAT_SLACK : figure > Math.ceil(known * 1.25) + FLAT_SLACK;

/** Writes whose author check, write, derived rows and read-back are one batch (docs/performance.md, "The query budget test"). */
const FOLDED_WRITES = [
  'cursos create',
  'fin lancamento create',
  'convite accept',
  'candidatura approve',
  'convite decline (promotes a waiter)',
  'convite decline (a late cancellation: ledger row and score)',
];

/** Each route case's statement that read the most rows at 1,000+ rows (printed for the growing cases: where to look next). */
const heaviest: Record<string, { sql: string; rowsRead: number }> = {};

/** Rows answered and rows written per phase. */
const answered: Record<string, { small?: number; large?: number }> = {};
const written: Record<string, { small?: number; large?: number }> = {};

/** Rows read beyond the rows answered (rows_read − rows returned), per phase: what a scan or a count makes grow. */
const excess: Record<string, { small?: number; large?: number }> = {};

/** Rows an answer carries: a list's length (with each element's own lists), a CSV's lines, else 1. */
function returnedRows(body: unknown): number {
  if (typeof body === 'string') return body.split('\n').length;
  if (Array.isArray(body)) return body.reduce((n: number, b) => n + returnedRows(b), 0);
  if (body && typeof body === 'object')
    return 1 + Object.values(body).reduce((n: number, v) => n + (Array.isArray(v) ? returnedRows(v) : 0), 0);
  return 0;
}

async function measure(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  // Seal the activity log first, so that the verification has a chain to walk.
  await runCron();
  for (const call of await calls()) {
    const headers: Record<string, string> = call.token ? authHeaders(call.token) : {};
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.csv !== undefined) headers['content-type'] = 'text/csv';
    headers['cf-connecting-ip'] = uniq('ip');
    Object.assign(headers, call.headers);
    const res = await api(call.method, call.path, {
      headers,
      rawBody: call.csv ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
      countQueries: true,
    });
    expect(res.status, `${call.name}: ${JSON.stringify(res.body)}`).toBe(call.expect);
    out[call.name] = res.roundTrips!;
    statements[call.name] = res.statements!;
    (rows[call.name] ??= {})[phase] = `${res.rowsRead}/${res.rowsWritten}`;
    (excess[call.name] ??= {})[phase] = res.rowsRead! - returnedRows(res.body);
    (answered[call.name] ??= {})[phase] = returnedRows(res.body);
    (written[call.name] ??= {})[phase] = res.rowsWritten!;
    if (phase === 'large')
      heaviest[call.name] = res.trace!.reduce((a, b) => (b.rowsRead > a.rowsRead ? b : a), { sql: '', rowsRead: 0 });
  }
  return out;
}

describe('D1 round trips per request', () => {
  let small: Record<string, number> = {};
  let large: Record<string, number> = {};

  beforeAll(async () => {
    admin = await makeAdmin();
    viewer = await makeUser({ role: 'agenda_viewer' });
    pro = await makeUser({ role: 'profissional' });
    await world();
    small = await measure();
    await grow();
    await financeGrow();
    await rankingGrow();
    phase = 'large';
    large = await measure();
    console.log(
      [
        'route | round trips (1 row) | (1,000+ rows) | statements (1,000+ rows) | rows read/written (1 row) | (1,000+ rows) | read beyond the answer (1 row) | (1,000+ rows)',
        ...Object.keys(small).map(
          (k) =>
            `${k} | ${small[k]} | ${large[k]} | ${statements[k]} | ${rows[k]?.small} | ${rows[k]?.large} | ${excess[k]?.small} | ${excess[k]?.large}`,
        ),
        '',
        'heaviest statement of each case in GROWS_WITH_DATA (1,000+ rows): rows read | SQL',
        ...Object.keys(GROWS_WITH_DATA).map(
          (k) => `${k}: ${heaviest[k]?.rowsRead} | ${heaviest[k]?.sql.replace(/\s+/g, ' ').slice(0, 160)}`,
        ),
      ].join('\n'),
    );
  }, 480_000);

  it(`every route stays within ${BUDGET} round trips, authentication included`, () => {
    const over = Object.entries(large).filter(([, n]) => n > BUDGET);
    expect(over).toEqual([]);
  });

  it('the folded writes cost one round trip, their author check included', () => {
    const more = FOLDED_WRITES.filter((k) => small[k] !== 1 || large[k] !== 1);
    expect(more.map((k) => `${k}: ${small[k]} / ${large[k]}`)).toEqual([]);
  });

  it(`no route reads more than ${PER_STATEMENT} rows per statement beyond the rows it answers (1 row of data)`, () => {
    const over = Object.keys(small).filter((k) => excess[k]!.small! > PER_STATEMENT * statements[k]!);
    expect(over.map((k) => `${k}: ${excess[k]!.small} rows beyond the answer, ${statements[k]} statements`)).toEqual(
      [],
    );
  });

  it('rows read beyond the answer do not grow with the data, except the known cases, which do not get worse', () => {
    const worse = Object.keys(small).filter((k) => {
      const { small: s, large: l } = excess[k]!;
      return overRatchet(GROWS_WITH_DATA[k], l!, l! - s!);
    });
    expect(
      worse.map((k) => `${k}: ${excess[k]!.small} → ${excess[k]!.large} (known: ${GROWS_WITH_DATA[k] ?? 'flat'})`),
    ).toEqual([]);
  });

  it(`reads grow at most ${PER_ROW} per row answered or written, except the known cases, which do not get worse`, () => {
    const beyond = (k: string) =>
      excess[k]!.large! -
      excess[k]!.small! -
      PER_ROW * (answered[k]!.large! - answered[k]!.small! + written[k]!.large! - written[k]!.small!);
    const worse = Object.keys(small).filter((k) => overRatchet(READS_BEYOND_ROWS[k], beyond(k), beyond(k)));
    expect(worse.map((k) => `${k}: ${beyond(k)} (known: ${READS_BEYOND_ROWS[k] ?? 'none'})`)).toEqual([]);
    console.log(
      Object.keys(small)
        .filter((k) => beyond(k) > FLAT_SLACK)
        .map((k) => `reads beyond ${PER_ROW} per row answered or written: ${k} ${beyond(k)}`)
        .join('\n'),
    );
  });

  it('no route costs more with 1,000+ rows than with 1', () => {
    const grew = Object.keys(small).filter((k) => large[k] !== small[k]);
    expect(grew.map((k) => `${k}: ${small[k]} → ${large[k]}`)).toEqual([]);
  });
});
