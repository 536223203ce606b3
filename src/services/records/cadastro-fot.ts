import { and, asc, desc, eq, getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { GuardShape } from '../../db/authored';
import { cachedBatch, rows, run, type Placeholders } from '../../db/cached-batch';
import type { Db } from '../../db/client';
import { insertColumnsWhere } from '../../db/guarded';
import { keptOrCounted } from '../../db/kept-count';
import { nowIso } from '../../db/schema/columns';
import { anosFormaturas, cadastroFot, cursos, empresas, instituicoes, type CadastroFotRow } from '../../db/schema';
import type { Scope, SqlScope } from '../../db/scope';
import { scopedSelect } from '../../db/scoped-select';
import { writeThenRead } from '../../db/write-read';
import { ApiError } from '../../lib/errors';
import { fromCentavos, toCentavos } from '../../lib/money';
import { pageBounds, whenPaged, type Page } from '../../lib/pagination';
import { assertRefsInRegion, referencesChanged, refsInRegion } from '../core/references';
import { createdEntry, loggedDelete, loggedUpdate, WRITE_PARAMS, writerOf, writeValues } from '../core/activity-log';
import type { Ctx, QueryCtx, WriteCtx } from '../core/context';

/** The FOT fields a create or update may carry (validated by the route; absent = unchanged). */
export interface FotInput {
  fot?: number;
  empresa_id?: string;
  curso_id?: string;
  ano_formatura_id?: string;
  instituicao?: string | null;
  instituicao_id?: string | null;
  cidade?: string | null;
  estado?: string | null;
  observacoes?: string | null;
  gastos_captacao?: number | null;
  pre_venda?: boolean | null;
}

/** What the caller may see (docs/decisions.md#d4): administrators the region, an EVENT_OWNER its company. */
export function visible(scope: SqlScope, regiao: string | Placeholder): SQL[] {
  const conds: SQL[] = [eq(cadastroFot.regiao, regiao)];
  if (scope.role === 'EVENT_OWNER') conds.push(scope.empresaId ? eq(cadastroFot.empresaId, scope.empresaId) : sql`0`);
  return conds;
}

const notFound = () => new ApiError('NOT_FOUND', 'registro FOT não encontrado');

/**
 * FOT records with the names of their company, course and graduation year: one query. Joined
 * names are aliased: inside db.batch() D1 returns rows keyed by column name, so two `nome`
 * columns would overwrite each other.
 */
export const selectFots = (db: Db) =>
  db
    .select({
      fot: cadastroFot,
      empresaNome: sql<string>`${empresas.label}`.as('empresa_nome'),
      cursoNome: sql<string>`${cursos.label}`.as('curso_nome'),
      anoLabel: sql<string>`${anosFormaturas.label}`.as('ano_formatura_label'),
      instituicaoNome: sql<string | null>`${instituicoes.label}`.as('instituicao_nome'),
    })
    .from(cadastroFot)
    .innerJoin(empresas, eq(empresas.id, cadastroFot.empresaId))
    .innerJoin(cursos, eq(cursos.id, cadastroFot.cursoId))
    .innerJoin(anosFormaturas, eq(anosFormaturas.id, cadastroFot.anoFormaturaId))
    .leftJoin(instituicoes, eq(instituicoes.id, cadastroFot.instituicaoId));

export type FotView = {
  fot: CadastroFotRow;
  empresaNome: string;
  cursoNome: string;
  anoLabel: string;
  instituicaoNome: string | null;
};

/** With `instituicao_id` set, `instituicao` answers the catalog's name (docs/decisions.md#d23). */
export function toFotResponse({ fot: f, empresaNome, cursoNome, anoLabel, instituicaoNome }: FotView) {
  return {
    id: f.id,
    fot: f.fot,
    regiao: f.regiao,
    empresa_id: f.empresaId,
    empresa_nome: empresaNome,
    curso_id: f.cursoId,
    curso_nome: cursoNome,
    ano_formatura_id: f.anoFormaturaId,
    ano_formatura_label: anoLabel,
    instituicao: instituicaoNome ?? f.instituicao,
    instituicao_id: f.instituicaoId,
    cidade: f.cidade,
    estado: f.estado,
    observacoes: f.observacoes,
    gastos_captacao: f.gastosCaptacaoCentavos === null ? null : fromCentavos(f.gastosCaptacaoCentavos),
    pre_venda: f.preVenda,
    created_at: f.createdAt,
    updated_at: f.updatedAt,
  };
}

/** Wire fields → columns, only for the fields present (PUT changes what it carries). */
export function fotColumns(b: FotInput): Partial<typeof cadastroFot.$inferInsert> {
  const out: Partial<typeof cadastroFot.$inferInsert> = {};
  if (b.fot !== undefined) out.fot = b.fot;
  if (b.empresa_id !== undefined) out.empresaId = b.empresa_id;
  if (b.curso_id !== undefined) out.cursoId = b.curso_id;
  if (b.ano_formatura_id !== undefined) out.anoFormaturaId = b.ano_formatura_id;
  if (b.instituicao !== undefined) out.instituicao = b.instituicao;
  if (b.instituicao_id !== undefined) out.instituicaoId = b.instituicao_id;
  if (b.cidade !== undefined) out.cidade = b.cidade;
  if (b.estado !== undefined) out.estado = b.estado;
  if (b.observacoes !== undefined) out.observacoes = b.observacoes;
  if (b.gastos_captacao !== undefined)
    out.gastosCaptacaoCentavos = b.gastos_captacao === null ? null : toCentavos(b.gastos_captacao);
  if (b.pre_venda !== undefined) out.preVenda = b.pre_venda ?? false;
  return out;
}

type RefIds = { [K in 'empresa_id' | 'curso_id' | 'ano_formatura_id']?: string | Placeholder } & {
  instituicao_id?: string | null;
};
export const fotRefs = (b: RefIds) => [
  { field: 'empresa_id', table: empresas, id: b.empresa_id },
  { field: 'curso_id', table: cursos, id: b.curso_id },
  { field: 'ano_formatura_id', table: anosFormaturas, id: b.ano_formatura_id },
  { field: 'instituicao_id', table: instituicoes, id: b.instituicao_id },
];

// The reads, cached per scope shape and filter (db/scoped-select.ts).
const LIST_PARAMS = ['regiao', 'filtro', 'limit', 'offset'] as const;
type ListParams = Placeholders<(typeof LIST_PARAMS)[number]>;
const listWhere = (scope: SqlScope, filtro: boolean, p: ListParams) =>
  and(...visible(scope, p.regiao), filtro ? eq(cadastroFot.empresaId, p.filtro) : undefined);
const fotPage = scopedSelect({
  params: LIST_PARAMS,
  build: (db, scope, p, x: { filtro: boolean }) =>
    selectFots(db)
      .where(listWhere(scope, x.filtro, p))
      .orderBy(desc(cadastroFot.updatedAt), asc(cadastroFot.id))
      .limit(p.limit)
      .offset(p.offset),
});
const fotCount = scopedSelect({
  params: LIST_PARAMS,
  build: (db, scope, p, x: { filtro: boolean }) => {
    const dono = keptTotalOwner(scope, x.filtro, p);
    return keptOrCounted(
      db,
      { tabela: 'cadastro_fot', regiao: p.regiao, dono },
      cadastroFot,
      listWhere(scope, x.filtro, p),
    );
  },
});

/**
 * The contagens row (kept by triggers, drizzle/0023) that holds the list's total: the region's ('')
 * or a company's, when `visible` and the company filter select exactly that; undefined to count
 * (an EVENT_OWNER filtering by a company, or without one).
 */
function keptTotalOwner(scope: SqlScope, filtro: boolean, p: ListParams): string | Placeholder | undefined {
  if (scope.role === 'EVENT_OWNER') return scope.empresaId && !filtro ? scope.empresaId : undefined;
  return filtro ? p.filtro : '';
}
const fotById = scopedSelect({
  params: ['regiao', 'id'],
  build: (db, scope, p) => selectFots(db).where(and(eq(cadastroFot.id, p.id), ...visible(scope, p.regiao))),
});

/** A page of the caller's FOT records (and its count when paged), for one batch. */
export function fotListSelects(
  { db, regiao }: QueryCtx,
  scope: Scope,
  { empresa_id: empresaId, ...page }: { empresa_id?: string } & Page,
) {
  const x = { filtro: empresaId !== undefined };
  const values = { regiao, filtro: empresaId ?? null, ...pageBounds(page) };
  return [fotPage(db, scope, values, x), ...whenPaged(page, fotCount(db, scope, values, x))] as const;
}

export const fotByIdSelect = ({ db, regiao }: QueryCtx, scope: Scope, id: string) => fotById(db, scope, { regiao, id });

export function oneFot(rows: FotView[]) {
  if (!rows[0]) throw notFound();
  return toFotResponse(rows[0]);
}

/**
 * A folded write in one round trip: the references' check and the author's (db/authored.ts) guard
 * the insert, the log entry exists exactly when the row does, and the row read back proves the
 * author (nothing else is read). The three statements are built once per author check and set of
 * fields (db/cached-batch.ts). A refusal is explained afterwards, on that path only.
 */
export async function createFot({ db, write, regiao }: Pick<WriteCtx, 'db' | 'write' | 'regiao'>, body: FotInput) {
  const now = nowIso();
  const values: Record<string, unknown> = {
    id: crypto.randomUUID(),
    regiao,
    ...fotColumns(body),
    createdAt: now,
    updatedAt: now,
  };
  const columns = Object.keys(values) as FotColumn[];
  const bound = Object.fromEntries(FOT_COLUMNS.map((k) => [k, values[k]])) as Record<FotColumn, unknown>;
  const { view } = await write(
    (author) => fotCreate.bind(db, { author: author.cached.shape, columns }, writeValues(author, bound)),
    // Its id is new: the row exists exactly when the guarded insert wrote it.
    (r) => r.view.length > 0,
  );
  if (view.length) return oneFot(view);
  await assertRefsInRegion({ db, regiao }, fotRefs(body));
  throw referencesChanged();
}

/** Every column binds by its name; the create's shape says which were given (the others take their defaults). */
type FotColumn = string & keyof typeof cadastroFot.$inferInsert;
const FOT_COLUMNS = Object.keys(getTableColumns(cadastroFot)) as FotColumn[];
export const fotCreate = cachedBatch({
  params: [...WRITE_PARAMS, ...FOT_COLUMNS],
  build: (db, s: { author: GuardShape; columns: FotColumn[] }, p) => {
    const { guard, log } = writerOf(db, s.author, p);
    const refs = refsInRegion(
      db,
      p.regiao,
      fotRefs({ empresa_id: p.empresaId, curso_id: p.cursoId, ano_formatura_id: p.anoFormaturaId }),
    );
    // The institution is optional: its region is checked only when one is given (docs/decisions.md#d23).
    const instituicao = s.columns.includes('instituicaoId')
      ? sql`(${p.instituicaoId} is null or exists (select 1 from ${instituicoes} where ${instituicoes.id} = ${p.instituicaoId} and ${instituicoes.regiao} = ${p.regiao}))`
      : undefined;
    return {
      insert: run(insertColumnsWhere(db, cadastroFot, s.columns, p, and(guard, refs.condition, instituicao)!)),
      log: run(createdEntry({ db, log }, cadastroFot, { columns: s.columns, row: p })),
      view: rows(selectFots(db).where(eq(cadastroFot.id, p.id))),
    };
  },
});

export async function updateFot(ctx: FotWriteCtx, id: string, body: FotInput) {
  const { db, log, regiao } = ctx;
  await assertRefsInRegion(ctx, fotRefs(body));
  const where = fotWhere(regiao, id);
  const set = { ...fotColumns(body), updatedAt: new Date().toISOString() };
  const writes = loggedUpdate(
    { db, log },
    { table: cadastroFot, where, set },
    { acao: 'cadastro_fot.update', entidade: 'cadastro_fot', regiao },
  );
  const [rows] = await writeThenRead(db, [...writes], [selectFots(db).where(where)]);
  return oneFot(rows);
}

type FotWriteCtx = Pick<Ctx, 'db' | 'log' | 'regiao'>;
const fotWhere = (regiao: string, id: string) => and(eq(cadastroFot.id, id), eq(cadastroFot.regiao, regiao));

/** Agenda events that use the record refuse it (ON DELETE RESTRICT → 409 IN_USE). */
export async function deleteFot({ db, log, regiao }: FotWriteCtx, id: string) {
  const [, res] = await db.batch(
    loggedDelete(
      { db, log },
      { table: cadastroFot, where: fotWhere(regiao, id) },
      { acao: 'cadastro_fot.delete', entidade: 'cadastro_fot', regiao },
    ),
  );
  if (res.meta.changes === 0) throw notFound();
}
