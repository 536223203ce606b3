import { eventStart, eventWindow } from '../../lib/dates';

/**
 * The pure rules of check-in (docs/decisions.md#d27): when an event's window is open, how late an
 * arrival is, and whether a position is inside the geofence. No I/O: the services read the event and
 * apply these with the server's clock.
 */

export interface EventTimes {
  dataEvento: string;
  horario: string | null;
  horarioFim: string | null;
  /** The call sheet's `horario_chegada` (the call time), if any. */
  chegada: string | null;
}

export interface WindowSettings {
  checkinAbreMin: number;
  checkinFechaMin: number;
}

export interface CheckinWindow {
  /** Entries and exits are accepted from here. */
  abre: Date;
  /** Entries until here: the start + checkin_fecha_min (an event without hours: the end of its day). */
  fechaEntrada: Date;
  /** Exits until here: the event's end + checkin_fecha_min. */
  fechaSaida: Date;
  /** What lateness is counted against: the call time, or the start; null for an event without hours and call time. */
  referencia: Date | null;
}

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

export function checkinWindow(ev: EventTimes, s: WindowSettings): CheckinWindow {
  const dayStart = eventStart(ev.dataEvento, null);
  const call = ev.chegada ? eventStart(ev.dataEvento, ev.chegada) : null;
  const w = eventWindow(ev);
  if (w.allDay) {
    const dayEnd = new Date(dayStart.getTime() + DAY);
    return {
      abre: new Date((call ?? dayStart).getTime() - (call ? s.checkinAbreMin * MIN : 0)),
      fechaEntrada: dayEnd,
      fechaSaida: new Date(dayEnd.getTime() + s.checkinFechaMin * MIN),
      referencia: call,
    };
  }
  // A call time after the start (a sheet written for the next morning) does not move the reference later.
  const referencia = call && call.getTime() < w.start.getTime() ? call : w.start;
  return {
    abre: new Date(referencia.getTime() - s.checkinAbreMin * MIN),
    fechaEntrada: new Date(w.start.getTime() + s.checkinFechaMin * MIN),
    fechaSaida: new Date(w.end.getTime() + s.checkinFechaMin * MIN),
    referencia,
  };
}

/** Whether `at` is inside the window for an entrada or a saida. */
export const windowOpen = (w: CheckinWindow, tipo: 'entrada' | 'saida', at: Date) =>
  at.getTime() >= w.abre.getTime() && at.getTime() <= (tipo === 'entrada' ? w.fechaEntrada : w.fechaSaida).getTime();

/** Whole minutes after the reference (0 when on time or early); null without a reference or for a saida. */
export function atrasoMin(w: CheckinWindow, tipo: 'entrada' | 'saida', at: Date): number | null {
  if (tipo !== 'entrada' || !w.referencia) return null;
  return Math.max(0, Math.floor((at.getTime() - w.referencia.getTime()) / MIN));
}

/** Accuracy beyond this makes a position unknown. */
export const MAX_PRECISAO_M = 500;
/** At most this much of the reported accuracy is allowed in the arrival's favour. */
export const MAX_FOLGA_M = 150;
const EARTH_M = 6_371_008.8;

/** Great-circle distance in metres (haversine). */
export function distanceM(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface Posicao {
  latitude?: number;
  longitude?: number;
  precisao_m?: number;
}

/**
 * D27's geofence: inside when distance - min(precisao_m, 150) <= raio; no position, an accuracy over
 * 500 m, or an event without coordinates: unknown (dentro null, distancia null when it cannot be measured).
 */
export function geofence(
  venue: { latitude: number | null; longitude: number | null },
  pos: Posicao,
  raioM: number,
): { distancia: number | null; dentro: boolean | null } {
  if (venue.latitude === null || venue.longitude === null || pos.latitude === undefined || pos.longitude === undefined)
    return { distancia: null, dentro: null };
  const d = distanceM(
    { latitude: venue.latitude, longitude: venue.longitude },
    {
      latitude: pos.latitude,
      longitude: pos.longitude,
    },
  );
  const distancia = Math.round(d);
  const precisao = pos.precisao_m ?? 0;
  if (precisao > MAX_PRECISAO_M) return { distancia, dentro: null };
  return { distancia, dentro: d - Math.min(precisao, MAX_FOLGA_M) <= raioM };
}
