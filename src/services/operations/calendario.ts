import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Config } from '../../env';
import { rawBatch } from '../../db/raw-batch';
import {
  agenda,
  cadastroFot,
  calendarios,
  cidades,
  convites,
  instituicoes,
  profissionais,
  tiposEventos,
  users,
} from '../../db/schema';
import { eventWindow, isoDateOf, nextDay } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { escapeText, icalDate, icalText, icalUtc } from '../../lib/ical';
import { b64url, hmacKey, sha256Hex } from '../../lib/tokens';
import { CALENDAR_ROLES } from '../../lib/permissions';
import { feedRefColumns, type FeedRef } from '../../db/schema/operacoes';
export { CALENDAR_ROLES, feedRefColumns, type FeedRef };
import { created, loggedDelete, logRowWrite, logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';

/**
 * Calendar feeds (docs/decisions.md#d16). The url's token is HMAC-SHA256(key, "ical:<feed id>:<geracao>")
 * in base64url (32 bytes): derived again on every GET, never stored; the table holds only its
 * SHA-256 for the public lookup. Rotating bumps `geracao` (a new token, the old hash gone); turning
 * the feed off deletes the row (a later GET creates a new feed, with a new id and so a new url).
 */

/** The key tokens are derived from: ICAL_TOKEN_SECRET, or (unset) a key of its own derived from JWT_SECRET. */
export interface FeedKeys {
  icalSecret?: string;
  jwtSecret: string;
}
const keyOf = (k: FeedKeys) => k.icalSecret ?? `ical-feed-key:${k.jwtSecret}`;
type FeedConfig = Pick<Config, 'ICAL_TOKEN_SECRET' | 'JWT_SECRET'>;
export const feedKeysOf = (config: FeedConfig): FeedKeys => ({
  icalSecret: config.ICAL_TOKEN_SECRET,
  jwtSecret: config.JWT_SECRET,
});

async function feedToken(keys: FeedKeys, id: string, geracao: number) {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(keyOf(keys)),
    new TextEncoder().encode(`ical:${id}:${geracao}`),
  );
  return b64url(new Uint8Array(mac));
}

/** The feed's path: also its edge cache entry (routes/calendario, middleware/cached.ts). */
export const feedPath = (token: string) => `/ical/${token}.ics`;
const feedUrl = (origin: string, token: string) => `${origin}${feedPath(token)}`;

/**
 * The path of a feed's current url, derived again from its row (never stored), for dropping its
 * edge-cached copy once D1 stops answering it (an account deleted or no longer of a calendar role).
 */
export const feedPathOf = async (keys: FeedKeys, feed: FeedRef) =>
  feedPath(await feedToken(keys, feed.id, feed.geracao));

const feedOf = (db: Db, userId: string) =>
  db.select(feedRefColumns).from(calendarios).where(eq(calendarios.userId, userId));

/** What the caller's feed writes need: the session, the caller, its log and the configuration (keys, API_URL). */
type FeedCtx = Pick<Ctx, 'db' | 'log' | 'user' | 'config'>;

/**
 * API_URL: a feed url is never built from the request's Host (an attacker's Host would make the
 * caller subscribe to the attacker's server). Unset, the url is refused (503 CONFIG_MISSING) before
 * anything is written.
 */
function feedOrigin(config: Pick<Config, 'API_URL'>) {
  const url = config.API_URL;
  if (!url)
    throw new ApiError(
      'CONFIG_MISSING',
      'o endereço público da API (API_URL) não está configurado: o link do calendário não pode ser gerado',
    );
  return url;
}

/** The caller's feed url, creating the feed on the first call (concurrent first calls create one). */
export async function feedUrlFor({ db, log, user, config }: FeedCtx) {
  const origin = feedOrigin(config);
  const keys = feedKeysOf(config);
  const [existing] = await feedOf(db, user.id);
  if (existing) return { url: feedUrl(origin, await feedToken(keys, existing.id, existing.geracao)) };
  const id = crypto.randomUUID();
  const tokenHash = await sha256Hex(await feedToken(keys, id, 1));
  const [, , [row]] = await db.batch([
    db.insert(calendarios).values({ id, userId: user.id, geracao: 1, tokenHash }).onConflictDoNothing(),
    // Written only if this call's row is the one that exists (a concurrent first call may have won).
    logStatement(db, log, {
      acao: 'calendarios.create',
      entidade: 'calendarios',
      entidadeId: id,
      dados: created(calendarios, { geracao: 1 }),
      when: sql`exists (select 1 from ${calendarios} where ${calendarios.id} = ${id})`,
    }),
    feedOf(db, user.id),
  ]);
  if (!row) throw new ApiError('CONFLICT', 'o calendário mudou enquanto era criado: tente de novo');
  return { url: feedUrl(origin, await feedToken(keys, row.id, row.geracao)) };
}

const noFeed = () => new ApiError('NOT_FOUND', 'nenhum calendário ativo: peça a url primeiro (GET /api/me/calendario)');

/**
 * A new url; the old one answers 404 at once (from D1; an edge-cached copy lives up to FEED_TTL: the
 * handler drops this colo's). Guarded by the generation read, so two rotations never share one.
 * `oldToken` is for that purge only, never for the answer.
 */
export async function rotateFeed({ db, log, user, config }: FeedCtx) {
  const origin = feedOrigin(config);
  const keys = feedKeysOf(config);
  const [current] = await feedOf(db, user.id);
  if (!current) throw noFeed();
  const geracao = current.geracao + 1;
  const token = await feedToken(keys, current.id, geracao);
  const where = and(eq(calendarios.userId, user.id), eq(calendarios.geracao, current.geracao));
  const [, written] = await db.batch([
    logRowWrite(
      { db, log },
      { table: calendarios, where },
      {
        acao: 'calendarios.rotate',
        entidade: 'calendarios',
        dados: { geracao: { antes: calendarios.geracao, depois: geracao } },
      },
    ),
    db
      .update(calendarios)
      .set({ geracao, tokenHash: await sha256Hex(token), updatedAt: new Date().toISOString() })
      .where(where),
  ]);
  if (written.meta.changes === 0)
    throw new ApiError('CONFLICT', 'o calendário foi alterado ao mesmo tempo: tente de novo');
  return { url: feedUrl(origin, token), oldToken: await feedToken(keys, current.id, current.geracao) };
}

/**
 * Turns the feed off (idempotent: no feed is no error). Answers the token it had (read in the same
 * batch, before the delete), so the handler can drop its edge-cached feed; undefined without a feed.
 */
export async function disableFeed({ db, log, user, config }: FeedCtx) {
  const [[old]] = await db.batch([
    feedOf(db, user.id),
    ...loggedDelete(
      { db, log },
      { table: calendarios, where: eq(calendarios.userId, user.id) },
      { acao: 'calendarios.delete', entidade: 'calendarios' },
    ),
  ]);
  return old ? feedToken(feedKeysOf(config), old.id, old.geracao) : undefined;
}

// The feed itself.

type IcalStatus = 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
/**
 * An invitation's status → the VEVENT's STATUS: a new invitation status is one line here.
 * `solicitado` and `cancelado` are D16/D17's (job applications); absent statuses match no row.
 */
export const CONVITE_ICAL_STATUS: Record<string, IcalStatus> = {
  aceito: 'CONFIRMED',
  pendente: 'TENTATIVE',
  solicitado: 'TENTATIVE',
  recusado: 'CANCELLED',
  cancelado: 'CANCELLED',
};
/** A cancelled or declined invitation stays in the feed (as CANCELLED) this long, so calendars drop it. */
const CANCELLED_DAYS = 30;
/** Past events older than this leave the feed (it stays small however long the history). */
const PAST_DAYS = 90;
const MAX_EVENTS = 2000;

const statusesTo = (s: IcalStatus) =>
  Object.entries(CONVITE_ICAL_STATUS)
    .filter(([, v]) => v === s)
    .map(([k]) => k);

interface FeedRow {
  id: string;
  data_evento: string;
  horario: string | null;
  horario_fim: string | null;
  local_evento: string | null;
  endereco: string | null;
  /** "Campinas - SP" (docs/decisions.md#d23), or null. */
  cidade: string | null;
  latitude: number | null;
  longitude: number | null;
  tipo: string;
  fot: number;
  instituicao: string | null;
  status: string | null;
  updated_at: string;
}

/**
 * The VCALENDAR of the feed whose token this is, or undefined (unknown, rotated or disabled token,
 * or an account that may no longer have one). Two statements in one round trip, whatever the
 * number of events: the owner, and every event of theirs (professional: its invitations;
 * agenda_viewer: the events it created; EVENT_OWNER: its company's events).
 */
export async function feedCalendar({ db }: Pick<Ctx, 'db'>, token: string, now: Date) {
  const tokenHash = await sha256Hex(token);
  const owner = sql`(select ${users.id} as id, ${users.role} as role, ${users.empresaId} as empresa_id from ${calendarios}
    join ${users} on ${users.id} = ${calendarios.userId}
    where ${calendarios.tokenHash} = ${tokenHash} and ${users.ativo} = 1
      and ${users.role} in ${sql.raw(`(${CALENDAR_ROLES.map((r) => `'${r}'`).join(', ')})`)})`;
  const from = new Date(now.getTime() - PAST_DAYS * 86_400_000).toISOString().slice(0, 10);
  const cancelledSince = new Date(now.getTime() - CANCELLED_DAYS * 86_400_000).toISOString();
  const list = (xs: string[]) =>
    sql.join(
      xs.map((x) => sql`${x}`),
      sql`, `,
    );
  const live = [...statusesTo('CONFIRMED'), ...statusesTo('TENTATIVE')];
  const gone = statusesTo('CANCELLED');
  const [owners, events] = await rawBatch(db, [
    sql`select id, role from ${owner} o`,
    sql`with o as ${owner},
      mine as (
        select ${convites.agendaId} as agenda_id, ${convites.status} as status from ${convites}
          join ${profissionais} on ${profissionais.id} = ${convites.profissionalId}
          join o on o.role = 'profissional' and ${profissionais.usuarioId} = o.id
          where ${convites.status} in (${list(live)})
             or (${convites.status} in (${list(gone)}) and ${convites.updatedAt} >= ${cancelledSince})
        union all
        select ${agenda.id}, null from ${agenda} join o on o.role = 'agenda_viewer' and ${agenda.userId} = o.id
        union all
        select ${agenda.id}, null from ${agenda} join o on o.role = 'EVENT_OWNER'
          join ${cadastroFot} on ${cadastroFot.id} = ${agenda.fotId} and ${cadastroFot.empresaId} = o.empresa_id
      )
      select ${agenda.id} as id, ${agenda.dataEvento} as data_evento, ${agenda.horario} as horario, ${agenda.horarioFim} as horario_fim,
        ${agenda.localEvento} as local_evento, ${agenda.endereco} as endereco, ${tiposEventos.label} as tipo,
        (select ${cidades.nome} || ' - ' || ${cidades.uf} from ${cidades} where ${cidades.codigoIbge} = ${agenda.cidadeIbge}) as cidade,
        ${agenda.latitude} as latitude, ${agenda.longitude} as longitude,
        ${cadastroFot.fot} as fot, coalesce((select ${instituicoes.label} from ${instituicoes} where ${instituicoes.id} = ${cadastroFot.instituicaoId}), ${cadastroFot.instituicao}) as instituicao, mine.status as status,
        ${agenda.updatedAt} as updated_at
      from mine join ${agenda} on ${agenda.id} = mine.agenda_id
        join ${tiposEventos} on ${tiposEventos.id} = ${agenda.tipoEventoId}
        join ${cadastroFot} on ${cadastroFot.id} = ${agenda.fotId}
      where ${agenda.dataEvento} >= ${from}
      order by ${agenda.dataEvento}, ${agenda.horario}, ${agenda.id}
      limit ${MAX_EVENTS}`,
  ]);
  const who = owners!.rows[0] as { id: string } | undefined;
  if (!who) return undefined;
  return renderCalendar(who.id, events!.rows as unknown as FeedRow[]);
}

// iCalendar years have 4 digits: an event whose end falls after 9999-12-31 states its length instead.
const allDayEnd = (date: string) => {
  const next = nextDay(date);
  return next ? `DTEND;VALUE=DATE:${icalDate(next)}` : 'DURATION:P1D';
};
const timedEnd = (start: Date, end: Date) =>
  isoDateOf(end.getTime())
    ? `DTEND:${icalUtc(end)}`
    : `DURATION:PT${Math.round((end.getTime() - start.getTime()) / 60_000)}M`;

function renderCalendar(ownerId: string, events: FeedRow[]) {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Event Ops//Agenda//PT-BR',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:Agenda de eventos',
    'X-WR-TIMEZONE:America/Sao_Paulo',
  ];
  for (const e of events) {
    const win = eventWindow({ dataEvento: e.data_evento, horario: e.horario, horarioFim: e.horario_fim });
    const status = e.status === null ? 'CONFIRMED' : (CONVITE_ICAL_STATUS[e.status] ?? 'TENTATIVE');
    const summary = [e.tipo, `FOT ${e.fot}`, e.instituicao].filter(Boolean).join(' - ');
    const location = [e.local_evento, e.endereco, e.cidade].filter(Boolean).join(', ');
    lines.push(
      'BEGIN:VEVENT',
      // Stable per event and owner: the same across calls and rotations, so calendars update in place.
      `UID:${e.id}.${ownerId}@event-ops`,
      // The event's last change, not the time of the request: the same data gives the same bytes, so
      // the feed's ETag holds between polls and a calendar app's revalidation is a 304.
      `DTSTAMP:${icalUtc(new Date(e.updated_at))}`,
      `LAST-MODIFIED:${icalUtc(new Date(e.updated_at))}`,
      ...(win.allDay
        ? [`DTSTART;VALUE=DATE:${icalDate(e.data_evento)}`, allDayEnd(e.data_evento)]
        : [`DTSTART:${icalUtc(win.start)}`, timedEnd(win.start, win.end)]),
      `SUMMARY:${escapeText(summary)}`,
      ...(location ? [`LOCATION:${escapeText(location)}`] : []),
      // The venue's coordinates (RFC 5545 GEO: latitude;longitude), when the event has them.
      ...(e.latitude !== null && e.longitude !== null ? [`GEO:${e.latitude};${e.longitude}`] : []),
      `STATUS:${status}`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return icalText(lines);
}
