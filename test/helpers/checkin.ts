import { env } from 'cloudflare:test';
import { afterAll, beforeAll, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { agendaLogistica, logsAtividade } from '../../src/db/schema';
import { eventCode, eventKey, personalCode, personalKey, stepOf } from '../../src/services/checkin/codes';
import { db, makeAdmin, makeConvite, makeEvento, makeFuncao, makePro, makeUser, tokenFor } from './factories';

/**
 * QR check-in tests (docs/decisions.md#d27) run on a fixed clock: the server reads only Date, which the
 * tests fake (vi.useFakeTimers: Date only; D1 and crypto are real). Users and their tokens are made
 * after the clock is set, so their access tokens are fresh on it.
 */

export const SECRET = env.CHECKIN_SECRET as string;
/** 18:40 in São Paulo on the scene's event day: inside the default window of its 19:00 event. */
export const T = Date.parse('2027-05-10T21:40:00.000Z');
export const DIA = '2027-05-10';
/** The scene's 19:00 start, 22:00Z. */
export const START = Date.parse('2027-05-10T22:00:00.000Z');
export const MIN = 60_000;
/** The venue (Allianz Parque, São Paulo). */
export const VENUE = { latitude: -23.5275, longitude: -46.6784 };
/** A position `m` metres north of the venue (1 degree of latitude is 111,195.08 m on the mean sphere). */
export const north = (m: number) => ({ latitude: VENUE.latitude + m / 111_195.08, longitude: VENUE.longitude });

/** Fakes Date for the file, starting at T. */
export function useClock() {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
  });
  afterAll(() => {
    vi.useRealTimers();
  });
}
export const at = (ms: number) => vi.setSystemTime(ms);

export const eventToken = async (agendaId: string, o: { versao?: number; ms?: number } = {}) => {
  const versao = o.versao ?? 1;
  return eventCode(await eventKey(SECRET, agendaId, versao), { versao, agendaId, step: stepOf(o.ms ?? Date.now()) });
};

export const personalToken = async (conviteId: string, ms = Date.now()) =>
  personalCode(await personalKey(SECRET), { conviteId, step: stepOf(ms) });

/**
 * An event on DIA at 19:00 at VENUE, created by an agenda_viewer, with an accepted professional; an
 * administrator. `chegada` writes a call sheet with that call time.
 */
export async function scene(o: { horario?: string | null; chegada?: string; venue?: boolean } = {}) {
  const admin = await makeAdmin();
  const viewer = await makeUser({ role: 'agenda_viewer' });
  const ev = await makeEvento('SP', viewer, {
    dataEvento: DIA,
    horario: o.horario === undefined ? '19:00' : o.horario,
    ...(o.venue === false ? {} : VENUE),
  });
  if (o.chegada) await db.insert(agendaLogistica).values({ agendaId: ev.id, horarioChegada: o.chegada });
  const f = await makeFuncao();
  const pro = await makePro('SP', f.id);
  const conv = await makeConvite(ev.id, pro, 'aceito');
  return { admin, viewer, ev, funcaoId: f.id, pro, conv };
}

/** Another accepted professional on the event. */
export async function member(agendaId: string, funcaoId: string) {
  const pro = await makePro('SP', funcaoId);
  const conv = await makeConvite(agendaId, pro, 'aceito');
  return { pro, conv };
}

/** A fresh access token on the current (fake) clock. */
export const fresh = (u: { id: string; role: Parameters<typeof tokenFor>[1] }) => tokenFor(u.id, u.role);

/** The activity-log entries of a row, read from D1 (the log route's reader token would expire on the fake clock). */
export const logOf = (entidadeId: string, acao: string) =>
  db
    .select()
    .from(logsAtividade)
    .where(and(eq(logsAtividade.entidadeId, entidadeId), eq(logsAtividade.acao, acao)));
