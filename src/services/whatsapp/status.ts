import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { agenda, whatsappOutbox, whatsappRespostas } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { visible as agendaVisible } from '../agenda/agenda';
import type { Ctx } from '../core/context';

/**
 * GET /api/agenda/{id}/whatsapp (docs/decisions.md#d30): per invitation of the event that was sent on
 * WhatsApp, whether the message reached the phone and was read (the webhook's statuses), and whether
 * it was answered with its buttons. For those who manage the event; one batch: the event under the
 * caller's visibility, and the invitations' outbox rows.
 */
export async function eventWhatsapp(ctx: Ctx, id: string) {
  const { db } = ctx;
  const [[event], rows] = await db.batch([
    db
      .select({ id: agenda.id })
      .from(agenda)
      .where(agendaVisible(ctx.user, ctx.regiao, eq(agenda.id, id))),
    db
      .select({
        conviteId: whatsappOutbox.conviteId,
        profissionalId: whatsappOutbox.profissionalId,
        status: whatsappOutbox.status,
        enviadoEm: whatsappOutbox.enviadoEm,
        entregueEm: whatsappOutbox.entregueEm,
        lidoEm: whatsappOutbox.lidoEm,
        // Qualified by hand: drizzle writes a one-table select's columns unqualified.
        respondido: sql<number>`exists (select 1 from ${whatsappRespostas} r where r.convite_id = "whatsapp_outbox"."convite_id")`,
        erro: whatsappOutbox.erro,
      })
      .from(whatsappOutbox)
      // The event's rows from whatsapp_outbox_agenda_tipo_idx (never its every invitation).
      .where(
        and(
          eq(whatsappOutbox.agendaId, id),
          eq(whatsappOutbox.tipo, 'convite_evento'),
          isNotNull(whatsappOutbox.conviteId),
        ),
      )
      .orderBy(whatsappOutbox.createdAt, whatsappOutbox.id),
  ]);
  if (!event) throw new ApiError('NOT_FOUND', 'evento não encontrado');
  return rows.map((r) => ({
    convite_id: r.conviteId!,
    profissional_id: r.profissionalId,
    status: r.status,
    enviado_em: r.enviadoEm,
    entregue_em: r.entregueEm,
    lido_em: r.lidoEm,
    respondido_por_whatsapp: !!r.respondido,
    erro: r.erro,
  }));
}
