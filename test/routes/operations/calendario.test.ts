import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { foldLine } from '../../../src/lib/ical';
import { db, makeAdmin, makeUser, type TestUser, makeConvite, makeEvento, makePro } from '../../helpers/factories';
import { entriesOf } from '../../helpers/activity-log';
import { api, expectError, send } from '../../helpers/request';
import { calendarios, convites } from '../../../src/db/schema';
import { eq } from 'drizzle-orm';

const urlOf = async (who: TestUser) => {
  const res = await api('GET', '/api/me/calendario', { token: who.token });
  expect(res.status).toBe(200);
  return res.body.url as string;
};
const pathOf = (url: string) => new URL(url).pathname;

async function fetchFeed(url: string) {
  const res = await send('GET', pathOf(url));
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

interface Ev {
  uid: string;
  summary: string;
  location: string | null;
  status: string;
  start: ICAL.Time;
  end: ICAL.Time;
}
function parse(text: string): Ev[] {
  const cal = new ICAL.Component(ICAL.parse(text));
  expect(cal.name).toBe('vcalendar');
  expect(cal.getFirstPropertyValue('version')).toBe('2.0');
  return cal.getAllSubcomponents('vevent').map((v) => ({
    uid: String(v.getFirstPropertyValue('uid')),
    summary: String(v.getFirstPropertyValue('summary')),
    location: (v.getFirstPropertyValue('location') as string | null) ?? null,
    status: String(v.getFirstPropertyValue('status')),
    start: v.getFirstPropertyValue('dtstart') as ICAL.Time,
    end: v.getFirstPropertyValue('dtend') as ICAL.Time,
  }));
}

/** RFC 5545 layout: CRLF only, every physical line at most 75 octets. */
function expectWellFormed(text: string) {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  for (const line of text.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
}

const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('calendar feed urls (/api/me/calendario)', () => {
  it('GET creates the feed once and answers the same url until rotated; rotate gives a new one, the old 404 at once', async () => {
    const pro = await makePro('SP');
    const [a, b] = await Promise.all([urlOf(pro.user), urlOf(pro.user)]);
    expect(a).toBe(b);
    expect(a).toMatch(/^https:\/\/api\.example\.test\/ical\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(await urlOf(pro.user)).toBe(a);
    const [row] = await db.select().from(calendarios).where(eq(calendarios.userId, pro.user.id));
    // Only the token's hash is stored.
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(a.split('/ical/')[1]!.slice(0, 43));
    expect((await fetchFeed(a)).status).toBe(200);

    const rotated = await api('POST', '/api/me/calendario/rotacionar', { token: pro.user.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.url).not.toBe(a);
    expect((await fetchFeed(a)).status).toBe(404);
    expect((await fetchFeed(rotated.body.url)).status).toBe(200);
    expect(await urlOf(pro.user)).toBe(rotated.body.url);
    expect(await entriesOf(row!.id, 'calendarios.create')).toHaveLength(1);
    expect(await entriesOf(row!.id, 'calendarios.rotate')).toHaveLength(1);
  });

  it('DELETE turns it off (204, url 404); a later GET makes a new url; rotate without a feed is 404', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const url = await urlOf(viewer);
    const off = await api('DELETE', '/api/me/calendario', { token: viewer.token });
    expect(off.status).toBe(204);
    expect((await fetchFeed(url)).status).toBe(404);
    expectError(await api('POST', '/api/me/calendario/rotacionar', { token: viewer.token }), 404, 'NOT_FOUND');
    expect((await api('DELETE', '/api/me/calendario', { token: viewer.token })).status).toBe(204);
    const again = await urlOf(viewer);
    expect(again).not.toBe(url);
  });

  it('the url starts with API_URL, never with the Host the request was sent to', async () => {
    const pro = await makePro('SP');
    const res = await api('GET', '/api/me/calendario', { token: pro.user.token, origin: 'https://evil.example' });
    expect(res.body.url).toMatch(/^https:\/\/api\.example\.test\/ical\//);
    const rotated = await api('POST', '/api/me/calendario/rotacionar', {
      token: pro.user.token,
      origin: 'https://evil.example',
    });
    expect(rotated.body.url).toMatch(/^https:\/\/api\.example\.test\/ical\//);
  });

  it('without API_URL no url is built from the request: 503 CONFIG_MISSING, and nothing is created or rotated', async () => {
    const noApiUrl = { API_URL: '' };
    const pro = await makePro('SP');
    for (const origin of [undefined, 'https://evil.example']) {
      const res = await api('GET', '/api/me/calendario', { token: pro.user.token, bindings: noApiUrl, origin });
      expectError(res, 503, 'CONFIG_MISSING');
      expect(res.body.error).toContain('API_URL');
      expect(JSON.stringify(res.body)).not.toContain('evil');
    }
    expect(await db.select().from(calendarios).where(eq(calendarios.userId, pro.user.id))).toHaveLength(0);
    const url = await urlOf(pro.user);
    expectError(
      await api('POST', '/api/me/calendario/rotacionar', { token: pro.user.token, bindings: noApiUrl }),
      503,
      'CONFIG_MISSING',
    );
    expect(await urlOf(pro.user)).toBe(url);
    expect((await fetchFeed(url)).status).toBe(200);
  });

  it('roles: administrators and researchers 403; no token 401', async () => {
    for (const who of [await makeAdmin(), await makeUser({ role: 'RESEARCHER' })])
      expectError(await api('GET', '/api/me/calendario', { token: who.token }), 403, 'FORBIDDEN');
    expectError(await api('GET', '/api/me/calendario'), 401, 'UNAUTHENTICATED');
  });

  it('unknown or malformed tokens: 404', async () => {
    const res = await send('GET', `/ical/${'A'.repeat(43)}.ics`);
    expect(res.status).toBe(404);
    expect((await send('GET', '/ical/short.ics')).status).toBe(404);
    expect((await send('GET', `/ical/${'A'.repeat(43)}.txt`)).status).toBe(404);
  });
});

describe('GET /ical/{token}.ics', () => {
  it("a professional's feed: statuses, UTC times from São Paulo, escaping, folding, stable UIDs", async () => {
    const admin = await makeAdmin();
    const pro = await makePro('SP');
    const longPlace =
      'Espaço de Eventos São João, Salão Nobre; entrada pela Av. Paulista, 1000 — Bela Vista, São Paulo\\SP';
    const confirmed = await makeEvento('SP', admin, {
      dataEvento: future(10),
      horario: '20:30',
      localEvento: longPlace,
      endereco: 'Rua Açaí, 12',
    });
    const tentative = await makeEvento('SP', admin, { dataEvento: future(12), horario: null });
    const declined = await makeEvento('SP', admin, { dataEvento: future(14), horario: '10:00' });
    const oldDecline = await makeEvento('SP', admin, { dataEvento: future(16), horario: '10:00' });
    const notMine = await makeEvento('SP', admin, { dataEvento: future(11), horario: '10:00' });
    await makeConvite(confirmed.id, pro, 'aceito');
    await makeConvite(tentative.id, pro, 'pendente');
    await makeConvite(declined.id, pro, 'recusado');
    const old = await makeConvite(oldDecline.id, pro, 'recusado');
    await db
      .update(convites)
      .set({ updatedAt: new Date(Date.now() - 31 * 86_400_000).toISOString() })
      .where(eq(convites.id, old.id));

    const url = await urlOf(pro.user);
    const feed = await fetchFeed(url);
    expect(feed.status).toBe(200);
    expect(feed.type).toBe('text/calendar; charset=utf-8');
    expectWellFormed(feed.text);
    const events = parse(feed.text);
    const byId = (id: string) => events.find((e) => e.uid.startsWith(id));
    expect(events).toHaveLength(3);
    expect(byId(notMine.id)).toBeUndefined();
    expect(byId(oldDecline.id)).toBeUndefined();
    expect(byId(confirmed.id)!.status).toBe('CONFIRMED');
    expect(byId(tentative.id)!.status).toBe('TENTATIVE');
    expect(byId(declined.id)!.status).toBe('CANCELLED');

    const c = byId(confirmed.id)!;
    // 20:30 in São Paulo (UTC-3) is 23:30 UTC; 5 hours without horario_fim.
    expect(c.start.toJSDate().toISOString()).toBe(`${future(10)}T23:30:00.000Z`);
    expect(c.end.toJSDate().getTime() - c.start.toJSDate().getTime()).toBe(5 * 3600_000);
    expect(c.location).toBe(`${longPlace}, Rua Açaí, 12`); // folded, escaped, and back intact
    expect(feed.text).toContain('\\;');
    expect(feed.text).toContain('\\,');
    expect(feed.text).toContain('\\\\SP');
    expect(c.summary).toContain(`FOT ${confirmed.fot.fot}`);
    expect(c.summary).toContain(confirmed.tipo.label);

    const allDay = byId(tentative.id)!;
    expect(allDay.start.isDate).toBe(true);
    expect(allDay.start.toString()).toBe(future(12));

    // UIDs are stable across calls and rotation.
    const rotated = await api('POST', '/api/me/calendario/rotacionar', { token: pro.user.token });
    const again = parse((await fetchFeed(rotated.body.url)).text);
    expect(again.map((e) => e.uid).sort()).toEqual(events.map((e) => e.uid).sort());
  });

  it("LOCATION ends with the event's city and GEO carries the venue's coordinates (docs/decisions.md#d23)", async () => {
    const admin = await makeAdmin();
    const pro = await makePro('SP');
    const withCity = await makeEvento('SP', admin, {
      dataEvento: future(30),
      horario: '15:00',
      localEvento: 'Ginásio',
      cidadeIbge: 3509502,
      latitude: -22.8184,
      longitude: -47.0647,
    });
    const cityOnly = await makeEvento('SP', admin, { dataEvento: future(31), horario: '15:00', cidadeIbge: 3550308 });
    await makeConvite(withCity.id, pro, 'aceito');
    await makeConvite(cityOnly.id, pro, 'aceito');
    const feed = await fetchFeed(await urlOf(pro.user));
    const events = parse(feed.text);
    expect(events.find((e) => e.uid.startsWith(withCity.id))!.location).toBe('Ginásio, Campinas - SP');
    expect(events.find((e) => e.uid.startsWith(cityOnly.id))!.location).toBe('São Paulo - SP');
    expect(feed.text).toContain('GEO:-22.8184;-47.0647');
    expect(feed.text.match(/GEO:/g)).toHaveLength(1);
  });

  it('DTEND follows horario_fim (D11 window), crossing midnight into the next day', async () => {
    const admin = await makeAdmin();
    const pro = await makePro('SP');
    const colacao = await makeEvento('SP', admin, { dataEvento: future(20), horario: '14:00', horarioFim: '17:00' });
    const baile = await makeEvento('SP', admin, { dataEvento: future(20), horario: '22:00', horarioFim: '03:00' });
    await makeConvite(colacao.id, pro, 'aceito');
    await makeConvite(baile.id, pro, 'aceito');
    const events = parse((await fetchFeed(await urlOf(pro.user))).text);
    const byId = (id: string) => events.find((e) => e.uid.startsWith(id))!;
    // São Paulo is UTC-3: 14:00-17:00 is 17:00-20:00 UTC; 22:00-03:00 ends at 06:00 UTC the next day.
    expect(byId(colacao.id).start.toJSDate().toISOString()).toBe(`${future(20)}T17:00:00.000Z`);
    expect(byId(colacao.id).end.toJSDate().toISOString()).toBe(`${future(20)}T20:00:00.000Z`);
    expect(byId(baile.id).end.toJSDate().getTime() - byId(baile.id).start.toJSDate().getTime()).toBe(5 * 3600_000);
    expect(byId(baile.id).end.toJSDate().toISOString()).toBe(`${future(21)}T06:00:00.000Z`);
  });

  it("an agenda_viewer's feed has its own events; an EVENT_OWNER's its company's", async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const own = await makeEvento('SP', viewer, { dataEvento: future(5), horario: '09:00' });
    await makeEvento('SP', await makeAdmin(), { dataEvento: future(5), horario: '09:00' });
    const viewerEvents = parse((await fetchFeed(await urlOf(viewer))).text);
    expect(viewerEvents.map((e) => e.uid.split('.')[0])).toEqual([own.id]);
    expect(viewerEvents[0]!.status).toBe('CONFIRMED');

    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: own.fot.refs.empresa.id });
    const ownerEvents = parse((await fetchFeed(await urlOf(owner))).text);
    expect(ownerEvents.map((e) => e.uid.split('.')[0])).toEqual([own.id]);
  });

  it('a deactivated account’s feed answers 404', async () => {
    const pro = await makePro('SP');
    const url = await urlOf(pro.user);
    const { users } = await import('../../../src/db/schema');
    await db.update(users).set({ ativo: false }).where(eq(users.id, pro.user.id));
    expect((await fetchFeed(url)).status).toBe(404);
  });

  it('costs one round trip whatever the number of events', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    await makeEvento('SP', viewer, { dataEvento: future(3) });
    const url = await urlOf(viewer);
    const one = await send('GET', pathOf(url), {}, { countQueries: true });
    for (let i = 0; i < 12; i++) await makeEvento('SP', viewer, { dataEvento: future(4 + i), horario: '19:00' });
    const many = await send('GET', pathOf(url), {}, { countQueries: true });
    expect(parse(await many.text())).toHaveLength(13);
    expect(many.roundTrips).toBe(one.roundTrips);
    expect(many.roundTrips).toBe(1);
  });
});

describe('lib/ical foldLine', () => {
  it('never splits a multi-byte character and keeps each line within 75 octets', () => {
    const line = `SUMMARY:${'ção€😀'.repeat(40)}`;
    const folded = foldLine(line);
    for (const part of folded.split('\r\n')) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
    expect(
      folded
        .split('\r\n')
        .map((p, i) => (i ? p.slice(1) : p))
        .join(''),
    ).toBe(line);
    expect(folded).not.toContain('\uFFFD');
  });
});

describe('calendar feed races', () => {
  it('two concurrent rotations: one new url wins, the other is 409, and only the winner serves', async () => {
    const pro = await makePro('SP');
    const first = await urlOf(pro.user);
    const results = await Promise.all(
      [0, 1].map(() => api('POST', '/api/me/calendario/rotacionar', { token: pro.user.token })),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, 'CONFLICT');
    const current = await urlOf(pro.user);
    expect(current).not.toBe(first);
    expect(ok.map((r) => r.body.url)).toContain(current);
    expect((await fetchFeed(first)).status).toBe(404);
    expect((await fetchFeed(current)).status).toBe(200);
  });

  it('turning the feed off is logged without the token', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const url = await urlOf(viewer);
    const [row] = await db.select().from(calendarios).where(eq(calendarios.userId, viewer.id));
    await api('DELETE', '/api/me/calendario', { token: viewer.token });
    const [entry] = await entriesOf(row!.id, 'calendarios.delete');
    expect(entry).toBeDefined();
    expect(JSON.stringify(entry)).not.toContain(row!.tokenHash);
    expect(JSON.stringify(entry)).not.toContain(url.split('/ical/')[1]!.slice(0, 43));
  });
});
