import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pesquisaPerguntas, pesquisaRespostas, pesquisas } from '../../db/schema';
import { ApiError } from '../../lib/errors';

/**
 * A survey and its questions as every part of the surveys domain reads and answers them: the CRUD
 * (pesquisas.ts), the links (envios.ts), the public answer (respostas.ts) and the results (resultados.ts).
 */

export const notFound = () => new ApiError('NOT_FOUND', 'pesquisa não encontrada');

/** The region's surveys (a survey of another region is 404). */
export const visible = (regiao: string, ...more: (SQL | undefined)[]) => and(eq(pesquisas.regiao, regiao), ...more);

// The outer row named explicitly: drizzle leaves columns unqualified in a one-table select, and
// inside the subquery a bare `id` would bind to the responses' own id.
export const respostasCount = sql<number>`(select count(*) from ${pesquisaRespostas} where ${pesquisaRespostas.pesquisaId} = ${sql.raw('"pesquisas"."id"')})`;

export const selectPesquisas = (db: Db) =>
  db.select({ p: pesquisas, respostas: respostasCount.as('respostas') }).from(pesquisas);

export const selectPerguntas = (db: Db, where: SQL) =>
  db.select().from(pesquisaPerguntas).where(where).orderBy(asc(pesquisaPerguntas.ordem), asc(pesquisaPerguntas.id));

export type PesquisaView = Awaited<ReturnType<typeof selectPesquisas>>[number];
export type PerguntaRow = typeof pesquisaPerguntas.$inferSelect;

export const toPergunta = (q: PerguntaRow) => ({
  id: q.id,
  ordem: q.ordem,
  texto: q.texto,
  tipo: q.tipo,
  obrigatoria: q.obrigatoria,
  opcoes: q.opcoes ?? null,
  criterio: q.criterio ?? null,
});
