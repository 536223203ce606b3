/** GET/PUT /api/equipamentos (docs/decisions.md#d26): the stock the planner counts, and the studios professionals bring. */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { estoqueEquipamentos } from '../../../src/db/schema';
import { entriesOf } from '../../helpers/activity-log';
import { db, makeAdmin, makeProfissional, makeUser } from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';

const rowOf = (regiao: string, recurso: 'qtd_estudios' | 'qtd_pontos_led') =>
  db
    .select()
    .from(estoqueEquipamentos)
    .where(and(eq(estoqueEquipamentos.regiao, regiao), eq(estoqueEquipamentos.recurso, recurso)));

describe('/api/equipamentos', () => {
  it("lists every resource: the stock, and the studios of the region's active professionals", async () => {
    const admin = await makeAdmin();
    const get = async (regiao = 'SP') =>
      (await api('GET', '/api/equipamentos', { token: admin.token, regiao })).body as Record<string, any>[];
    const before = await get();
    expect(before.map((i) => i.recurso)).toEqual([
      'qtd_estudios',
      'qtd_ponto_foto',
      'qtd_ponto_id',
      'qtd_ponto_decorado',
      'qtd_pontos_led',
      'qtd_plataforma_360',
    ]);
    const studiosBefore = before[0]!.de_profissionais as number;
    // Counted: 2, and 1 (a studio and no number). Not: no studio; an inactive login (not listed); another region.
    await makeProfissional('SP', { temEstudio: true, qtdEstudio: 2 });
    await makeProfissional('SP', { temEstudio: true, qtdEstudio: null });
    await makeProfissional('SP', { temEstudio: false, qtdEstudio: 3 });
    const gone = await makeUser({ role: 'profissional', ativo: false });
    await makeProfissional('SP', { temEstudio: true, qtdEstudio: 5, usuarioId: gone.id });
    await makeProfissional('MG', { temEstudio: true, qtdEstudio: 4 });
    const after = await get();
    expect(after[0]).toMatchObject({ nome: 'Estúdios', de_profissionais: studiosBefore + 3 });
    expect(after[0]!.total).toBe(after[0]!.estoque + after[0]!.de_profissionais);
    expect(after.slice(1).every((i) => i.de_profissionais === 0)).toBe(true);
  });

  it('sets the resources sent, keeps the others, logs each change, and keeps regions apart', async () => {
    const admin = await makeAdmin();
    const put = (itens: unknown, regiao = 'SP') =>
      api('PUT', '/api/equipamentos', { token: admin.token, regiao, body: { itens } });
    const first = await put([
      { recurso: 'qtd_estudios', quantidade: 3 },
      { recurso: 'qtd_pontos_led', quantidade: 6 },
    ]);
    expect(first.status).toBe(200);
    const byRecurso = (body: Record<string, any>[]) => Object.fromEntries(body.map((i) => [i.recurso, i]));
    expect(byRecurso(first.body).qtd_estudios).toMatchObject({ estoque: 3 });
    expect(byRecurso(first.body).qtd_pontos_led).toMatchObject({ estoque: 6, total: 6 });
    expect(byRecurso(first.body).qtd_pontos_led.updated_at).toEqual(expect.any(String));
    expect(byRecurso(first.body).qtd_ponto_id).toMatchObject({ estoque: 0, updated_at: null });

    const second = await put([{ recurso: 'qtd_pontos_led', quantidade: 2 }]);
    expect(byRecurso(second.body).qtd_pontos_led).toMatchObject({ estoque: 2 });
    expect(byRecurso(second.body).qtd_estudios).toMatchObject({ estoque: 3 });

    const [led] = await rowOf('SP', 'qtd_pontos_led');
    const entries = await entriesOf(led!.id, 'equipamentos.save');
    // Newest first.
    expect(entries.map((e) => e.dados)).toEqual([
      { recurso: { depois: 'qtd_pontos_led' }, quantidade: { antes: 6, depois: 2 } },
      { recurso: { depois: 'qtd_pontos_led' }, quantidade: { antes: null, depois: 6 } },
    ]);
    expect(entries.every((e) => e.regiao === 'SP')).toBe(true);

    // MG's stock is its own.
    const mg = await api('GET', '/api/equipamentos', { token: admin.token, regiao: 'MG' });
    expect(byRecurso(mg.body).qtd_pontos_led.estoque).toBe(0);
  });

  it('refuses a repeated, unknown or negative resource, and an empty list, writing nothing', async () => {
    const admin = await makeAdmin();
    const put = (itens: unknown) =>
      api('PUT', '/api/equipamentos', { token: admin.token, regiao: 'MG', body: { itens } });
    for (const itens of [
      [
        { recurso: 'qtd_estudios', quantidade: 1 },
        { recurso: 'qtd_estudios', quantidade: 2 },
      ],
      [{ recurso: 'qtd_drones', quantidade: 1 }],
      [{ recurso: 'qtd_estudios', quantidade: -1 }],
      [{ recurso: 'qtd_estudios', quantidade: 1.5 }],
      [],
    ])
      expectError(await put(itens), 400, 'VALIDATION_FAILED');
    expect(await rowOf('MG', 'qtd_estudios')).toEqual([]);
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(await api('GET', '/api/equipamentos', { token: viewer.token }), 403, 'FORBIDDEN');
  });

  it('parallel changes of one resource leave one row, with one of the values sent', async () => {
    const admin = await makeAdmin();
    const values = [1, 2, 3, 4, 5];
    const results = await Promise.all(
      values.map((quantidade) =>
        api('PUT', '/api/equipamentos', {
          token: admin.token,
          regiao: 'MG',
          body: { itens: [{ recurso: 'qtd_pontos_led', quantidade }] },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const rows = await rowOf('MG', 'qtd_pontos_led');
    expect(rows).toHaveLength(1);
    expect(values).toContain(rows[0]!.quantidade);
    expect(await entriesOf(rows[0]!.id, 'equipamentos.save')).toHaveLength(5);
  });
});
