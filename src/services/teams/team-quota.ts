import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { agenda, agendaEquipe } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { oneAgenda, readAgenda } from '../agenda/agenda';
import { funcoesInRegion } from '../professionals/profissionais';
import type { Ctx } from '../core/context';
import { logStatement } from '../core/activity-log';
import { eventNotFound, managedEvent } from './convite-read';
import { eventoFatosSelect, maximosDoEvento, regrasDoEventoSelect } from '../rules/evento';

/** An event's team quota per function (docs/decisions.md#d11): its write (the read is services/agenda/equipe.ts). */

const EQUIPE_ROWS_PER_STATEMENT = 14;

export interface EquipeInput {
  funcao_id: string;
  quantidade: number;
  publicar?: boolean;
  requer_aprovacao?: boolean;
  /** Above an institution's cap on purpose (docs/decisions.md#d25): logged. */
  forcar?: boolean;
}

/** Replaces the event's quota per function, and answers the event with its team. */
export async function setEquipe(ctx: Ctx, id: string, items: EquipeInput[]) {
  const { db, log, user, regiao } = ctx;
  const ids = items.map((i) => i.funcao_id);
  const [[event], found, [fatos], regras] = await db.batch([
    managedEvent(ctx, user, id),
    funcoesInRegion(db, regiao, ids),
    eventoFatosSelect(db, eq(agenda.id, id)),
    regrasDoEventoSelect(db, regiao, id),
  ]);
  if (!event) throw eventNotFound();
  const missing = ids.find((f) => !found.some((x) => x.id === f));
  if (missing) throw new ApiError('NOT_FOUND', `funcao_id: função ${missing} não encontrada na região ${regiao}`);
  const forcado = aboveCaps(items, maximosDoEvento(fatos, regras), found);
  // The quota as it was, read by the entry's own statement before the delete.
  const antes = sql`json((select json_group_array(json_object('funcao_id', ${agendaEquipe.funcaoId}, 'quantidade', ${agendaEquipe.quantidade}, 'publicar', json(iif(${agendaEquipe.publicar}, 'true', 'false')), 'requer_aprovacao', json(iif(${agendaEquipe.requerAprovacao}, 'true', 'false')))) from ${agendaEquipe} where ${agendaEquipe.agendaId} = ${id}))`;
  const writes: BatchItem<'sqlite'>[] = [
    logStatement(db, log, {
      acao: 'agenda.equipe',
      entidade: 'agenda',
      entidadeId: id,
      regiao,
      dados: { equipe: { antes, depois: items }, ...(forcado.length ? { forcado: { depois: forcado } } : {}) },
    }),
    // The functions the new team leaves out go; the others are updated in place (below), so their
    // kept counts (drizzle/0018, 0027) stand and only a new function's row counts its invitations.
    db
      .delete(agendaEquipe)
      .where(and(eq(agendaEquipe.agendaId, id), ids.length ? notInArray(agendaEquipe.funcaoId, ids) : undefined)),
    ...quotaUpserts(db, id, items),
  ];
  return oneAgenda(await readAgenda(db, eq(agenda.id, id), writes));
}

/**
 * The items above a cap of the rules in force (docs/decisions.md#d25): 409 EXCEEDS_INSTITUTION_LIMIT
 * naming the first one not sent with `forcar: true`; those forced are answered, for the log entry.
 */
function aboveCaps(
  items: EquipeInput[],
  caps: Map<string, { maximo: number; explicacao: string }>,
  nomes: { id: string; nome: string }[],
) {
  const above = items.filter((i) => i.quantidade > (caps.get(i.funcao_id)?.maximo ?? Infinity));
  const refused = above.find((i) => !i.forcar);
  if (refused) {
    const cap = caps.get(refused.funcao_id)!;
    const nome = nomes.find((n) => n.id === refused.funcao_id)?.nome ?? refused.funcao_id;
    throw new ApiError(
      'EXCEEDS_INSTITUTION_LIMIT',
      `${nome}: ${refused.quantidade} acima do máximo ${cap.maximo} da regra (${cap.explicacao}); envie forcar: true para passar do limite`,
    );
  }
  return above.map((i) => ({
    funcao_id: i.funcao_id,
    quantidade: i.quantidade,
    maximo: caps.get(i.funcao_id)!.maximo,
  }));
}

/** The team rows, inserted or updated in place. D1 binds at most 100 parameters per statement and a row binds 7: at most 14 rows per insert. */
function quotaUpserts(db: Db, agendaId: string, items: EquipeInput[]) {
  const now = new Date().toISOString();
  const writes: BatchItem<'sqlite'>[] = [];
  for (let i = 0; i < items.length; i += EQUIPE_ROWS_PER_STATEMENT) {
    const chunk = items.slice(i, i + EQUIPE_ROWS_PER_STATEMENT);
    writes.push(
      db
        .insert(agendaEquipe)
        .values(
          chunk.map((item) => ({
            agendaId,
            funcaoId: item.funcao_id,
            quantidade: item.quantidade,
            publicar: item.publicar ?? false,
            requerAprovacao: item.requer_aprovacao ?? false,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: [agendaEquipe.agendaId, agendaEquipe.funcaoId],
          set: {
            quantidade: sql`excluded.${sql.identifier('quantidade')}`,
            publicar: sql`excluded.${sql.identifier('publicar')}`,
            requerAprovacao: sql`excluded.${sql.identifier('requer_aprovacao')}`,
            updatedAt: sql`excluded.${sql.identifier('updated_at')}`,
          },
        }),
    );
  }
  return writes;
}
