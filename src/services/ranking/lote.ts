import { and, eq, inArray, sql } from 'drizzle-orm';
import { rawBatch } from '../../db/raw-batch';
import { convites, profissionais, profissionalFuncoes } from '../../db/schema';
import { writeThenRead } from '../../db/write-read';
import { listedProfile } from '../professionals/profissionais';
import { selectConvites, toConviteResponse, type ConviteBody } from '../teams/convite-read';
import { invitationWrites } from '../teams/convites';
import { unavailableForAgenda } from '../availability/rule';
import { acceptedOverlap, acceptedTravelConflict, travelRuleOf } from '../teams/time-window';
import type { Ctx } from '../core/context';
import {
  rankingOf,
  rankingStatements,
  type Candidato,
  type Motivo,
  type Ranking,
  type RankingInput,
} from './candidatos';

/**
 * POST /api/agenda/{id}/convites/lote (docs/decisions.md#d29): invite several professionals at once,
 * the ones named or the ranking's first N, each through D11's invitation (services/teams/convites.ts
 * invitationWrites: the row, its log entry, notification and WhatsApp message), each with the
 * ranking snapshot that says why. Each item answers its own result: an item the ranking excludes, or
 * the whole batch when the function's quota is full, is refused with the code D11 would give; the
 * rest are invited. Three round trips whatever the number: the caller, the ranking, the writes.
 */

export interface LoteInput {
  funcao_id: string;
  profissional_ids?: string[];
  top_n?: number;
}

export type LoteItem =
  | { profissional_id: string; resultado: 'convidado'; convite: ConviteBody }
  | { profissional_id: string; resultado: 'recusado'; code: string; motivo?: Motivo; error: string };

/** The code D11's invitation (or acceptance) gives for what the ranking calls each exclusion. */
const REFUSAL: Record<Motivo, { code: string; error: string }> = {
  SEM_FUNCAO: { code: 'VALIDATION_FAILED', error: 'funcao_id: o profissional não exerce esta função' },
  INATIVO: { code: 'NOT_FOUND', error: 'profissional com conta inativa ou cadastro pendente' },
  JA_CONVIDADO: { code: 'CONFLICT', error: 'este profissional já foi convidado para este evento' },
  INDISPONIVEL: {
    code: 'PROFESSIONAL_UNAVAILABLE',
    error: 'o profissional declarou indisponibilidade no horário do evento',
  },
  CONFLITO_HORARIO: {
    code: 'DOUBLE_BOOKED',
    error: 'o profissional já está aceito em outro evento em horário sobreposto',
  },
  DESLOCAMENTO: {
    code: 'TRAVEL_CONFLICT',
    error: 'o profissional não chega a tempo de outro evento aceito (deslocamento)',
  },
};

/** What the invitation keeps of the ranking: the professional's line and the weights. */
const snapshotOf = (c: Candidato, r: Ranking) => ({
  posicao: c.posicao,
  score: c.score,
  componentes: c.componentes,
  alertas: c.alertas,
  pesos: r.pesos,
  funcao_id: r.funcao_id,
  calculado_em: r.calculado_em,
});

/**
 * The invitation is written only while D11's rules still hold when the batch runs: the professional
 * listed in the region, holding the function, not accepted on an overlapping event nor on one it
 * cannot travel to or from in time (D23's TRAVEL_CONFLICT); invitationWrites adds D24's declared
 * unavailability (a batch never forces it) and writes nothing over an existing invitation.
 */
const stillInvitable = (ctx: Pick<Ctx, 'config'>, agendaId: string, p: { profissionalId: string; funcaoId: string }) =>
  sql`exists (select 1 from ${profissionais} where ${profissionais.id} = ${p.profissionalId} and ${listedProfile})
    and exists (select 1 from ${profissionalFuncoes} where ${profissionalFuncoes.profissionalId} = ${p.profissionalId} and ${profissionalFuncoes.funcaoId} = ${p.funcaoId})
    and not ${acceptedOverlap(sql`${p.profissionalId}`, sql`${agendaId}`)}
    and not ${acceptedTravelConflict(sql`${p.profissionalId}`, sql`${agendaId}`, travelRuleOf(ctx.config))}`;

/**
 * Why each of `profissionalIds` would be refused now, read in the writes' own batch (after them): for
 * an item whose guarded insert wrote nothing, the rule that stopped it, in the ranking's order
 * (another invitation of the event, then D24, D11's overlap, D23's travel).
 */
const refusalsNow = (ctx: Pick<Ctx, 'db' | 'config'>, agendaId: string, profissionalIds: string[]) => {
  const pid = sql`${profissionais.id}`;
  const ev = sql`${agendaId}`;
  return ctx.db
    .select({
      id: profissionais.id,
      convidado: sql<number>`exists (select 1 from ${convites} where ${convites.agendaId} = ${ev} and ${convites.profissionalId} = ${pid})`,
      indisponivel: sql<number>`${unavailableForAgenda(pid, ev)}`,
      conflito: sql<number>`${acceptedOverlap(pid, ev)}`,
      deslocamento: sql<number>`${acceptedTravelConflict(pid, ev, travelRuleOf(ctx.config))}`,
    })
    .from(profissionais)
    .where(inArray(profissionais.id, profissionalIds));
};

const motivoNow = (r: {
  convidado: number;
  indisponivel: number;
  conflito: number;
  deslocamento: number;
}): Motivo | undefined =>
  r.convidado
    ? 'JA_CONVIDADO'
    : r.indisponivel
      ? 'INDISPONIVEL'
      : r.conflito
        ? 'CONFLITO_HORARIO'
        : r.deslocamento
          ? 'DESLOCAMENTO'
          : undefined;

export async function lote(ctx: Ctx, id: string, body: LoteInput) {
  const { db } = ctx;
  const named = body.profissional_ids ? [...new Set(body.profissional_ids)] : undefined;
  const q: RankingInput = named
    ? { funcao_id: body.funcao_id, limit: named.length, incluir_excluidos: true, profissional_ids: named }
    : { funcao_id: body.funcao_id, limit: body.top_n ?? 1, incluir_excluidos: false };
  const [head, rows] = await rawBatch(db, rankingStatements(ctx, id, q));
  const ranking = rankingOf(ctx.user, id, { q, head: head!.rows, rows: rows!.rows });
  const byId = new Map(ranking.candidatos.map((c) => [c.profissional_id, c]));
  const out = new Map(ranking.excluidos?.map((e) => [e.profissional_id, e]));
  const order = named ?? ranking.candidatos.map((c) => c.profissional_id);

  const items = new Map<string, LoteItem>();
  const toInvite: { candidato: Candidato; conviteId: string }[] = [];
  for (const pid of order) {
    const c = byId.get(pid);
    const e = out.get(pid);
    if (e) items.set(pid, { profissional_id: pid, resultado: 'recusado', motivo: e.motivo, ...REFUSAL[e.motivo] });
    else if (!c)
      items.set(pid, {
        profissional_id: pid,
        resultado: 'recusado',
        code: 'NOT_FOUND',
        error: `profissional_id: profissional não encontrado na região ${ctx.regiao}`,
      });
    else if (!ranking.vagas.aberta)
      items.set(pid, {
        profissional_id: pid,
        resultado: 'recusado',
        code: 'QUOTA_FULL',
        error: 'a cota desta função no evento já está preenchida',
      });
    else toInvite.push({ candidato: c, conviteId: crypto.randomUUID() });
  }

  if (toInvite.length > 0) {
    const writes = toInvite.map(({ candidato: c, conviteId }) =>
      invitationWrites(ctx, {
        conviteId,
        agendaId: id,
        dataEvento: ranking.data_evento,
        profissional: { id: c.profissional_id, usuarioId: c.usuario_id ?? null },
        funcaoId: body.funcao_id,
        rankingSnapshot: snapshotOf(c, ranking),
        guard: stillInvitable(ctx, id, { profissionalId: c.profissional_id, funcaoId: body.funcao_id }),
      }),
    );
    const ids = toInvite.map((t) => t.conviteId);
    const [views, now] = await writeThenRead(
      db,
      writes.flatMap((w) => w.writes),
      [
        selectConvites(db, ctx.user).where(and(eq(convites.agendaId, id), inArray(convites.id, ids))),
        refusalsNow(
          ctx,
          id,
          toInvite.map((t) => t.candidato.profissional_id),
        ),
      ],
    );
    const landed = new Map(views.map((v) => [v.c.id, v]));
    const why = new Map(now.map((r) => [r.id, motivoNow(r)]));
    toInvite.forEach(({ candidato: c, conviteId }, i) => {
      const view = landed.get(conviteId);
      if (view) {
        writes[i]!.after();
        items.set(c.profissional_id, {
          profissional_id: c.profissional_id,
          resultado: 'convidado',
          convite: toConviteResponse(view),
        });
      } else {
        // Changed between the ranking and the write (invited meanwhile, a declaration, an acceptance):
        // the rule that stopped it, else (its account or function changed) a plain conflict.
        const motivo = why.get(c.profissional_id);
        items.set(
          c.profissional_id,
          motivo
            ? { profissional_id: c.profissional_id, resultado: 'recusado', motivo, ...REFUSAL[motivo] }
            : {
                profissional_id: c.profissional_id,
                resultado: 'recusado',
                code: 'CONFLICT',
                error:
                  'o profissional mudou enquanto o convite era salvo (conta ou função): consulte o ranking de novo',
              },
        );
      }
    });
  }
  const itens = order.map((pid) => items.get(pid)!);
  return {
    convidados: itens.filter((i) => i.resultado === 'convidado').length,
    recusados: itens.filter((i) => i.resultado === 'recusado').length,
    itens,
  };
}
