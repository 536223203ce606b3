import { b64url, fromB64url } from '../../lib/tokens';

/**
 * The check-in codes (docs/decisions.md#d27; SECURITY.md "QR check-in"). Two kinds, both
 * base64url(body | HMAC-SHA256(key, body)[0..12]):
 *
 *   event code     1 | key version (2 bytes) | agenda id (16) | step (4) | mac (12)    47 characters
 *   personal code  2 | invitation id (16)    | step (4)        | mac (12)               44 characters
 *
 * A step is 15 s of the server's clock (floor(unix ms / 15000)). The event key is
 * k_event = HMAC(CHECKIN_SECRET, "evento|<agenda id>|<version>"): a display device that holds it (GET
 * .../checkin/chave) draws the same codes offline, and rotating the version retires it. Personal codes
 * use k_pessoal = HMAC(CHECKIN_SECRET, "pessoal"), which never leaves the server, so a leaked event key
 * cannot forge them. Macs are compared in constant time.
 */

export const STEP_MS = 15_000;
const EVENT = 1;
const PERSONAL = 2;
const MAC_BYTES = 12;
const EVENT_BODY = 1 + 2 + 16 + 4;
const PERSONAL_BODY = 1 + 16 + 4;

export const stepOf = (ms: number) => Math.floor(ms / STEP_MS);
/** The instant a step starts. */
export const stepStart = (step: number) => new Date(step * STEP_MS);

const utf8 = new TextEncoder();

function uuidBytes(id: string): Uint8Array {
  const hex = id.replace(/-/g, '');
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function bytesUuid(b: Uint8Array): string {
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, data));
}

/** k_event of an event and key version (32 bytes). */
export const eventKey = (secret: string, agendaId: string, versao: number) =>
  hmac(utf8.encode(secret), utf8.encode(`evento|${agendaId.toLowerCase()}|${versao}`));

/** k_pessoal (32 bytes): only the server holds it. */
export const personalKey = (secret: string) => hmac(utf8.encode(secret), utf8.encode('pessoal'));

async function seal(key: Uint8Array, body: Uint8Array) {
  const mac = (await hmac(key, body)).slice(0, MAC_BYTES);
  const out = new Uint8Array(body.length + MAC_BYTES);
  out.set(body);
  out.set(mac, body.length);
  return b64url(out);
}

/** The event code of a step under k_event. */
export function eventCode(key: Uint8Array, c: { versao: number; agendaId: string; step: number }) {
  const body = new Uint8Array(EVENT_BODY);
  const view = new DataView(body.buffer);
  body[0] = EVENT;
  view.setUint16(1, c.versao);
  body.set(uuidBytes(c.agendaId), 3);
  view.setUint32(19, c.step);
  return seal(key, body);
}

/** The personal code of an invitation at a step under k_pessoal. */
export function personalCode(key: Uint8Array, c: { conviteId: string; step: number }) {
  const body = new Uint8Array(PERSONAL_BODY);
  body[0] = PERSONAL;
  body.set(uuidBytes(c.conviteId), 1);
  new DataView(body.buffer).setUint32(17, c.step);
  return seal(key, body);
}

interface Sealed {
  body: Uint8Array;
  mac: Uint8Array;
}
export type EventCode = Sealed & { tipo: 'evento'; versao: number; agendaId: string; step: number };
export type PersonalCode = Sealed & { tipo: 'pessoal'; conviteId: string; step: number };

/** A code's fields, unverified; undefined when it is not shaped as one. */
export function parseCode(token: string): EventCode | PersonalCode | undefined {
  if (!/^[A-Za-z0-9_-]{40,48}$/.test(token)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = fromB64url(token);
  } catch {
    return undefined;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === EVENT && bytes.length === EVENT_BODY + MAC_BYTES)
    return {
      tipo: 'evento',
      versao: view.getUint16(1),
      agendaId: bytesUuid(bytes.slice(3, 19)),
      step: view.getUint32(19),
      body: bytes.slice(0, EVENT_BODY),
      mac: bytes.slice(EVENT_BODY),
    };
  if (bytes[0] === PERSONAL && bytes.length === PERSONAL_BODY + MAC_BYTES)
    return {
      tipo: 'pessoal',
      conviteId: bytesUuid(bytes.slice(1, 17)),
      step: view.getUint32(17),
      body: bytes.slice(0, PERSONAL_BODY),
      mac: bytes.slice(PERSONAL_BODY),
    };
  return undefined;
}

/** Whether a parsed code's mac is the key's, compared in constant time (both are 12 bytes). */
export async function sealedBy(key: Uint8Array, code: Sealed): Promise<boolean> {
  const expected = (await hmac(key, code.body)).slice(0, MAC_BYTES);
  return (
    crypto.subtle as unknown as { timingSafeEqual(a: ArrayBufferView, b: ArrayBufferView): boolean }
  ).timingSafeEqual(expected, code.mac);
}

/** A key as the display device receives it. */
export const keyText = (key: Uint8Array) => b64url(key);
