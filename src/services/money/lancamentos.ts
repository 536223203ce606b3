import { and, asc, eq, getTableColumns, gte, lte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { GuardShape } from '../../db/authored';
import type { Db } from '../../db/client';
import { keptOrCounted } from '../../db/kept-count';
import { isKept } from '../../db/kept-columns';
import { withTotal } from '../../db/list-total';
import { insertColumnsWhere } from '../../db/guarded';
import { cachedBatch, rows, run } from '../../db/cached-batch';
import {
  agenda,
  cadastroFot,
  categoriasFinanceiras,
  lancamentos,
  profissionais,
  type LancamentoRow,
  type LancamentoStatus,
  type TipoLancamento,
} from '../../db/schema';
import { saoPauloDate } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { fromCentavos, toCentavos } from '../../lib/money';
import { pageBounds, type Page } from '../../lib/pagination';
import { createdEntry, WRITE_PARAMS, writerOf, writeValues } from '../core/activity-log';
import type { Ctx, QueryCtx, WriteCtx } from '../core/context';
import { referencesChanged, refsInRegion } from '../core/references';
import { cancelarStatements, entryValues, estornoStatements, pagarStatements } from './financeiro';

/**
 * Finance entries (docs/decisions.md#d18-finance, docs/guide/money.md): the list, a manual entry and
 * the transitions of one entry. Categories are in categorias.ts, contracts in contratos.ts, the result
 * in resultado.ts, payout batches in repasses.ts; the batchable builders other aggregates share are in
 * financeiro.ts.
 */

/** Today in São Paulo: the default `pago_em` (a UTC date would be tomorrow after 21:00). */
const today = () => saoPauloDate(new Date());

const cat = categoriasFinanceiras;

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
function lancamentosTotal({ db, regiao }: QueryCtx, f: LancamentoFilters, where: SQL | undefined) {
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
export async function listLancamentos(ctx: QueryCtx, { limit, offset, ...f }: LancamentoFilters & Page) {
  const { db, regiao } = ctx;
  const page = { limit, offset };
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
    lancamentosTotal(ctx, f, where),
  );
  return { rows: rows.map(toLancamentoResponse), total };
}

const lancamentoNotFound = () => new ApiError('NOT_FOUND', 'lançamento não encontrado');

export async function getLancamento({ db, regiao }: QueryCtx, id: string) {
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
export async function createLancamento({ db, regiao, write }: QueryCtx & Pick<WriteCtx, 'write'>, b: LancamentoBody) {
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
      log: run(createdEntry({ db, log }, l, { columns: entryColumns, row: p })),
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
export async function transition(
  ctx: Pick<Ctx, 'db' | 'log' | 'regiao'>,
  id: string,
  { acao: t, pagoEm }: { acao: Transition; pagoEm?: string },
) {
  const { db, regiao } = ctx;
  const target = { id, regiao };
  const statements =
    t === 'pagar'
      ? pagarStatements(ctx, target, pagoEm ?? today())
      : t === 'cancelar'
        ? cancelarStatements(ctx, target)
        : estornoStatements(ctx, target, pagoEm ?? today()).statements;
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
