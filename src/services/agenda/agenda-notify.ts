import { sql, type SQL } from 'drizzle-orm';
import { agenda } from '../../db/schema';
import { prepareNotifications, type NewNotification } from '../core/notifications';
import type { Ctx } from '../core/context';

export type AgendaChange = 'agenda_criada' | 'agenda_alterada' | 'agenda_excluida';

const text: Record<AgendaChange, { titulo: string; verbo: string }> = {
  agenda_criada: { titulo: 'Novo evento na agenda', verbo: 'foi criado' },
  agenda_alterada: { titulo: 'Evento alterado', verbo: 'foi alterado' },
  agenda_excluida: { titulo: 'Evento excluído', verbo: 'foi excluído' },
};

/** 2026-12-05 → 05/12/2026 */
const dataBr = (d: string | null) =>
  d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d.split('-').reverse().join('/') : (d ?? '');

/**
 * Who an agenda event concerns (docs/decisions.md#d10), as ONE scalar SQL expression (a JSON object), so the
 * lookup can ride along a query the write makes anyway: the event's creator, the active EVENT_OWNERs
 * of its FOT's company (the old and the new one when the write changes the FOT), its team (accepted
 * and still open invitations), never the caller. It must run BEFORE the write: a delete takes the
 * team with it. `fotId` is the FOT the write sets, if any.
 */
export function agendaRecipients(callerId: string, ev: { id: string; fotId?: string | null }): SQL {
  const fotId = ev.fotId ?? null;
  return sql`(with ev as (select user_id, fot_id, data_evento from agenda where id = ${ev.id}),
    info as (select coalesce(${fotId}, (select fot_id from ev)) as fot_id, (select data_evento from ev) as data_evento)
    select json_object(
      'users', json((select json_group_array(user_id) from (
        select user_id from ev where user_id is not null
        union
        select u.id from users u join cadastro_fot f on f.empresa_id = u.empresa_id
          where f.id in (select fot_id from ev union all select ${fotId}) and u.role = 'EVENT_OWNER' and u.ativo = 1
        union
        select p.usuario_id from convites c join profissionais p on p.id = c.profissional_id
          where c.agenda_id = ${ev.id} and c.status in ('aceito', 'pendente') and p.usuario_id is not null
      ) where user_id <> ${callerId})),
      'fot_id', info.fot_id,
      'fot', (select fot from cadastro_fot where id = info.fot_id),
      'data_evento', info.data_evento)
    from info)`;
}

interface Found {
  users: string[];
  fot_id: string | null;
  fot: number | null;
  data_evento: string | null;
}

/** The notifications of the change from what agendaRecipients found. `dataEvento`: the date the write sets, if any. */
export function agendaNotifications(
  tipo: AgendaChange,
  ev: { id: string; dataEvento?: string | null },
  found: unknown,
): NewNotification[] {
  const f = JSON.parse(typeof found === 'string' ? found : '{"users":[]}') as Found;
  const data = ev.dataEvento ?? f.data_evento;
  const { titulo, verbo } = text[tipo];
  const mensagem = `O evento de ${dataBr(data)}${f.fot !== null ? ` (FOT ${f.fot})` : ''} ${verbo}.`;
  return f.users.map((userId) => ({
    userId,
    tipo,
    titulo,
    mensagem,
    dados: { agenda_id: ev.id, fot_id: f.fot_id, data_evento: data },
  }));
}

/** Guard for prepareNotifications: the event the write targets exists (and matches `where`) in the batch. */
export const agendaExists = (where: SQL | undefined) => sql`exists (select 1 from ${agenda} where ${where ?? sql`1`})`;

/**
 * For a write that makes no other query first (a delete): the recipients in ONE query, through the
 * one notification service. With `ev.where` (the write's filter) the rows are written only if the
 * event still matches it inside the batch: a write that finds nothing (404) leaves no notification behind.
 */
export async function prepareAgendaNotifications(
  { db, user }: Pick<Ctx, 'db' | 'user'>,
  tipo: AgendaChange,
  ev: { id: string; where?: SQL },
) {
  const { id, where } = ev;
  const [row] = await db.values<[unknown]>(sql`select ${agendaRecipients(user.id, { id })}`);
  return prepareNotifications(
    db,
    agendaNotifications(tipo, { id }, row?.[0]),
    where ? { when: agendaExists(where) } : {},
  );
}
