/**
 * GET /api/planejamento/capacidade (docs/decisions.md#d26): hand-computed figures through HTTP on
 * the real D1. Each test makes its own functions (the function rows are its own) and uses its own
 * days of 2040 (the equipment rows count the whole region's events of a day).
 */
import { describe, expect, it } from 'vitest';
import { agendaEquipe, deslocamentos, disponibilidades, regras } from '../../../src/db/schema';
import {
  db,
  makeAdmin,
  makeConvite,
  makeEvento,
  makeFuncao,
  makeProfissional,
  makeUser,
  uniq,
} from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import { keptColumnsAfterAll } from '../../helpers/kept-columns';
import { makeInstituicao } from '../../helpers/rules';

const FLORIANOPOLIS = 4205407;
const JOINVILLE = 4209102;

type Linha = Record<string, any> & { periodo: string; funcao_id: string | null; recurso: string | null };

async function planner() {
  const admin = await makeAdmin();
  const get = (q: string, headers?: Record<string, string>) =>
    api('GET', `/api/planejamento/capacidade?${q}`, { token: admin.token, headers });
  const rowOf = async (q: string, periodo: string, key: string) => {
    const res = await get(q);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.linhas as Linha[]).find((l) => l.periodo === periodo && (l.funcao_id ?? l.recurso) === key)!;
  };
  return { admin, get, rowOf };
}

/** `n` listed holders of `funcaoId` (and of `more`). */
const holders = (funcaoId: string, n: number, more: string[] = []) =>
  Promise.all(Array.from({ length: n }, () => makeProfissional('SP', {}, [funcaoId, ...more])));

/** An event with its hours, city and team quotas. */
async function evento(
  data: string,
  horas: [string | null, string | null],
  quotas: Record<string, number>,
  over: Parameters<typeof makeEvento>[2] = {},
) {
  const e = await makeEvento('SP', null, { dataEvento: data, horario: horas[0], horarioFim: horas[1], ...over });
  const rows = Object.entries(quotas).map(([funcaoId, quantidade]) => ({ agendaId: e.id, funcaoId, quantidade }));
  if (rows.length) await db.insert(agendaEquipe).values(rows);
  return e;
}

const indisponivel = (
  profissionalId: string,
  dataInicio: string,
  over: Partial<typeof disponibilidades.$inferInsert> = {},
) =>
  db.insert(disponibilidades).values({
    profissionalId,
    tipo: 'indisponivel',
    dataInicio,
    dataFim: dataInicio,
    origem: 'profissional',
    ...over,
  });

keptColumnsAfterAll();
describe('demanda_pico through the planner', () => {
  it('two events of one class share people only when travel allows; three overlapping events do not', async () => {
    const { rowOf } = await planner();
    const f = await makeFuncao('SP', uniq('Garçom'));
    await holders(f.id, 10);
    // The matrix: Florianópolis to Joinville, 180 minutes (+ the 30-minute margin).
    await db
      .insert(deslocamentos)
      .values({ regiao: 'SP', origemIbge: FLORIANOPOLIS, destinoIbge: JOINVILLE, minutos: 180 })
      .onConflictDoUpdate({
        target: [deslocamentos.regiao, deslocamentos.origemIbge, deslocamentos.destinoIbge],
        set: { minutos: 180 },
      });
    const floripa = { cidadeIbge: FLORIANOPOLIS };
    // 2040-03-05: colação 14:00-17:00 (3) and baile 22:00-04:00 (4), both in Florianópolis: 17:00 + 40 + 30 <= 22:00.
    const colacao = await evento('2040-03-05', ['14:00', '17:00'], { [f.id]: 3 }, floripa);
    const baile = await evento('2040-03-05', ['22:00', '04:00'], { [f.id]: 4 }, floripa);
    // 2040-03-06: the baile in Joinville at 19:30: 17:00 + 180 + 30 = 20:30 > 19:30, nobody shared.
    await evento('2040-03-06', ['14:00', '17:00'], { [f.id]: 3 }, floripa);
    await evento('2040-03-06', ['19:30', '23:30'], { [f.id]: 4 }, { cidadeIbge: JOINVILLE });
    // 2040-03-07: three overlapping events.
    await evento('2040-03-07', ['18:00', '22:00'], { [f.id]: 2 });
    await evento('2040-03-07', ['19:00', '23:00'], { [f.id]: 3 });
    await evento('2040-03-07', ['21:00', '02:00'], { [f.id]: 4 });
    const q = `de=2040-03-05&ate=2040-03-08&funcao_id=${f.id}`;

    expect(await rowOf(q, '2040-03-05', f.id)).toEqual({
      periodo: '2040-03-05',
      dia_critico: '2040-03-05',
      tipo: 'funcao',
      funcao_id: f.id,
      recurso: null,
      nome: f.label,
      demanda_confirmada: 7,
      demanda_regras: 0,
      demanda_pico: 4,
      pool: 10,
      indisponiveis: 0,
      ja_alocados: 0,
      oferta_livre: 10,
      deficit: 0,
      status: 'coberto',
      eventos: [colacao.id, baile.id],
    });
    expect(await rowOf(q, '2040-03-06', f.id)).toMatchObject({
      demanda_confirmada: 7,
      demanda_pico: 7,
      status: 'coberto',
    });
    // 9 needed, 10 free: under 120% (10.8) is atencao.
    expect(await rowOf(q, '2040-03-07', f.id)).toMatchObject({
      demanda_confirmada: 9,
      demanda_pico: 9,
      status: 'atencao',
    });
    // A day without events: no demand, covered.
    expect(await rowOf(q, '2040-03-08', f.id)).toMatchObject({
      demanda_confirmada: 0,
      demanda_pico: 0,
      deficit: 0,
      status: 'coberto',
      eventos: [],
    });
  });

  it("an event's legacy head count stands in where it has no quota for the function", async () => {
    const { rowOf } = await planner();
    const foto = await makeFuncao('SP', uniq('Fotógrafo'));
    await evento('2040-03-12', ['10:00', '12:00'], {}, { qtdFotografos: 2 });
    // A quota set wins over the head count.
    await evento('2040-03-12', ['10:00', '12:00'], { [foto.id]: 1 }, { qtdFotografos: 5 });
    const row = await rowOf(`de=2040-03-12&ate=2040-03-12&funcao_id=${foto.id}`, '2040-03-12', foto.id);
    expect(row).toMatchObject({ demanda_confirmada: 3, demanda_pico: 3, pool: 0, deficit: 3, status: 'deficit' });
  });
});

describe("D25's minimum quotas (demanda_regras)", () => {
  it("size an institution's events with no quota nor head count, by the rules in force on their date", async () => {
    const { rowOf, get } = await planner();
    const f = await makeFuncao('SP', uniq('Garçom'));
    await holders(f.id, 2);
    const [ufsc, other] = [await makeInstituicao('SP'), await makeInstituicao('SP')];
    const minimo = (por_formandos: number) => ({
      funcao_id: f.id,
      por_formandos,
      arredondar: 'cima',
      limite: 'minimo',
    });
    const definicao = (quotas: object[]) => JSON.stringify({ quotas, prazos: [], taxas: [], documentos: [] });
    await db.insert(regras).values([
      // The company's standard: one per 10 graduates.
      {
        regiao: 'SP',
        nome: uniq('Padrão'),
        escopo: 'empresa',
        vigenciaInicio: '2040-01-01',
        definicao: definicao([minimo(10)]),
      },
      // The institution's, from 2040: one per 20, which replaces the company's for its events.
      {
        regiao: 'SP',
        nome: uniq('UFSC'),
        escopo: 'instituicao',
        instituicaoId: ufsc.id,
        vigenciaInicio: '2040-01-01',
        definicao: definicao([minimo(20)]),
      },
      // Its version before 2040 (one per graduate) is not in force on the events' dates.
      {
        regiao: 'SP',
        nome: uniq('UFSC'),
        escopo: 'instituicao',
        instituicaoId: ufsc.id,
        vigenciaInicio: '2030-01-01',
        vigenciaFim: '2039-12-31',
        definicao: definicao([minimo(1)]),
      },
    ]);
    const of = (inst: { id: string }, qtdFormandos: number | null) => ({
      qtdFormandos,
      fot: { instituicaoId: inst.id },
    });
    // The 24th: the institution's evening event with no quota: ceil(57 / 20) = 3.
    const noQuota = await evento('2040-04-24', ['19:00', '23:00'], {}, of(ufsc, 57));
    // Its morning event has its own quota (1): the rule (ceil(200 / 20) = 10) does not count.
    const own = await evento('2040-04-24', ['10:00', '12:00'], { [f.id]: 1 }, of(ufsc, 200));
    // Without qtd_formandos the rule cannot size it.
    const unsized = await evento('2040-04-24', ['14:00', '16:00'], {}, of(ufsc, null));
    // The 25th: another institution's event takes the company's rule: ceil(57 / 10) = 6.
    const company = await evento('2040-04-25', ['19:00', '23:00'], {}, of(other, 57));
    const q = `de=2040-04-24&ate=2040-04-25&funcao_id=${f.id}`;

    // The morning's 1 and the evening's 3 do not overlap (no city: only overlap counts): a peak of 3
    // against 2 free.
    const day = await rowOf(q, '2040-04-24', f.id);
    expect(day).toMatchObject({
      demanda_confirmada: 1,
      demanda_regras: 3,
      demanda_pico: 3,
      pool: 2,
      oferta_livre: 2,
      deficit: 1,
      status: 'deficit',
    });
    expect(day.eventos.sort()).toEqual([noQuota.id, own.id].sort());
    expect(day.eventos).not.toContain(unsized.id);
    expect(await rowOf(q, '2040-04-25', f.id)).toMatchObject({
      demanda_confirmada: 0,
      demanda_regras: 6,
      demanda_pico: 6,
      deficit: 4,
      eventos: [company.id],
    });
    // A week sums it like the confirmed demand (Monday the 23rd).
    const week = await get(`${q}&agrupar=semana`);
    expect(week.body.linhas).toEqual([
      expect.objectContaining({ periodo: '2040-04-23', dia_critico: '2040-04-25', demanda_regras: 9, demanda_pico: 6 }),
    ]);
  });

  it('a cap alone asks for nobody, and it lowers a minimum above it', async () => {
    const { rowOf } = await planner();
    const [f, g] = [await makeFuncao('SP', uniq('Garçom')), await makeFuncao('SP', uniq('Segurança'))];
    const inst = await makeInstituicao('SP');
    const quota = (funcao_id: string, por_formandos: number, limite: string) => ({
      funcao_id,
      por_formandos,
      arredondar: 'cima',
      limite,
    });
    const definicao = (quotas: object[]) => JSON.stringify({ quotas, prazos: [], taxas: [], documentos: [] });
    await db.insert(regras).values([
      // The company wants ceil(57 / 10) = 6 of f (a version from the event's day: one version a day per layer,
      // and the test above keeps the one of 2040-01-01).
      {
        regiao: 'SP',
        nome: uniq('Padrão'),
        escopo: 'empresa',
        vigenciaInicio: '2040-04-26',
        definicao: definicao([quota(f.id, 10, 'minimo')]),
      },
      // The institution caps f at ceil(57 / 20) = 3 and g at ceil(57 / 30) = 2.
      {
        regiao: 'SP',
        nome: uniq('UFSC'),
        escopo: 'instituicao',
        instituicaoId: inst.id,
        vigenciaInicio: '2040-04-26',
        definicao: definicao([quota(f.id, 20, 'maximo'), quota(g.id, 30, 'maximo')]),
      },
    ]);
    await evento('2040-04-26', ['19:00', '23:00'], {}, { qtdFormandos: 57, fot: { instituicaoId: inst.id } });
    const q = 'de=2040-04-26&ate=2040-04-26';
    expect(await rowOf(q, '2040-04-26', f.id)).toMatchObject({ demanda_regras: 3, demanda_pico: 3 });
    expect(await rowOf(q, '2040-04-26', g.id)).toMatchObject({ demanda_regras: 0, demanda_pico: 0, eventos: [] });
  });
});

describe('supply: availability and accepted invitations', () => {
  it("subtracts the holders unavailable during the day's windows (any hour on a day without events)", async () => {
    const { rowOf } = await planner();
    const f = await makeFuncao('SP', uniq('Garçom'));
    const [h1, h2, h3, h4, h5] = await holders(f.id, 6);
    // Thursday 2040-03-15, an evening event needing 3; the Wednesday before, a baile past midnight.
    await evento('2040-03-15', ['20:00', '23:00'], { [f.id]: 3 });
    await evento('2040-03-14', ['22:00', '03:00'], { [f.id]: 1 });
    await indisponivel(h1!.id, '2040-03-15'); // the whole day: meets
    await indisponivel(h2!.id, '2040-03-15', { horaInicio: '08:00', horaFim: '12:00' }); // the morning only: free at night
    // Every Thursday of March: meets (bit 4).
    await indisponivel(h3!.id, '2040-03-01', { dataFim: '2040-03-31', diasSemana: 1 << 4 });
    // 00:00-02:00 on the 15th: the 14th's baile reaches into it; the 15th's evening does not.
    await indisponivel(h4!.id, '2040-03-15', { horaInicio: '00:00', horaFim: '02:00' });
    // Friday 16th has no event: any hour counts.
    await indisponivel(h5!.id, '2040-03-16', { horaInicio: '09:00', horaFim: '10:00' });
    // A preferential declaration is not an unavailability.
    await indisponivel(h1!.id, '2040-03-16', { tipo: 'preferencial' });
    const q = `de=2040-03-14&ate=2040-03-16&funcao_id=${f.id}`;

    // 6 holders, h1 and h3 out: 4 free for 3, at least 120% of it: covered.
    expect(await rowOf(q, '2040-03-15', f.id)).toMatchObject({
      demanda_pico: 3,
      pool: 6,
      indisponiveis: 2,
      oferta_livre: 4,
      deficit: 0,
      status: 'coberto',
    });
    // The 14th's baile runs to 03:00 on the 15th: h1 (all the 15th), h3 (Thursdays) and h4 (00:00-02:00) meet it.
    expect(await rowOf(q, '2040-03-14', f.id)).toMatchObject({ indisponiveis: 3, oferta_livre: 3 });
    expect(await rowOf(q, '2040-03-16', f.id)).toMatchObject({ demanda_pico: 0, indisponiveis: 1, oferta_livre: 5 });
  });

  it('counts the accepted as allocated, and a holder accepted elsewhere that day as not free', async () => {
    const { rowOf } = await planner();
    const f = await makeFuncao('SP', uniq('Garçom'));
    const g = await makeFuncao('SP', uniq('Segurança'));
    const [both] = await holders(f.id, 1, [g.id]);
    const [h2, h3, h4] = await holders(f.id, 3);
    const e1 = await evento('2040-03-19', ['19:00', '23:00'], { [f.id]: 3 });
    const e2 = await evento('2040-03-19', ['09:00', '11:00'], { [g.id]: 1 });
    await makeConvite(e1.id, { prof: h2!, funcaoId: f.id }, 'aceito');
    await makeConvite(e2.id, { prof: both!, funcaoId: g.id }, 'aceito');
    // Pending and declined invitations take no place.
    await makeConvite(e1.id, { prof: h3!, funcaoId: f.id }, 'pendente');
    await makeConvite(e1.id, { prof: h4!, funcaoId: f.id }, 'recusado');
    const q = `de=2040-03-19&ate=2040-03-19`;
    // F: 4 holders; h2 accepted for it (allocated), `both` busy as G: 2 free for the 2 still open.
    expect(await rowOf(q, '2040-03-19', f.id)).toMatchObject({
      demanda_pico: 3,
      pool: 4,
      ja_alocados: 1,
      oferta_livre: 2,
      deficit: 0,
      status: 'atencao',
    });
    expect(await rowOf(q, '2040-03-19', g.id)).toMatchObject({
      demanda_pico: 1,
      pool: 1,
      ja_alocados: 1,
      oferta_livre: 0,
      deficit: 0,
    });
  });

  it('a deficit: more needed than free', async () => {
    const { rowOf } = await planner();
    const f = await makeFuncao('SP', uniq('Garçom'));
    await holders(f.id, 4);
    await evento('2040-03-20', ['19:00', '23:00'], { [f.id]: 6 });
    expect(await rowOf(`de=2040-03-20&ate=2040-03-20&funcao_id=${f.id}`, '2040-03-20', f.id)).toMatchObject({
      demanda_pico: 6,
      oferta_livre: 4,
      deficit: 2,
      status: 'deficit',
    });
  });
});

describe('periods, equipment, CSV', () => {
  it('a week: demand summed, the largest peak, the worst day decides supply and status', async () => {
    const { get } = await planner();
    const f = await makeFuncao('SP', uniq('Garçom'));
    await holders(f.id, 5);
    const a = await evento('2040-03-26', ['10:00', '12:00'], { [f.id]: 2 });
    const b = await evento('2040-03-28', ['10:00', '12:00'], { [f.id]: 7 });
    const c = await evento('2040-04-02', ['10:00', '12:00'], { [f.id]: 1 });
    const res = await get(`de=2040-03-27&ate=2040-04-03&funcao_id=${f.id}&agrupar=semana`);
    expect(res.status).toBe(200);
    expect(res.body.agrupar).toBe('semana');
    // The 26th is outside the range: the first week starts on its Monday but counts the 27th on.
    expect(res.body.linhas).toHaveLength(2);
    const [w1, w2] = res.body.linhas as Linha[];
    expect(w1).toMatchObject({
      periodo: '2040-03-26',
      dia_critico: '2040-03-28',
      demanda_confirmada: 7,
      demanda_pico: 7,
      oferta_livre: 5,
      deficit: 2,
      status: 'deficit',
      eventos: [b.id],
    });
    expect(w2).toMatchObject({
      periodo: '2040-04-02',
      dia_critico: '2040-04-02',
      demanda_pico: 1,
      deficit: 0,
      eventos: [c.id],
    });
    expect(w1!.eventos).not.toContain(a.id);
  });

  it("a week before year 0000's first Monday is named by the calendar's first day (found by the fuzzer: it was -0001-12-27)", async () => {
    const { get } = await planner();
    const f = await makeFuncao('SP', uniq('Garçom'));
    const res = await get(`de=0000-01-01&ate=0000-01-04&funcao_id=${f.id}&agrupar=semana`);
    expect(res.status).toBe(200);
    expect((res.body.linhas as Linha[]).map((l) => l.periodo)).toEqual(['0000-01-01', '0000-01-03']);
  });

  it("equipment: the stock plus professionals' studios; studios of an unavailable owner do not count", async () => {
    const { admin, rowOf } = await planner();
    const put = await api('PUT', '/api/equipamentos', {
      token: admin.token,
      body: { itens: [{ recurso: 'qtd_plataforma_360', quantidade: 1 }] },
    });
    expect(put.status).toBe(200);
    const owner = await makeProfissional('SP', { temEstudio: true, qtdEstudio: 2 });
    const e = await evento('2040-04-10', ['19:00', '23:00'], {}, { qtdPlataforma360: 2, qtdEstudios: 1 });
    const q = 'de=2040-04-10&ate=2040-04-11';
    const stock = (await api('GET', '/api/equipamentos', { token: admin.token })).body as Record<string, any>[];
    const studios = stock.find((s) => s.recurso === 'qtd_estudios')!;
    expect(studios.de_profissionais).toBeGreaterThanOrEqual(2);

    expect(await rowOf(q, '2040-04-10', 'qtd_plataforma_360')).toMatchObject({
      tipo: 'equipamento',
      funcao_id: null,
      nome: 'Plataformas 360',
      demanda_confirmada: 2,
      demanda_pico: 2,
      pool: 1,
      oferta_livre: 1,
      deficit: 1,
      status: 'deficit',
      eventos: [e.id],
    });
    expect(await rowOf(q, '2040-04-10', 'qtd_estudios')).toMatchObject({ pool: studios.total, indisponiveis: 0 });
    // The owner unavailable on the 11th (no studio event that day: any hour counts).
    await indisponivel(owner.id, '2040-04-11', { horaInicio: '08:00', horaFim: '09:00' });
    expect(await rowOf(q, '2040-04-11', 'qtd_estudios')).toMatchObject({
      pool: studios.total,
      indisponiveis: 2,
      oferta_livre: studios.total - 2,
    });
    // Asked for one function: no equipment rows.
    const f = await makeFuncao('SP', uniq('Garçom'));
    const only = await api('GET', `/api/planejamento/capacidade?${q}&funcao_id=${f.id}`, { token: admin.token });
    expect((only.body.linhas as Linha[]).map((l) => l.tipo)).toEqual(['funcao', 'funcao']);
  });

  it('Accept: text/csv answers the same rows, formula-escaped', async () => {
    const { get } = await planner();
    const f = await makeFuncao('SP', `=HYPERLINK("x") ${uniq('f')}`);
    await evento('2040-04-16', ['10:00', '12:00'], { [f.id]: 2 });
    const q = `de=2040-04-16&ate=2040-04-17&funcao_id=${f.id}`;
    const json = await get(q);
    const csv = await get(q, { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (csv.body as string)
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'periodo;dia_critico;tipo;funcao_id;recurso;nome;demanda_confirmada;demanda_regras;demanda_pico;pool;indisponiveis;ja_alocados;oferta_livre;deficit;status;eventos',
    );
    expect(lines).toHaveLength(1 + json.body.linhas.length);
    const first = json.body.linhas[0] as Linha;
    expect(lines[1]).toBe(
      [
        '2040-04-16',
        '2040-04-16',
        'funcao',
        f.id,
        '',
        `"'${f.label.replace(/"/g, '""')}"`,
        2,
        0,
        2,
        0,
        0,
        0,
        0,
        2,
        'deficit',
        first.eventos[0],
      ].join(';'),
    );
  });
});

describe('errors and access', () => {
  it('refuses a bad range, a function of another region, and non-administrators', async () => {
    const { admin, get } = await planner();
    expectError(await get('de=2040-05-02&ate=2040-05-01'), 400, 'VALIDATION_FAILED');
    // 121 days.
    expectError(await get('de=2040-01-01&ate=2040-04-30'), 400, 'VALIDATION_FAILED');
    expect((await get('de=2040-01-01&ate=2040-04-29')).status).toBe(200);
    expectError(await get('ate=2040-05-01'), 400, 'VALIDATION_FAILED');
    expectError(await get('de=2040-05-01&ate=2040-05-01&agrupar=mes'), 400, 'VALIDATION_FAILED');
    const mg = await makeFuncao('MG', uniq('Garçom'));
    expectError(await get(`de=2040-05-01&ate=2040-05-01&funcao_id=${mg.id}`), 404, 'NOT_FOUND');
    expectError(await get(`de=2040-05-01&ate=2040-05-01&funcao_id=${UNKNOWN_ID}`), 404, 'NOT_FOUND');
    for (const role of ['agenda_viewer', 'profissional'] as const) {
      const u = await makeUser({ role });
      expectError(
        await api('GET', '/api/planejamento/capacidade?de=2040-05-01&ate=2040-05-01', { token: u.token }),
        403,
        'FORBIDDEN',
      );
    }
    // The same region's answer from MG is MG's (its functions only).
    const res = await api('GET', `/api/planejamento/capacidade?de=2040-05-01&ate=2040-05-01&funcao_id=${mg.id}`, {
      token: admin.token,
      regiao: 'MG',
    });
    expect(res.status).toBe(200);
    expect(res.body.linhas).toHaveLength(1);
  });

  it('answers in one round trip after the caller check, whatever the range', async () => {
    const { admin } = await planner();
    for (const q of ['de=2040-05-01&ate=2040-05-01', 'de=2040-05-01&ate=2040-08-28&agrupar=semana']) {
      const res = await api('GET', `/api/planejamento/capacidade?${q}`, { token: admin.token, countQueries: true });
      expect(res.status).toBe(200);
      expect(res.roundTrips).toBe(2);
    }
  });
});
