import { and, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AplicacaoSchema } from '../../../src/routes/operations/regras-aplicar.schemas';
import {
  agenda,
  agendaEquipe,
  agendaLogistica,
  categoriasFinanceiras,
  lancamentos,
  regrasAplicacoes,
} from '../../../src/db/schema';
import { nameKey } from '../../../src/lib/names';
import {
  db,
  makeAdmin,
  makeEvento,
  makeFuncao,
  makeUser,
  systemCategoryId,
  uniq,
  type TestUser,
} from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';
import { entriesOf } from '../../helpers/activity-log';
import { keptColumnsAfterAll, keptCountsAfterAll } from '../../helpers/kept-columns';
import { FLORIANOPOLIS, makeInstituicao } from '../../helpers/rules';

keptColumnsAfterAll();
keptCountsAfterAll();

let admin: TestUser;
let viewer: TestUser;
let foto: { id: string; label: string };

beforeAll(async () => {
  admin = await makeAdmin();
  viewer = await makeUser({ role: 'agenda_viewer' });
  foto = await makeFuncao('SP', uniq('Fotógrafo'));
});

async function ufscEvent(creator: TestUser = viewer) {
  const inst = await makeInstituicao();
  const rule = await api('POST', '/api/regras', {
    token: admin.token,
    body: {
      nome: 'UFSC 2011',
      escopo: 'instituicao',
      instituicao_id: inst.id,
      vigencia_inicio: '2011-01-01',
      definicao: {
        quotas: [
          { funcao_id: foto.id, por_formandos: 20, arredondar: 'cima', limite: 'maximo' },
          { recurso: 'qtd_estudios', por_formandos: 20, arredondar: 'cima', limite: 'maximo' },
        ],
        prazos: [{ tipo: 'credenciamento', quantidade: 5, unidade: 'dias_uteis', antes_de: 'data_evento' }],
        taxas: [
          { descricao: 'Credencial', por: 'profissional', valor: 50 },
          { descricao: 'Estúdio', por: 'estudio', valor: 200 },
        ],
        documentos: ['nome_completo', 'cpf'],
      },
    },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);
  return makeEvento('SP', creator, {
    dataEvento: '2027-02-12',
    qtdFormandos: 57,
    cidadeIbge: FLORIANOPOLIS,
    fot: { instituicaoId: inst.id },
  });
}

const aplicar = (id: string, key: string, token = viewer.token, regiao = 'SP') =>
  api('POST', `/api/agenda/${id}/regras/aplicar`, { token, regiao, headers: { 'idempotency-key': key } });

const feesOf = (agendaId: string) => db.select().from(lancamentos).where(eq(lancamentos.agendaId, agendaId));

describe('POST /api/agenda/{id}/regras/aplicar', () => {
  it('writes quotas, resources, the credential deadline and the fees in one batch; the fees enter the results', async () => {
    const ev = await ufscEvent();
    const res = await aplicar(ev.id, uniq('k'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(AplicacaoSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      agenda_id: ev.id,
      quotas: [{ funcao_id: foto.id, quantidade: 3 }],
      recursos: { qtd_estudios: 3 },
      prazo_credenciamento: '2027-02-03',
    });
    const [team] = await db.select().from(agendaEquipe).where(eq(agendaEquipe.agendaId, ev.id));
    expect(team).toMatchObject({ funcaoId: foto.id, quantidade: 3, publicar: false });
    const [event] = await db.select().from(agenda).where(eq(agenda.id, ev.id));
    expect(event!.qtdEstudios).toBe(3);
    const [sheet] = await db.select().from(agendaLogistica).where(eq(agendaLogistica.agendaId, ev.id));
    expect(sheet).toMatchObject({ prazoCredenciamento: '2027-02-03', versao: 1 });
    const fees = await feesOf(ev.id);
    const categoria = await systemCategoryId('SP', 'taxa_instituicao');
    expect(fees.map((f) => [f.valorCentavos, f.status, f.tipo, f.categoriaId, f.origem, f.vencimento]).sort()).toEqual([
      [15000, 'previsto', 'despesa', categoria, 'regra', '2027-02-03'],
      [60000, 'previsto', 'despesa', categoria, 'regra', '2027-02-03'],
    ]);
    const result = await api('GET', `/api/financeiro/resultado?agenda_id=${ev.id}`, { token: admin.token });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(JSON.stringify(result.body)).toContain('Taxa de instituição');
    const classResult = await api('GET', `/api/financeiro/resultado?fot_id=${ev.fotId}`, { token: admin.token });
    expect(JSON.stringify(classResult.body)).toContain('Taxa de instituição');
    expect((await entriesOf(ev.id, 'agenda.regras_aplicar')).length).toBe(1);
    // The evaluation now sees the quotas as set: no conflict, fees per the team.
    const after = await api('GET', `/api/agenda/${ev.id}/regras`, { token: viewer.token });
    expect(after.body.conflitos).toEqual([]);
  });

  it('a key applied twice, or by five racing requests, writes once; the same key for another event is 409', async () => {
    const ev = await ufscEvent();
    const key = uniq('k');
    const first = await aplicar(ev.id, key);
    expect(first.status).toBe(201);
    const again = await aplicar(ev.id, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await feesOf(ev.id)).toHaveLength(2);

    const ev2 = await ufscEvent();
    const key2 = uniq('k');
    const racing = await Promise.all(Array.from({ length: 5 }, () => aplicar(ev2.id, key2)));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(racing.map((r) => r.body.aplicacao_id)).size).toBe(1);
    expect(await feesOf(ev2.id)).toHaveLength(2);
    expect(await db.select().from(regrasAplicacoes).where(eq(regrasAplicacoes.agendaId, ev2.id))).toHaveLength(1);
    expect((await entriesOf(ev2.id, 'agenda.regras_aplicar')).length).toBe(1);

    expectError(await aplicar(ev2.id, key), 409, 'IDEMPOTENCY_MISMATCH');
    // A new key after a change: quotas and the deadline follow, the fees stay written once.
    await db.update(agenda).set({ qtdFormandos: 90 }).where(eq(agenda.id, ev2.id));
    const redo = await aplicar(ev2.id, uniq('k'));
    expect(redo.status).toBe(201);
    expect(redo.body.quotas).toEqual([{ funcao_id: foto.id, quantidade: 5 }]);
    const fees = await db
      .select()
      .from(lancamentos)
      .where(and(eq(lancamentos.agendaId, ev2.id), like(lancamentos.chaveExterna, 'taxa:%')));
    expect(fees).toHaveLength(2);
  });

  it('refuses without a key (400), another region or creator (404), and roles that do not plan (403)', async () => {
    const ev = await ufscEvent();
    const none = await api('POST', `/api/agenda/${ev.id}/regras/aplicar`, {
      token: viewer.token,
      headers: { 'idempotency-key': null },
    });
    expectError(none, 400, 'VALIDATION_FAILED');
    expectError(await aplicar(ev.id, uniq('k'), admin.token, 'MG'), 404, 'NOT_FOUND');
    const other = await makeUser({ role: 'agenda_viewer' });
    expectError(await aplicar(ev.id, uniq('k'), other.token), 404, 'NOT_FOUND');
    const owner = await makeUser({ role: 'EVENT_OWNER' });
    expectError(await aplicar(ev.id, uniq('k'), owner.token), 403, 'FORBIDDEN');
    expect(await feesOf(ev.id)).toHaveLength(0);
  });
});

describe('POST /api/agenda/{id}/regras/aplicar: the system category Taxa de instituição', () => {
  /** A region of its own (configured after the migrations: no category of any kind yet). */
  const freshRegion = () => uniq('T').toUpperCase();
  const bindings = (regiao: string) => ({ REGIOES: `SP,MG,${regiao}` });

  async function feeEvent(regiao: string) {
    const inst = await makeInstituicao(regiao);
    const rule = await api('POST', '/api/regras', {
      token: admin.token,
      regiao,
      bindings: bindings(regiao),
      body: {
        nome: 'Credencial',
        escopo: 'instituicao',
        instituicao_id: inst.id,
        vigencia_inicio: '2011-01-01',
        definicao: { taxas: [{ descricao: 'Credencial', por: 'evento', valor: 80 }] },
      },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    return makeEvento(regiao, viewer, { dataEvento: '2027-02-12', fot: { instituicaoId: inst.id } });
  }
  const apply = (id: string, regiao: string) =>
    api('POST', `/api/agenda/${id}/regras/aplicar`, {
      token: viewer.token,
      regiao,
      bindings: bindings(regiao),
      headers: { 'idempotency-key': uniq('k') },
    });
  const categoriesOf = (regiao: string) =>
    db.select().from(categoriasFinanceiras).where(eq(categoriasFinanceiras.regiao, regiao));

  it("a region configured after the migration gets its system categories in the application's batch", async () => {
    const regiao = freshRegion();
    expect(await categoriesOf(regiao)).toEqual([]);
    const ev = await feeEvent(regiao);
    const res = await apply(ev.id, regiao);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const taxa = (await categoriesOf(regiao)).find((c) => c.sistema === 'taxa_instituicao');
    expect(taxa).toMatchObject({ label: 'Taxa de instituição', tipo: 'despesa' });
    expect((await feesOf(ev.id)).map((f) => [f.categoriaId, f.valorCentavos])).toEqual([[taxa!.id, 8000]]);
  });

  it('a user category already named "Taxa de instituição" (made before the migration) is left alone: 201, not 500', async () => {
    const regiao = freshRegion();
    // The state 0052 left where a region's user had taken the name: no system row, a user one.
    const [mine] = await db
      .insert(categoriasFinanceiras)
      .values({ regiao, label: 'Taxa de instituição', labelKey: nameKey('Taxa de instituição'), tipo: 'receita' })
      .returning();
    const ev = await feeEvent(regiao);
    const res = await apply(ev.id, regiao);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rows = await categoriesOf(regiao);
    const taxa = rows.find((c) => c.sistema === 'taxa_instituicao');
    expect(taxa).toMatchObject({ label: 'Taxa de instituição (sistema)', tipo: 'despesa' });
    expect(rows.find((c) => c.id === mine!.id)).toMatchObject({ label: 'Taxa de instituição', sistema: null });
    expect((await feesOf(ev.id)).map((f) => [f.categoriaId, f.valorCentavos])).toEqual([[taxa!.id, 8000]]);
    // The finance page lists both, each under its own name.
    const list = await api('GET', '/api/financeiro/categorias', {
      token: admin.token,
      regiao,
      bindings: bindings(regiao),
    });
    expect(list.status).toBe(200);
    expect(
      list.body
        .filter((c: any) => c.nome.startsWith('Taxa de instituição'))
        .map((c: any) => [c.nome, c.sistema])
        .sort(),
    ).toEqual([
      ['Taxa de instituição (sistema)', true],
      ['Taxa de instituição', false],
    ]);
  });

  it("the categories API refuses a system category's name (409), in a region with or without its system rows", async () => {
    for (const regiao of ['SP', freshRegion()])
      for (const nome of ['Taxa de instituição', 'taxa de instituição (sistema)', ' CONTRATO '])
        expectError(
          await api('POST', '/api/financeiro/categorias', {
            token: admin.token,
            regiao,
            bindings: bindings(regiao),
            body: { nome, tipo: 'despesa' },
          }),
          409,
          'CONFLICT',
        );
  });
});
