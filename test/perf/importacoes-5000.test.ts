// A 5,000-line file (the D20 maximum) validated and applied through HTTP: the apply is one batch of
// set-based statements whatever the number of lines (docs/guide/imports.md reports the times).
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/db/schema';
import { db, makeAdmin, makeCatalog, makeFot, uniq } from '../helpers/factories';
import { api } from '../helpers/request';

const LINES = 5000;
/** The outbox rows are written all the same; 10,000 queue messages would only load the test pool (its timers). */
const noQueue = { EMAIL_QUEUE: undefined };

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, Math.round(performance.now() - t0)];
}

describe('5,000 lines', () => {
  it('professionals with e-mail (logins, invitations): validate and apply', async () => {
    const admin = await makeAdmin();
    const funcao = await makeCatalog(schema.funcoes, 'SP', 'Fotógrafo Perf');
    const marker = uniq('perf');
    const csv = [
      'nome;email;funcao_profissional;whatsapp;uf;carro_disponivel;qtd_estudio;observacao',
      ...Array.from(
        { length: LINES },
        (_, i) =>
          `Profissional ${i} ${marker};${marker}-${i}@example.com;fotógrafo perf;(11) 9${i};SP;sim;${i % 5};"obs; ${i}"`,
      ),
    ].join('\n');
    expect(csv.length).toBeLessThan(1024 * 1024);
    const [imp, validateMs] = await timed(() =>
      api('POST', '/api/importacoes?tipo=profissionais', {
        token: admin.token,
        rawBody: csv,
        headers: { 'content-type': 'text/csv' },
        countQueries: true,
      }),
    );
    expect(imp.status).toBe(201);
    expect(imp.body.por_acao).toEqual({ criar: LINES, atualizar: 0, sem_alteracao: 0, erro: 0 });
    const [applied, applyMs] = await timed(() =>
      api('POST', `/api/importacoes/${imp.body.id}/aplicar`, {
        token: admin.token,
        countQueries: true,
        bindings: noQueue,
      }),
    );
    expect(applied.status).toBe(200);
    console.log(
      `5,000 professionals: validate ${validateMs} ms (${imp.roundTrips} round trips, ${imp.statements} statements), ` +
        `apply ${applyMs} ms (${applied.roundTrips} round trips, ${applied.statements} statements)`,
    );
    expect(applied.roundTrips).toBeLessThanOrEqual(3);
    const [{ n }] = (await db
      .select({ n: sql<number>`count(*)` })
      .from(schema.profissionais)
      .where(eq(schema.profissionais.funcaoProfissionalId, funcao.id))) as [{ n: number }];
    expect(n).toBe(LINES);
    const [{ m }] = (await db
      .select({ m: sql<number>`count(*)` })
      .from(schema.emailOutbox)
      .where(sql`${schema.emailOutbox.para} like ${`${marker}-%`}`)) as [{ m: number }];
    expect(m).toBe(LINES);

    // A second file of 5,000 new people into a region that now holds 5,000: the apply's re-check probes
    // indexes per line (cpf_cnpj_titular, email), so it does not grow with the region.
    const second = csv.replaceAll(marker, `${marker}b`);
    const imp2 = await api('POST', '/api/importacoes?tipo=profissionais', {
      token: admin.token,
      rawBody: second,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imp2.body.por_acao.criar).toBe(LINES);
    const [applied2, apply2Ms] = await timed(() =>
      api('POST', `/api/importacoes/${imp2.body.id}/aplicar`, { token: admin.token, bindings: noQueue }),
    );
    expect(applied2.status).toBe(200);
    console.log(`5,000 more professionals into a region of 5,000: apply ${apply2Ms} ms`);
  }, 120_000);

  it('agenda events: validate, apply, export, and the export re-imports as no change', async () => {
    const admin = await makeAdmin();
    const fot = await makeFot('MG');
    const tipo = await makeCatalog(schema.tiposEventos, 'MG');
    const csv = [
      'chave_externa;fot;tipo_evento;data_evento;horario;local_evento;qtd_formandos',
      ...Array.from(
        { length: LINES },
        (_, i) =>
          `EV-${i};${fot.fot};${tipo.label};${String((i % 28) + 1).padStart(2, '0')}/03/2028;19:30;Salão ${i};${i}`,
      ),
    ].join('\n');
    const [imp, validateMs] = await timed(() =>
      api('POST', '/api/importacoes?tipo=agenda', {
        token: admin.token,
        regiao: 'MG',
        rawBody: csv,
        headers: { 'content-type': 'text/csv' },
      }),
    );
    expect(imp.body.por_acao.criar).toBe(LINES);
    const [applied, applyMs] = await timed(() =>
      api('POST', `/api/importacoes/${imp.body.id}/aplicar`, { token: admin.token, regiao: 'MG' }),
    );
    expect(applied.status).toBe(200);
    const [exp, exportMs] = await timed(() =>
      api('GET', '/api/exportacoes/agenda.csv', { token: admin.token, regiao: 'MG' }),
    );
    const [back, reimportMs] = await timed(() =>
      api('POST', '/api/importacoes?tipo=agenda', {
        token: admin.token,
        regiao: 'MG',
        rawBody: exp.body,
        headers: { 'content-type': 'text/csv' },
      }),
    );
    expect(back.body.por_acao).toEqual({ criar: 0, atualizar: 0, sem_alteracao: LINES, erro: 0 });
    console.log(
      `5,000 agenda events: validate ${validateMs} ms, apply ${applyMs} ms, export ${exportMs} ms, re-import ${reimportMs} ms`,
    );
  }, 120_000);
});
