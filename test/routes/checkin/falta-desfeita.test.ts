import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { confiabilidadeContestacoes, faltas } from '../../../src/db/schema';
import { FaltaSchema } from '../../../src/routes/checkin/checkin.schemas';
import { createDb } from '../../../src/db/client';
import { faltasProvaveis } from '../../../src/services/checkin/faltas';
import { at, eventToken, fresh, logOf, member, MIN, scene, START, T, useClock } from '../../helpers/checkin';
import { db, makeUser, notificationsOf } from '../../helpers/factories';
import { keptScore, ledgerOf } from '../../helpers/reliability';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';

// An administrator undoes a confirmed no-show (docs/decisions.md#d27): the record back to `provavel`,
// the reliability row excused the way a contest's `abonar` excuses it, the kept score recomputed, the
// log entry and the professional's notification, all in one batch, once.

useClock();

const url = (id: string) => `/api/convites/${id}/falta`;
const confirm = (token: string, id: string) => api('POST', url(id), { token, body: { motivo: 'não apareceu' } });
const undo = (
  token: string,
  id: string,
  body: Record<string, unknown> = { motivo: 'pessoa errada' },
  regiao?: string,
) => api('DELETE', url(id), { token, body, ...(regiao ? { regiao } : {}) });
const mine = async (token: string) => (await api('GET', '/api/profissionais/me/confiabilidade', { token })).body;

describe('DELETE /api/convites/{id}/falta', () => {
  it('undoes a confirmed no-show: record, ledger and kept score back, the professional told, logged', async () => {
    at(T);
    const { admin, pro, conv } = await scene();
    at(START + 30 * MIN);
    const proToken = await fresh(pro.user);
    const before = await mine(proToken);
    expect((await confirm(await fresh(admin), conv.id)).status).toBe(201);
    const confirmed = await keptScore(pro.prof.id);
    expect(confirmed.peso).toBe(2);

    at(START + 40 * MIN);
    const res = await undo(await fresh(admin), conv.id);
    expect(res.status).toBe(200);
    expect(FaltaSchema.parse(res.body)).toEqual({
      convite_id: conv.id,
      agenda_id: conv.agendaId,
      profissional_id: pro.prof.id,
      status: 'provavel',
      provavel_em: null,
      confirmada_em: null,
      confirmada_por: null,
      motivo: 'pessoa errada',
    });
    // The ledger's row stays, excused (the professional sees why); the score is what it was.
    const [row, ...more] = await ledgerOf(pro.prof.id);
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({
      tipo: 'falta',
      abonado: true,
      motivo: 'Falta desfeita pelo escritório: pessoa errada.',
    });
    const after = await mine(proToken);
    expect(after.valor).toBe(before.valor);
    expect(after.amostra).toEqual({ eventos: 0, abonados: 1, peso: 0 });
    const kept = await keptScore(pro.prof.id);
    expect(kept.peso).toBe(0);
    expect(kept.valor).toBeCloseTo(after.valor, 1);
    expect(await logOf(conv.id, 'faltas.desfazer')).toHaveLength(1);
    expect(await logOf(row!.id, 'confiabilidade_eventos.abonar')).toHaveLength(1);
    const told = await notificationsOf(pro.user.id, 'falta_desfeita');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      titulo: 'Falta retirada',
      dados: { agenda_id: conv.agendaId, convite_id: conv.id },
    });
    // The professional may check in again (a confirmed no-show closed that door).
    const ev = conv.agendaId;
    const entry = await api('POST', '/api/presencas', {
      token: proToken,
      body: { token: await eventToken(ev), tipo: 'entrada' },
    });
    expect(entry.status).toBe(201);
  });

  it('a no-show the job had flagged goes back to provavel with its flag; an open contest is closed', async () => {
    at(T);
    const { admin, ev, pro, conv } = await scene();
    await faltasProvaveis(createDb(env.DB), new Date(START + 61 * MIN));
    at(START + 2 * 60 * MIN);
    expect((await confirm(await fresh(admin), conv.id)).status).toBe(201);
    const [row] = await ledgerOf(pro.prof.id);
    const contested = await api('POST', '/api/profissionais/me/confiabilidade/contestacoes', {
      token: await fresh(pro.user),
      body: { evento_id: row!.id, motivo: 'eu estava lá' },
    });
    expect(contested.status).toBe(201);
    const res = await undo(await fresh(admin), conv.id, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'provavel',
      provavel_em: new Date(START + 61 * MIN).toISOString(),
      motivo: null,
    });
    const [c] = await db
      .select()
      .from(confiabilidadeContestacoes)
      .where(eq(confiabilidadeContestacoes.id, contested.body.id));
    expect(c).toMatchObject({
      status: 'abonada',
      resposta: 'Falta desfeita pelo escritório.',
      respondidoPor: admin.id,
    });
    expect(await logOf(contested.body.id, 'confiabilidade_contestacoes.decidir')).toHaveLength(1);
    // The job does not flag it again (the row is there).
    await faltasProvaveis(createDb(env.DB), new Date(START + 3 * 60 * MIN));
    expect(await db.select().from(faltas).where(eq(faltas.agendaId, ev.id))).toHaveLength(1);
  });

  it('N parallel undos: one 200 and one effect; the rest 409 INVALID_STATE', async () => {
    at(T);
    const { admin, pro, conv } = await scene();
    at(START + 30 * MIN);
    const token = await fresh(admin);
    expect((await confirm(token, conv.id)).status).toBe(201);
    const all = await Promise.all(Array.from({ length: 8 }, () => undo(token, conv.id)));
    expect(all.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of all.filter((x) => x.status === 409)) expect(r.body.code).toBe('INVALID_STATE');
    expect(await logOf(conv.id, 'faltas.desfazer')).toHaveLength(1);
    const [row] = await ledgerOf(pro.prof.id);
    expect(await logOf(row!.id, 'confiabilidade_eventos.abonar')).toHaveLength(1);
    expect(await notificationsOf(pro.user.id, 'falta_desfeita')).toHaveLength(1);
    // Undone already: 409, nothing written.
    expectError(await undo(token, conv.id), 409, 'INVALID_STATE');
    expect(await logOf(conv.id, 'faltas.desfazer')).toHaveLength(1);
  });

  it('undo then confirm again: a new ledger row that counts; undo again excuses it', async () => {
    at(T);
    const { admin, pro, conv } = await scene();
    at(START + 30 * MIN);
    const token = await fresh(admin);
    expect((await confirm(token, conv.id)).status).toBe(201);
    expect((await undo(token, conv.id)).status).toBe(200);
    at(START + 50 * MIN);
    const again = await confirm(await fresh(admin), conv.id);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ status: 'confirmada', motivo: 'não apareceu' });
    const rows = await ledgerOf(pro.prof.id);
    expect(rows.map((r) => [r.tipo, r.abonado])).toEqual([
      ['falta', true],
      ['falta', false],
    ]);
    expect((await keptScore(pro.prof.id)).peso).toBe(2);
    expect(await notificationsOf(pro.user.id, 'falta_registrada')).toHaveLength(2);
    // A repeated confirmation still writes nothing.
    expect((await confirm(await fresh(admin), conv.id)).status).toBe(200);
    expect(await ledgerOf(pro.prof.id)).toHaveLength(2);
    expect((await undo(await fresh(admin), conv.id)).status).toBe(200);
    expect((await ledgerOf(pro.prof.id)).map((r) => r.abonado)).toEqual([true, true]);
    expect((await keptScore(pro.prof.id)).peso).toBe(0);
  });

  it('errors: no token, wrong role, other region, not found, invalid id, wrong state', async () => {
    at(T);
    const { admin, viewer, ev, funcaoId, pro, conv } = await scene();
    at(START + 30 * MIN);
    const token = await fresh(admin);
    expectError(await api('DELETE', url(conv.id), {}), 401, 'UNAUTHENTICATED');
    expectError(await undo(await fresh(pro.user), conv.id), 403, 'FORBIDDEN');
    expectError(await undo(await fresh(viewer), conv.id), 403, 'FORBIDDEN');
    const owner = await makeUser({ role: 'EVENT_OWNER' });
    expectError(await undo(owner.token, conv.id), 403, 'FORBIDDEN');
    expectError(await undo(token, 'not-a-uuid'), 400, 'INVALID_ID');
    expectError(await undo(token, UNKNOWN_ID), 404, 'NOT_FOUND');
    // No record yet: 404; only flagged (or undone): 409.
    expectError(await undo(token, conv.id), 404, 'NOT_FOUND');
    expect((await confirm(token, conv.id)).status).toBe(201);
    // Administrators act in their request's region (x-regiao): another region's answer is 404, nothing changed.
    const owner2 = await makeUser({ role: 'BUSINESS_OWNER' });
    expectError(await undo(await fresh(owner2), conv.id, {}, 'MG'), 404, 'NOT_FOUND');
    expectError(await undo(token, conv.id, {}, 'MG'), 404, 'NOT_FOUND');
    const [still] = await db.select().from(faltas).where(eq(faltas.conviteId, conv.id));
    expect(still!.status).toBe('confirmada');
    expect(await logOf(conv.id, 'faltas.desfazer')).toHaveLength(0);
    const other = await member(ev.id, funcaoId);
    await faltasProvaveis(createDb(env.DB), new Date(START + 61 * MIN));
    expectError(await undo(token, other.conv.id), 409, 'INVALID_STATE');
    expectError(await undo(token, conv.id, { motivo: 'x'.repeat(501) }), 400, 'VALIDATION_FAILED');
  });
});
