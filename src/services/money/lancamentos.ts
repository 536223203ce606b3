import {
  and,
  asc,
  count,
  eq,
  getTableColumns,
  gte,
  inArray,
  isNull,
  lte,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { AuthoredWrite, GuardShape } from '../../db/authored';
import type { Db } from '../../db/client';
import { keptOrCounted } from '../../db/kept-count';
import { isKept } from '../../db/kept-columns';
import { withTotal } from '../../db/list-total';
import { insertColumnsWhere } from '../../db/guarded';
import { cachedBatch, cachedSelect, rows, run } from '../../db/cached-batch';
import type { Scope } from '../../db/scope';
import {
  agenda,
  cadastroFot,
  categoriasFinanceiras,
  contratos,
  lancamentos,
  profissionais,
  somasLancamentos,
  type CategoriaFinanceiraRow,
  type ContratoRow,
  type LancamentoRow,
  type LancamentoStatus,
  type TipoLancamento,
} from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { writeThenRead } from '../../db/write-read';
import { saoPauloDate } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { addMonths, fromCentavos, splitCentavos, toCentavos } from '../../lib/money';
import { pageBounds, totalOf, whenPaged, type Page } from '../../lib/pagination';
import {
  created,
  createdEntry,
  logStatement,
  WRITE_PARAMS,
  writerOf,
  writeValues,
  type LogCtx,
} from '../core/activity-log';
import { countCatalog, deleteCatalog, insertCatalog, listCatalog, updateCatalog } from '../catalogs/catalogs';
import { assertRefsInRegion, referencesChanged, refsInRegion } from '../core/references';
import {
  cancelarStatements,
  ensureSystemCategories,
  entryInsert,
  entryValues,
  estornoStatements,
  pagarStatements,
} from './financeiro';

/**
 * Finance routes' queries (docs/decisions.md#d18-finance, docs/guide/money.md): categories, entries,
 * contracts and the result. The batchable builders they share with other aggregates are in
 * services/money/financeiro.ts.
 */

/** Today in São Paulo: the default `pago_em` (a UTC date would be tomorrow after 21:00). */
const today = () => saoPauloDate(new Date());

// Categories: a regional catalog (nome unique per region ignoring case, as services/catalogs/catalogs.ts) with a tipo.

const cat = categoriasFinanceiras;

export function toCategoriaResponse(row: CategoriaFinanceiraRow) {
  return {
    id: row.id,
    nome: row.label,
    tipo: row.tipo,
    sistema: row.sistema !== null,
    regiao: row.regiao,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * The page and the total, by the generic catalog's queries (services/catalogs/catalogs.ts); the region's
 * system categories are ensured in the same batch (a no-op once there).
 */
export async function listCategorias(db: Db, regiao: string, page: Page) {
  const [rows, [n]] = await writeThenRead(
    db,
    [ensureSystemCategories(db, regiao)],
    [listCatalog(db, cat, regiao, page), countCatalog(db, cat, regiao)],
  );
  return { rows: (rows as CategoriaFinanceiraRow[]).map(toCategoriaResponse), total: n?.n ?? 0 };
}

/** The generic catalog insert with the category's tipo; the system categories go first, so a user category never takes a system name. */
export async function createCategoria(
  db: Db,
  write: AuthoredWrite,
  regiao: string,
  body: { nome: string; tipo: TipoLancamento },
) {
  const row = await insertCatalog(db, write, cat, regiao, body.nome, {
    extra: { tipo: body.tipo, sistema: null },
    before: { categories: run(ensureSystemCategories(db, regiao)) },
  });
  return toCategoriaResponse(row);
}

const categoriaNotFound = () => new ApiError('NOT_FOUND', 'categoria não encontrada');
const systemCategory = () =>
  new ApiError('INVALID_STATE', 'categoria do sistema: não pode ser renomeada, ter o tipo trocado nem ser excluída');

/**
 * Renames or retypes a user category (the generic catalog update). System categories are fixed (409
 * INVALID_STATE); the tipo of a category with entries cannot change (409 IN_USE), both in the
 * update's own guard.
 */
export async function updateCategoria(
  db: Db,
  log: LogCtx,
  regiao: string,
  id: string,
  body: { nome: string; tipo: TipoLancamento },
) {
  const row = await updateCatalog(db, log, cat, regiao, id, body.nome, 'categoria não encontrada', {
    extra: { tipo: body.tipo },
    guard: and(
      isNull(cat.sistema),
      or(
        eq(cat.tipo, body.tipo),
        sql`not exists (select 1 from ${lancamentos} where ${lancamentos.categoriaId} = ${id})`,
      ),
    ),
    notFound: categoriaNotFound,
    refused: (current) =>
      current.sistema !== null
        ? systemCategory()
        : new ApiError('IN_USE', 'tipo: a categoria já tem lançamentos; o tipo não pode mudar'),
  });
  return toCategoriaResponse(row);
}

/** System categories are never deleted (409 INVALID_STATE); a category with entries is 409 IN_USE (foreign key). */
export async function deleteCategoria(db: Db, log: LogCtx, regiao: string, id: string) {
  await deleteCatalog(db, log, cat, regiao, id, 'categoria não encontrada', {
    guard: isNull(cat.sistema),
    notFound: categoriaNotFound,
    refused: systemCategory,
  });
}

// Entries.

const l = lancamentos;

export const selectLancamentos = (db: Db) =>
  db
    .select({ l: lancamentos, categoriaNome: sql<string>`${cat.label}`.as('categoria_nome') })
    .from(l)
    .innerJoin(cat, eq(cat.id, l.categoriaId));

export type LancamentoView = { l: LancamentoRow; categoriaNome: string };

export function toLancamentoResponse({ l: r, categoriaNome }: LancamentoView) {
  return {
    id: r.id,
    regiao: r.regiao,
    tipo: r.tipo,
    categoria_id: r.categoriaId,
    categoria_nome: categoriaNome,
    descricao: r.descricao,
    valor: fromCentavos(r.valorCentavos),
    vencimento: r.vencimento,
    status: r.status,
    pago_em: r.pagoEm,
    fot_id: r.fotId,
    agenda_id: r.agendaId,
    profissional_id: r.profissionalId,
    origem: r.origem,
    estorno_de: r.estornoDe,
    contrato_id: r.contratoId,
    parcela: r.parcela,
    convite_id: r.conviteId,
    chave_externa: r.chaveExterna,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

export interface LancamentoFilters {
  tipo?: TipoLancamento;
  status?: LancamentoStatus;
  categoria_id?: string;
  fot_id?: string;
  agenda_id?: string;
  profissional_id?: string;
  de?: string;
  ate?: string;
}

const filterWhere = (regiao: string, f: LancamentoFilters) =>
  and(
    eq(l.regiao, regiao),
    f.tipo ? eq(l.tipo, f.tipo) : undefined,
    f.status ? eq(l.status, f.status) : undefined,
    f.categoria_id ? eq(l.categoriaId, f.categoria_id) : undefined,
    f.fot_id ? eq(l.fotId, f.fot_id) : undefined,
    f.agenda_id ? eq(l.agendaId, f.agenda_id) : undefined,
    f.profissional_id ? eq(l.profissionalId, f.profissional_id) : undefined,
    f.de ? gte(l.vencimento, f.de) : undefined,
    f.ate ? lte(l.vencimento, f.ate) : undefined,
  );

/**
 * A page's total: unfiltered, or by one FOT record or one event and nothing else, from the counts
 * kept per region, record and event (drizzle/0032_list_counts.sql); other filters count.
 */
function lancamentosTotal(db: Db, regiao: string, f: LancamentoFilters, where: SQL | undefined) {
  const { fot_id, agenda_id, ...others } = f;
  const kept = Object.values(others).every((v) => v === undefined) && !(fot_id && agenda_id);
  return keptOrCounted(
    db,
    { tabela: 'lancamentos', regiao, dono: kept ? (fot_id ?? agenda_id ?? '') : undefined },
    l,
    where,
  );
}

/** A page by due date, and the total of the filters: one round trip, whatever the length (db/list-total.ts). */
export async function listLancamentos(db: Db, regiao: string, f: LancamentoFilters, page: Page) {
  if (f.de && f.ate && f.de > f.ate) throw new ApiError('VALIDATION_FAILED', 'de: deve ser anterior ou igual a ate');
  const where = filterWhere(regiao, f);
  const { rows, total } = await withTotal(
    db,
    page,
    selectLancamentos(db)
      .where(where)
      .orderBy(asc(l.vencimento), asc(l.createdAt), asc(l.id))
      .limit(pageBounds(page).limit)
      .offset(pageBounds(page).offset),
    lancamentosTotal(db, regiao, f, where),
  );
  return { rows: rows.map(toLancamentoResponse), total };
}

const lancamentoNotFound = () => new ApiError('NOT_FOUND', 'lançamento não encontrado');

export async function getLancamento(db: Db, regiao: string, id: string) {
  const [row] = await selectLancamentos(db).where(and(eq(l.id, id), eq(l.regiao, regiao)));
  if (!row) throw lancamentoNotFound();
  return toLancamentoResponse(row);
}

export interface LancamentoBody {
  tipo: TipoLancamento;
  categoria_id: string;
  descricao: string;
  valor: number;
  vencimento: string;
  fot_id?: string | null;
  agenda_id?: string | null;
  profissional_id?: string | null;
  chave_externa?: string | null;
}

/**
 * The references of an entry (each in the caller's region) and its rules, for the entry's own batch:
 * `condition` guards the insert, `selects` explain a refusal afterwards (`explain`). An unknown id or
 * one of another region is 404 naming the field (the caller may not see it); a category of the other
 * tipo, or an event of another FOT record than `fot_id`, is 400.
 */
/** The body's ids and tipo, or the placeholders of a cached batch (db/cached-batch.ts). */
type RefValues = {
  [K in 'tipo' | 'categoria_id' | 'fot_id' | 'agenda_id' | 'profissional_id']?: LancamentoBody[K] | Placeholder;
};

function entryRefs(db: Db, regiao: string | Placeholder, b: RefValues) {
  const refs = refsInRegion(db, regiao, [
    {
      field: 'categoria_id',
      table: cat,
      id: b.categoria_id,
      message: 'categoria_id: categoria não encontrada nesta região',
    },
    { field: 'fot_id', table: cadastroFot, id: b.fot_id, message: 'fot_id: FOT não encontrado nesta região' },
    { field: 'agenda_id', table: agenda, id: b.agenda_id, message: 'agenda_id: evento não encontrado nesta região' },
    {
      field: 'profissional_id',
      table: profissionais,
      id: b.profissional_id,
      message: 'profissional_id: profissional não encontrado nesta região',
    },
  ]);
  const catTipo = sql<TipoLancamento | null>`(select ${cat.tipo} from ${cat} where ${cat.id} = ${b.categoria_id})`;
  const eventFot = sql<
    string | null
  >`(select ${agenda.fotId} from ${agenda} where ${agenda.id} = ${b.agenda_id ?? null})`;
  const sameFot = b.fot_id && b.agenda_id ? sql`${eventFot} = ${b.fot_id}` : sql`1`;
  return {
    condition: and(refs.condition, sql`${catTipo} = ${b.tipo}`, sameFot)!,
    selects: [refs.select, db.select({ catTipo, eventFot }).from(sql`(select 1)`)] as const,
    explain(found: Record<string, number>[], [rules]: { catTipo: TipoLancamento | null; eventFot: string | null }[]) {
      refs.assertFound(found);
      if (rules?.catTipo && rules.catTipo !== b.tipo)
        throw new ApiError(
          'VALIDATION_FAILED',
          `categoria_id: a categoria é de ${rules.catTipo}, o lançamento é de ${b.tipo}`,
        );
      if (b.fot_id && b.agenda_id && rules?.eventFot !== b.fot_id)
        throw new ApiError('VALIDATION_FAILED', 'agenda_id: o evento não pertence ao FOT informado');
    },
  };
}

/**
 * A manual `previsto` entry in ONE round trip (a folded write, db/authored.ts): the author's check,
 * the references and their rules are conditions of the insert itself, and the entry read back
 * proves the author (nothing else is read). A refusal is explained afterwards, on that path only,
 * from selects of the references and rules.
 */
export async function createLancamento(db: Db, write: AuthoredWrite, regiao: string, b: LancamentoBody) {
  const values = entryValues({
    regiao,
    tipo: b.tipo,
    categoria: { id: b.categoria_id },
    descricao: b.descricao,
    valorCentavos: toCentavos(b.valor),
    vencimento: b.vencimento,
    origem: 'manual',
    fotId: b.fot_id ?? null,
    agendaId: b.agenda_id ?? null,
    profissionalId: b.profissional_id ?? null,
    chaveExterna: b.chave_externa ?? null,
  });
  const refs = {
    fot: values.fotId !== null,
    agenda: values.agendaId !== null,
    profissional: values.profissionalId !== null,
  };
  const results = await write(
    (author) =>
      entryCreate.bind(db, { author: author.cached.shape, ...refs }, writeValues(author, values as EntryValues)),
    // Its id is new: the entry exists exactly when the guarded insert wrote it.
    (r) => r.view.length > 0,
  );
  const [row] = results.view;
  if (row) return toLancamentoResponse(row);
  const why = entryRefs(db, regiao, b);
  const [found, rules] = await db.batch([...why.selects]);
  why.explain(
    found as Record<string, number>[],
    rules as { catTipo: TipoLancamento | null; eventFot: string | null }[],
  );
  throw referencesChanged();
}

/**
 * The statements of a manual entry, built once per author check and set of references (a manual
 * entry names its category: the system ones need not be ensured). Every value is a placeholder
 * named after its column (financeiro.ts entryValues), which the references share.
 */
type EntryShape = { author: GuardShape; fot: boolean; agenda: boolean; profissional: boolean };
/** Every column but those triggers keep (db/kept-columns.ts): an insert leaves them to the triggers. */
const entryColumns = Object.entries(getTableColumns(l))
  .filter(([, col]) => !isKept(col))
  .map(([key]) => key as EntryColumn);
type EntryColumn = Exclude<keyof typeof l.$inferInsert, 'agendaFotId'>;
type EntryValues = Record<EntryColumn, unknown>;
export const entryCreate = cachedBatch({
  params: [...WRITE_PARAMS, ...entryColumns],
  build: (db, s: EntryShape, p) => {
    const { guard, log } = writerOf(db, s.author, p);
    const refs = entryRefs(db, p.regiao, {
      tipo: p.tipo,
      categoria_id: p.categoriaId,
      fot_id: s.fot ? p.fotId : null,
      agenda_id: s.agenda ? p.agendaId : null,
      profissional_id: s.profissional ? p.profissionalId : null,
    });
    return {
      insert: run(insertColumnsWhere(db, l, entryColumns, p, and(guard, refs.condition)!)),
      log: run(createdEntry(db, log, l, entryColumns, p)),
      view: rows(selectLancamentos(db).where(eq(l.id, p.id))),
    };
  },
});

type Transition = 'pagar' | 'cancelar' | 'estornar';
const FROM: Record<Transition, LancamentoStatus> = { pagar: 'previsto', cancelar: 'previsto', estornar: 'pago' };

/**
 * One guarded transition (the statements of services/money/financeiro.ts), the row read back in the same
 * batch. Nothing changed: 404 if the entry is not in the region, else 409 INVALID_STATE naming the
 * state it is in. A retried `pagar` is 409, never a second payment.
 */
export async function transition(db: Db, log: LogCtx, regiao: string, id: string, t: Transition, pagoEm?: string) {
  const target = { id, regiao };
  const statements =
    t === 'pagar'
      ? pagarStatements(db, log, target, pagoEm ?? today())
      : t === 'cancelar'
        ? cancelarStatements(db, log, target)
        : estornoStatements(db, log, target, pagoEm ?? today()).statements;
  const results = await db.batch([
    ...(statements as unknown as [ReturnType<typeof pagarStatements>[1]]),
    selectLancamentos(db).where(and(eq(l.id, id), eq(l.regiao, regiao))),
  ]);
  const update = results[1] as unknown as D1Result;
  const [row] = results.at(-1) as unknown as LancamentoView[];
  if (!row) throw lancamentoNotFound();
  if (update.meta.changes === 0 && row.l.status === 'previsto' && t !== 'estornar')
    // The one other guard of pagar/cancelar (services/money/financeiro.ts inLiveBatch).
    throw new ApiError(
      'INVALID_STATE',
      'o cachê está num repasse ativo: ele é pago com o repasse (POST /api/financeiro/repasses/{id}/pagar), ou cancele o repasse antes',
    );
  if (update.meta.changes === 0)
    throw new ApiError(
      'INVALID_STATE',
      `o lançamento está ${row.l.status}: só um lançamento ${FROM[t]} pode ser ${t === 'pagar' ? 'pago' : t === 'cancelar' ? 'cancelado' : 'estornado'}`,
    );
  return toLancamentoResponse(row);
}

// Contracts.

export function toContratoResponse(c: ContratoRow, parcelas: LancamentoView[]) {
  return {
    id: c.id,
    regiao: c.regiao,
    fot_id: c.fotId,
    valor_total: fromCentavos(c.valorTotalCentavos),
    parcelas: c.parcelas,
    primeiro_vencimento: c.primeiroVencimento,
    descricao: c.descricao,
    lancamentos: parcelas.map(toLancamentoResponse),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

export interface ContratoBody {
  fot_id: string;
  valor_total: number;
  parcelas: number;
  primeiro_vencimento: string;
  descricao?: string | null;
}

/**
 * The contract and its `parcelas` monthly `receita` entries (category Contrato) in ONE batch:
 * amounts by splitCentavos (the last absorbs the remainder), dates by addMonths from the first.
 */
export async function createContrato(db: Db, log: LogCtx, regiao: string, b: ContratoBody) {
  await assertRefsInRegion(db, regiao, [
    { field: 'fot_id', table: cadastroFot, id: b.fot_id, message: 'fot_id: FOT não encontrado nesta região' },
  ]);
  const total = toCentavos(b.valor_total);
  if (total < b.parcelas) throw new ApiError('VALIDATION_FAILED', 'valor_total: menor que um centavo por parcela');
  const vencimentos = Array.from({ length: b.parcelas }, (_, i) => addMonths(b.primeiro_vencimento, i));
  if (vencimentos.some((v) => v === undefined))
    throw new ApiError('VALIDATION_FAILED', 'parcelas: a última parcela venceria depois de 9999-12-31');
  const now = nowIso();
  const contrato = {
    id: crypto.randomUUID(),
    regiao,
    fotId: b.fot_id,
    valorTotalCentavos: total,
    parcelas: b.parcelas,
    primeiroVencimento: b.primeiro_vencimento,
    descricao: b.descricao ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const nome = b.descricao ?? 'Contrato';
  const parcelas = splitCentavos(total, b.parcelas).flatMap(
    (valor, i) =>
      entryInsert(
        db,
        log,
        {
          regiao,
          tipo: 'receita',
          categoria: { sistema: 'contrato' },
          descricao: `${nome} — parcela ${i + 1}/${b.parcelas}`,
          valorCentavos: valor,
          vencimento: vencimentos[i]!,
          origem: 'contrato',
          fotId: b.fot_id,
          contratoId: contrato.id,
          parcela: i + 1,
        },
        { categoriesEnsured: true },
      ).statements,
  );
  const [[row], entries] = await writeThenRead(
    db,
    [
      ensureSystemCategories(db, regiao),
      db.insert(contratos).values(contrato),
      logStatement(db, log, {
        acao: 'contratos.create',
        entidade: 'contratos',
        entidadeId: contrato.id,
        regiao,
        dados: created(contratos, contrato),
      }),
      ...parcelas,
    ],
    [
      db.select().from(contratos).where(eq(contratos.id, contrato.id)),
      selectLancamentos(db).where(eq(l.contratoId, contrato.id)).orderBy(asc(l.parcela)),
    ],
  );
  return toContratoResponse(row!, entries);
}

/** Administrators: the region's; an EVENT_OWNER: its company's classes only. */
const contratoVisible = (scope: Scope, regiao: string) =>
  and(
    eq(contratos.regiao, regiao),
    scope.role === 'EVENT_OWNER'
      ? scope.empresaId
        ? sql`${contratos.fotId} in (select ${cadastroFot.id} from ${cadastroFot} where ${cadastroFot.empresaId} = ${scope.empresaId})`
        : sql`0`
      : undefined,
  );

/** Contracts (newest first) and all their installments (and their count when paged): one round trip. */
export async function listContratos(db: Db, scope: Scope, regiao: string, fotId: string | undefined, page: Page) {
  const where = and(contratoVisible(scope, regiao), fotId ? eq(contratos.fotId, fotId) : undefined);
  const pageIds = db
    .select({ id: contratos.id })
    .from(contratos)
    .where(where)
    .orderBy(sql`${contratos.createdAt} desc`, asc(contratos.id))
    .limit(pageBounds(page).limit)
    .offset(pageBounds(page).offset);
  const [rows, parcelas, counted] = await db.batch([
    db
      .select()
      .from(contratos)
      .where(where)
      .orderBy(sql`${contratos.createdAt} desc`, asc(contratos.id))
      .limit(pageBounds(page).limit)
      .offset(pageBounds(page).offset),
    selectLancamentos(db).where(inArray(l.contratoId, pageIds)).orderBy(asc(l.contratoId), asc(l.parcela)),
    ...whenPaged(page, db.select({ n: count() }).from(contratos).where(where)),
  ]);
  const byContrato = new Map<string, LancamentoView[]>();
  for (const p of parcelas) {
    const list = byContrato.get(p.l.contratoId!) ?? [];
    list.push(p);
    byContrato.set(p.l.contratoId!, list);
  }
  return {
    rows: rows.map((c) => toContratoResponse(c, byContrato.get(c.id) ?? [])),
    total: totalOf(counted, rows.length),
  };
}

// Result.

export type ResultadoQuery = { fot_id?: string; agenda_id?: string; de?: string; ate?: string };

interface ResultadoRow {
  categoria_id: string;
  nome: string;
  tipo: TipoLancamento;
  previsto: number;
  realizado: number;
}

/**
 * The result of an event, a class (its own entries, its events' and its gastos_captacao as
 * category Captação, counted as realizado) or a period (on vencimento): ONE grouped query,
 * whatever the number of entries. Counts `previsto` and `pago` only; mirrors (origem `estorno`)
 * never (their original is `estornado`, so both are out). margem_pct = resultado / receitas × 100,
 * 2 decimals, null when receitas is 0.
 */
/**
 * The result's two selects (the FOT or event exists in the region; the grouped sums), for a folded
 * read (routes/financeiro: one round trip with the caller's check). Invalid query: 400 at once.
 */
export function resultadoSelects(db: Db, regiao: string, q: ResultadoQuery) {
  const modes = [q.fot_id !== undefined, q.agenda_id !== undefined, q.de !== undefined || q.ate !== undefined];
  if (modes.filter(Boolean).length !== 1)
    throw new ApiError('VALIDATION_FAILED', 'informe exatamente um de: fot_id, agenda_id, ou de+ate');
  if (modes[2] && (!q.de || !q.ate)) throw new ApiError('VALIDATION_FAILED', 'de e ate: informe os dois');
  if (q.de && q.ate && q.de > q.ate) throw new ApiError('VALIDATION_FAILED', 'de: deve ser anterior ou igual a ate');

  const mode: ResultadoMode = q.fot_id ? 'fot' : q.agenda_id ? 'agenda' : 'periodo';
  const values = { regiao, fot: q.fot_id, agenda: q.agenda_id, de: q.de, ate: q.ate };
  return [resultadoExists(db, mode, values), resultadoSums(db, mode, values)] as const;
}

/** Which result: its SQL is built once per mode (db/cached-batch.ts cachedSelect), values bound. */
type ResultadoMode = 'fot' | 'agenda' | 'periodo';

/**
 * The result's sums per category and tipo from somas_lancamentos, kept by triggers on lancamentos
 * (drizzle/0035_result_sums.sql): one row per category and tipo of the FOT record or event, one per
 * day, category and tipo of a period, whatever the number of entries. A class's result adds its
 * gastos_captacao (category Captação, realizado). Keys whose entries are gone hold 0: left out.
 */
const RESULTADO_PARAMS = ['regiao', 'fot', 'agenda', 'de', 'ate'] as const;
const resultadoSums = cachedSelect({
  params: RESULTADO_PARAMS,
  build: (db, mode: ResultadoMode, p) => {
    const { regiao, fot } = p;
    const s = somasLancamentos;
    let scope: SQL;
    let captacao = sql``;
    if (mode === 'fot') {
      scope = sql`${s.escopo} = 'fot' and ${s.chave} = ${fot}`;
      captacao = sql`union all
      select (select c.id from categorias_financeiras c where c.regiao = f.regiao and c.sistema = 'captacao'),
             'despesa', 0, f.gastos_captacao_centavos
      from cadastro_fot f where f.id = ${fot} and f.regiao = ${regiao} and f.gastos_captacao_centavos > 0`;
    } else if (mode === 'agenda') scope = sql`${s.escopo} = 'evento' and ${s.chave} = ${p.agenda}`;
    else scope = sql`${s.escopo} = 'dia' and ${s.chave} between ${p.de} and ${p.ate}`;

    // A drizzle select over a SQL source (a raw db.all() cannot join a D1 batch).
    const source = sql`(
      select ${s.categoriaId} as categoria_id, ${s.tipo} as tipo, ${s.previsto} as previsto, ${s.realizado} as realizado
      from ${s} where ${s.regiao} = ${regiao} and ${scope}
      ${captacao}
    ) x join categorias_financeiras c on c.id = x.categoria_id`;
    return db
      .select({
        categoria_id: sql<string>`x.categoria_id`.as('categoria_id'),
        nome: sql<string>`c.nome`.as('nome'),
        tipo: sql<TipoLancamento>`x.tipo`.as('tipo'),
        previsto: sql<number>`sum(x.previsto)`.as('previsto'),
        realizado: sql<number>`sum(x.realizado)`.as('realizado'),
      })
      .from(source)
      .groupBy(sql`x.categoria_id, x.tipo`)
      .having(sql`sum(x.previsto) <> 0 or sum(x.realizado) <> 0`)
      .orderBy(sql`x.tipo desc, c.nome_key`);
  },
});

const resultadoExists = cachedSelect({
  params: RESULTADO_PARAMS,
  build: (db, mode: ResultadoMode, p) =>
    mode === 'fot'
      ? db
          .select({ id: cadastroFot.id })
          .from(cadastroFot)
          .where(and(eq(cadastroFot.id, p.fot), eq(cadastroFot.regiao, p.regiao)))
      : mode === 'agenda'
        ? db
            .select({ id: agenda.id })
            .from(agenda)
            .where(and(eq(agenda.id, p.agenda), eq(agenda.regiao, p.regiao)))
        : db.select({ id: sql<string>`'periodo'` }).from(sql`(select 1) p`),
});

/** The answer from the selects' rows: 404 when the FOT or event is not in the region. */
export function resultadoAnswer(q: ResultadoQuery, found: unknown[], rows: unknown[]) {
  if (!found[0]) throw new ApiError('NOT_FOUND', q.fot_id ? 'FOT não encontrado' : 'evento não encontrado');
  return toResultado(rows as ResultadoRow[]);
}

export function toResultado(rows: ResultadoRow[]) {
  const sum = (tipo: TipoLancamento, k: 'previsto' | 'realizado') =>
    rows.filter((r) => r.tipo === tipo).reduce((s, r) => s + r[k], 0);
  const prev = { receitas: sum('receita', 'previsto'), despesas: sum('despesa', 'previsto') };
  const real = { receitas: sum('receita', 'realizado'), despesas: sum('despesa', 'realizado') };
  const receitas = prev.receitas + real.receitas;
  const despesas = prev.despesas + real.despesas;
  const res = receitas - despesas;
  return {
    receitas: fromCentavos(receitas),
    despesas: fromCentavos(despesas),
    resultado: fromCentavos(res),
    margem_pct: receitas === 0 ? null : Math.round((res * 10_000) / receitas) / 100,
    previsto: { receitas: fromCentavos(prev.receitas), despesas: fromCentavos(prev.despesas) },
    realizado: { receitas: fromCentavos(real.receitas), despesas: fromCentavos(real.despesas) },
    por_categoria: rows.map((r) => ({
      categoria_id: r.categoria_id,
      nome: r.nome,
      tipo: r.tipo,
      previsto: fromCentavos(r.previsto),
      realizado: fromCentavos(r.realizado),
    })),
  };
}
