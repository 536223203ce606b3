import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  agenda,
  categoriasFinanceiras,
  convites,
  funcoes,
  lancamentos,
  logsAtividade,
  tiposEventos,
} from '../../../src/db/schema';
import {
  cancelarStatements,
  ensureSystemCategories,
  entryInsert,
  estornoStatements,
  feeOnAccept,
  feeOnCancel,
  pagarStatements,
} from '../../../src/services/money/financeiro';
import { db, makeCatalog, makeFot, makePreco, makeProfissional, uniq } from '../../helpers/factories';

/** The batchable builders other aggregates (orders, imports) put in their own batches. */
const log = { atorId: null, atorRole: null, requestId: 'test' };
const run = (stmts: readonly unknown[]) => db.batch(stmts as never);

describe('finance builders', () => {
  it('the migration seeded the system categories of the known regions', async () => {
    const rows = await db.select().from(categoriasFinanceiras).where(eq(categoriasFinanceiras.regiao, 'MG'));
    expect(
      rows
        .filter((r) => r.sistema)
        .map((r) => r.label)
        .sort(),
    ).toEqual(
      [
        'Cachê profissional',
        'Captação',
        'Contrato',
        'Equipamento',
        'Logística',
        'Pacotes de fotos',
        'Taxa de instituição',
      ].sort(),
    );
  });

  it('ensureSystemCategories creates them once for a new region', async () => {
    const regiao = uniq('R').toUpperCase();
    await run([ensureSystemCategories(db, regiao), ensureSystemCategories(db, regiao)]);
    const rows = await db.select().from(categoriasFinanceiras).where(eq(categoriasFinanceiras.regiao, regiao));
    expect(rows).toHaveLength(7);
  });

  it('entryInsert by system key, pagar once, estorno with exactly one mirror, all logged', async () => {
    const regiao = uniq('R').toUpperCase();
    const chave = uniq('pedido');
    const { id, statements } = entryInsert(
      { db, log },
      {
        regiao,
        tipo: 'receita',
        categoria: { sistema: 'pacotes_fotos' },
        descricao: 'Pedido 1',
        valorCentavos: 12345,
        vencimento: '2027-01-10',
        origem: 'pedido',
        chaveExterna: chave,
      },
    );
    await run(statements);
    const [row] = await db.select().from(lancamentos).where(eq(lancamentos.id, id));
    expect(row).toMatchObject({ status: 'previsto', valorCentavos: 12345, origem: 'pedido', chaveExterna: chave });

    const first = await run(pagarStatements({ db, log }, { id }, '2027-01-11'));
    const second = await run(pagarStatements({ db, log }, { id }, '2027-01-12'));
    expect((first[1] as D1Result).meta.changes).toBeGreaterThan(0); // its kept sums count too (drizzle/0035)
    expect((second[1] as D1Result).meta.changes).toBe(0);
    expect((await run(cancelarStatements({ db, log }, { id })))[1]).toMatchObject({ meta: { changes: 0 } });

    await Promise.all(
      Array.from({ length: 5 }, () => run(estornoStatements({ db, log }, { id }, '2027-02-01').statements)),
    );
    const mirrors = await db.select().from(lancamentos).where(eq(lancamentos.estornoDe, id));
    expect(mirrors).toHaveLength(1);
    expect(mirrors[0]).toMatchObject({
      tipo: 'despesa',
      valorCentavos: 12345,
      status: 'pago',
      origem: 'estorno',
      regiao,
    });
    const [orig] = await db.select().from(lancamentos).where(eq(lancamentos.id, id));
    expect(orig!.status).toBe('estornado');
    const logs = await db
      .select()
      .from(logsAtividade)
      .where(and(eq(logsAtividade.entidade, 'lancamentos'), eq(logsAtividade.regiao, regiao)));
    expect(logs.map((l) => l.acao).sort()).toEqual(
      ['lancamentos.create', 'lancamentos.create', 'lancamentos.estornar', 'lancamentos.pagar'].sort(),
    );
  });

  it('a duplicate chave_externa in a region fails the batch', async () => {
    const regiao = uniq('R').toUpperCase();
    const e = {
      regiao,
      tipo: 'receita' as const,
      categoria: { sistema: 'contrato' as const },
      descricao: 'x',
      valorCentavos: 100,
      vencimento: '2027-01-10',
      origem: 'importacao' as const,
      chaveExterna: 'k1',
    };
    await run(entryInsert({ db, log }, e).statements);
    await expect(run(entryInsert({ db, log }, e).statements)).rejects.toThrow();
    await run(entryInsert({ db, log }, { ...e, regiao: 'MG', chaveExterna: uniq('k') }).statements);
  });

  it('feeOnAccept: one fee at the price of the moment, none without a price; feeOnCancel cancels it', async () => {
    const regiao = uniq('R').toUpperCase();
    const fot = await makeFot(regiao);
    const tipo = await makeCatalog(tiposEventos, regiao);
    const funcao = await makeCatalog(funcoes, regiao);
    const semPreco = await makeCatalog(funcoes, regiao);
    await makePreco(tipo.id, funcao.id, { regiao, valorCentavos: 35_050 });
    const [ev] = await db
      .insert(agenda)
      .values({ regiao, fotId: fot.id, tipoEventoId: tipo.id, dataEvento: '2027-06-01' })
      .returning();
    const prof = await makeProfissional(regiao);
    const prof2 = await makeProfissional(regiao);
    const [cv] = await db
      .insert(convites)
      .values({ agendaId: ev!.id, profissionalId: prof.id, funcaoId: funcao.id, status: 'aceito' })
      .returning();
    const [cv2] = await db
      .insert(convites)
      .values({ agendaId: ev!.id, profissionalId: prof2.id, funcaoId: semPreco.id, status: 'aceito' })
      .returning();
    await Promise.all(Array.from({ length: 5 }, () => run(Object.values(feeOnAccept({ db, log }, cv!.id)))));
    await run(Object.values(feeOnAccept({ db, log }, cv2!.id)));
    const fees = await db.select().from(lancamentos).where(eq(lancamentos.agendaId, ev!.id));
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({
      regiao,
      tipo: 'despesa',
      origem: 'cache',
      status: 'previsto',
      valorCentavos: 35_050,
      vencimento: '2027-06-01',
      profissionalId: prof.id,
      fotId: fot.id,
      conviteId: cv!.id,
    });
    await run(Object.values(feeOnCancel({ db, log }, cv!.id)));
    const [after] = await db.select().from(lancamentos).where(eq(lancamentos.id, fees[0]!.id));
    expect(after!.status).toBe('cancelado');
    // accepted again: a new fee, the cancelled one stays
    await run(Object.values(feeOnAccept({ db, log }, cv!.id)));
    const again = await db.select().from(lancamentos).where(eq(lancamentos.conviteId, cv!.id));
    expect(again.map((f) => f.status).sort()).toEqual(['cancelado', 'previsto']);
  });
});
