/**
 * A small but complete data set for the security suites: one of every kind of row in region SP,
 * a twin of each regional row in MG, and a user of every role. Rows go straight into D1 through
 * the factories (fast); the tests then act through HTTP.
 */
import * as schema from '../../src/db/schema';
import type { Role } from '../../src/db/schema';
import {
  db,
  makeCatalog,
  makeFot,
  makePreco,
  makeProfissional,
  makeUser,
  nextFot,
  systemCategoryId,
  uniq,
  type TestUser,
} from '../helpers/factories';
import { protectedRoutes } from '../helpers/protected-routes';
import { send, UNKNOWN_ID } from '../helpers/request';
import { sha256Hex } from '../../src/lib/tokens';
import { personalCode, personalKey } from '../../src/services/checkin/codes';
import { TEST_VARS } from '../setup/vars';

const TEST_CHECKIN_SECRET = TEST_VARS.CHECKIN_SECRET;

export interface RegionRows {
  regiao: string;
  empresa: { id: string };
  curso: { id: string };
  ano: { id: string };
  funcao: { id: string };
  tipoServico: { id: string };
  tipoEvento: { id: string };
  instituicao: { id: string };
  regra: { id: string };
  feriado: { id: string };
  preco: { id: string };
  fot: { id: string; fot: number };
  agenda: { id: string };
  profissional: { id: string };
  convite: { id: string };
  importacao: { id: string };
  pacote: { id: string };
  pedido: { id: string };
  categoria: { id: string };
  lancamento: { id: string };
  repasse: { id: string };
  chamado: { id: string };
  pesquisa: { id: string };
  campanha: { id: string };
  presenca: { id: string };
  /** Two ledger rows of the region's professional (D28): one to contest, one contested (`contestacao`, open). */
  confiabilidadeEvento: { id: string };
  contestacao: { id: string };
}

export interface World {
  /** One active user of every role (the profissional is linked to `sp.profissional`). */
  users: Record<Role, TestUser>;
  admin: TestUser;
  sp: RegionRows;
  mg: RegionRows;
  /** A notification of the admin and one of the profissional user. */
  notificationOfAdmin: { id: string };
  notificationOfProf: { id: string };
}

export async function insertNotification(userId: string) {
  const id = crypto.randomUUID();
  await db
    .insert(schema.notifications)
    .values({ id, userId, tipo: 'agenda_criada', titulo: 'Aviso', mensagem: 'Mensagem', dados: {} });
  return { id };
}

export async function insertConvite(
  agendaId: string,
  profissionalId: string,
  funcaoId: string,
  over: Partial<typeof schema.convites.$inferInsert> = {},
) {
  const [row] = await db
    .insert(schema.convites)
    .values({ agendaId, profissionalId, funcaoId, ...over })
    .returning();
  return row!;
}

export async function insertAgenda(
  regiao: string,
  fotId: string,
  tipoEventoId: string,
  userId: string | null,
  dataEvento = '2026-12-05',
) {
  const [row] = await db.insert(schema.agenda).values({ regiao, fotId, tipoEventoId, userId, dataEvento }).returning();
  return row!;
}

async function regionRows(
  regiao: string,
  creatorId: string,
  profUserId: string | null,
  inviterId: string,
): Promise<RegionRows> {
  const fot = await makeFot(regiao);
  const [curso, funcao, tipoServico, tipoEvento] = await Promise.all([
    makeCatalog(schema.cursos, regiao),
    makeCatalog(schema.funcoes, regiao),
    makeCatalog(schema.tiposServicos, regiao),
    makeCatalog(schema.tiposEventos, regiao),
  ]);
  const instituicao = await makeCatalog(schema.instituicoes as unknown as schema.CatalogTable, regiao);
  const preco = await makePreco(tipoEvento.id, funcao.id, { regiao });
  const agenda = await insertAgenda(regiao, fot.id, tipoEvento.id, creatorId);
  const profissional = await makeProfissional(
    regiao,
    {
      usuarioId: profUserId,
      banco: 'Banco X',
      agencia: '0001',
      contaPix: 'pix@example.com',
      cpfCnpjTitular: '52998224725',
      tipoCartao: 'debito',
    },
    [funcao.id],
  );
  const convite = await insertConvite(agenda.id, profissional.id, funcao.id, { convidadoPor: inviterId });
  // A presence (D27) of that invitation, recorded by hand.
  const [presenca] = await db
    .insert(schema.presencas)
    .values({
      conviteId: convite.id,
      agendaId: agenda.id,
      profissionalId: profissional.id,
      tipo: 'entrada',
      momento: '2035-01-10T22:00:00.000Z',
      origem: 'manual',
      situacao: 'revisar',
    })
    .returning();
  // A validated spreadsheet import with nothing to write (docs/decisions.md#d20).
  const [importacao] = await db
    .insert(schema.importacoes)
    .values({ regiao, tipo: 'cadastro-fot', status: 'validado', total: 1, criar: 0, atualizar: 0, iguais: 1, erro: 0 })
    .returning({ id: schema.importacoes.id });
  const [pacote] = await db
    .insert(schema.pacotes)
    .values({ regiao, nome: uniq('Pacote'), precoCentavos: 50_000, parcelasMax: 6 })
    .returning();
  const [pedido] = await db
    .insert(schema.pedidos)
    .values({
      regiao,
      fotId: fot.id,
      pacoteId: pacote!.id,
      pacoteNome: pacote!.nome,
      compradorNome: 'Formando',
      compradorEmail: 'formando@example.com',
      compradorCpf: '52998224725',
      valorCentavos: 50_000,
      parcelas: 1,
      expiraEm: '2099-01-01T00:00:00.000Z',
      criadoPor: inviterId,
      idempotencyKey: uniq('world'),
      requestHash: 'world',
    })
    .returning();
  const [categoria] = await db
    .insert(schema.categoriasFinanceiras)
    .values({ regiao, label: uniq('Categoria'), labelKey: uniq('categoria'), tipo: 'despesa' })
    .returning();
  const [lancamento] = await db
    .insert(schema.lancamentos)
    .values({
      regiao,
      tipo: 'despesa',
      categoriaId: categoria!.id,
      descricao: 'Van',
      valorCentavos: 10_000,
      vencimento: '2027-01-10',
    })
    .returning();
  // An approved payout batch with one line of the region's professional (its PIX file can be read).
  const [repasse] = await db
    .insert(schema.repasses)
    .values({
      regiao,
      de: '2027-01-01',
      ate: '2027-01-31',
      status: 'aprovado',
      totalBrutoCentavos: 10_000,
      totalInssCentavos: 0,
      totalIrrfCentavos: 0,
      totalIssCentavos: 0,
      totalLiquidoCentavos: 10_000,
      qtdLancamentos: 0,
    })
    .returning({ id: schema.repasses.id });
  await db.insert(schema.repasseItens).values({
    repasseId: repasse!.id,
    profissionalId: profissional.id,
    nome: profissional.nome,
    cpfCnpj: '52998224725',
    regimeFiscal: 'mei',
    valorBrutoCentavos: 10_000,
    inssCentavos: 0,
    irrfCentavos: 0,
    issCentavos: 0,
    valorLiquidoCentavos: 10_000,
    chavePix: 'pix@example.com',
    tipoChavePix: 'email',
  });
  const [chamado] = await db
    .insert(schema.chamados)
    .values({ regiao, solicitanteId: inviterId, assunto: 'Chamado do mundo', categoria: 'outro' })
    .returning();
  // An active survey without responses (so its questions can still change) and without criterio questions.
  const [pesquisa] = await db
    .insert(schema.pesquisas)
    .values({ regiao, titulo: 'Pesquisa do mundo', publico: 'cliente', status: 'ativa' })
    .returning();
  await db
    .insert(schema.pesquisaPerguntas)
    .values({ pesquisaId: pesquisa!.id, ordem: 1, texto: 'Nota', tipo: 'nota_1_5', obrigatoria: true });
  // An open season poll asking the region's professional (its function).
  const [campanha] = await db
    .insert(schema.campanhasDisponibilidade)
    .values({ regiao, nome: 'Temporada do mundo', de: '2035-03-01', ate: '2035-03-31', prazo: '2035-02-20' })
    .returning();
  await db.insert(schema.campanhaFuncoes).values({ campanhaId: campanha!.id, funcaoId: funcao.id });
  // A company rule (D25) and a municipal day of the region.
  const [regra] = await db
    .insert(schema.regras)
    .values({
      regiao,
      nome: 'Regra do mundo',
      escopo: 'empresa',
      vigenciaInicio: '2035-01-01',
      definicao: JSON.stringify({ quotas: [], prazos: [], taxas: [], documentos: ['nome_completo'] }),
    })
    .returning();
  const [feriado] = await db
    .insert(schema.feriados)
    .values({
      regiao,
      data: '2035-03-19',
      nome: 'Dia do mundo',
      tipo: 'feriado',
      escopo: 'municipio',
      cidadeIbge: 3509502,
      uf: 'SP',
    })
    .returning();
  // The reliability ledger (D28): a row left to contest, and one with an open contest.
  const [livre, contestado] = await db
    .insert(schema.confiabilidadeEventos)
    .values(
      [20, 75].map((minutos) => ({
        profissionalId: profissional.id,
        regiao,
        tipo: 'chegada' as const,
        minutos,
        credito: minutos > 60 ? 0.2 : 0.5,
        peso: 1,
        ocorridoEm: new Date().toISOString(),
      })),
    )
    .returning();
  const [contestacao] = await db
    .insert(schema.confiabilidadeContestacoes)
    .values({ eventoId: contestado!.id, profissionalId: profissional.id, regiao, motivo: 'Trânsito parado' })
    .returning();
  return {
    regra: regra!,
    feriado: feriado!,
    confiabilidadeEvento: livre!,
    contestacao: contestacao!,
    campanha: campanha!,
    presenca: presenca!,
    chamado: chamado!,
    pesquisa: pesquisa!,
    regiao,
    categoria: categoria!,
    lancamento: lancamento!,
    repasse: repasse!,
    empresa: fot.refs.empresa,
    curso,
    ano: fot.refs.ano,
    funcao,
    tipoServico,
    tipoEvento,
    instituicao,
    preco,
    fot: { id: fot.id, fot: fot.fot },
    agenda,
    profissional,
    convite,
    importacao: importacao!,
    pacote: pacote!,
    pedido: pedido!,
  };
}

export async function makeWorld(): Promise<World> {
  const empresa = await makeCatalog(schema.empresas, 'SP');
  const roles: Role[] = ['SUPERADMIN', 'BUSINESS_OWNER', 'EVENT_OWNER', 'RESEARCHER', 'agenda_viewer', 'profissional'];
  const list = await Promise.all(
    roles.map((role) => makeUser({ role, ...(role === 'EVENT_OWNER' ? { empresaId: empresa.id } : {}) })),
  );
  const users = Object.fromEntries(roles.map((r, i) => [r, list[i]!])) as Record<Role, TestUser>;
  const sp = await regionRows('SP', users.agenda_viewer.id, users.profissional.id, users.SUPERADMIN.id);
  const mg = await regionRows('MG', users.agenda_viewer.id, null, users.SUPERADMIN.id);
  return {
    users,
    admin: users.SUPERADMIN,
    sp,
    mg,
    notificationOfAdmin: await insertNotification(users.SUPERADMIN.id),
    notificationOfProf: await insertNotification(users.profissional.id),
  };
}

/** The real id that a path's `{id}` names, by the resource the path is under; undefined when unknown. */
export function realIdFor(path: string, rows: RegionRows, w: World): string | undefined {
  const table: [RegExp, () => string][] = [
    [/^\/api\/admin\/users\/\{id\}/, () => w.users.RESEARCHER.id],
    [/^\/api\/anos-formaturas\/\{id\}/, () => rows.ano.id],
    [/^\/api\/cursos\/\{id\}/, () => rows.curso.id],
    [/^\/api\/empresas\/\{id\}/, () => rows.empresa.id],
    [/^\/api\/funcoes\/\{id\}/, () => rows.funcao.id],
    [/^\/api\/tipos-servicos\/\{id\}/, () => rows.tipoServico.id],
    [/^\/api\/tipos-eventos\/\{id\}/, () => rows.tipoEvento.id],
    [/^\/api\/instituicoes\/\{id\}/, () => rows.instituicao.id],
    [/^\/api\/cadastro-fot\/\{id\}/, () => rows.fot.id],
    [/^\/api\/profissionais\/\{id\}/, () => rows.profissional.id],
    [/^\/api\/agenda\/\{id\}/, () => rows.agenda.id],
    [/^\/api\/convites\/\{id\}/, () => rows.convite.id],
    [/^\/api\/v1\/notifications\/\{id\}/, () => w.notificationOfAdmin.id],
    [/^\/api\/importacoes\/\{id\}/, () => rows.importacao.id],
    [/^\/api\/pacotes\/\{id\}/, () => rows.pacote.id],
    [/^\/api\/pedidos\/\{id\}/, () => rows.pedido.id],
    [/^\/api\/financeiro\/categorias\/\{id\}/, () => rows.categoria.id],
    [/^\/api\/financeiro\/lancamentos\/\{id\}/, () => rows.lancamento.id],
    [/^\/api\/financeiro\/repasses\/\{id\}/, () => rows.repasse.id],
    [/^\/api\/vagas\/\{id\}/, () => rows.agenda.id],
    [/^\/api\/chamados\/\{id\}/, () => rows.chamado.id],
    [/^\/api\/pesquisas\/\{id\}/, () => rows.pesquisa.id],
    [/^\/api\/campanhas-disponibilidade\/\{id\}/, () => rows.campanha.id],
    [/^\/api\/regras\/\{id\}/, () => rows.regra.id],
    [/^\/api\/feriados\/\{id\}/, () => rows.feriado.id],
    [/^\/api\/presencas\/\{id\}/, () => rows.presenca.id],
    [/^\/api\/confiabilidade\/contestacoes\/\{id\}/, () => rows.contestacao.id],
  ];
  return table.find(([re]) => re.test(path))?.[1]();
}

/**
 * The query parameters a route requires, as `name=value&...` from the region's rows (GET
 * /api/agenda/{id}/candidatos's funcao_id); empty when it requires none the table knows.
 */
export function requiredQuery(op: Pick<Operation, 'queryParams'>, rows: RegionRows): string {
  const values: Record<string, () => string> = { funcao_id: () => rows.funcao.id };
  return op.queryParams
    .filter((p) => p.required && values[p.name])
    .map((p) => `${p.name}=${values[p.name]!()}`)
    .join('&');
}

export interface Operation {
  method: string;
  path: string;
  secured: boolean;
  regional: boolean;
  /** The JSON schema of the request body, $refs resolved one level (properties, required). */
  body?: JsonSchema;
  queryParams: { name: string; schema: JsonSchema; required?: boolean }[];
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  maximum?: number;
  minimum?: number;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  $ref?: string;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  [k: string]: unknown;
}

export interface ApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: unknown;
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema> };
}

export async function openApi(): Promise<ApiDoc> {
  return (await send('GET', '/openapi.json')).json();
}

/** Follows `$ref`s to components (recursively for nested properties and items). */
export function resolve(doc: ApiDoc, s: JsonSchema | undefined, depth = 0): JsonSchema | undefined {
  if (!s || depth > 8) return s;
  if (s.$ref) return resolve(doc, doc.components.schemas[s.$ref.split('/').pop()!], depth + 1);
  const out: JsonSchema = { ...s };
  if (s.properties)
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, resolve(doc, v, depth + 1)!]));
  if (s.items) out.items = resolve(doc, s.items, depth + 1);
  for (const key of ['anyOf', 'allOf', 'oneOf'] as const)
    if (s[key]) out[key] = s[key]!.map((x) => resolve(doc, x, depth + 1)!);
  return out;
}

/** Every operation of the document, with its body schema resolved. */
export function operations(doc: ApiDoc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      secured: Array.isArray(op.security) && op.security.length > 0,
      regional: (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'x-regiao'),
      body: resolve(doc, op.requestBody?.content?.['application/json']?.schema),
      queryParams: (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: p.name, schema: resolve(doc, p.schema) ?? {}, required: p.required === true })),
    })),
  );
}

/** The first schema of a union that is not null (`["string","null"]` and `anyOf: [X, {type: null}]`). */
export function nonNull(s: JsonSchema | undefined): JsonSchema | undefined {
  if (!s) return s;
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return nonNull(alt.find((x) => x.type !== 'null')) ?? s;
  return s;
}

export const typeOf = (s: JsonSchema | undefined) => {
  const t = nonNull(s)?.type;
  return Array.isArray(t) ? t.find((x) => x !== 'null') : t;
};

let anoSeq = 0;
/** A unique graduation-year label within its 20 characters: "2047.k3f9a2". */
const anoSemestre = () =>
  `20${10 + Math.floor(Math.random() * 90)}.${(++anoSeq).toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/**
 * A body that the route accepts (or that fails only for business reasons, never validation), built
 * fresh for each call: unique names, e-mails and FOT numbers. Keyed by "METHOD /path/{id}" as the
 * OpenAPI document names the route; a new route with a body adds a line here (owasp.test.ts checks).
 */
export function validBody(key: string, w: World, rows: RegionRows = w.sp): unknown {
  const bodies: Record<string, () => unknown> = {
    'POST /auth/register': () => ({
      email: `${uniq('reg')}@example.com`,
      senha: 'segredo123',
      nome: 'Maria Silva',
      role: 'profissional',
    }),
    'POST /auth/login': () => ({ email: `${uniq('nobody')}@example.com`, senha: 'segredo123' }),
    'POST /auth/refresh': () => ({}),
    'POST /auth/logout': () => ({}),
    'PUT /api/me': () => ({ telefone: '11 99999-0000' }),
    'PUT /api/users/me': () => ({ telefone: '11 99999-0000' }),
    'PUT /api/me/canais': () => ({ whatsapp: false }),
    'POST /auth/forgot-password': () => ({ email: `${uniq('esqueci')}@example.com` }),
    // An unknown token: refused for a business reason (INVALID_RESET_TOKEN), never for validation.
    'POST /auth/reset-password': () => ({ token: uniq('token'), nova_senha: 'segredo123' }),
    'POST /api/admin/users': () => ({
      email: `${uniq('adm')}@example.com`,
      senha: 'segredo123',
      nome: 'Nova Conta',
      role: 'RESEARCHER',
    }),
    'PATCH /api/admin/users/{id}/role': () => ({ role: 'RESEARCHER' }),
    'POST /api/anos-formaturas': () => ({ ano_semestre: anoSemestre() }),
    'PUT /api/anos-formaturas/{id}': () => ({ ano_semestre: anoSemestre() }),
    'POST /api/cursos': () => ({ nome: uniq('Curso') }),
    'PUT /api/cursos/{id}': () => ({ nome: uniq('Curso') }),
    'POST /api/empresas': () => ({ nome: uniq('Empresa') }),
    'PUT /api/empresas/{id}': () => ({ nome: uniq('Empresa') }),
    'POST /api/funcoes': () => ({ nome: uniq('Funcao') }),
    'PUT /api/funcoes/{id}': () => ({ nome: uniq('Funcao') }),
    'POST /api/tipos-servicos': () => ({ nome: uniq('Servico') }),
    'PUT /api/tipos-servicos/{id}': () => ({ nome: uniq('Servico') }),
    'POST /api/tipos-eventos': () => ({ nome: uniq('Evento') }),
    'PUT /api/tipos-eventos/{id}': () => ({ nome: uniq('Evento') }),
    'POST /api/instituicoes': () => ({ nome: uniq('Instituicao'), sigla: 'UX', cidade_ibge: 3509502 }),
    'PUT /api/instituicoes/{id}': () => ({ nome: uniq('Instituicao'), sigla: 'UY', cidade_ibge: 3550308 }),
    'PUT /api/deslocamentos': () => ({
      itens: [{ origem_ibge: 3509502, destino_ibge: 3550308, minutos: 90, fonte: 'equipe' }],
    }),
    'POST /api/tipos-eventos/precos': () => ({
      tipo_evento_id: rows.tipoEvento.id,
      funcao_profissional_id: rows.funcao.id,
      valor: 350.5,
    }),
    'POST /api/cadastro-fot': () => ({
      fot: nextFot(),
      empresa_id: rows.empresa.id,
      curso_id: rows.curso.id,
      ano_formatura_id: rows.ano.id,
    }),
    'PUT /api/cadastro-fot/{id}': () => ({ cidade: 'Santos' }),
    'POST /api/campanhas-disponibilidade': () => ({
      nome: 'Temporada',
      de: '2035-03-01',
      ate: '2035-03-31',
      funcao_ids: [rows.funcao.id],
      prazo: '2035-02-20',
    }),
    'PUT /api/campanhas-disponibilidade/{id}/respostas': () => ({ datas: [{ data: '2035-03-02', resposta: 'sim' }] }),
    'POST /api/planejamento/simulacao': () => ({
      eventos: [
        {
          data_evento: '2035-03-02',
          tipo_evento_id: rows.tipoEvento.id,
          equipe: [{ funcao_id: rows.funcao.id, quantidade: 2 }],
        },
      ],
    }),
    'PUT /api/equipamentos': () => ({ itens: [{ recurso: 'qtd_estudios', quantidade: 2 }] }),
    'POST /api/profissionais/me/disponibilidades': () => ({ tipo: 'preferencial', data_inicio: '2035-01-10' }),
    'POST /api/profissionais/me/confiabilidade/contestacoes': () => ({
      evento_id: rows.confiabilidadeEvento.id,
      motivo: 'O portão estava fechado',
    }),
    'PATCH /api/confiabilidade/contestacoes/{id}': () => ({ decisao: 'manter', resposta: 'Registro mantido' }),
    'POST /api/profissionais/{id}/disponibilidades': () => ({ tipo: 'preferencial', data_inicio: '2035-01-10' }),
    'POST /api/profissionais': () => ({ nome: uniq('Profissional') }),
    'PUT /api/profissionais/{id}': () => ({ whatsapp: '11 98888-0000' }),
    'POST /api/v1/notifications/push-token': () => ({
      token: `ExponentPushToken[${uniq('t')}]`,
      plataforma: 'android',
    }),
    'DELETE /api/v1/notifications/push-token': () => ({ token: `ExponentPushToken[${uniq('t')}]` }),
    'POST /api/agenda': () => ({ fot_id: rows.fot.id, tipo_evento_id: rows.tipoEvento.id, data_evento: '2026-12-01' }),
    'PUT /api/agenda/{id}': () => ({ horario: '10:00' }),
    'PUT /api/agenda/{id}/equipe': () => [{ funcao_id: rows.funcao.id, quantidade: 3 }],
    'POST /api/agenda/{id}/convites': () => ({ profissional_id: rows.profissional.id, funcao_id: rows.funcao.id }),
    'PATCH /api/convites/{id}': () => ({ status: 'recusado' }),
    'POST /api/agenda/{id}/convites/lote': () => ({
      funcao_id: rows.funcao.id,
      profissional_ids: [rows.profissional.id],
    }),
    'PUT /api/ranking/pesos': () => ({
      distancia: 20,
      avaliacao: 20,
      confiabilidade: 25,
      rodizio: 15,
      funcao: 5,
      preferencia: 5,
      responsividade: 10,
    }),
    'POST /api/pacotes': () => ({ nome: uniq('Pacote'), preco: 250.5, parcelas_max: 3 }),
    'PUT /api/pacotes/{id}': () => ({ descricao: 'Capa dura' }),
    'POST /api/financeiro/categorias': () => ({ nome: uniq('Categoria'), tipo: 'despesa' }),
    'PUT /api/financeiro/categorias/{id}': () => ({ nome: uniq('Categoria'), tipo: 'despesa' }),
    'POST /api/financeiro/lancamentos': () => ({
      tipo: 'despesa',
      categoria_id: rows.categoria.id,
      descricao: 'Van',
      valor: 150.5,
      vencimento: '2027-01-10',
    }),
    'POST /api/financeiro/lancamentos/{id}/pagar': () => ({ pago_em: '2027-01-11' }),
    'POST /api/financeiro/lancamentos/{id}/estornar': () => ({ pago_em: '2027-01-12' }),
    'POST /api/financeiro/repasses': () => ({ de: '2027-01-01', ate: '2027-01-31' }),
    'POST /api/financeiro/repasses/{id}/pagar': () => ({ pago_em: '2027-02-05' }),
    'POST /api/financeiro/contratos': () => ({
      fot_id: rows.fot.id,
      valor_total: 1000,
      parcelas: 3,
      primeiro_vencimento: '2027-01-31',
    }),
    'PUT /api/financeiro/tabelas-tributarias/{vigencia}': () => ({
      inss_aliquota: 11,
      inss_teto: 7786.02,
      irrf_faixas: [
        { ate: 2259.2, aliquota: 0, deducao: 0 },
        { ate: null, aliquota: 27.5, deducao: 896 },
      ],
      iss_aliquota: 5,
    }),
    'POST /api/pedidos': () => ({
      fot_id: rows.fot.id,
      pacote_id: rows.pacote.id,
      comprador_nome: 'Formando Teste',
      comprador_email: `${uniq('formando')}@example.com`,
      comprador_cpf: '529.982.247-25',
      parcelas: 2,
    }),
    'PUT /api/agenda/{id}/logistica': () => ({ traje: 'Preto social', transporte: 'van' }),
    'PATCH /api/agenda/{id}/logistica': () => ({ credenciamento_enviado_em: '2035-01-02' }),
    // Institution rules (D25): a company rule sizing studios; a version starting on a day of its own.
    'POST /api/regras': () => ({
      nome: uniq('Regra'),
      escopo: 'empresa',
      vigencia_inicio: `2040-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(Math.random() * 28)).padStart(2, '0')}`,
      definicao: { quotas: [{ recurso: 'qtd_estudios', por_formandos: 20, arredondar: 'cima', limite: 'minimo' }] },
    }),
    'PUT /api/regras/{id}': () => ({
      nome: 'Regra do mundo',
      escopo: 'empresa',
      vigencia_inicio: '2035-01-01',
      definicao: { documentos: ['nome_completo', 'funcao'] },
    }),
    'POST /api/regras/validar': () => ({
      regra: {
        nome: 'Rascunho',
        escopo: 'empresa',
        vigencia_inicio: '2035-01-01',
        definicao: { quotas: [{ funcao_id: rows.funcao.id, por_formandos: 20, arredondar: 'cima', limite: 'maximo' }] },
      },
      evento: { data_evento: '2035-03-20', qtd_formandos: 57, uf: 'SP' },
    }),
    'POST /api/feriados': () => ({
      data: `2036-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(Math.random() * 28)).padStart(2, '0')}`,
      nome: 'Dia da cidade',
      tipo: 'feriado',
      escopo: 'municipio',
      cidade_ibge: 3509502,
    }),
    // QR check-in (D27): bodies refused for business reasons only (an unknown code, a past momento).
    'PUT /api/agenda/{id}/checkin': () => ({ raio_checkin_m: 250 }),
    'POST /api/agenda/{id}/presencas/leituras': () => ({ tokens: ['A'.repeat(44)] }),
    'POST /api/agenda/{id}/presencas/manual': () => ({
      convite_id: rows.convite.id,
      tipo: 'entrada',
      momento: '2030-01-01T00:00:00.000Z',
      motivo: 'teste',
    }),
    'POST /api/presencas': () => ({ token: 'A'.repeat(44), tipo: 'entrada' }),
    'PATCH /api/presencas/{id}': () => ({ situacao: 'ok' }),
    'POST /api/convites/{id}/falta': () => ({ motivo: 'não veio' }),
    'DELETE /api/convites/{id}/falta': () => ({ motivo: 'pessoa errada' }),
    'POST /api/vagas/{id}/candidaturas': () => ({ funcao_id: rows.funcao.id }),
    'POST /api/chamados': () => ({ assunto: 'Ajuda', categoria: 'outro', mensagem: 'Preciso de ajuda' }),
    'PATCH /api/chamados/{id}': () => ({ status: 'em_andamento', prioridade: 'alta' }),
    'POST /api/chamados/{id}/mensagens': () => ({ corpo: 'Mais detalhes' }),
    'POST /api/pesquisas': () => ({
      titulo: 'Pesquisa',
      publico: 'cliente',
      perguntas: [{ texto: 'Nota', tipo: 'nota_1_5', obrigatoria: true }],
    }),
    'PUT /api/pesquisas/{id}': () => ({ titulo: 'Pesquisa do mundo' }),
    'POST /api/pesquisas/{id}/envios': () => ({
      destinatarios: [{ email: `${uniq('dest')}@example.com`, nome: 'Ana' }],
    }),
    // An unknown link: refused for a business reason (404), never for validation.
    'POST /p/pesquisas/{token}/respostas': () => ({ respostas: [{ pergunta_id: UNKNOWN_ID, valor: 4 }] }),
  };
  return bodies[key]?.();
}

export const opKey = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

/** The role a route is called with: an administrator where allowed, else the first allowed role. */
export function callerFor(op: { method: string; path: string }, w: World): TestUser {
  const route = protectedRoutes.find(
    (r) => r.method === op.method && r.path.replaceAll(UNKNOWN_ID, '{id}') === op.path,
  );
  if (!route || route.allowed.includes('SUPERADMIN')) return w.admin;
  return w.users[route.allowed[0]!];
}

/**
 * Arrays whose items are not function quotas: a call with exactly `n` real items (body, and the
 * path when the route needs a fresh resource), for the "accepts maxItems real entries" check.
 */
export async function realArrayCall(
  key: string,
  field: string,
  n: number,
  w: World,
): Promise<{ path?: string; body: unknown } | undefined> {
  const perguntas = () => Array.from({ length: n }, (_, i) => ({ texto: `Pergunta ${i + 1}`, tipo: 'texto' }));
  switch (`${key} ${field}`) {
    case 'POST /api/financeiro/repasses profissional_ids': {
      // n professionals, each with one fee of an event in a month no other test uses.
      const rows = w.sp;
      const agenda = await insertAgenda('SP', rows.fot.id, rows.tipoEvento.id, w.admin.id, '2035-03-10');
      const categoriaId = await systemCategoryId('SP', 'cache_profissional');
      const ids = Array.from({ length: n }, () => crypto.randomUUID());
      await db.batch(
        ids.flatMap((id) => [
          db.insert(schema.profissionais).values({ id, regiao: 'SP', nome: uniq('Prof') }),
          db.insert(schema.lancamentos).values({
            regiao: 'SP',
            tipo: 'despesa',
            categoriaId,
            descricao: 'Cachê',
            valorCentavos: 10_000,
            vencimento: '2035-03-10',
            agendaId: agenda.id,
            profissionalId: id,
            origem: 'cache',
          }),
        ]) as never,
      );
      return { body: { de: '2035-03-01', ate: '2035-03-31', profissional_ids: ids } };
    }
    case 'PUT /api/deslocamentos itens':
      // n distinct pairs of real cities (codes read from the loaded table).
      return {
        body: {
          itens: (await db.select({ c: schema.cidades.codigoIbge }).from(schema.cidades).limit(n)).map(({ c }) => ({
            origem_ibge: 3509502,
            destino_ibge: c,
            minutos: 60,
          })),
        },
      };
    case 'POST /api/profissionais/me/disponibilidades dias_semana':
    case 'POST /api/profissionais/{id}/disponibilidades dias_semana':
      // Every weekday: the whole week, repeating.
      return {
        body: {
          tipo: 'preferencial',
          data_inicio: '2035-02-01',
          data_fim: '2035-02-28',
          dias_semana: Array.from({ length: n }, (_, i) => i),
        },
      };
    case 'PUT /api/campanhas-disponibilidade/{id}/respostas datas': {
      // A poll of n days asking the world's professional (it holds the region's function).
      const de = '2036-01-01';
      const ate = new Date(Date.UTC(2036, 0, n)).toISOString().slice(0, 10);
      const res = await send('POST', '/api/campanhas-disponibilidade', {
        headers: { authorization: `Bearer ${w.admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ nome: 'Grande', de, ate, funcao_ids: [w.sp.funcao.id], prazo: de }),
      });
      const { id } = (await res.json()) as { id: string };
      return {
        path: `/api/campanhas-disponibilidade/${id}/respostas`,
        body: {
          datas: Array.from({ length: n }, (_, i) => ({
            data: new Date(Date.UTC(2036, 0, 1 + i)).toISOString().slice(0, 10),
            resposta: (['sim', 'nao', 'talvez'] as const)[i % 3],
          })),
        },
      };
    }
    case 'POST /api/agenda/{id}/presencas/leituras tokens': {
      // n well-formed personal codes (D27) of invitations that do not exist: each refused on its own, 200.
      const key = await personalKey(TEST_CHECKIN_SECRET);
      const step = Math.floor(Date.now() / 15_000);
      const tokens = await Promise.all(
        Array.from({ length: n }, () => personalCode(key, { conviteId: crypto.randomUUID(), step })),
      );
      return { body: { tokens } };
    }
    case 'POST /api/planejamento/simulacao eventos':
      // n hypothetical events of the region's type and function, one a day.
      return {
        body: {
          de: '2035-03-01',
          ate: '2035-03-31',
          eventos: Array.from({ length: n }, (_, i) => ({
            data_evento: new Date(Date.UTC(2035, 2, 1 + (i % 31))).toISOString().slice(0, 10),
            horario: '19:00',
            cidade_ibge: 3509502,
            tipo_evento_id: w.sp.tipoEvento.id,
            equipe: [{ funcao_id: w.sp.funcao.id, quantidade: 2 }],
          })),
        },
      };
    case 'PUT /api/equipamentos itens':
      return { body: { itens: schema.RECURSOS.slice(0, n).map((recurso) => ({ recurso, quantidade: 1 })) } };
    case 'POST /api/pesquisas perguntas':
      return { body: { titulo: 'Pesquisa grande', publico: 'cliente', perguntas: perguntas() } };
    case 'PUT /api/pesquisas/{id} perguntas':
      return { body: { perguntas: perguntas() } };
    case 'POST /api/pesquisas/{id}/envios destinatarios':
      return {
        body: { destinatarios: Array.from({ length: n }, () => ({ email: `${uniq('dest')}@example.com` })) },
      };
    case 'POST /p/pesquisas/{token}/respostas respostas': {
      // n answers: criterio questions asked once per member of a 6-professional team.
      const team = 6;
      const rows = w.sp;
      const agenda = await insertAgenda('SP', rows.fot.id, rows.tipoEvento.id, w.admin.id);
      const pros: string[] = [];
      for (let i = 0; i < team; i++) {
        const p = await makeProfissional('SP', {}, [rows.funcao.id]);
        await insertConvite(agenda.id, p.id, rows.funcao.id, { status: 'aceito' });
        pros.push(p.id);
      }
      const [pesquisa] = await db
        .insert(schema.pesquisas)
        .values({ regiao: 'SP', titulo: 'Grande', publico: 'cliente', status: 'ativa' })
        .returning();
      const qs = Array.from({ length: Math.ceil(n / team) }, (_, i) => ({
        id: crypto.randomUUID(),
        pesquisaId: pesquisa!.id,
        ordem: i + 1,
        texto: `Critério ${i + 1}`,
        tipo: 'nota_1_5' as const,
        criterio: 'qual_tec' as const,
      }));
      for (let i = 0; i < qs.length; i += 10) await db.insert(schema.pesquisaPerguntas).values(qs.slice(i, i + 10));
      const token = uniq('token');
      await db.insert(schema.pesquisaEnvios).values({
        pesquisaId: pesquisa!.id,
        agendaId: agenda.id,
        email: `${uniq('l')}@example.com`,
        tokenHash: await sha256Hex(token),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        createdAt: new Date().toISOString(),
      });
      const respostas = qs.flatMap((q) => pros.map((p) => ({ pergunta_id: q.id, profissional_id: p, valor: 4 })));
      return { path: `/p/pesquisas/${token}/respostas`, body: { respostas: respostas.slice(0, n) } };
    }
  }
  return undefined;
}
