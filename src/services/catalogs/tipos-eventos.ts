import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { funcoes, precos, tiposEventos } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { ApiError } from '../../lib/errors';
import { fromCentavos, toCentavos } from '../../lib/money';
import { isPaged, pageBounds } from '../../lib/pagination';
import { toCatalogResponse, type CatalogPresenter, type CatalogResponse } from './catalogs';
import { logStatement } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';

/**
 * Event types: a catalog (services/catalogs/catalogs.ts) whose entries carry the region's price of each
 * professional function (docs/decisions.md#d6). Prices are money in cents in the database.
 */

const precoColumns = {
  id: precos.id,
  tipoEventoId: precos.tipoEventoId,
  funcaoProfissionalId: precos.funcaoProfissionalId,
  funcaoNome: funcoes.label,
  valorCentavos: precos.valorCentavos,
  regiao: precos.regiao,
  createdAt: precos.createdAt,
  updatedAt: precos.updatedAt,
};
type PrecoRow = { [K in keyof typeof precoColumns]: (typeof precoColumns)[K]['_']['data'] };

export interface PrecoBody {
  id: string;
  tipo_evento_id: string;
  funcao_profissional_id: string;
  funcao_nome: string;
  valor: number;
  regiao: string;
  created_at: string;
  updated_at: string;
}
export type EventoBody = CatalogResponse<'nome'> & { precos: PrecoBody[] };

const toPrecoResponse = (p: PrecoRow): PrecoBody => ({
  id: p.id,
  tipo_evento_id: p.tipoEventoId,
  funcao_profissional_id: p.funcaoProfissionalId,
  funcao_nome: p.funcaoNome,
  valor: fromCentavos(p.valorCentavos),
  regiao: p.regiao,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

const byFuncaoName = [asc(funcoes.labelKey), asc(precos.id)];

/** Prices with their function's name, one query. */
const selectPrecos = (db: Db) =>
  db.select(precoColumns).from(precos).innerJoin(funcoes, eq(funcoes.id, precos.funcaoProfissionalId));

/**
 * Event types carry their region's prices: one more query in the list's batch for all the
 * region's prices (or the page's), grouped here, whatever the number of types.
 */
export const eventoPresenter: CatalogPresenter<EventoBody, PrecoRow> = {
  related({ db, regiao }, page) {
    // A page of types reads only its types' prices (a subquery: D1 binds at most 100 parameters).
    const { limit, offset } = pageBounds(page);
    const pageIds = isPaged(page)
      ? inArray(
          precos.tipoEventoId,
          db
            .select({ id: tiposEventos.id })
            .from(tiposEventos)
            .where(eq(tiposEventos.regiao, regiao))
            .orderBy(asc(tiposEventos.labelKey), asc(tiposEventos.id))
            .limit(limit)
            .offset(offset),
        )
      : undefined;
    return selectPrecos(db)
      .where(and(eq(precos.regiao, regiao), pageIds))
      .orderBy(...byFuncaoName);
  },
  list(rows, all) {
    const byTipo = new Map<string, PrecoBody[]>();
    for (const p of all) {
      const bucket = byTipo.get(p.tipoEventoId);
      if (bucket) bucket.push(toPrecoResponse(p));
      else byTipo.set(p.tipoEventoId, [toPrecoResponse(p)]);
    }
    return rows.map((row) => ({ ...toCatalogResponse('nome', row), precos: byTipo.get(row.id) ?? [] }));
  },
  async one({ db, regiao }, row, created) {
    const found = created
      ? []
      : await selectPrecos(db)
          .where(and(eq(precos.tipoEventoId, row.id), eq(precos.regiao, regiao)))
          .orderBy(...byFuncaoName);
    return { ...toCatalogResponse('nome', row), precos: found.map(toPrecoResponse) };
  },
};

/**
 * Create or replace in ONE statement: INSERT ... SELECT from the event type joined with the
 * function, both restricted to the caller's region (so a missing or foreign one inserts nothing),
 * ON CONFLICT of the unique (tipo_evento_id, funcao_profissional_id, regiao) replacing valor.
 * Answers the price's id (unchanged when replaced).
 */
export async function savePrice(
  { db, log, regiao }: Pick<Ctx, 'db' | 'log' | 'regiao'>,
  input: { tipo_evento_id: string; funcao_profissional_id: string; valor: number },
): Promise<string> {
  const now = nowIso();
  const newId = crypto.randomUUID();
  const centavos = toCentavos(input.valor);
  const source = db
    .select({
      id: sql<string>`${newId}`.as('id'),
      regiao: sql<string>`${regiao}`.as('regiao'),
      tipoEventoId: tiposEventos.id,
      funcaoProfissionalId: funcoes.id,
      valorCentavos: sql<number>`${centavos}`.as('valor_centavos'),
      createdAt: sql<string>`${now}`.as('created_at'),
      updatedAt: sql<string>`${now}`.as('updated_at'),
    })
    .from(tiposEventos)
    .innerJoin(funcoes, and(eq(funcoes.id, input.funcao_profissional_id), eq(funcoes.regiao, regiao)))
    // SQLite needs a WHERE in INSERT ... SELECT ... ON CONFLICT (parsing ambiguity with JOIN ... ON).
    .where(and(eq(tiposEventos.id, input.tipo_evento_id), eq(tiposEventos.regiao, regiao)));
  // The entry goes before the upsert, over the same source joined with the price it replaces (if
  // any): written exactly when the upsert writes, with the old value as `antes`.
  const entry = logStatement(db, log, {
    acao: 'precos.save',
    entidade: 'precos',
    entidadeId: sql`coalesce(${precos.id}, ${newId})`,
    regiao,
    dados: {
      tipo_evento_id: { depois: input.tipo_evento_id },
      funcao_profissional_id: { depois: input.funcao_profissional_id },
      valor_centavos: { antes: precos.valorCentavos, depois: centavos },
    },
    from: sql`from ${tiposEventos} inner join ${funcoes} on ${funcoes.id} = ${input.funcao_profissional_id} and ${funcoes.regiao} = ${regiao} left join ${precos} on ${precos.tipoEventoId} = ${tiposEventos.id} and ${precos.funcaoProfissionalId} = ${funcoes.id} and ${precos.regiao} = ${regiao}`,
    when: and(eq(tiposEventos.id, input.tipo_evento_id), eq(tiposEventos.regiao, regiao)),
  });
  const [, [saved]] = await db.batch([
    entry,
    db
      .insert(precos)
      .select(source)
      .onConflictDoUpdate({
        target: [precos.tipoEventoId, precos.funcaoProfissionalId, precos.regiao],
        set: { valorCentavos: sql`excluded.valor_centavos`, updatedAt: now },
      })
      .returning({ id: precos.id }),
  ]);
  if (!saved) throw await missingReference(db, regiao, input.tipo_evento_id);
  return saved.id;
}

/** Only on the failure path: say which reference is missing. */
async function missingReference(db: Db, regiao: string, tipoEventoId: string) {
  const [tipo] = await db
    .select({ id: tiposEventos.id })
    .from(tiposEventos)
    .where(and(eq(tiposEventos.id, tipoEventoId), eq(tiposEventos.regiao, regiao)));
  return tipo
    ? new ApiError('NOT_FOUND', 'funcao_profissional_id: função não encontrada nesta região')
    : new ApiError('NOT_FOUND', 'tipo_evento_id: tipo de evento não encontrado nesta região');
}

/** One query: the event type (404 when not in the region) left-joined with its prices. */
export async function listPrices({ db, regiao }: QueryCtx, id: string): Promise<PrecoBody[]> {
  const rows = await db
    .select({ tipoId: tiposEventos.id, ...precoColumns })
    .from(tiposEventos)
    .leftJoin(precos, and(eq(precos.tipoEventoId, tiposEventos.id), eq(precos.regiao, tiposEventos.regiao)))
    .leftJoin(funcoes, eq(funcoes.id, precos.funcaoProfissionalId))
    .where(and(eq(tiposEventos.id, id), eq(tiposEventos.regiao, regiao)))
    .orderBy(...byFuncaoName);
  if (rows.length === 0) throw new ApiError('NOT_FOUND', 'tipo de evento não encontrado');
  // Without prices the left join yields one row whose price columns are all null.
  return rows.flatMap(({ tipoId: _tipo, ...preco }) => (preco.id === null ? [] : [toPrecoResponse(preco as PrecoRow)]));
}
