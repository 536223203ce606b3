import { sql } from 'drizzle-orm';
import { generatedId } from '../../db/generated-id';
import type { Db } from '../../db/client';
import { rawBatch } from '../../db/raw-batch';
import { ADMIN_ROLES, agenda, convites, lembretesEnviados, notifications, profissionais, users } from '../../db/schema';
import type { Config } from '../../env';
import { eventStartSql, saoPauloDate } from '../../lib/dates';
import type { PushMessage } from '../../lib/messages';
import { prepareWhatsappRows, quandoSql } from '../core/whatsapp';
import { missedConfirmationStatements } from '../reliability/ledger';

/**
 * Reminders (docs/decisions.md#d16), run by the scheduled job `lembretes` every 15 minutes.
 *
 * Each (invitation or event, kind) is sent at most once: a run first INSERTs the reminders due now
 * into `lembretes_enviados` (primary key (alvo_id, tipo), ON CONFLICT DO NOTHING) tagged with the
 * run's own id, then inserts the notifications of exactly the rows IT inserted, in the same batch
 * (one transaction): a repeated or overlapping run finds the keys taken and notifies nobody.
 * Seven statements per run in one round trip, whatever the number of invitations (the last two: the
 * confirmations missed by the 12-hour deadline, into the reliability ledger, and the scores they
 * move); the events are found by the `agenda_data_idx` range on `data_evento`.
 *
 *   lembrete_d7 / _d2 / _d1  to each accepted member, 7, 2 and 1 days before the start; only the
 *                            latest kind due (accepted 21 h before: d1 only, never a late d7 or d2)
 *   confirmacao_pendente     to an accepted member not yet confirmed, 24 hours before
 *   equipe_nao_confirmada    to every active administrator, 12 hours before an event with an
 *                            unconfirmed accepted member, once per event
 *
 * Nothing once the event has started; nothing for declined invitations (only `aceito` counts) or
 * deleted events (an event is cancelled by deleting it: its invitations go with it).
 *
 * The D-2 and D-1 reminders also go on WhatsApp to a member who opted in (docs/decisions.md#d30):
 * a sixth statement in the same batch writes their outbox rows from exactly the rows this run
 * inserted, under the key `<kind>:<invitation>`; the job enqueues the ids it answers.
 */

const HOUR = 3600_000;
const iso = (now: Date, hours: number) => new Date(now.getTime() + hours * HOUR).toISOString();
const day = (now: Date, hours: number) => iso(now, hours).slice(0, 10);

/** 2026-12-05 + 19:30 → "05/12/2026 às 19:30" */
const quando = quandoSql;

const TEXTS = {
  lembrete_d7: { titulo: 'Evento em 7 dias', frase: 'Lembrete: você está na equipe do evento de ' },
  lembrete_d2: { titulo: 'Evento em 2 dias', frase: 'Lembrete: você está na equipe do evento de ' },
  lembrete_d1: { titulo: 'Evento amanhã', frase: 'Lembrete: você está na equipe do evento de ' },
  confirmacao_pendente: { titulo: 'Confirme sua presença', frase: 'Confirme sua presença no evento de ' },
} as const;
const caseOf = (field: 'titulo' | 'frase') =>
  sql.raw(
    `case l.tipo ${Object.entries(TEXTS)
      .map(([k, t]) => `when '${k}' then '${t[field].replace(/'/g, "''")}'`)
      .join(' ')} end`,
  );

/** What the run writes with: the session, and the config that says whether WhatsApp is on. */
type RunCtx = { db: Db; config: Pick<Config, 'WHATSAPP_TOKEN'> };

/**
 * The D-2/D-1 reminders this run inserted, as WhatsApp messages to the members who opted in: the
 * template's name, the event's date and time, and the day in words as seen from the run's São Paulo
 * date ("hoje", "amanhã", "em 2 dias": a member who accepted late gets its reminder on the day).
 */
function whatsappReminders({ db, config }: RunCtx, now: Date, run: string) {
  const days = sql`cast(julianday(${agenda.dataEvento}) - julianday(${saoPauloDate(now)}) as integer)`;
  return prepareWhatsappRows(
    db,
    config,
    {
      tipo: sql`l.tipo`,
      from: sql`from ${lembretesEnviados} l
        join ${convites} on ${convites.id} = l.alvo_id
        join ${profissionais} p on p.id = ${convites.profissionalId}
        join ${agenda} on ${agenda.id} = l.agenda_id`,
      where: sql`l.execucao = ${run} and l.tipo in ('lembrete_d2', 'lembrete_d1')`,
      chave: sql`l.tipo || ':' || l.alvo_id`,
      // Not p.id: the outbox's own subqueries read the profile table by its name.
      profissionalId: sql`${convites.profissionalId}`,
      conviteId: sql`l.alvo_id`,
      agendaId: sql`l.agenda_id`,
      dados: sql`json_object('nome', p.nome, 'quando', ${quando(agenda)},
        'dia', case ${days} when 0 then 'hoje' when 1 then 'amanhã' else 'em ' || ${days} || ' dias' end)`,
    },
    now,
  );
}

/** The run's statements, in batch order: five, the two of the missed confirmations (docs/decisions.md#d28), and the WhatsApp one while the channel is on (exported for the query-plan test). */
export function reminderStatements(ctx: RunCtx, now: Date, run: string) {
  const at = now.toISOString();
  const ini = eventStartSql(agenda.dataEvento, agenda.horario);
  // The São Paulo dates an event starting in the next 7 days can have (UTC dates ± a day).
  const range = sql`${agenda.dataEvento} between ${day(now, -24)} and ${day(now, 8 * 24)}`;
  const accepted = sql`select ${convites.id} as convite_id, ${agenda.id} as agenda_id, ${convites.confirmadoEm} as confirmado_em, ${ini} as ini
    from ${agenda} join ${convites} on ${convites.agendaId} = ${agenda.id} and ${convites.status} = 'aceito'
    where ${range}`;
  const into = sql`insert into ${lembretesEnviados} (alvo_id, tipo, agenda_id, execucao, enviado_em)`;
  const memberKinds = sql`${into}
    select x.convite_id, case when x.ini <= ${iso(now, 24)} then 'lembrete_d1' when x.ini <= ${iso(now, 48)} then 'lembrete_d2' else 'lembrete_d7' end,
      x.agenda_id, ${run}, ${at}
    from (${accepted}) x
    where x.ini > ${at} and x.ini <= ${iso(now, 7 * 24)}
    on conflict do nothing`;
  const unconfirmed = sql`${into}
    select x.convite_id, 'confirmacao_pendente', x.agenda_id, ${run}, ${at}
    from (${accepted}) x
    where x.confirmado_em is null and x.ini > ${at} and x.ini <= ${iso(now, 24)}
    on conflict do nothing`;
  const team = sql`${into}
    select x.agenda_id, 'equipe_nao_confirmada', x.agenda_id, ${run}, ${at}
    from (select distinct agenda_id, ini from (${accepted}) where confirmado_em is null) x
    where x.ini > ${at} and x.ini <= ${iso(now, 12)}
    on conflict do nothing`;
  const columns = sql`insert into ${notifications} (id, user_id, tipo, titulo, mensagem, dados, lida, read_at, created_at, updated_at)`;
  const toMembers = sql`${columns}
    select ${generatedId}, ${profissionais.usuarioId}, l.tipo, ${caseOf('titulo')}, ${caseOf('frase')} || ${quando(agenda)} || '.',
      json_object('agenda_id', l.agenda_id, 'convite_id', l.alvo_id), 0, null, ${at}, ${at}
    from ${lembretesEnviados} l
      join ${convites} on ${convites.id} = l.alvo_id
      join ${profissionais} on ${profissionais.id} = ${convites.profissionalId}
      join ${agenda} on ${agenda.id} = l.agenda_id
    where l.execucao = ${run} and l.tipo <> 'equipe_nao_confirmada' and ${profissionais.usuarioId} is not null
    returning id, user_id, titulo, mensagem, dados`;
  const admins = sql.raw(ADMIN_ROLES.map((r) => `'${r}'`).join(', '));
  const toAdmins = sql`${columns}
    select ${generatedId}, ${users.id}, 'equipe_nao_confirmada', 'Equipe não confirmada',
      'O evento de ' || ${quando(agenda)} || ' (região ' || ${agenda.regiao} || ') começa em menos de 12 horas e '
        || (select count(*) from ${convites} where ${convites.agendaId} = l.agenda_id and ${convites.status} = 'aceito' and ${convites.confirmadoEm} is null)
        || ' profissional(is) ainda não confirmou(aram) presença.',
      json_object('agenda_id', l.agenda_id, 'regiao', ${agenda.regiao},
        'nao_confirmados', (select count(*) from ${convites} where ${convites.agendaId} = l.agenda_id and ${convites.status} = 'aceito' and ${convites.confirmadoEm} is null)),
      0, null, ${at}, ${at}
    from ${lembretesEnviados} l
      join ${agenda} on ${agenda.id} = l.agenda_id
      join ${users} on ${users.role} in (${admins}) and ${users.ativo} = 1
    where l.execucao = ${run} and l.tipo = 'equipe_nao_confirmada'
    returning id, user_id, titulo, mensagem, dados`;
  // The confirmations missed by the 12-hour deadline enter the reliability ledger (docs/decisions.md#d28).
  const missed = missedConfirmationStatements(ctx.db, now, range);
  const whatsapp = whatsappReminders(ctx, now, run);
  return [
    memberKinds,
    unconfirmed,
    team,
    toMembers,
    toAdmins,
    missed.ledger.getSQL(),
    missed.score.getSQL(),
    ...(whatsapp ? [whatsapp.getSQL()] : []),
  ];
}

type Sent = { id: string; user_id: string; titulo: string; mensagem: string; dados: string };

export async function sendReminders(ctx: RunCtx, now: Date) {
  const [a, b, c, members, adminRows, , , whatsapp] = await rawBatch(
    ctx.db,
    reminderStatements(ctx, now, crypto.randomUUID()),
  );
  const push: PushMessage[] = [...members!.rows, ...adminRows!.rows].map((row) => {
    const r = row as Sent;
    return {
      userId: r.user_id,
      notificationId: r.id,
      titulo: r.titulo,
      mensagem: r.mensagem,
      dados: JSON.parse(r.dados) as Record<string, unknown>,
    };
  });
  return {
    lembretes: a!.changes + b!.changes + c!.changes,
    notificacoes: push.length,
    push,
    /** The WhatsApp outbox ids this run wrote, to enqueue. */
    whatsapp: (whatsapp?.rows ?? []).map((r) => String(r.id)),
  };
}
