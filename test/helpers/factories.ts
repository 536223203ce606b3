import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../../src/db/schema';
import type { Role } from '../../src/db/schema';
import { hashPassword } from '../../src/lib/password';
import { signAccessToken } from '../../src/lib/tokens';
import { nameKey } from '../../src/lib/names';

export const db = drizzle(env.DB, { schema });

let seq = 0;
/** A value no other test in the file uses. */
export const uniq = (prefix = 'x') =>
  `${prefix}-${Date.now().toString(36)}-${(seq++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** A short unique label (ano_semestre allows only 20 characters): "Item 1k3f9a2x". */
export const label = (prefix = 'Item') => `${prefix} ${(seq++).toString(36)}${Math.random().toString(36).slice(2, 8)}`;

export const PASSWORD = 'senha-segura-1';
let passwordHash: Promise<string> | undefined;
const hashed = () => (passwordHash ??= hashPassword(PASSWORD));

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: Role;
  token: string;
}

/** The session claim of an access token (to sign a variant of it in the same live session). */
export const sessionOf = (token: string): string =>
  JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).sid;

/**
 * An access token of a new live session of the user (a refresh-token family with one live token):
 * every request checks that its session is live. For an id with no user the session cannot be
 * stored, and the token is refused like any token of a deleted user.
 */
export async function tokenFor(id: string, role: Role, empresaId: string | null = null) {
  const familyId = crypto.randomUUID();
  await db
    .insert(schema.refreshTokens)
    .values({
      userId: id,
      familyId,
      tokenHash: `factory-${familyId}`,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    })
    .catch(() => {}); // no such user (a test of a deleted account)
  return (await signAccessToken({ id, role, empresaId }, env.JWT_SECRET, 900, familyId)).token;
}

/** A user inserted straight into D1 (one shared PBKDF2 hash keeps factories fast), with an access token. */
export async function makeUser(
  over: Partial<typeof schema.users.$inferInsert> & { role?: Role } = {},
): Promise<TestUser> {
  const role = over.role ?? 'agenda_viewer';
  const values = {
    id: crypto.randomUUID(),
    nome: `Pessoa ${seq}`,
    email: `${uniq('u')}@example.com`,
    senhaHash: await hashed(),
    ativo: true,
    ...over,
    role,
  };
  await db.insert(schema.users).values(values);
  return {
    id: values.id,
    email: values.email,
    password: PASSWORD,
    role,
    token: await tokenFor(values.id, role, values.empresaId ?? null),
  };
}

export const makeAdmin = (over: Parameters<typeof makeUser>[0] = {}) => makeUser({ role: 'SUPERADMIN', ...over });

/** A catalog row straight into D1 (label is the `nome` / `ano_semestre` column). */
export async function makeCatalog(
  table: schema.CatalogTable,
  regiao = 'SP',
  label = uniq('Nome'),
  id = crypto.randomUUID(),
) {
  const row = { id, regiao, label, labelKey: nameKey(label) };
  await db.insert(table).values(row);
  return row;
}

export const makeEmpresa = (regiao = 'SP') => makeCatalog(schema.empresas, regiao);
export const makeFuncao = (regiao = 'SP', nome = uniq('Fotógrafo')) => makeCatalog(schema.funcoes, regiao, nome);
export const makeTipoEvento = (regiao = 'SP', nome = uniq('Nome')) => makeCatalog(schema.tiposEventos, regiao, nome);

/** A price row straight into D1 (valor in cents, as stored). */
export async function makePreco(
  tipoEventoId: string,
  funcaoProfissionalId: string,
  opts: { regiao?: string; valorCentavos?: number } = {},
) {
  const row = {
    id: crypto.randomUUID(),
    regiao: opts.regiao ?? 'SP',
    tipoEventoId,
    funcaoProfissionalId,
    valorCentavos: opts.valorCentavos ?? 10_000,
  };
  await db.insert(schema.precos).values(row);
  return row;
}

let fotSeq = Math.floor(Math.random() * 1_000_000);
/** A unique FOT number. */
export const nextFot = () => ++fotSeq;

/** A company, course and graduation year of one region: what a FOT record references. */
export async function makeFotRefs(regiao = 'SP') {
  const [empresa, curso, ano] = await Promise.all([
    makeCatalog(schema.empresas, regiao),
    makeCatalog(schema.cursos, regiao),
    makeCatalog(schema.anosFormaturas, regiao, uniq('2026.')),
  ]);
  return { empresa: empresa!, curso: curso!, ano: ano! };
}

/** A FOT record straight into D1. */
export async function makeFot(regiao = 'SP', over: Partial<typeof schema.cadastroFot.$inferInsert> = {}) {
  const refs = await makeFotRefs(regiao);
  const [row] = await db
    .insert(schema.cadastroFot)
    .values({
      regiao,
      fot: nextFot(),
      empresaId: refs.empresa.id,
      cursoId: refs.curso.id,
      anoFormaturaId: refs.ano.id,
      ...over,
    })
    .returning();
  return { ...row!, refs };
}

/** A professional profile straight into D1, holding the given functions (the first is the main one). */
export async function makeProfissional(
  regiao = 'SP',
  over: Partial<typeof schema.profissionais.$inferInsert> = {},
  funcaoIds: string[] = [],
) {
  const [row] = await db
    .insert(schema.profissionais)
    .values({ regiao, nome: uniq('Profissional'), funcaoProfissionalId: funcaoIds[0] ?? null, ...over })
    .returning();
  if (funcaoIds.length)
    await db
      .insert(schema.profissionalFuncoes)
      .values(funcaoIds.map((funcaoId) => ({ profissionalId: row!.id, funcaoId })));
  return row!;
}

type Fot = Awaited<ReturnType<typeof makeFot>>;
type Catalog = Awaited<ReturnType<typeof makeCatalog>>;
type EventoOver = Partial<typeof schema.agenda.$inferInsert> & {
  fot?: Partial<typeof schema.cadastroFot.$inferInsert>;
};

/**
 * An event straight into D1, on 2027-05-10, with a new FOT record (`over.fot` for its columns) and a
 * new event type, unless `over` names them (`fotId`, `tipoEventoId`: then `fot` or `tipo` is undefined).
 */
export async function makeEvento<O extends EventoOver = EventoOver>(
  regiao = 'SP',
  creator: { id: string } | null = null,
  over: O = {} as O,
) {
  const { fot: fotOver, ...columns } = over;
  const fot = columns.fotId ? undefined : await makeFot(regiao, fotOver);
  const tipo = columns.tipoEventoId ? undefined : await makeTipoEvento(regiao);
  const [row] = await db
    .insert(schema.agenda)
    .values({
      regiao,
      userId: creator?.id ?? null,
      dataEvento: '2027-05-10',
      ...columns,
      fotId: columns.fotId ?? fot!.id,
      tipoEventoId: columns.tipoEventoId ?? tipo!.id,
    })
    .returning();
  return { ...row!, fot, tipo } as typeof row & {
    fot: O extends { fotId: string } ? undefined : Fot;
    tipo: O extends { tipoEventoId: string } ? undefined : Catalog;
  };
}

/**
 * A professional with a login (role `profissional`), holding `funcao` (a new function if none) or
 * the list `funcao` (possibly empty); `funcaoId` is the first one.
 */
export async function makePro(regiao = 'SP', funcao?: string | string[]) {
  const funcaoIds = Array.isArray(funcao) ? funcao : [funcao ?? (await makeFuncao(regiao)).id];
  const user = await makeUser({ role: 'profissional' });
  const prof = await makeProfissional(regiao, { usuarioId: user.id }, funcaoIds);
  return { user, prof, funcaoId: funcaoIds[0]! };
}

/** An invitation in the given state, straight into D1. */
export async function makeConvite(
  agendaId: string,
  pro: { prof: { id: string }; funcaoId: string },
  status: 'pendente' | 'aceito' | 'recusado' = 'aceito',
  over: Partial<typeof schema.convites.$inferInsert> = {},
) {
  const [row] = await db
    .insert(schema.convites)
    .values({ agendaId, profissionalId: pro.prof.id, funcaoId: pro.funcaoId, status, ...over })
    .returning();
  return row!;
}

/** A BUSINESS_OWNER whose linked professional profile is in `regiao`, the region it administers (services/accounts/profile.ts regionAdmin). */
export async function makeRegionAdmin(regiao: string) {
  const u = await makeUser({ role: 'BUSINESS_OWNER' });
  await makeProfissional(regiao, { usuarioId: u.id });
  return u;
}

/** A photo package straight into D1 (price in cents). */
export async function makePacote(regiao = 'SP', over: Partial<typeof schema.pacotes.$inferInsert> = {}) {
  const [row] = await db
    .insert(schema.pacotes)
    .values({ regiao, nome: uniq('Álbum'), precoCentavos: 89_000, parcelasMax: 10, ...over })
    .returning();
  return row!;
}

/**
 * One survey response straight into D1 (a survey of `publico`, a nota_1_5 question per criterion):
 * `ratings` are [professional id, criterion, value] items, what feeds `avaliacao_clientes`.
 */
export async function makeSurveyResponse(
  regiao: string,
  ratings: [profissionalId: string, criterio: schema.Criterio, valor: number][],
  publico: (typeof schema.PESQUISA_PUBLICOS)[number] = 'cliente',
) {
  const [survey] = await db
    .insert(schema.pesquisas)
    .values({ regiao, titulo: uniq('Pesquisa'), publico, status: 'ativa' })
    .returning();
  const criterios = [...new Set(ratings.map(([, c]) => c))];
  const perguntas = await db
    .insert(schema.pesquisaPerguntas)
    .values(
      criterios.map((criterio, ordem) => ({
        pesquisaId: survey!.id,
        ordem,
        texto: criterio,
        tipo: 'nota_1_5' as const,
        criterio,
      })),
    )
    .returning();
  const [resposta] = await db
    .insert(schema.pesquisaRespostas)
    .values({ pesquisaId: survey!.id, createdAt: new Date().toISOString() })
    .returning();
  await db.insert(schema.pesquisaRespostaItens).values(
    ratings.map(([profissionalId, criterio, valorNum]) => ({
      respostaId: resposta!.id,
      perguntaId: perguntas.find((q) => q.criterio === criterio)!.id,
      profissionalId,
      valorNum,
    })),
  );
}

/** Notifications of one user straight into D1 (9 per statement: D1 binds at most 100 parameters). */
export async function makeNotifications(
  userId: string,
  n: number,
  over: Partial<typeof schema.notifications.$inferInsert> = {},
) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: crypto.randomUUID(),
    userId,
    tipo: 'agenda_criada',
    titulo: `Aviso ${i}`,
    mensagem: `Mensagem ${i}`,
    dados: { i },
    ...over,
  }));
  for (let i = 0; i < rows.length; i += 9) await db.insert(schema.notifications).values(rows.slice(i, i + 9));
  return rows;
}

/** A user's notifications (of one kind). */
export const notificationsOf = (userId: string, tipo?: string) =>
  db
    .select()
    .from(schema.notifications)
    .where(and(eq(schema.notifications.userId, userId), tipo ? eq(schema.notifications.tipo, tipo) : undefined));

export const makeNotification = async (userId: string, over: Partial<typeof schema.notifications.$inferInsert> = {}) =>
  (await makeNotifications(userId, 1, over))[0]!;

/** The id of a region's system finance category (`sistema` key, e.g. 'logistica', 'cache_profissional'). */
export async function systemCategoryId(regiao: string, sistema: string) {
  const [row] = await db
    .select({ id: schema.categoriasFinanceiras.id })
    .from(schema.categoriasFinanceiras)
    .where(and(eq(schema.categoriasFinanceiras.regiao, regiao), eq(schema.categoriasFinanceiras.sistema, sistema)));
  return row!.id;
}
