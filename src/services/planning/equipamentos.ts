import { and, eq, sql } from 'drizzle-orm';
import { estoqueEquipamentos, profissionais, RECURSOS, type Recurso } from '../../db/schema';
import { rawBatch } from '../../db/raw-batch';
import { logStatement } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';
import { RECURSO_NOMES } from './capacidade';

/**
 * The equipment the planner counts (docs/decisions.md#d26): the company's stock per region and
 * resource, kept by administrators, plus the studios professionals bring (their profile's
 * `tem_estudio` and `qtd_estudio`: a profile with a studio and no number counts one).
 */

export interface EquipamentoItem {
  recurso: Recurso;
  nome: string;
  /** The company's own, as PUT /api/equipamentos set it (0 until then). */
  estoque: number;
  /** Studios of the region's listed professionals (qtd_estudios only; 0 for the rest). */
  de_profissionais: number;
  total: number;
  updated_at: string | null;
}

/** The stock rows and the professionals' studios, one statement each. */
const reads = ({ regiao }: QueryCtx) => [
  sql`select recurso, quantidade, updated_at from ${estoqueEquipamentos} where regiao = ${regiao}`,
  sql`select coalesce(sum(max(coalesce(qtd_estudio, 1), 1)), 0) as estudios from ${profissionais}
    where regiao = ${regiao} and tem_estudio = 1 and listado = 1`,
];

function itemsOf(stock: Record<string, unknown>[], studios: Record<string, unknown>[]): EquipamentoItem[] {
  const byRecurso = new Map(stock.map((s) => [s.recurso as string, s]));
  const brought = Number(studios[0]?.estudios ?? 0);
  return RECURSOS.map((recurso) => {
    const row = byRecurso.get(recurso);
    const estoque = row ? Number(row.quantidade) : 0;
    const de_profissionais = recurso === 'qtd_estudios' ? brought : 0;
    return {
      recurso,
      nome: RECURSO_NOMES[recurso],
      estoque,
      de_profissionais,
      total: estoque + de_profissionais,
      updated_at: (row?.updated_at as string | undefined) ?? null,
    };
  });
}

/** GET /api/equipamentos: every resource of the region, in a fixed order. */
export async function listEquipamentos(ctx: QueryCtx) {
  const [stock, studios] = await rawBatch(ctx.db, reads(ctx));
  return itemsOf(stock!.rows, studios!.rows);
}

export interface EquipamentoInput {
  recurso: Recurso;
  quantidade: number;
}

/**
 * PUT /api/equipamentos: sets the stock of the resources sent (the rest stay), each an upsert on
 * (regiao, recurso), so a retry writes the same rows, with its log entry (before the write: it reads
 * the old quantity). One atomic batch that ends with the reads of GET.
 */
export async function saveEquipamentos(ctx: Pick<Ctx, 'db' | 'log' | 'regiao'>, itens: EquipamentoInput[]) {
  const { db, log, regiao } = ctx;
  const now = new Date().toISOString();
  const writes = itens.flatMap((i) => {
    const id = crypto.randomUUID();
    const key = and(eq(estoqueEquipamentos.regiao, regiao), eq(estoqueEquipamentos.recurso, i.recurso));
    const current = (col: typeof estoqueEquipamentos.id | typeof estoqueEquipamentos.quantidade) =>
      sql`(select ${col} from ${estoqueEquipamentos} where ${key})`;
    return [
      logStatement(db, log, {
        acao: 'equipamentos.save',
        entidade: 'estoque_equipamentos',
        entidadeId: sql`coalesce(${current(estoqueEquipamentos.id)}, ${id})`,
        regiao,
        dados: {
          recurso: { depois: i.recurso },
          quantidade: { antes: current(estoqueEquipamentos.quantidade), depois: i.quantidade },
        },
      }).getSQL(),
      db
        .insert(estoqueEquipamentos)
        .values({ id, regiao, recurso: i.recurso, quantidade: i.quantidade, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [estoqueEquipamentos.regiao, estoqueEquipamentos.recurso],
          set: { quantidade: i.quantidade, updatedAt: now },
        })
        .getSQL(),
    ];
  });
  const results = await rawBatch(db, [...writes, ...reads(ctx)]);
  const [stock, studios] = results.slice(-2);
  return itemsOf(stock!.rows, studios!.rows);
}
