import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cidades, convites, deslocamentos, disponibilidades, profissionais } from '../../../src/db/schema';
import { estimatedMinutes, greatCircleKm } from '../../../src/services/places/deslocamentos';
import { acceptedOn, day, eventOn } from '../../helpers/availability';
import {
  db,
  makeAdmin,
  makeConvite,
  makeEvento,
  makeFuncao,
  makePro,
  makeProfissional,
  makeSurveyResponse,
  makeUser,
} from '../../helpers/factories';
import { pinRegionMean } from '../../helpers/reliability';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';

const SOROCABA = 3552205;
const ITU = 3523909;
const JUNDIAI = 3525904;

type Cand = {
  profissional_id: string;
  posicao: number;
  score: number;
  trabalhos_30d: number;
  componentes: Record<string, { valor: number; peso: number; contribuicao: number; [k: string]: unknown }>;
  alertas: string[];
};

async function ranking(token: string, eventId: string, funcaoId: string, extra = '', regiao = 'SP') {
  const res = await api('GET', `/api/agenda/${eventId}/candidatos?funcao_id=${funcaoId}${extra}`, { token, regiao });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    candidatos: Cand[];
    excluidos?: { profissional_id: string; motivo: string; detalhe: string }[];
  } & Record<string, unknown>;
}

const byId = (cands: Cand[], id: string) => cands.find((c) => c.profissional_id === id)!;
const close = (a: number, b: number) => expect(Math.abs(a - b), `${a} vs ${b}`).toBeLessThan(0.00011);

describe('GET /api/agenda/{id}/candidatos: hard filters', () => {
  it('leaves out each excluded holder with its reason, and keeps the rest', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const ev = await eventOn('SP', admin, day(45), { horario: '19:00', horario_fim: '23:00' });
    const ok = await makePro('SP', [f.id]);
    const inactiveUser = await makeUser({ role: 'profissional', ativo: false });
    const inactive = await makeProfissional('SP', { usuarioId: inactiveUser.id }, [f.id]);
    const invited = await makePro('SP', [f.id]);
    await makeConvite(ev.id, { prof: invited.prof, funcaoId: f.id }, 'pendente');
    const unavailable = await makePro('SP', [f.id]);
    await db.insert(disponibilidades).values({
      profissionalId: unavailable.prof.id,
      tipo: 'indisponivel',
      dataInicio: day(45),
      dataFim: day(45),
      horaInicio: '18:00',
      horaFim: '20:00',
      origem: 'profissional',
    });
    const busy = await makePro('SP', [f.id]);
    const other = await eventOn('SP', admin, day(45), { horario: '22:00', horario_fim: '23:30' });
    await acceptedOn(other.id, busy.prof.id, f.id);
    // A declaration on the day whose hours do not meet the event does not exclude.
    const morning = await makePro('SP', [f.id]);
    await db.insert(disponibilidades).values({
      profissionalId: morning.prof.id,
      tipo: 'indisponivel',
      dataInicio: day(45),
      dataFim: day(45),
      horaInicio: '08:00',
      horaFim: '12:00',
      origem: 'profissional',
    });

    const r = await ranking(admin.token, ev.id, f.id, '&incluir_excluidos=true');
    expect(r.candidatos.map((c) => c.profissional_id).sort()).toEqual([ok.prof.id, morning.prof.id].sort());
    const motivos = Object.fromEntries(r.excluidos!.map((e) => [e.profissional_id, e.motivo]));
    expect(motivos).toEqual({
      [inactive.id]: 'INATIVO',
      [invited.prof.id]: 'JA_CONVIDADO',
      [unavailable.prof.id]: 'INDISPONIVEL',
      [busy.prof.id]: 'CONFLITO_HORARIO',
    });
    for (const e of r.excluidos!) expect(e.detalhe.length).toBeGreaterThan(5);
    // Without incluir_excluidos: no excluidos key.
    const plain = await ranking(admin.token, ev.id, f.id);
    expect(plain.excluidos).toBeUndefined();
    expect(plain.candidatos).toHaveLength(2);
  });

  it('404 for an event of another region or not the agenda_viewer own; 400 for a function of another region', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const ev = await makeEvento('SP', admin);
    expectError(
      await api('GET', `/api/agenda/${ev.id}/candidatos?funcao_id=${f.id}`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(
      await api('GET', `/api/agenda/${ev.id}/candidatos?funcao_id=${f.id}`, { token: viewer.token }),
      404,
      'NOT_FOUND',
    );
    const own = await makeEvento('SP', viewer);
    expect(
      (await api('GET', `/api/agenda/${own.id}/candidatos?funcao_id=${f.id}`, { token: viewer.token })).status,
    ).toBe(200);
    const mg = await makeFuncao('MG');
    expectError(
      await api('GET', `/api/agenda/${ev.id}/candidatos?funcao_id=${mg.id}`, { token: admin.token }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('GET', `/api/agenda/${UNKNOWN_ID}/candidatos?funcao_id=${f.id}`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('GET', `/api/agenda/${ev.id}/candidatos`, { token: admin.token }), 400, 'VALIDATION_FAILED');
    expectError(
      await api('GET', `/api/agenda/${ev.id}/candidatos?funcao_id=${f.id}&limit=0`, { token: admin.token }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('GET /api/agenda/{id}/candidatos: components, by hand', () => {
  it('computes each component, its weight and contribution, and the alerts', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const g = await makeFuncao();
    const D = day(60);
    const ev = await makeEvento('SP', admin, {
      dataEvento: D,
      horario: '19:00',
      horarioFim: '23:00',
      cidadeIbge: SOROCABA,
    });
    // The region's matrix: Itu -> Sorocaba 45 min (the ranking reads it from the professional's city to the event's).
    await db
      .insert(deslocamentos)
      .values({ regiao: 'SP', origemIbge: ITU, destinoIbge: SOROCABA, minutos: 45 })
      .onConflictDoUpdate({
        target: [deslocamentos.regiao, deslocamentos.origemIbge, deslocamentos.destinoIbge],
        set: { minutos: 45 },
      });
    const A = await makePro('SP', [f.id]);
    await db.update(profissionais).set({ cidade: 'ITU', uf: 'SP', qualTec: 5 }).where(eq(profissionais.id, A.prof.id));
    const B = await makeProfissional('SP', { cidade: 'sorocaba', uf: 'SP' }, [g.id, f.id]);
    const C = await makeProfissional('SP', { cidade: 'Jundiai', uf: 'SP' }, [f.id]);
    const Dp = await makeProfissional('SP', { cidade: 'Atlântida', uf: null }, [f.id]);
    // avaliacao: A has the administrators' 5 on one criterion; C two client answers, 4 and 2.
    await makeSurveyResponse('SP', [
      [C.id, 'qual_tec', 4],
      [C.id, 'educacao_simpatia', 2],
    ]);
    // rodizio: A accepted twice in the 30 days before the event.
    for (const n of [50, 55]) {
      const past = await makeEvento('SP', admin, { dataEvento: day(n) });
      await makeConvite(past.id, { prof: A.prof, funcaoId: f.id }, 'aceito');
    }
    // responsividade: B answered three invitations in 2 h, 4 h and 30 h (median 4 h).
    for (const h of [2, 4, 30]) {
      const past = await makeEvento('SP', admin, { dataEvento: day(-20) });
      const created = new Date(Date.now() - 40 * 86_400_000);
      await makeConvite(past.id, { prof: { id: B.id }, funcaoId: f.id }, 'recusado', {
        createdAt: created.toISOString(),
        respondidoEm: new Date(created.getTime() + h * 3_600_000).toISOString(),
      });
    }
    // preferencia: Dp declared the day preferential.
    await db.insert(disponibilidades).values({
      profissionalId: Dp.id,
      tipo: 'preferencial',
      dataInicio: D,
      dataFim: D,
      origem: 'profissional',
    });
    // An alert: C works a colação the same day, 13:00-16:00, in Sorocaba (180 min before).
    const colacao = await makeEvento('SP', admin, {
      dataEvento: D,
      horario: '13:00',
      horarioFim: '16:00',
      cidadeIbge: SOROCABA,
    });
    await makeConvite(colacao.id, { prof: { id: C.id }, funcaoId: f.id }, 'aceito');

    const r = await ranking(admin.token, ev.id, f.id);
    expect(r.candidatos).toHaveLength(4);
    const [a, b, c, d] = [A.prof.id, B.id, C.id, Dp.id].map((id) => byId(r.candidatos, id));

    // distancia: 1 - min(minutes, 180) / 180.
    close(a!.componentes.distancia!.valor, 1 - 45 / 180);
    expect(a!.componentes.distancia).toMatchObject({ minutos: 45, fonte: 'matriz', origem_ibge: ITU });
    close(b!.componentes.distancia!.valor, 1 - 40 / 180);
    expect(b!.componentes.distancia).toMatchObject({ minutos: 40, fonte: 'mesma_cidade' });
    const [jun, sor] = await Promise.all(
      [JUNDIAI, SOROCABA].map(
        async (code) => (await db.select().from(cidades).where(eq(cidades.codigoIbge, code)))[0]!,
      ),
    );
    const minutos = estimatedMinutes(Math.round(greatCircleKm(jun!, sor!) * 10) / 10);
    expect(c!.componentes.distancia).toMatchObject({ minutos, fonte: 'estimado', origem_ibge: JUNDIAI });
    close(c!.componentes.distancia!.valor, 1 - Math.min(minutos, 180) / 180);
    expect(d!.componentes.distancia).toMatchObject({ valor: 0.5, minutos: null, fonte: null });

    // avaliacao: (5 m + sum) / (5 + n) / 5, m the holders' mean (5 + 4 + 2) / 3.
    const m = 11 / 3;
    close(a!.componentes.avaliacao!.valor, (5 * m + 5) / 6 / 5);
    close(b!.componentes.avaliacao!.valor, m / 5);
    close(c!.componentes.avaliacao!.valor, (5 * m + 6) / 7 / 5);
    expect(c!.componentes.avaliacao).toMatchObject({ amostra: 2, prior: 3.67 });

    // rodizio: 1 / (1 + max(0, jobs - mean)), mean 2 / 4.
    close(a!.componentes.rodizio!.valor, 1 / (1 + (2 - 0.5)));
    expect(a!.componentes.rodizio).toMatchObject({ trabalhos_30d: 2, media_regiao: 0.5 });
    expect(a!.trabalhos_30d).toBe(2);
    close(b!.componentes.rodizio!.valor, 1);

    // funcao: main 1, secondary 0.7.
    expect(a!.componentes.funcao).toMatchObject({ valor: 1, principal: true });
    expect(b!.componentes.funcao).toMatchObject({ valor: 0.7, principal: false });

    // preferencia.
    expect(d!.componentes.preferencia).toMatchObject({ valor: 1, preferencial: true });
    expect(a!.componentes.preferencia).toMatchObject({ valor: 0, preferencial: false });

    // responsividade: 1 - min(median h, 72) / 72; no replies: 0.5.
    expect(b!.componentes.responsividade).toMatchObject({ mediana_horas: 4, amostra: 3 });
    close(b!.componentes.responsividade!.valor, 1 - 4 / 72);
    expect(a!.componentes.responsividade).toMatchObject({ valor: 0.5, mediana_horas: null, amostra: 0 });

    // Weights (D29's defaults), contributions and the score as their sum.
    for (const cand of r.candidatos) {
      let sum = 0;
      for (const [k, comp] of Object.entries(cand.componentes)) {
        expect(comp.peso).toBe((r.pesos as Record<string, number>)[k]);
        close(comp.contribuicao, comp.valor * comp.peso);
        sum += comp.valor * comp.peso;
      }
      close(cand.score, sum);
    }
    expect(r.pesos).toMatchObject({ distancia: 0.2, avaliacao: 0.2, rodizio: 0.15, funcao: 0.05 });
    // Best first, positions 1..n.
    expect(r.candidatos.map((x) => x.posicao)).toEqual([1, 2, 3, 4]);
    const scores = r.candidatos.map((x) => x.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);

    // The alert of C's colação.
    expect(c!.alertas).toEqual([`mesmo dia: ${colacao.tipo!.label} 13:00, folga 180 min`]);
    expect(a!.alertas).toEqual([]);
  });

  it("finds the professional's city from its free text however it was typed", async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const ev = await makeEvento('SP', admin, { dataEvento: day(61), cidadeIbge: SOROCABA });
    const typed = ['SOROCABA', 'Sorocaba ', 'soROCABA'];
    const pros = await Promise.all(typed.map((cidade) => makeProfissional('SP', { cidade, uf: 'SP' }, [f.id])));
    const wrongUf = await makeProfissional('SP', { cidade: 'Sorocaba', uf: 'MG' }, [f.id]);
    const accents = await makeProfissional('SP', { cidade: 'São Paulo', uf: 'SP' }, [f.id]);
    const plain = await makeProfissional('SP', { cidade: 'sao paulo', uf: 'SP' }, [f.id]);
    const r = await ranking(admin.token, ev.id, f.id);
    for (const p of pros) expect(byId(r.candidatos, p.id).componentes.distancia!.origem_ibge).toBe(SOROCABA);
    expect(byId(r.candidatos, wrongUf.id).componentes.distancia!.origem_ibge).toBeNull();
    expect(byId(r.candidatos, accents.id).componentes.distancia!.origem_ibge).toBe(3550308);
    expect(byId(r.candidatos, plain.id).componentes.distancia!.origem_ibge).toBe(3550308);
  });
});

describe('GET /api/agenda/{id}/candidatos: travel between accepted events (DESLOCAMENTO)', () => {
  it("leaves out a holder who cannot reach the event from another accepted one in time, by D23's rule", async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const D = day(90);
    const ev = await makeEvento('SP', admin, {
      dataEvento: D,
      horario: '19:00',
      horarioFim: '23:00',
      cidadeIbge: SOROCABA,
    });
    // Itu -> Sorocaba 45 min in the matrix; the margin (MARGEM_DESLOCAMENTO_MIN) is 30: 75 minutes needed.
    await db
      .insert(deslocamentos)
      .values({ regiao: 'SP', origemIbge: ITU, destinoIbge: SOROCABA, minutos: 45 })
      .onConflictDoUpdate({
        target: [deslocamentos.regiao, deslocamentos.origemIbge, deslocamentos.destinoIbge],
        set: { minutos: 45 },
      });
    const before = async (horario: string, horarioFim: string, cidadeIbge: number | null) => {
      const p = await makeProfissional('SP', {}, [f.id]);
      const other = await makeEvento('SP', admin, { dataEvento: D, horario, horarioFim, cidadeIbge });
      await makeConvite(other.id, { prof: { id: p.id }, funcaoId: f.id }, 'aceito');
      return p;
    };
    const tight = await before('16:00', '18:00', ITU); // 60 min left < 75
    const exact = await before('14:00', '17:45', ITU); // 75 min left: enough
    const loose = await before('13:00', '17:00', ITU); // 120 min left
    const noCity = await before('16:00', '18:00', null); // no city: no travel rule, only the overlap
    const r = await ranking(admin.token, ev.id, f.id, '&incluir_excluidos=true');
    expect(r.excluidos).toEqual([
      {
        profissional_id: tight.id,
        nome: expect.any(String),
        motivo: 'DESLOCAMENTO',
        detalhe: 'não chega a tempo de outro evento aceito (deslocamento)',
      },
    ]);
    expect(r.candidatos.map((c) => c.profissional_id).sort()).toEqual([exact.id, loose.id, noCity.id].sort());
    expect(byId(r.candidatos, loose.id).alertas).toEqual([expect.stringMatching(/ 13:00, folga 120 min$/)]);
    // The batch refuses it with the acceptance's code.
    const res = await api('POST', `/api/agenda/${ev.id}/convites/lote`, {
      token: admin.token,
      body: { funcao_id: f.id, profissional_ids: [tight.id, exact.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.itens).toEqual([
      expect.objectContaining({
        profissional_id: tight.id,
        resultado: 'recusado',
        code: 'TRAVEL_CONFLICT',
        motivo: 'DESLOCAMENTO',
      }),
      expect.objectContaining({ profissional_id: exact.id, resultado: 'convidado' }),
    ]);
  });
});

describe('GET /api/agenda/{id}/candidatos: confiabilidade (D28)', () => {
  it("R / 100 from the kept score, the region's prior without one; never for an agenda_viewer", async () => {
    const admin = await makeAdmin();
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const f = await makeFuncao('MG');
    const ev = await makeEvento('MG', viewer, { dataEvento: day(91) });
    const kept = await makeProfissional('MG', {}, [f.id]);
    await db.update(profissionais).set({ confiabilidade: 92.5 }).where(eq(profissionais.id, kept.id));
    const fresh = await makeProfissional('MG', {}, [f.id]);
    // The region's mean credit 0.7: a professional without a score stands at 70 (D28's R with no rows).
    await pinRegionMean('MG', 0.7);
    const r = await ranking(admin.token, ev.id, f.id, '', 'MG');
    const [k, n] = [byId(r.candidatos, kept.id), byId(r.candidatos, fresh.id)];
    expect(k.componentes.confiabilidade).toEqual({
      valor: 0.925,
      peso: 0.25,
      contribuicao: 0.2313,
      pontuacao: 93,
      fonte: 'profissional',
    });
    expect(n.componentes.confiabilidade).toEqual({
      valor: 0.7,
      peso: 0.25,
      contribuicao: 0.175,
      pontuacao: 70,
      fonte: 'regiao',
    });
    // Everything else equal: the difference of the scores is the difference of the contributions.
    close(k.score - n.score, 0.25 * (0.925 - 0.7));
    expect(r.candidatos.map((c) => c.profissional_id)).toEqual([kept.id, fresh.id]);

    // The event's agenda_viewer creator: no such component, a score without it, the order it gives.
    const v = await ranking(viewer.token, ev.id, f.id, '', 'MG');
    for (const c of v.candidatos) {
      expect(c.componentes).not.toHaveProperty('confiabilidade');
      let sum = 0;
      for (const comp of Object.values(c.componentes)) sum += comp.valor * comp.peso;
      close(c.score, sum);
    }
    expect(new Set(v.candidatos.map((c) => c.score)).size).toBe(1);
    close(byId(v.candidatos, kept.id).score, k.score - 0.2313);

    // An administrator's batch keeps the component in the snapshot; the viewer reads it without, its score without its part.
    const res = await api('POST', `/api/agenda/${ev.id}/convites/lote`, {
      token: admin.token,
      regiao: 'MG',
      body: { funcao_id: f.id, profissional_ids: [kept.id] },
    });
    expect(res.status).toBe(200);
    const snap = res.body.itens[0].convite.ranking_snapshot;
    expect(snap.componentes.confiabilidade).toMatchObject({ valor: 0.925 });
    expect(snap.score).toBe(k.score);
    const asViewer = await api('GET', `/api/agenda/${ev.id}/convites`, { token: viewer.token, regiao: 'MG' });
    expect(asViewer.status).toBe(200);
    const seen = asViewer.body[0].ranking_snapshot;
    expect(seen.componentes).not.toHaveProperty('confiabilidade');
    expect(Object.keys(seen.componentes)).toHaveLength(6);
    close(seen.score, k.score - 0.2313);
    expect(seen.pesos).toEqual(snap.pesos);
    const asAdmin = await api('GET', `/api/agenda/${ev.id}/convites`, { token: admin.token, regiao: 'MG' });
    expect(asAdmin.body[0].ranking_snapshot).toEqual(snap);
  });
});

describe('GET /api/agenda/{id}/candidatos: order', () => {
  it('the weights change the order as expected', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao('MG');
    const g = await makeFuncao('MG');
    const ev = await makeEvento('MG', admin, { dataEvento: day(62), cidadeIbge: 3106200 });
    // Near: Belo Horizonte, secondary function. Far: main function, unknown city.
    const near = await makeProfissional('MG', { cidade: 'Belo Horizonte', uf: 'MG' }, [g.id, f.id]);
    const far = await makeProfissional('MG', { cidade: 'Lugar Nenhum', uf: 'MG' }, [f.id]);
    const order = async () =>
      (await ranking(admin.token, ev.id, f.id, '', 'MG')).candidatos.map((c) => c.profissional_id);
    const zero = {
      distancia: 0,
      avaliacao: 0,
      confiabilidade: 0,
      rodizio: 0,
      funcao: 0,
      preferencia: 0,
      responsividade: 0,
    };
    const put = (body: Record<string, number>) =>
      api('PUT', '/api/ranking/pesos', { token: admin.token, regiao: 'MG', body });
    try {
      expect((await put({ ...zero, distancia: 1 })).status).toBe(200);
      expect(await order()).toEqual([near.id, far.id]);
      expect((await put({ ...zero, funcao: 1 })).status).toBe(200);
      expect(await order()).toEqual([far.id, near.id]);
      const r = await ranking(admin.token, ev.id, f.id, '', 'MG');
      expect(r.pesos).toMatchObject({ funcao: 1, distancia: 0 });
      expect(r.candidatos[0]!.score).toBe(1);
      expect(r.candidatos[1]!.score).toBe(0.7);
    } finally {
      await put({
        distancia: 20,
        avaliacao: 20,
        confiabilidade: 25,
        rodizio: 15,
        funcao: 5,
        preferencia: 5,
        responsividade: 10,
      });
    }
  });

  it('ties: fewer recent jobs first, then a stable order seeded by the event', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const D = day(70);
    const ev = await makeEvento('SP', admin, { dataEvento: D });
    // Six holders with nothing to tell them apart: one score, no jobs.
    const pros = await Promise.all([1, 2, 3, 4, 5, 6].map(() => makeProfissional('SP', {}, [f.id])));
    const first = await ranking(admin.token, ev.id, f.id);
    const ids = first.candidatos.map((c) => c.profissional_id);
    expect(new Set(first.candidatos.map((c) => c.score)).size).toBe(1);
    // Stable: the same answer again and again.
    for (let i = 0; i < 3; i++)
      expect((await ranking(admin.token, ev.id, f.id)).candidatos.map((c) => c.profissional_id)).toEqual(ids);
    // The seed: the first 7 hex digits of the professional's id XOR the event's.
    const seed = (id: string) => parseInt(id.slice(0, 7), 16) ^ parseInt(ev.id.slice(0, 7), 16);
    expect(ids).toEqual([...pros.map((p) => p.id)].sort((x, y) => seed(x) - seed(y) || x.localeCompare(y)));
    // Another event with the same people: its own order (same seed rule).
    const ev2 = await makeEvento('SP', admin, { dataEvento: D });
    const seed2 = (id: string) => parseInt(id.slice(0, 7), 16) ^ parseInt(ev2.id.slice(0, 7), 16);
    expect((await ranking(admin.token, ev2.id, f.id)).candidatos.map((c) => c.profissional_id)).toEqual(
      [...pros.map((p) => p.id)].sort((x, y) => seed2(x) - seed2(y) || x.localeCompare(y)),
    );
    // limit.
    expect((await ranking(admin.token, ev.id, f.id, '&limit=2')).candidatos.map((c) => c.profissional_id)).toEqual(
      ids.slice(0, 2),
    );
  });

  it('equal scores: fewer jobs in the 30 days before the event first', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao('MG');
    const D = day(75);
    const ev = await makeEvento('MG', admin, { dataEvento: D });
    // Jobs 0, 1 and 2: mean 1, so rodizio is 1, 1 and 0.5; the two at 1 tie on score.
    const [p0, p1, p2] = await Promise.all([0, 1, 2].map(() => makeProfissional('MG', {}, [f.id])));
    for (const [p, n] of [
      [p1!, 1],
      [p2!, 2],
    ] as const)
      for (let i = 0; i < n; i++) {
        const past = await makeEvento('MG', admin, { dataEvento: day(70 - i) });
        await db.insert(convites).values({ agendaId: past.id, profissionalId: p.id, funcaoId: f.id, status: 'aceito' });
      }
    const r = await ranking(admin.token, ev.id, f.id, '', 'MG');
    expect(r.candidatos.map((c) => c.profissional_id)).toEqual([p0!.id, p1!.id, p2!.id]);
    expect(r.candidatos[0]!.score).toBe(r.candidatos[1]!.score);
    expect(r.candidatos.map((c) => c.trabalhos_30d)).toEqual([0, 1, 2]);
  });
});
