import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Scope } from '../../db/scope';
import { cadastroFot, contratos, lancamentos, type ContratoRow } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { writeThenRead } from '../../db/write-read';
import { ApiError } from '../../lib/errors';
import { addMonths, fromCentavos, splitCentavos, toCentavos } from '../../lib/money';
import { pageBounds, totalOf, whenPaged, type Page } from '../../lib/pagination';
import { created, logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { assertRefsInRegion } from '../core/references';
import { ensureSystemCategories, entryInsert } from './financeiro';
import { selectLancamentos, toLancamentoResponse, type LancamentoView } from './lancamentos';

/**
 * A class's contract (docs/decisions.md#d18-finance, docs/guide/money.md): its total split into
 * monthly `receita` installments (category Contrato), written with the contract in one batch.
 */

const l = lancamentos;

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

/** The installments' entries of `contrato` (the caller's batch ensures the system categories first). */
const installments = (
  w: Pick<Ctx, 'db' | 'log'>,
  { contrato, vencimentos, nome }: { contrato: ContratoRow; vencimentos: (string | undefined)[]; nome: string },
) =>
  splitCentavos(contrato.valorTotalCentavos, contrato.parcelas).flatMap(
    (valor, i) =>
      entryInsert(
        w,
        {
          regiao: contrato.regiao,
          tipo: 'receita',
          categoria: { sistema: 'contrato' },
          descricao: `${nome} — parcela ${i + 1}/${contrato.parcelas}`,
          valorCentavos: valor,
          vencimento: vencimentos[i]!,
          origem: 'contrato',
          fotId: contrato.fotId,
          contratoId: contrato.id,
          parcela: i + 1,
        },
        { categoriesEnsured: true },
      ).statements,
  );

/**
 * The contract and its `parcelas` monthly `receita` entries (category Contrato) in ONE batch:
 * amounts by splitCentavos (the last absorbs the remainder), dates by addMonths from the first.
 */
export async function createContrato(ctx: Pick<Ctx, 'db' | 'log' | 'regiao'>, b: ContratoBody) {
  const { db, log, regiao } = ctx;
  await assertRefsInRegion({ db, regiao }, [
    { field: 'fot_id', table: cadastroFot, id: b.fot_id, message: 'fot_id: FOT não encontrado nesta região' },
  ]);
  const total = toCentavos(b.valor_total);
  if (total < b.parcelas) throw new ApiError('VALIDATION_FAILED', 'valor_total: menor que um centavo por parcela');
  const vencimentos = Array.from({ length: b.parcelas }, (_, i) => addMonths(b.primeiro_vencimento, i));
  if (vencimentos.some((v) => v === undefined))
    throw new ApiError('VALIDATION_FAILED', 'parcelas: a última parcela venceria depois de 9999-12-31');
  const now = nowIso();
  const contrato: ContratoRow = {
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
  const parcelas = installments(ctx, { contrato, vencimentos, nome: b.descricao ?? 'Contrato' });
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
export async function listContratos(
  { db, user, regiao }: Pick<Ctx, 'db' | 'user' | 'regiao'>,
  { fot_id: fotId, ...page }: Page & { fot_id?: string },
) {
  const where = and(contratoVisible(user, regiao), fotId ? eq(contratos.fotId, fotId) : undefined);
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
