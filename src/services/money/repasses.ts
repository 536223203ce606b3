import { and, asc, count, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { insertSelect } from '../../db/insert-select';
import {
  lancamentos,
  profissionais,
  repasseItens,
  repasseLancamentos,
  repasses,
  type RepasseItemRow,
  type RepasseRow,
  type RegimeFiscal,
  type RepasseStatus,
  type TipoChavePix,
} from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { writeThenRead } from '../../db/write-read';
import { saoPauloDate } from '../../lib/dates';
import { pixKey } from '../../lib/brazil';
import { toCsv, formatMoney, verbatim } from '../../lib/csv';
import { ApiError } from '../../lib/errors';
import { fromCentavos } from '../../lib/money';
import { pageBounds, totalOf, whenPaged, type Page } from '../../lib/pagination';
import { changed, created, logEachRow, loggedUpdate, logStatement, type LogCtx } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';
import { prepareWhatsappRows } from '../core/whatsapp';
import { gather, gatherable, itemsOf, type RepasseBody } from './repasse-lote';

export type { RepasseBody };

/**
 * Payout batches (docs/decisions.md#d18-finance "Payouts", docs/guide/money.md): the `previsto` fees of a
 * period gathered per professional, with the withholding of `autonomo_rpa` professionals, approved,
 * then paid in one batch. A fee is in at most one live batch: the partial unique index on
 * repasse_lancamentos (ativo = 1) decides, never a read.
 */

const l = lancamentos;
const r = repasses;
const ri = repasseItens;
const rl = repasseLancamentos;

type Stmt = BatchItem<'sqlite'>;

// Responses.

type Item = RepasseItemRow & { lancamentoIds: string[] };
type LinkRow = { repasseId: string; profissionalId: string; lancamentoId: string };

/** A professional's figures in a batch, as the batch and the professional's own view show them. */
const figuresOf = (i: RepasseItemRow) => ({
  regime_fiscal: i.regimeFiscal as RegimeFiscal,
  valor_bruto: fromCentavos(i.valorBrutoCentavos),
  inss: fromCentavos(i.inssCentavos),
  irrf: fromCentavos(i.irrfCentavos),
  iss: fromCentavos(i.issCentavos),
  valor_liquido: fromCentavos(i.valorLiquidoCentavos),
});

export function toRepasseResponse(row: RepasseRow, itens: Item[]) {
  return {
    id: row.id,
    regiao: row.regiao,
    de: row.de,
    ate: row.ate,
    status: row.status,
    tabela_vigencia: row.tabelaVigencia,
    total_bruto: fromCentavos(row.totalBrutoCentavos),
    total_inss: fromCentavos(row.totalInssCentavos),
    total_irrf: fromCentavos(row.totalIrrfCentavos),
    total_iss: fromCentavos(row.totalIssCentavos),
    total_liquido: fromCentavos(row.totalLiquidoCentavos),
    qtd_lancamentos: row.qtdLancamentos,
    aprovado_em: row.aprovadoEm,
    pago_em: row.pagoEm,
    cancelado_em: row.canceladoEm,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    itens: itens.map((i) => ({
      profissional_id: i.profissionalId,
      nome: i.nome,
      cpf_cnpj: i.cpfCnpj,
      ...figuresOf(i),
      chave_pix: i.chavePix,
      tipo_chave_pix: i.tipoChavePix as TipoChavePix | null,
      lancamento_ids: i.lancamentoIds,
    })),
  };
}

/** The items and fee links of the batches `ids` selects: two statements for any number of batches. */
const detailSelects = (db: Db, ids: SQL | string[]) =>
  [
    db
      .select()
      .from(ri)
      .where(Array.isArray(ids) ? inArray(ri.repasseId, ids) : sql`${ri.repasseId} in ${ids}`)
      .orderBy(asc(ri.nome), asc(ri.profissionalId)),
    db
      .select({ repasseId: rl.repasseId, profissionalId: rl.profissionalId, lancamentoId: rl.lancamentoId })
      .from(rl)
      .where(Array.isArray(ids) ? inArray(rl.repasseId, ids) : sql`${rl.repasseId} in ${ids}`)
      .orderBy(asc(rl.lancamentoId)),
  ] as const;

function assemble(rows: RepasseRow[], itens: RepasseItemRow[], links: LinkRow[]) {
  const linkIds = new Map<string, string[]>();
  for (const k of links) {
    const key = `${k.repasseId}/${k.profissionalId}`;
    linkIds.set(key, [...(linkIds.get(key) ?? []), k.lancamentoId]);
  }
  const byRepasse = new Map<string, Item[]>();
  for (const i of itens)
    byRepasse.set(i.repasseId, [
      ...(byRepasse.get(i.repasseId) ?? []),
      { ...i, lancamentoIds: linkIds.get(`${i.repasseId}/${i.profissionalId}`) ?? [] },
    ]);
  return rows.map((row) => toRepasseResponse(row, byRepasse.get(row.id) ?? []));
}

const notFound = () => new ApiError('NOT_FOUND', 'repasse não encontrado');

const inRegion = (regiao: string, id: string) => and(eq(r.id, id), eq(r.regiao, regiao));

/** One batch's row, items and links (three statements for the caller's batch). */
const readBack = (db: Db, regiao: string, id: string) =>
  [db.select().from(r).where(inRegion(regiao, id)), ...detailSelects(db, [id])] as const;

// List and read.

export async function listRepasses({ db, regiao }: QueryCtx, { status, ...page }: Page & { status?: RepasseStatus }) {
  const where = and(eq(r.regiao, regiao), status ? eq(r.status, status) : undefined);
  const { limit, offset } = pageBounds(page);
  const pageIds = db
    .select({ id: r.id })
    .from(r)
    .where(where)
    .orderBy(sql`${r.createdAt} desc`, asc(r.id))
    .limit(limit)
    .offset(offset);
  const [rows, itens, links, counted] = await db.batch([
    db
      .select()
      .from(r)
      .where(where)
      .orderBy(sql`${r.createdAt} desc`, asc(r.id))
      .limit(limit)
      .offset(offset),
    ...detailSelects(db, sql`${pageIds}`),
    ...whenPaged(page, db.select({ n: count() }).from(r).where(where)),
  ]);
  return { rows: assemble(rows, itens, links), total: totalOf(counted, rows.length) };
}

export async function getRepasse({ db, regiao }: QueryCtx, id: string) {
  const [rows, itens, links] = await db.batch(readBack(db, regiao, id));
  if (!rows[0]) throw notFound();
  return assemble(rows, itens, links)[0]!;
}

/**
 * Reads the candidate fees and the tax table in force on `ate` (one round trip), computes each
 * professional's withholding (lib/money.ts), then writes the batch, its links, its items and the log
 * entry in one D1 batch. The links are inserted only for fees still `previsto` and free (a fee a racing
 * batch took is skipped by the unique index); `lancamentos_vinculados` must then equal the count read,
 * else the CHECK fails and nothing is written (409 CONFLICT, lib/errors.ts): each fee in one batch.
 */
export async function createRepasse({ db, log, regiao }: Pick<Ctx, 'db' | 'log' | 'regiao'>, b: RepasseBody) {
  if (b.de > b.ate) throw new ApiError('VALIDATION_FAILED', 'ate: deve ser igual ou posterior a de');
  const gathered = await gather(db, regiao, b);
  const id = crypto.randomUUID();
  const { itens, values } = itemsOf(gathered, { id, regiao, b, now: nowIso() });
  const feeIds = JSON.stringify(gathered.fees.map((f) => f.id));
  // Rows travel as one JSON parameter (D1 binds at most 100 parameters per statement).
  const v = (k: string) => sql`json_extract(value, ${'$.' + k})`;
  const itemCols = Object.fromEntries(Object.entries(getTableColumns(ri)).map(([key, col]) => [key, v(col.name)]));
  const [rows, itensRead, links] = await writeThenRead(
    db,
    [
      db.insert(r).values(values),
      insertSelect(
        db,
        rl,
        {
          repasseId: sql`${id}`,
          lancamentoId: sql`${l.id}`,
          profissionalId: sql`${l.profissionalId}`,
          ativo: sql`1`,
        } as never,
        sql`from ${l} where ${l.id} in (select value from json_each(${feeIds})) and ${gatherable(regiao, b)}`,
      ).onConflictDoNothing(),
      db
        .update(r)
        .set({ lancamentosVinculados: sql`(select count(*) from ${rl} where ${rl.repasseId} = ${id})` })
        .where(eq(r.id, id)),
      insertSelect(db, ri, itemCols as never, sql`from json_each(${JSON.stringify(itens)}) where 1`),
      logStatement(db, log, {
        acao: 'repasses.create',
        entidade: 'repasses',
        entidadeId: id,
        regiao,
        dados: created(r, values),
      }),
    ],
    readBack(db, regiao, id),
  );
  return assemble(rows, itensRead, links)[0]!;
}

// Transitions.

type Acao = 'aprovar' | 'pagar' | 'cancelar';

const FROM: Record<Acao, RepasseStatus[]> = {
  aprovar: ['rascunho'],
  pagar: ['aprovado'],
  cancelar: ['rascunho', 'aprovado'],
};
const DONE: Record<Acao, string> = { aprovar: 'aprovado', pagar: 'pago', cancelar: 'cancelado' };

/** Items of batch `id` whose professional has no PIX key and type now. */
const withoutKey = (db: Db, id: string) =>
  db
    .select({ nome: profissionais.nome })
    .from(ri)
    .innerJoin(profissionais, eq(profissionais.id, ri.profissionalId))
    .where(
      and(eq(ri.repasseId, id), sql`(${profissionais.contaPix} is null or ${profissionais.tipoChavePix} is null)`),
    );

/** The batch's new columns for `acao`, stamped `now`. */
const setOf = (acao: Acao, now: string, pagoEm: string | undefined) =>
  acao === 'aprovar'
    ? { status: 'aprovado' as const, aprovadoEm: now, updatedAt: now }
    : acao === 'pagar'
      ? { status: 'pago' as const, pagoEm: pagoEm ?? saoPauloDate(new Date()), updatedAt: now }
      : { status: 'cancelado' as const, canceladoEm: now, updatedAt: now };

/** What a transition carries besides the batch's own update, for one batch `id`. */
interface Step {
  db: Db;
  log: LogCtx;
  id: string;
  now: string;
  /** The batch's guarded update's condition. */
  where: SQL | undefined;
  set: ReturnType<typeof setOf>;
  /** This request made the change: the batch is in the new state with this request's timestamp. */
  done: SQL;
}

/** aprovar, before the update: the items take the professionals' current PIX key (the figures stay). */
const takeKeys = ({ db, id, now, where }: Step) =>
  db
    .update(ri)
    .set({
      chavePix: sql`(select ${profissionais.contaPix} from ${profissionais} where ${profissionais.id} = ${ri.profissionalId})`,
      tipoChavePix: sql`(select ${profissionais.tipoChavePix} from ${profissionais} where ${profissionais.id} = ${ri.profissionalId})`,
      updatedAt: now,
    })
    .where(and(eq(ri.repasseId, id), sql`exists (select 1 from ${r} where ${where})`));

/** pagar, after the update: every fee of the batch still `previsto` becomes `pago` on `pago_em`, each logged. */
function payFees({ db, log, id, now, set, done }: Step) {
  const pagoEm = 'pagoEm' in set ? set.pagoEm : null;
  const feeWhere = and(
    sql`${l.id} in (select ${rl.lancamentoId} from ${rl} where ${rl.repasseId} = ${id} and ${rl.ativo} = 1)`,
    eq(l.status, 'previsto'),
    done,
  );
  return [
    // One entry per fee (each its own id): logEachRow, not logRowWrite.
    logEachRow(db, log, {
      acao: 'lancamentos.pagar',
      entidade: 'lancamentos',
      entidadeId: l.id,
      regiao: l.regiao,
      dados: { ...changed(l, { status: 'pago', pagoEm }), repasse_id: { depois: id } },
      from: sql`from ${l}`,
      when: feeWhere ?? sql`0`,
    }),
    db.update(l).set({ status: 'pago', pagoEm, updatedAt: now }).where(feeWhere),
  ];
}

/** Integer cents as the templates write money, in SQL: 123456 → "R$ 1.234,56". */
const brlSql = (cents: SQL) =>
  sql`'R$ ' || replace(printf(${'%,d'}, ${cents} / 100), ',', '.') || ',' || printf(${'%02d'}, ${cents} % 100)`;

/**
 * pagar, after the update: the WhatsApp message "payout paid" (docs/decisions.md#d30) to each
 * professional of the batch who opted in, with its net amount, once per batch and professional
 * (the key), only if this request paid it (`done`). Undefined while the channel is off.
 */
const paidWhatsapp = ({ db, id, now, done }: Step, config: Ctx['config']) =>
  prepareWhatsappRows(
    db,
    config,
    {
      tipo: 'repasse_pago',
      from: sql`from ${ri} join ${profissionais} p on p.id = ${ri.profissionalId}`,
      where: and(eq(ri.repasseId, id), sql`${ri.valorLiquidoCentavos} > 0`, done)!,
      chave: sql`${`repasse_pago:${id}:`} || ${ri.profissionalId}`,
      // Not p.id: the outbox's own subqueries read the profile table by its name.
      profissionalId: sql`${ri.profissionalId}`,
      dados: sql`json_object('nome', p.nome, 'valor', ${brlSql(sql`${ri.valorLiquidoCentavos}`)})`,
    },
    new Date(now),
  );

/** cancelar, after the update: the links are released (the fees may be gathered again). */
const releaseFees = ({ db, id, done }: Step) => [
  db
    .update(rl)
    .set({ ativo: null })
    .where(and(eq(rl.repasseId, id), done)),
];

/** The statements of each transition before and after the batch's own update. */
const STEPS: Record<Acao, { before: (s: Step) => Stmt[]; after: (s: Step) => Stmt[] }> = {
  aprovar: { before: (s) => [takeKeys(s)], after: () => [] },
  pagar: { before: () => [], after: payFees },
  cancelar: { before: () => [], after: releaseFees },
};

/** 409 INVALID_STATE for a transition that changed nothing, naming why. */
function refused(acao: Acao, row: RepasseRow, missing: { nome: string }[]) {
  if (acao === 'aprovar' && row.status === 'rascunho')
    return new ApiError(
      'INVALID_STATE',
      `sem chave PIX (conta_pix e tipo_chave_pix): ${missing.map((m) => m.nome).join(', ')}; complete o cadastro e aprove de novo`,
    );
  return new ApiError(
    'INVALID_STATE',
    `o repasse está ${row.status}: só um repasse ${FROM[acao].join(' ou ')} pode ser ${DONE[acao]}`,
  );
}

/**
 * One guarded transition, the statements it carries (STEPS) and the batch read back, in one D1 batch:
 * - aprovar: the items take the professionals' current PIX key (the figures stay as gathered); refused
 *   while any professional lacks one;
 * - pagar: every fee of the batch still `previsto` becomes `pago` on `pago_em`, each logged, and the
 *   professionals who opted in get "payout paid" on WhatsApp;
 * - cancelar: the links are released (the fees may be gathered again).
 * A retry or a race changes nothing: 409 INVALID_STATE naming the state the batch is in.
 */
export async function transition(
  { db, log, regiao, config, whatsapp }: Pick<Ctx, 'db' | 'log' | 'regiao' | 'config' | 'whatsapp'>,
  id: string,
  { acao, pagoEm }: { acao: Acao; pagoEm?: string },
) {
  const now = nowIso();
  const set = setOf(acao, now, pagoEm);
  const guard = and(inRegion(regiao, id), inArray(r.status, FROM[acao]));
  const where = acao === 'aprovar' ? and(guard, sql`not exists ${withoutKey(db, id)}`) : guard;
  const done = sql`exists (select 1 from ${r} where ${r.id} = ${id} and ${r.status} = ${set.status} and ${r.updatedAt} = ${now})`;
  const step: Step = { db, log, id, now, where, set, done };
  const [entry, update] = loggedUpdate(
    { db, log },
    { table: r, where, set },
    { acao: `repasses.${acao}`, entidade: 'repasses', regiao },
  );
  const before = STEPS[acao].before(step);
  const wa = acao === 'pagar' ? paidWhatsapp(step, config) : undefined;
  const after = [...STEPS[acao].after(step), ...(wa ? [wa] : [])];
  const [updated, ...read] = await writeThenRead(
    db,
    [...before, entry],
    [
      update,
      ...after,
      ...readBack(db, regiao, id),
      // Who lacks a key, to name them if the approval is refused.
      ...(acao === 'aprovar' ? [withoutKey(db, id)] : []),
    ],
  );
  const [rows, itens, links, missing = []] = read.slice(after.length) as unknown as [
    RepasseRow[],
    RepasseItemRow[],
    LinkRow[],
    { nome: string }[]?,
  ];
  const row = rows[0];
  if (!row) throw notFound();
  if ((updated as D1Result).meta.changes === 0) throw refused(acao, row, missing);
  if (wa) whatsapp((read[after.length - 1] as unknown as { id: string }[]).map((m) => m.id));
  return assemble(rows, itens, links)[0]!;
}

// PIX file.

/** The bank's file: name, CPF/CNPJ, key type, key, net amount; only once approved (or paid). */
export async function pixCsv({ db, regiao }: QueryCtx, id: string) {
  // The batch and its items only: the file needs no fee links.
  const [[batch], itens] = await db.batch([
    db.select().from(r).where(inRegion(regiao, id)),
    detailSelects(db, [id])[0],
  ]);
  if (!batch) throw notFound();
  if (batch.status !== 'aprovado' && batch.status !== 'pago')
    throw new ApiError(
      'INVALID_STATE',
      `o repasse está ${batch.status}: o arquivo PIX sai de um repasse aprovado ou pago`,
    );
  // The key and the amount go to the bank as they are (a phone key starts with +): the key only when it
  // is still valid for its type in its stored form; names stay formula-escaped.
  const key = (tipo: string | null, chave: string | null) => {
    if (tipo === null || chave === null) return chave;
    const checked = pixKey(tipo as TipoChavePix, chave);
    return 'chave' in checked && checked.chave === chave ? verbatim(chave) : chave;
  };
  return toCsv(
    ['nome', 'cpf_cnpj', 'tipo_chave_pix', 'chave_pix', 'valor_liquido'],
    itens.map((i) => [
      i.nome,
      i.cpfCnpj,
      i.tipoChavePix,
      key(i.tipoChavePix, i.chavePix),
      verbatim(formatMoney(i.valorLiquidoCentavos)),
    ]),
  );
}

// A professional's own view.

/**
 * The caller's fees and its lines of approved or paid batches (GET /api/financeiro/meus-pagamentos):
 * one round trip. Draft and cancelled batches are the office's work in progress and stay out.
 */
export async function meusPagamentos({ db, user: scope }: Pick<Ctx, 'db' | 'user'>, q: { de?: string; ate?: string }) {
  const now = new Date();
  const de = q.de ?? saoPauloDate(now, -365);
  const ate = q.ate ?? saoPauloDate(now, 365);
  if (de > ate) throw new ApiError('VALIDATION_FAILED', 'ate: deve ser igual ou posterior a de');
  const mine = sql`(select ${profissionais.id} from ${profissionais} where ${profissionais.usuarioId} = ${scope.id})`;
  const [fees, lines] = await db.batch([
    db
      .select({
        id: l.id,
        descricao: l.descricao,
        valor: l.valorCentavos,
        vencimento: l.vencimento,
        status: l.status,
        pagoEm: l.pagoEm,
        agendaId: l.agendaId,
        repasseId: sql<
          string | null
        >`(select ${rl.repasseId} from ${rl} where ${rl.lancamentoId} = ${l.id} and ${rl.ativo} = 1)`,
      })
      .from(l)
      .where(
        and(sql`${l.profissionalId} in ${mine}`, eq(l.origem, 'cache'), sql`${l.vencimento} between ${de} and ${ate}`),
      )
      .orderBy(sql`${l.vencimento} desc`, asc(l.id)),
    db
      .select({ i: ri, r: { de: r.de, ate: r.ate, status: r.status, pagoEm: r.pagoEm } })
      .from(ri)
      .innerJoin(r, eq(r.id, ri.repasseId))
      .where(
        and(
          sql`${ri.profissionalId} in ${mine}`,
          inArray(r.status, ['aprovado', 'pago']),
          sql`${r.ate} between ${de} and ${ate}`,
        ),
      )
      .orderBy(sql`${r.ate} desc`, asc(r.id)),
  ]);
  return {
    lancamentos: fees.map((f) => ({
      id: f.id,
      descricao: f.descricao,
      valor: fromCentavos(f.valor),
      vencimento: f.vencimento,
      status: f.status,
      pago_em: f.pagoEm,
      agenda_id: f.agendaId,
      repasse_id: f.repasseId,
    })),
    repasses: lines.map(({ i, r: b }) => ({
      repasse_id: i.repasseId,
      de: b.de,
      ate: b.ate,
      status: b.status,
      pago_em: b.pagoEm,
      ...figuresOf(i),
    })),
  };
}
