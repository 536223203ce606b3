import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { logsAtividade, profissionais } from '../../../src/db/schema';
import { sameWhatsapp, toE164 } from '../../../src/lib/brazil';
import { db, makeProfissional, makeUser } from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';
import { mobile } from '../../helpers/whatsapp';

async function makePro(whatsapp: string | null) {
  const user = await makeUser({ role: 'profissional' });
  const prof = await makeProfissional('SP', { usuarioId: user.id, whatsapp });
  return { user, prof };
}

const stored = async (id: string) => (await db.select().from(profissionais).where(eq(profissionais.id, id)))[0]!;

describe('toE164 / sameWhatsapp (lib/brazil.ts)', () => {
  it('reads the ways people write a Brazilian number', () => {
    for (const v of ['(11) 98765-4321', '11987654321', '+55 11 98765-4321', '5511987654321', '011 98765 4321'])
      expect(toE164(v), v).toBe('+5511987654321');
    expect(toE164('(21) 3333-4444')).toBe('+552133334444');
  });
  it('refuses what is not one', () => {
    for (const v of [
      '',
      '98765-4321',
      '(10) 98765-4321',
      '11 8765-4321',
      '+1 415 555 0100',
      '11 98765-432',
      'abc',
      '(11) 98765-43210',
    ])
      expect(toE164(v), v).toBeUndefined();
  });
  it('matches a sender id with or without the ninth digit', () => {
    expect(sameWhatsapp('+5511987654321', '5511987654321')).toBe(true);
    expect(sameWhatsapp('+5511987654321', '551187654321')).toBe(true);
    expect(sameWhatsapp('+5511987654321', '5511987654320')).toBe(false);
    expect(sameWhatsapp('+552133334444', '552133334444')).toBe(true);
    expect(sameWhatsapp('+552133334444', '55213333444')).toBe(false);
  });
});

describe('PUT /api/me/canais', () => {
  it('opts in: the number in E.164, the time, shown in GET /api/me; opting out clears both', async () => {
    const m = mobile();
    const { user, prof } = await makePro(m.written);
    const before = await api('GET', '/api/me', { token: user.token });
    expect(before.body.canais).toEqual({ whatsapp: false, whatsapp_desde: null });

    const on = await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: true } });
    expect(on.status).toBe(200);
    expect(on.body.whatsapp).toBe(true);
    expect(on.body.whatsapp_desde).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await stored(prof.id)).whatsappE164).toBe(m.e164);
    const me = await api('GET', '/api/me', { token: user.token });
    expect(me.body.canais).toEqual(on.body);

    // Again: the first consent's time stays.
    const again = await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: true } });
    expect(again.body.whatsapp_desde).toBe(on.body.whatsapp_desde);

    const off = await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: false } });
    expect(off.body).toEqual({ whatsapp: false, whatsapp_desde: null });
    expect((await stored(prof.id)).whatsappE164).toBeNull();
  });

  it('logs who consented (the activity log)', async () => {
    const { user, prof } = await makePro(mobile().written);
    await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: true } });
    const entries = await db
      .select()
      .from(logsAtividade)
      .where(and(eq(logsAtividade.entidadeId, prof.id), eq(logsAtividade.acao, 'profissionais.canais')));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.atorId).toBe(user.id);
  });

  it('refuses a profile number that cannot be normalised, or none (400), and changes nothing', async () => {
    for (const w of ['1234', null]) {
      const { user, prof } = await makePro(w);
      const res = await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: true } });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error).toMatch(/^whatsapp: /);
      expect((await stored(prof.id)).whatsappDesde).toBeNull();
    }
  });

  it('404 without a linked profile; 400 for a body that is not a boolean', async () => {
    const user = await makeUser({ role: 'profissional' });
    expectError(await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: true } }), 404, 'NOT_FOUND');
    const { user: u2 } = await makePro(mobile().written);
    expectError(
      await api('PUT', '/api/me/canais', { token: u2.token, body: { whatsapp: 'sim' } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await api('PUT', '/api/me/canais', { token: u2.token, body: {} }), 400, 'VALIDATION_FAILED');
  });

  it('a change of the profile number withdraws the consent (it was given for the old one)', async () => {
    const { user, prof } = await makePro(mobile().written);
    await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: true } });
    const same = await api('PUT', '/api/me', {
      token: user.token,
      body: { profissional: { whatsapp: prof.whatsapp } },
    });
    expect(same.status).toBe(200);
    expect(same.body.canais.whatsapp).toBe(true); // the same number: kept
    const moved = await api('PUT', '/api/me', {
      token: user.token,
      body: { profissional: { whatsapp: mobile().written } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.canais).toEqual({ whatsapp: false, whatsapp_desde: null });
    expect((await stored(prof.id)).whatsappE164).toBeNull();
  });
});
