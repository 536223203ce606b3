import { sql, type SQL } from 'drizzle-orm';
import { agenda } from '../db/schema';
import type { Db } from '../env';
import { prepareNotifications, type NewNotification } from './notifications';

export type AgendaChange = 'agenda_criada' | 'agenda_alterada' | 'agenda_excluida';

const text: Record<AgendaChange, { titulo: string; verbo: string }> = {
  agenda_criada: { titulo: 'Novo evento na agenda', verbo: 'foi criado' },
  agenda_alterada: { titulo: 'Evento alterado', verbo: 'foi alterado' },
  agenda_excluida: { titulo: 'Evento excluído', verbo: 'foi excluído' },
};

/** 2026-12-05 → 05/12/2026 */
const dataBr = (d: string | null) => (d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d.split('-').reverse().join('/') : d ?? '');

/**
 * The notifications of an agenda event created, changed or deleted (decisions D10), to the users it
 * concerns: its creator, the EVENT_OWNERs of its FOT's company (the old and the new one when the FOT
 * changes) and its team (accepted and still open invitations), never the caller. ONE query, run BEFORE the write
 * (a delete takes the team with it). `fotId` and `dataEvento` are the values the write sets, if any.
 */
export async function agendaNotifications(
  db: Db,
  tipo: AgendaChange,
  callerId: string,
  ev: { id: string; fotId?: string | null; dataEvento?: string | null },
): Promise<NewNotification[]> {
  const fotId = ev.fotId ?? null;
  const rows = await db.all<{ user_id: string; data_evento: string | null; fot: number | null; fot_id: string | null }>(sql`
    with ev as (select user_id, fot_id, data_evento from agenda where id = ${ev.id}),
    recipients(user_id) as (
      select user_id from ev where user_id is not null
      union
      select u.id from users u join cadastro_fot f on f.empresa_id = u.empresa_id
        where f.id in (select fot_id from ev union all select ${fotId}) and u.role = 'EVENT_OWNER' and u.ativo = 1
      union
      select p.usuario_id from convites c join profissionais p on p.id = c.profissional_id
        where c.agenda_id = ${ev.id} and c.status in ('aceito', 'pendente') and p.usuario_id is not null
    )
    select r.user_id,
      (select data_evento from ev) as data_evento,
      coalesce(${fotId}, (select fot_id from ev)) as fot_id,
      (select fot from cadastro_fot where id = coalesce(${fotId}, (select fot_id from ev))) as fot
    from recipients r where r.user_id <> ${callerId}`);
  const { titulo, verbo } = text[tipo];
  return rows.map((r) => {
    const data = ev.dataEvento ?? r.data_evento;
    return {
      userId: r.user_id,
      tipo,
      titulo,
      mensagem: `O evento de ${dataBr(data)}${r.fot !== null ? ` (FOT ${r.fot})` : ''} ${verbo}.`,
      dados: { agenda_id: ev.id, fot_id: r.fot_id, data_evento: data },
    };
  });
}

/** Guard for prepareNotifications: the event the write targets exists (and matches `where`) in the batch. */
export const agendaExists = (where: SQL | undefined) => sql`exists (select 1 from ${agenda} where ${where ?? sql`1`})`;

/**
 * agendaNotifications through the one notification service. With `where` (the filter of the update
 * or delete), the rows are written only if the event still matches it inside the batch: a write that
 * finds nothing (404) leaves no notification behind.
 */
export async function prepareAgendaNotifications(
  db: Db,
  tipo: AgendaChange,
  callerId: string,
  ev: { id: string; fotId?: string | null; dataEvento?: string | null },
  where?: SQL,
) {
  return prepareNotifications(db, await agendaNotifications(db, tipo, callerId, ev), where ? { when: agendaExists(where) } : {});
}
