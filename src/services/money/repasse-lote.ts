import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agenda, lancamentos, profissionais } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { withholding } from '../../lib/money';
import { inLiveBatch } from './financeiro';
import { missingTable, tabelaEmVigor, toTaxTable } from './tabelas-tributarias';

/** Gathering a payout batch (docs/decisions.md#d18-finance "Payouts"): the fees a batch may take and its items. */

const l = lancamentos;

export interface RepasseBody {
  de: string;
  ate: string;
  profissional_ids?: string[];
}

/** The region's `previsto` fees of events dated in [de, ate] that no live batch holds. */
export const gatherable = (regiao: string, b: RepasseBody) =>
  and(
    eq(l.regiao, regiao),
    eq(l.origem, 'cache'),
    eq(l.tipo, 'despesa'),
    eq(l.status, 'previsto'),
    isNotNull(l.profissionalId),
    sql`${l.agendaId} in (select ${agenda.id} from ${agenda} where ${agenda.regiao} = ${regiao} and ${agenda.dataEvento} between ${b.de} and ${b.ate})`,
    sql`not ${inLiveBatch(l.id)}`,
    // One JSON parameter however many ids (D1 binds at most 100 per statement).
    b.profissional_ids
      ? sql`${l.profissionalId} in (select value from json_each(${JSON.stringify(b.profissional_ids)}))`
      : undefined,
  );

/** The candidate fees with their professionals' figures, and the tax table in force on `ate`: one round trip. */
export async function gather(db: Db, regiao: string, b: RepasseBody) {
  const p = profissionais;
  const [fees, [tabela]] = await db.batch([
    db
      .select({
        id: l.id,
        valor: l.valorCentavos,
        // Not p.id: two columns named id in one batch row would overwrite each other.
        profissionalId: sql<string>`${l.profissionalId}`,
        nome: p.nome,
        cpfCnpj: p.cpfCnpjTitular,
        regime: p.regimeFiscal,
        chave: p.contaPix,
        tipoChave: p.tipoChavePix,
      })
      .from(l)
      .innerJoin(p, eq(p.id, l.profissionalId))
      .where(gatherable(regiao, b))
      .orderBy(asc(l.id)),
    tabelaEmVigor(db, b.ate),
  ]);
  if (fees.length === 0)
    throw new ApiError(
      'INVALID_STATE',
      `nenhum cachê previsto de eventos entre ${b.de} e ${b.ate} fora de outro repasse ativo`,
    );
  return { fees, tabela };
}
type Gathered = Awaited<ReturnType<typeof gather>>;

/**
 * One item per professional: the sum of its fees, withheld by the tax table when `autonomo_rpa`
 * (lib/money.ts), as rows of repasse_itens (column names: they travel as JSON); and the batch's row
 * with the totals. No table in force while one is needed: 409 INVALID_STATE naming the date.
 */
export function itemsOf(
  { fees, tabela }: Gathered,
  batch: { id: string; regiao: string; b: RepasseBody; now: string },
) {
  const { id, now, b } = batch;
  const byProf = new Map<string, (typeof fees)[number] & { bruto: number }>();
  for (const f of fees) {
    const cur = byProf.get(f.profissionalId);
    byProf.set(f.profissionalId, { ...f, bruto: (cur?.bruto ?? 0) + f.valor });
  }
  const needsTable = [...byProf.values()].some((f) => f.regime === 'autonomo_rpa');
  if (needsTable && !tabela) throw missingTable(b.ate);
  const taxTable = tabela ? toTaxTable(tabela) : undefined;
  const itens = [...byProf.values()].map((f) => {
    const w =
      f.regime === 'autonomo_rpa' ? withholding(f.bruto, taxTable!) : { inss: 0, irrf: 0, iss: 0, liquido: f.bruto };
    return {
      id: crypto.randomUUID(),
      repasse_id: id,
      profissional_id: f.profissionalId,
      nome: f.nome,
      cpf_cnpj: f.cpfCnpj,
      regime_fiscal: f.regime,
      valor_bruto_centavos: f.bruto,
      inss_centavos: w.inss,
      irrf_centavos: w.irrf,
      iss_centavos: w.iss,
      valor_liquido_centavos: w.liquido,
      chave_pix: f.chave,
      tipo_chave_pix: f.tipoChave,
      created_at: now,
      updated_at: now,
    };
  });
  const sum = (
    k: 'valor_bruto_centavos' | 'inss_centavos' | 'irrf_centavos' | 'iss_centavos' | 'valor_liquido_centavos',
  ) => itens.reduce((s, i) => s + i[k], 0);
  const values = {
    id,
    regiao: batch.regiao,
    de: b.de,
    ate: b.ate,
    status: 'rascunho' as const,
    tabelaVigencia: needsTable ? tabela!.vigencia : null,
    totalBrutoCentavos: sum('valor_bruto_centavos'),
    totalInssCentavos: sum('inss_centavos'),
    totalIrrfCentavos: sum('irrf_centavos'),
    totalIssCentavos: sum('iss_centavos'),
    totalLiquidoCentavos: sum('valor_liquido_centavos'),
    qtdLancamentos: fees.length,
    lancamentosVinculados: null,
    createdAt: now,
    updatedAt: now,
  };
  return { itens, values };
}
