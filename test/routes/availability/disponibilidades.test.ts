import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { disponibilidades } from '../../../src/db/schema';
import { DisponibilidadeSchema, ResumoSchema } from '../../../src/routes/availability/disponibilidades.schemas';
import { acceptedOn, day, eventOn } from '../../helpers/availability';
import { db, makeAdmin, makeFuncao, makePro, makeProfissional, makeUser } from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import { entriesOf } from '../../helpers/activity-log';

const declare = (token: string, body: Record<string, unknown>) =>
  api('POST', '/api/profissionais/me/disponibilidades', { token, body });

async function resumo(token: string, data: string, funcaoId: string) {
  const res = await api('GET', `/api/disponibilidades/resumo?data=${data}&funcao_id=${funcaoId}`, { token });
  expect(res.status).toBe(200);
  return res.body[0];
}

describe('a professional declares its own availability', () => {
  it('creates, lists and removes; the answer has its shape and origem profissional', async () => {
    const f = await makeFuncao();
    const { user, prof } = await makePro('SP', [f.id]);
    const res = await declare(user.token, {
      tipo: 'indisponivel',
      data_inicio: day(3),
      data_fim: day(5),
      motivo: 'casamento da irmã',
    });
    expect(res.status).toBe(201);
    expect(DisponibilidadeSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      profissional_id: prof.id,
      tipo: 'indisponivel',
      data_inicio: day(3),
      data_fim: day(5),
      hora_inicio: null,
      dias_semana: null,
      motivo: 'casamento da irmã',
      origem: 'profissional',
      campanha_id: null,
    });
    const pref = await declare(user.token, {
      tipo: 'preferencial',
      data_inicio: day(1),
      hora_inicio: '08:00',
      hora_fim: '12:00',
    });
    expect(pref.status).toBe(201);
    expect(pref.body.data_fim).toBe(day(1));
    const list = await api('GET', '/api/profissionais/me/disponibilidades', { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body.map((d: { id: string }) => d.id)).toEqual([pref.body.id, res.body.id]);
    expect(await entriesOf(res.body.id, 'disponibilidades.create')).toHaveLength(1);

    const del = await api('DELETE', `/api/profissionais/me/disponibilidades/${res.body.id}`, { token: user.token });
    expect(del.status).toBe(204);
    expect(await entriesOf(res.body.id, 'disponibilidades.delete')).toHaveLength(1);
    expectError(
      await api('DELETE', `/api/profissionais/me/disponibilidades/${res.body.id}`, { token: user.token }),
      404,
      'NOT_FOUND',
    );
    // another professional's declaration is not found
    const other = await makePro('SP', [f.id]);
    expectError(
      await api('DELETE', `/api/profissionais/me/disponibilidades/${pref.body.id}`, { token: other.user.token }),
      404,
      'NOT_FOUND',
    );
  });

  it('validates the body', async () => {
    const { user } = await makePro('SP', []);
    const bad = [
      { tipo: 'talvez', data_inicio: day(2) },
      { tipo: 'indisponivel', data_inicio: '2027-02-30' },
      { tipo: 'indisponivel', data_inicio: day(5), data_fim: day(4) },
      { tipo: 'indisponivel', data_inicio: day(1), data_fim: day(122) },
      { tipo: 'indisponivel', data_inicio: day(1), hora_inicio: '08:00' },
      { tipo: 'indisponivel', data_inicio: day(1), hora_inicio: '18:00', hora_fim: '08:00' },
      { tipo: 'indisponivel', data_inicio: day(1), dias_semana: [1, 1] },
      { tipo: 'indisponivel', data_inicio: day(1), dias_semana: [7] },
      { tipo: 'indisponivel', data_inicio: day(1), dias_semana: [] },
      { tipo: 'indisponivel', data_inicio: '2027-03-01', data_fim: '2027-03-02', dias_semana: [0] }, // Mon-Tue: no Sunday
    ];
    for (const body of bad) expectError(await declare(user.token, body), 400, 'VALIDATION_FAILED');
    expect((await declare(user.token, { tipo: 'indisponivel', data_inicio: day(1), data_fim: day(121) })).status).toBe(
      201,
    );
  });

  it('locks past days: 409 INVALID_STATE to declare before today; one under way ends yesterday; one wholly past stays', async () => {
    const { user, prof } = await makePro('SP', []);
    expectError(
      await declare(user.token, { tipo: 'indisponivel', data_inicio: day(-1), data_fim: day(3) }),
      409,
      'INVALID_STATE',
    );
    const [running, past] = await db
      .insert(disponibilidades)
      .values([
        { profissionalId: prof.id, tipo: 'indisponivel', dataInicio: day(-3), dataFim: day(4), origem: 'profissional' },
        {
          profissionalId: prof.id,
          tipo: 'indisponivel',
          dataInicio: day(-5),
          dataFim: day(-2),
          origem: 'profissional',
        },
      ])
      .returning();
    expect(
      (await api('DELETE', `/api/profissionais/me/disponibilidades/${running!.id}`, { token: user.token })).status,
    ).toBe(204);
    const [ended] = await db.select().from(disponibilidades).where(eq(disponibilidades.id, running!.id));
    expect(ended).toMatchObject({ dataInicio: day(-3), dataFim: day(-1) });
    expect(await entriesOf(running!.id, 'disponibilidades.encerrar')).toHaveLength(1);
    expectError(
      await api('DELETE', `/api/profissionais/me/disponibilidades/${past!.id}`, { token: user.token }),
      409,
      'INVALID_STATE',
    );
    // the ended one is now wholly past too
    expectError(
      await api('DELETE', `/api/profissionais/me/disponibilidades/${running!.id}`, { token: user.token }),
      409,
      'INVALID_STATE',
    );
  });

  it('a professional without a profile gets 404', async () => {
    const user = await makeUser({ role: 'profissional' });
    expectError(await api('GET', '/api/profissionais/me/disponibilidades', { token: user.token }), 404, 'NOT_FOUND');
    expectError(await declare(user.token, { tipo: 'indisponivel', data_inicio: day(2) }), 404, 'NOT_FOUND');
  });
});

describe('409 HAS_ASSIGNMENT over an accepted invitation', () => {
  it('names the events whose window meets the declaration, by day and by hours (D11 windows)', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const { user, prof } = await makePro('SP', [f.id]);
    const evening = await eventOn('SP', admin, day(10), { horario: '19:00', horario_fim: '23:00' });
    const overnight = await eventOn('SP', admin, day(20), { horario: '22:00', horario_fim: '03:00' });
    await acceptedOn(evening.id, prof.id, f.id);
    await acceptedOn(overnight.id, prof.id, f.id);

    const whole = await declare(user.token, { tipo: 'indisponivel', data_inicio: day(9), data_fim: day(11) });
    expectError(whole, 409, 'HAS_ASSIGNMENT');
    expect(whole.body.error).toContain(evening.id);
    expect(whole.body.error).not.toContain(overnight.id);
    // the morning is free; the hours meeting 19:00-23:00 are not; touching edges are free (half-open)
    expect(
      (
        await declare(user.token, {
          tipo: 'indisponivel',
          data_inicio: day(10),
          hora_inicio: '08:00',
          hora_fim: '19:00',
        })
      ).status,
    ).toBe(201);
    expectError(
      await declare(user.token, {
        tipo: 'indisponivel',
        data_inicio: day(10),
        hora_inicio: '22:59',
        hora_fim: '23:30',
      }),
      409,
      'HAS_ASSIGNMENT',
    );
    expect(
      (
        await declare(user.token, {
          tipo: 'indisponivel',
          data_inicio: day(10),
          hora_inicio: '23:00',
          hora_fim: '23:59',
        })
      ).status,
    ).toBe(201);
    // the overnight event reaches into the next day until 03:00
    const next = await declare(user.token, {
      tipo: 'indisponivel',
      data_inicio: day(21),
      hora_inicio: '02:00',
      hora_fim: '04:00',
    });
    expectError(next, 409, 'HAS_ASSIGNMENT');
    expect(next.body.error).toContain(overnight.id);
    expect(
      (
        await declare(user.token, {
          tipo: 'indisponivel',
          data_inicio: day(21),
          hora_inicio: '03:00',
          hora_fim: '04:00',
        })
      ).status,
    ).toBe(201);
    // preferencial is never refused
    expect((await declare(user.token, { tipo: 'preferencial', data_inicio: day(10) })).status).toBe(201);
    // a weekly repetition skipping the event's weekday is free
    const wd = new Date(`${day(10)}T12:00:00Z`).getUTCDay();
    const others = [0, 1, 2, 3, 4, 5, 6].filter((d) => d !== wd && d !== (wd + 6) % 7);
    expect(
      (await declare(user.token, { tipo: 'indisponivel', data_inicio: day(9), data_fim: day(16), dias_semana: others }))
        .status,
    ).toBe(201);
    expectError(
      await declare(user.token, { tipo: 'indisponivel', data_inicio: day(9), data_fim: day(16), dias_semana: [wd] }),
      409,
      'HAS_ASSIGNMENT',
    );
  });

  it('declaring and accepting racing: never both (N parallel declarations over one accepted event)', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const { user, prof } = await makePro('SP', [f.id]);
    const ev = await eventOn('SP', admin, day(30));
    await acceptedOn(ev.id, prof.id, f.id);
    const all = await Promise.all(
      Array.from({ length: 5 }, () => declare(user.token, { tipo: 'indisponivel', data_inicio: day(30) })),
    );
    for (const r of all) expectError(r, 409, 'HAS_ASSIGNMENT');
    expect(await db.select().from(disponibilidades).where(eq(disponibilidades.profissionalId, prof.id))).toEqual([]);
  });
});

describe('administrators declare for a professional of the region', () => {
  it('creates (origem admin), lists with motivo and removes; another region or a professional is refused', async () => {
    const admin = await makeAdmin();
    const prof = await makeProfissional('SP');
    const path = `/api/profissionais/${prof.id}/disponibilidades`;
    const res = await api('POST', path, {
      token: admin.token,
      body: { tipo: 'indisponivel', data_inicio: day(4), motivo: 'atestado' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ origem: 'admin', motivo: 'atestado', profissional_id: prof.id });
    const list = await api('GET', path, { token: admin.token });
    expect(list.body).toHaveLength(1);
    expect(list.body[0].motivo).toBe('atestado');
    expectError(await api('GET', path, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(
      await api('POST', path, {
        token: admin.token,
        regiao: 'MG',
        body: { tipo: 'indisponivel', data_inicio: day(4) },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('DELETE', `${path}/${res.body.id}`, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(
      await api('GET', `/api/profissionais/${UNKNOWN_ID}/disponibilidades`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    expect((await api('DELETE', `${path}/${res.body.id}`, { token: admin.token })).status).toBe(204);
    // the motivo is the owner's and the administrators': a professional cannot read another's
    const pro = await makePro('SP', []);
    expectError(await api('GET', path, { token: pro.user.token }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/disponibilidades/resumo', () => {
  it('counts holders unavailable, preferential and silent per function; weekly repetition across month ends', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const other = await makeFuncao();
    const a = await makePro('SP', [f.id]);
    const b = await makePro('SP', [f.id, other.id]);
    await makePro('SP', [f.id]); // silent
    await makePro('MG', []); // another region
    // a: Saturdays and Sundays, 2027-01-25 .. 2027-03-10 (crossing two month ends), the afternoons
    const weekly = await declare(a.user.token, {
      tipo: 'indisponivel',
      data_inicio: '2027-01-25',
      data_fim: '2027-03-10',
      dias_semana: [0, 6],
      hora_inicio: '13:00',
      hora_fim: '18:00',
      motivo: 'segredo',
    });
    expect(weekly.status).toBe(201);
    expect(weekly.body.dias_semana).toEqual([0, 6]);
    expect(
      (await declare(b.user.token, { tipo: 'preferencial', data_inicio: '2027-01-30', data_fim: '2027-02-28' })).status,
    ).toBe(201);

    // 2027-01-30 is a Saturday, 2027-01-31 a Sunday, 2027-02-01 a Monday, 2027-02-27 a Saturday, 2027-03-06 a Saturday
    const expected: [string, number, number, number][] = [
      ['2027-01-30', 1, 1, 1],
      ['2027-01-31', 1, 1, 1],
      ['2027-02-01', 0, 1, 2],
      ['2027-02-27', 1, 1, 1],
      ['2027-03-01', 0, 0, 3],
      ['2027-03-06', 1, 0, 2],
      ['2027-03-13', 0, 0, 3],
      ['2027-01-23', 0, 0, 3],
    ];
    for (const [data, ind, pref, silent] of expected) {
      const row = await resumo(admin.token, data, f.id);
      expect(ResumoSchema.safeParse(row).error).toBeUndefined();
      expect([data, row]).toEqual([
        data,
        {
          funcao_id: f.id,
          funcao_nome: f.label,
          titulares: 3,
          indisponiveis: ind,
          preferenciais: pref,
          sem_declaracao: silent,
        },
      ]);
    }
    // every function of the region without funcao_id; no motivo anywhere
    const all = await api('GET', '/api/disponibilidades/resumo?data=2027-01-30', { token: admin.token });
    expect(all.body.find((r: { funcao_id: string }) => r.funcao_id === other.id)).toMatchObject({
      titulares: 1,
      preferenciais: 1,
    });
    expect(JSON.stringify(all.body)).not.toContain('segredo');
    // an agenda_viewer (a planner) may read it
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expect((await api('GET', `/api/disponibilidades/resumo?data=${day(1)}`, { token: viewer.token })).status).toBe(200);
    expectError(
      await api('GET', '/api/disponibilidades/resumo?data=2027-02-30', { token: admin.token }),
      400,
      'VALIDATION_FAILED',
    );
  });
});
