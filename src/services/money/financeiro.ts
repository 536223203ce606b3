import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { insertWhere } from '../../db/guarded';
import {
  CATEGORIAS_SISTEMA,
  categoriasFinanceiras,
  lancamentos,
  repasseLancamentos,
  type CategoriaSistema,
  type OrigemLancamento,
  type TipoLancamento,
} from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { nameKey } from '../../lib/names';
import { changed, created, loggedUpdate, logRowWrite, logStatement, type LogSource } from '../core/activity-log';
import type { Ctx } from '../core/context';

/**
 * Finance (docs/decisions.md#d18-finance, docs/guide/money.md): the batchable builders every aggregate
 * uses to write money (contracts, fees, orders, imports, refunds). Each returns statements for the
 * CALLER's own D1 batch, activity-log entry included, and never reads first: categories are looked
 * up by SQL subquery, guards are conditions of the statement itself.
 */

type Stmt = BatchItem<'sqlite'>;

/** What a builder needs: the session and who acts (a request's, a job's, or a cached batch's placeholders). */
export type Writer = Pick<Ctx, 'db'> & { log: LogSource };
/** A builder whose log entries carry a request's or a job's values (never a cached batch's). */
export type RequestWriter = Pick<Ctx, 'db' | 'log'>;

/**
 * Makes sure the region has its system categories (the migration seeds the regions known then; a
 * region configured later gets them here). Put it first in any batch that uses systemCategoryId():
 * a no-op when they exist. Code finds them by `sistema` key only, so a user category that already
 * holds a system name (made before that system category existed) never blocks one: the system row
 * then takes the name "<nome> (sistema)" (docs/decisions.md#d25, "Taxa de instituição").
 */
export function ensureSystemCategories(db: Db, regiao: string | SQL, now: string | SQL = nowIso()) {
  const v = (k: string) => sql`json_extract(value, ${'$.' + k})`;
  const taken = sql`exists (select 1 from ${categoriasFinanceiras} u where u.regiao = ${regiao} and u.nome_key = ${v('key')})`;
  const pick = (usual: string, alt: string) => sql`case when ${taken} then ${v(alt)} else ${v(usual)} end`;
  // INSERT ... SELECT ... WHERE (the WHERE keeps SQLite from reading ON CONFLICT as a join clause).
  // Ids made by SQL: the statement holds no per-request value but `regiao` and `now`. A racing copy
  // of this statement conflicts on (regiao, sistema) and does nothing.
  return db
    .insert(categoriasFinanceiras)
    .select(
      sql`select ${generatedId}, ${regiao}, ${pick('nome', 'nomeAlt')}, ${pick('key', 'keyAlt')}, ${v('tipo')}, ${v('sistema')}, ${now}, ${now}
        from json_each(${SYSTEM_CATEGORY_ROWS}) where ${regiao} is not null`,
    )
    .onConflictDoNothing();
}

/** The name a system category takes when a user category already holds its own (see ensureSystemCategories). */
export const systemCategoryAltName = (nome: string) => `${nome} (sistema)`;

const SYSTEM_CATEGORY_ROWS = JSON.stringify(
  Object.entries(CATEGORIAS_SISTEMA).map(([sistema, c]) => ({
    nome: c.nome,
    key: nameKey(c.nome),
    nomeAlt: systemCategoryAltName(c.nome),
    keyAlt: nameKey(systemCategoryAltName(c.nome)),
    tipo: c.tipo,
    sistema,
  })),
);

/** The id of a region's system category, as a SQL subquery (no read before the write). */
export const systemCategoryId = (regiao: string | SQL, key: CategoriaSistema): SQL =>
  sql`(select ${categoriasFinanceiras.id} from ${categoriasFinanceiras} where ${categoriasFinanceiras.regiao} = ${regiao} and ${categoriasFinanceiras.sistema} = ${key})`;

/** A new entry. `categoria` is a category id, or a system key (looked up in the entry's region). */
export interface NewEntry {
  id?: string;
  regiao: string;
  tipo: TipoLancamento;
  categoria: { id: string } | { sistema: CategoriaSistema };
  descricao: string;
  valorCentavos: number | SQL;
  /** YYYY-MM-DD */
  vencimento: string;
  origem: OrigemLancamento;
  /** Default `previsto`; an import may bring entries already `pago` (then give pagoEm). */
  status?: 'previsto' | 'pago';
  pagoEm?: string | null;
  fotId?: string | null;
  agendaId?: string | null;
  profissionalId?: string | null;
  contratoId?: string | null;
  parcela?: number | null;
  conviteId?: string | null;
  chaveExterna?: string | null;
}

export interface EntryOptions {
  /** The insert (and its log entry) happen only if this holds, evaluated in the batch. */
  when?: SQL;
  /** Skip ensureSystemCategories (the caller already put one in its batch). */
  categoriesEnsured?: boolean;
}

/** Every column of a new entry (ids and times made here). */
export const entryValues = (e: NewEntry) => {
  const now = nowIso();
  return {
    id: e.id ?? crypto.randomUUID(),
    regiao: e.regiao,
    tipo: e.tipo,
    categoriaId: 'id' in e.categoria ? e.categoria.id : systemCategoryId(e.regiao, e.categoria.sistema),
    descricao: e.descricao,
    valorCentavos: e.valorCentavos,
    vencimento: e.vencimento,
    status: e.status ?? 'previsto',
    pagoEm: e.pagoEm ?? null,
    fotId: e.fotId ?? null,
    agendaId: e.agendaId ?? null,
    profissionalId: e.profissionalId ?? null,
    origem: e.origem,
    estornoDe: null,
    contratoId: e.contratoId ?? null,
    parcela: e.parcela ?? null,
    conviteId: e.conviteId ?? null,
    chaveExterna: e.chaveExterna ?? null,
    createdAt: now,
    updatedAt: now,
  };
};

/** An entry's create log entry but its `dados`: written only if the row is there (so a refused `when` leaves no entry). */
const createdEntry = (id: string | Placeholder, regiao: string | Placeholder) => ({
  acao: 'lancamentos.create',
  entidade: 'lancamentos',
  entidadeId: id,
  regiao,
  when: sql`exists (select 1 from ${lancamentos} where ${lancamentos.id} = ${id})`,
});

/**
 * Statements that insert one entry and log it: spread them into your batch. A duplicate
 * `chave_externa` (per region) or `convite_id` fails the batch (409 CONFLICT through mapDbError)
 * unless `when` excludes it. Answers the new id too.
 */
export function entryInsert({ db, log }: RequestWriter, e: NewEntry, opts: EntryOptions = {}) {
  const values = entryValues(e);
  const insert = opts.when
    ? insertWhere(db, lancamentos, values as typeof lancamentos.$inferInsert, opts.when)
    : db.insert(lancamentos).values(values as typeof lancamentos.$inferInsert);
  const statements: Stmt[] = [
    ...(opts.categoriesEnsured ? [] : [ensureSystemCategories(db, e.regiao)]),
    insert,
    // Logged after the insert.
    logStatement(db, log, { ...createdEntry(values.id, e.regiao), dados: created(lancamentos, values) }),
  ];
  return { id: values.id, statements };
}

const byId = (id: string | SQL) => eq(lancamentos.id, id as string);

/** The entry a transition targets: its id (or a SQL subquery naming it), limited to `regiao` when given (routes). */
export type Target = { id: string | SQL; regiao?: string };

/** A column of the entry `id`, as a subquery (the mirror is built from the original in SQL). */
const original = (id: string | SQL, col: SQL | (typeof lancamentos)[keyof typeof lancamentos.$inferSelect]) =>
  sql`(select ${col} from ${lancamentos} where ${byId(id)})`;

/**
 * `pago` → `estornado` plus its mirror (opposite `tipo`, same amount and category, `origem`
 * `estorno`, `estorno_de` = the original, already `pago` on `pagoEm`), in the caller's batch. The
 * update is guarded by `status = 'pago'`; the mirror is inserted only if the original is now
 * `estornado` and has no mirror yet (the unique index on `estorno_de` backs it), so N racing calls
 * make one mirror. `changes` of the update (statements[1]) says whether this call did it.
 * `regiao` limits the target to one region (routes); `id` may be a SQL subquery (e.g. by chave_externa).
 */
export function estornoStatements(
  w: RequestWriter,
  target: Target,
  pagoEm: string,
): { mirrorId: string; statements: Stmt[] } {
  const { db, log } = w;
  const mirrorId = crypto.randomUUID();
  const l = lancamentos;
  const where = and(byId(target.id), target.regiao ? eq(l.regiao, target.regiao) : undefined, eq(l.status, 'pago'));
  const o = (col: Parameters<typeof original>[1]) => original(target.id, col);
  const condition = sql`exists (select 1 from ${l} where ${byId(target.id)} and ${l.status} = 'estornado')
    and not exists (select 1 from ${l} ${mirrorAlias} where ${mirrorAlias}.estorno_de = ${o(l.id)})`;
  const ofMirror = (col: string) =>
    sql`(select ${sql.raw(col)} from ${l} ${mirrorAlias} where ${mirrorAlias}.id = ${mirrorId})`;
  return {
    mirrorId,
    statements: [
      ...loggedUpdate(
        w,
        { table: l, where, set: { status: 'estornado' as const, updatedAt: nowIso() } },
        { acao: 'lancamentos.estornar', entidade: 'lancamentos', regiao: l.regiao },
      ),
      insertWhere(db, l, mirrorValues(o, mirrorId, pagoEm), condition),
      logStatement(db, log, {
        acao: 'lancamentos.create',
        entidade: 'lancamentos',
        entidadeId: mirrorId,
        regiao: o(l.regiao),
        dados: {
          tipo: { depois: ofMirror('tipo') },
          valor_centavos: { depois: ofMirror('valor_centavos') },
          origem: { depois: 'estorno' },
          estorno_de: { depois: o(l.id) },
          pago_em: { depois: pagoEm },
        },
        when: sql`exists (select 1 from ${l} ${mirrorAlias} where ${mirrorAlias}.id = ${mirrorId})`,
      }),
    ],
  };
}

const mirrorAlias = sql.raw('m');

/** The mirror of a reversal, built from the original (`o`: its columns as subqueries), already `pago` on `pagoEm`. */
function mirrorValues(o: (col: Parameters<typeof original>[1]) => SQL, mirrorId: string, pagoEm: string) {
  const l = lancamentos;
  const now = nowIso();
  const mirror = {
    id: mirrorId,
    regiao: o(l.regiao),
    tipo: o(sql`case ${l.tipo} when 'receita' then 'despesa' else 'receita' end`),
    categoriaId: o(l.categoriaId),
    descricao: o(sql`'Estorno: ' || ${l.descricao}`),
    valorCentavos: o(l.valorCentavos),
    vencimento: pagoEm,
    status: 'pago',
    pagoEm,
    fotId: o(l.fotId),
    agendaId: o(l.agendaId),
    profissionalId: o(l.profissionalId),
    origem: 'estorno',
    estornoDe: o(l.id),
    contratoId: null,
    parcela: null,
    conviteId: null,
    chaveExterna: null,
    createdAt: now,
    updatedAt: now,
  };
  return mirror as unknown as typeof l.$inferInsert;
}

/**
 * A fee gathered into a live payout batch (services/money/repasses.ts): only the batch pays it, and it is
 * cancelled only after the batch is.
 */
export const inLiveBatch = (lancamentoId: SQL | typeof lancamentos.id) =>
  sql`exists (select 1 from ${repasseLancamentos} where ${repasseLancamentos.lancamentoId} = ${lancamentoId} and ${repasseLancamentos.ativo} = 1)`;

/**
 * `previsto` → `set.status` of one entry that no live payout batch holds: the guarded update, its
 * log entry before it in the same batch (core/activity-log.ts loggedUpdate). `changes` of statements[1].
 */
function fromPrevisto(w: RequestWriter, target: Target, set: { status: 'pago' | 'cancelado'; pagoEm?: string }) {
  const l = lancamentos;
  const where = and(
    byId(target.id),
    target.regiao ? eq(l.regiao, target.regiao) : undefined,
    eq(l.status, 'previsto'),
    sql`not ${inLiveBatch(l.id)}`,
  );
  const acao = set.status === 'pago' ? 'pagar' : 'cancelar';
  return loggedUpdate(
    w,
    { table: l, where, set },
    { acao: `lancamentos.${acao}`, entidade: 'lancamentos', regiao: l.regiao },
  );
}

/** `previsto` → `pago` on `pagoEm` (one guarded statement, logged before it in the same batch). `changes` of statements[1]. */
export const pagarStatements = (w: RequestWriter, target: Target, pagoEm: string) =>
  fromPrevisto(w, target, { status: 'pago', pagoEm });

/** `previsto` → `cancelado` (one guarded statement, logged before it). `changes` of statements[1]. */
export const cancelarStatements = (w: RequestWriter, target: Target) =>
  fromPrevisto(w, target, { status: 'cancelado' });

// Professionals' fees (docs/decisions.md#d18-finance "Fees"): one `previsto` `despesa` per accepted
// invitation, priced from the table at the moment of acceptance, cancelled with the invitation.

/**
 * The fee of invitation `conviteId`, for the batch that makes it `aceito`: place these statements
 * AFTER the guarded update. They write only if the invitation is `aceito` with `respondido_em` =
 * `acceptedAt` (give the time THIS request's acceptance wrote, so that a refused one writes nothing,
 * not even the region's system categories; default: the invitation is `aceito`), the (event type,
 * function, region) has a price, and the invitation has no live fee yet (a partial unique index
 * backs it). Region, amount, due date (the event's date), event and professional all come from SQL:
 * nothing is read first.
 */
export function feeOnAccept(
  { db, log }: Writer,
  conviteId: string | SQL | Placeholder,
  {
    acceptedAt,
    id = crypto.randomUUID(),
  }: {
    acceptedAt?: string | SQL;
    /** The new entry's id (a placeholder in a cached batch). */
    id?: string | Placeholder;
  } = {},
) {
  const now = acceptedAt ?? nowIso();
  const from = sql`from convites ${fc} join agenda ${fa} on ${fa}.id = ${fc}.agenda_id where ${fc}.id = ${conviteId}`;
  const at = (alias: SQL) => (acceptedAt === undefined ? sql`` : sql` and ${alias}.respondido_em = ${acceptedAt}`);
  const of = (expr: SQL) => sql`(select ${expr} ${from})`;
  const l = lancamentos;
  const v = sql.raw('v');
  const condition = sql`exists (select 1 from convites ${v} where ${v}.id = ${conviteId} and ${v}.status = 'aceito'${at(v)})
    and ${of(feePrice())} is not null
    and not exists (select 1 from ${l} where ${l.conviteId} = ${conviteId} and ${l.status} <> 'cancelado')`;
  return {
    // The region of an invitation this request accepted (null otherwise: nothing ensured).
    categories: ensureSystemCategories(
      db,
      sql`(select ${fa}.regiao ${from} and ${fc}.status = 'aceito'${at(fc)})`,
      now,
    ),
    fee: insertWhere(db, l, feeValues(of, { conviteId, id, now }), condition),
    feeLog: logStatement(db, log, {
      acao: 'lancamentos.create',
      entidade: 'lancamentos',
      entidadeId: id,
      regiao: l.regiao,
      from: sql`from ${l}`,
      when: eq(l.id, id),
      dados: {
        tipo: { depois: 'despesa' },
        origem: { depois: 'cache' },
        valor_centavos: { depois: l.valorCentavos },
        vencimento: { depois: l.vencimento },
        convite_id: { depois: l.conviteId },
        agenda_id: { depois: l.agendaId },
        profissional_id: { depois: l.profissionalId },
      },
    }),
  };
}

/** The aliases of the invitation (fc) and its event (fa) a fee is built from. */
const fc = sql.raw('fc');
const fa = sql.raw('fa');

/** The price of the invitation's function for its event's type in its region (null: none). */
const feePrice = () =>
  sql`(select p.valor_centavos from precos p where p.tipo_evento_id = ${fa}.tipo_evento_id and p.funcao_profissional_id = ${fc}.funcao_id and p.regiao = ${fa}.regiao)`;

/** The fee's row, every value but the ids and time read from the invitation and its event (`of`). */
function feeValues(
  of: (expr: SQL) => SQL,
  o: { conviteId: string | SQL | Placeholder; id: string | Placeholder; now: string | SQL },
) {
  const regiao = of(sql`${fa}.regiao`);
  const values = {
    id: o.id,
    regiao,
    tipo: 'despesa',
    categoriaId: systemCategoryId(regiao, 'cache_profissional'),
    descricao: of(
      sql`'Cachê ' || coalesce((select f.nome from funcoes f where f.id = ${fc}.funcao_id), '') || ' — evento de ' || ${fa}.data_evento`,
    ),
    valorCentavos: of(feePrice()),
    vencimento: of(sql`${fa}.data_evento`),
    status: 'previsto',
    pagoEm: null,
    fotId: of(sql`${fa}.fot_id`),
    agendaId: of(sql`${fa}.id`),
    profissionalId: of(sql`${fc}.profissional_id`),
    origem: 'cache',
    estornoDe: null,
    contratoId: null,
    parcela: null,
    conviteId: o.conviteId,
    chaveExterna: null,
    createdAt: o.now,
    updatedAt: o.now,
  };
  return values as unknown as typeof lancamentos.$inferInsert;
}

/**
 * The invitation's fee, if still `previsto`, becomes `cancelado`: for the batch that declines or
 * withdraws an accepted invitation, placed BEFORE the invitation's own write (a withdrawal deletes
 * the invitation). `when` limits it to the case where that write will happen.
 */
export function feeOnCancel(
  { db, log }: Writer,
  conviteId: string | Placeholder,
  {
    when,
    now = nowIso(),
  }: {
    when?: SQL;
    /** The change's instant (a placeholder's SQL in a cached batch). */
    now?: string | SQL;
  } = {},
) {
  const l = lancamentos;
  // A fee already gathered into a live payout batch stays: cancel the batch first (docs/guide/money.md).
  const where = and(
    eq(l.conviteId, conviteId),
    // The partial unique index's own condition, so that SQLite may use it rather than scan the entries.
    sql`${l.status} <> 'cancelado'`,
    eq(l.status, 'previsto'),
    sql`not ${inLiveBatch(l.id)}`,
    when,
  );
  const set = { status: 'cancelado' as const, updatedAt: now };
  return {
    feeLog: logRowWrite(
      { db, log },
      { table: l, where },
      {
        acao: 'lancamentos.cancelar',
        entidade: 'lancamentos',
        regiao: l.regiao,
        dados: changed(l, set),
      },
    ),
    fee: db.update(l).set(set).where(where),
  };
}
