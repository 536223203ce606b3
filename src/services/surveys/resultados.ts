import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  pesquisaEnvios,
  pesquisaPerguntas,
  pesquisaRespostaItens,
  pesquisaRespostas,
  pesquisas,
  profissionais,
} from '../../db/schema';
import { toCsv, verbatim, type CsvCell } from '../../lib/csv';
import type { QueryCtx } from '../core/context';
import { notFound, selectPerguntas, selectPesquisas, visible, type PerguntaRow } from './pesquisa-rows';

/**
 * A survey's results and its CSV (docs/decisions.md#d21; docs/guide/surveys.md), and the one rule
 * that withholds the figures of an anonymous survey over too few responses, for both.
 */

/**
 * In an anonymous survey, any aggregate over fewer distinct responses than this is withheld (one
 * response rating a team of 3 is still one client: docs/decisions.md#d21).
 */
export const MIN_ANONIMO = 3;

const round2 = (x: number) => Math.round(x * 100) / 100;

/** NPS: % of 9-10 minus % of 0-6, 2 decimals. */
export const nps = (promotores: number, detratores: number, n: number) =>
  n === 0 ? null : round2(((promotores - detratores) / n) * 100);

/** The survey, its questions and every figure over its answers, aggregated in SQL: one batch. */
function resultadosSelects(db: Db, regiao: string, id: string) {
  const itemsOf = and(
    sql`${pesquisaRespostaItens.perguntaId} in (select ${pesquisaPerguntas.id} from ${pesquisaPerguntas} where ${pesquisaPerguntas.pesquisaId} = ${id})`,
  );
  return [
    selectPesquisas(db).where(visible(regiao, eq(pesquisas.id, id))),
    selectPerguntas(db, eq(pesquisaPerguntas.pesquisaId, id)),
    db
      .select({
        perguntaId: pesquisaRespostaItens.perguntaId,
        n: count(),
        respostas: sql<number>`count(distinct ${pesquisaRespostaItens.respostaId})`,
        media: sql<number | null>`avg(${pesquisaRespostaItens.valorNum})`,
        promotores: sql<number>`sum(case when ${pesquisaRespostaItens.valorNum} >= 9 then 1 else 0 end)`,
        detratores: sql<number>`sum(case when ${pesquisaRespostaItens.valorNum} <= 6 then 1 else 0 end)`,
      })
      .from(pesquisaRespostaItens)
      .where(itemsOf)
      .groupBy(pesquisaRespostaItens.perguntaId),
    db
      .select({ perguntaId: pesquisaRespostaItens.perguntaId, valor: pesquisaRespostaItens.valorNum, n: count() })
      .from(pesquisaRespostaItens)
      .where(and(itemsOf, sql`${pesquisaRespostaItens.valorNum} is not null`))
      .groupBy(pesquisaRespostaItens.perguntaId, pesquisaRespostaItens.valorNum),
    db
      .select({ perguntaId: pesquisaRespostaItens.perguntaId, opcao: sql<string>`j.value`, n: sql<number>`count(*)` })
      .from(pesquisaRespostaItens)
      .innerJoin(sql`json_each(${pesquisaRespostaItens.opcoes}) j`, sql`1`)
      .where(and(itemsOf, sql`${pesquisaRespostaItens.opcoes} is not null`))
      .groupBy(pesquisaRespostaItens.perguntaId, sql`j.value`),
    db
      .select({ perguntaId: pesquisaRespostaItens.perguntaId, texto: pesquisaRespostaItens.texto })
      .from(pesquisaRespostaItens)
      .where(and(itemsOf, sql`${pesquisaRespostaItens.texto} is not null`))
      .orderBy(asc(pesquisaRespostaItens.id)),
    db
      .select({
        perguntaId: pesquisaRespostaItens.perguntaId,
        profissionalId: pesquisaRespostaItens.profissionalId,
        nome: sql<
          string | null
        >`(select ${profissionais.nome} from ${profissionais} where ${profissionais.id} = ${pesquisaRespostaItens.profissionalId})`,
        n: count(),
        respostas: sql<number>`count(distinct ${pesquisaRespostaItens.respostaId})`,
        media: sql<number>`avg(${pesquisaRespostaItens.valorNum})`,
      })
      .from(pesquisaRespostaItens)
      .where(and(itemsOf, sql`${pesquisaRespostaItens.profissionalId} is not null`))
      .groupBy(pesquisaRespostaItens.perguntaId, pesquisaRespostaItens.profissionalId)
      .orderBy(asc(pesquisaRespostaItens.profissionalId)),
  ] as const;
}

type Rows<T> = T extends PromiseLike<infer R> ? R : never;
type Selects = ReturnType<typeof resultadosSelects>;
/** The figures over a survey's answers, every question's (the batch's selects after the survey and its questions). */
interface Figures {
  stats: Rows<Selects[2]>;
  dist: Rows<Selects[3]>;
  opts: Rows<Selects[4]>;
  textos: Rows<Selects[5]>;
  porProf: Rows<Selects[6]>;
}

/** One question's results; `enough(respostas)` is the anonymity rule (always true when not anonymous). */
function perguntaResultado(q: PerguntaRow, f: Figures, enough: (respostas: number) => boolean) {
  const s = f.stats.find((x) => x.perguntaId === q.id);
  const n = s?.n ?? 0;
  const profs = q.criterio
    ? f.porProf
        .filter((r) => r.perguntaId === q.id)
        .map((r) => ({
          profissional_id: r.profissionalId!,
          nome: r.nome,
          n: r.n,
          retido: !enough(r.respostas),
          media: enough(r.respostas) ? round2(r.media) : null,
        }))
    : null;
  // A withheld professional withholds the figures over all ratings too (no subtraction).
  const shown = enough(s?.respostas ?? 0) && !profs?.some((x) => x.retido);
  const numeric = q.tipo === 'nota_1_5' || q.tipo === 'nps_0_10';
  const choice = q.tipo === 'escolha_unica' || q.tipo === 'escolha_multipla' || q.tipo === 'sim_nao';
  let distribuicao: Record<string, number> | null = null;
  if (numeric && shown) {
    const [lo, hi] = q.tipo === 'nota_1_5' ? [1, 5] : [0, 10];
    distribuicao = {};
    for (let v = lo; v <= hi; v++)
      distribuicao[String(v)] = f.dist.find((d) => d.perguntaId === q.id && d.valor === v)?.n ?? 0;
  }
  let opcoes: { opcao: string; total: number }[] | null = null;
  if (choice && shown) {
    const labels = q.tipo === 'sim_nao' ? ['sim', 'nao'] : (q.opcoes ?? []);
    opcoes = labels.map((opcao) => ({
      opcao,
      total:
        q.tipo === 'sim_nao'
          ? (f.dist.find((d) => d.perguntaId === q.id && d.valor === (opcao === 'sim' ? 1 : 0))?.n ?? 0)
          : (f.opts.find((o) => o.perguntaId === q.id && o.opcao === opcao)?.n ?? 0),
    }));
  }
  return {
    pergunta_id: q.id,
    ordem: q.ordem,
    texto: q.texto,
    tipo: q.tipo,
    criterio: q.criterio ?? null,
    n,
    retido: !shown,
    media: numeric && shown && s?.media != null ? round2(s.media) : null,
    distribuicao,
    nps: q.tipo === 'nps_0_10' && shown && s ? nps(s.promotores, s.detratores, n) : null,
    opcoes,
    textos: q.tipo === 'texto' && shown ? f.textos.filter((t) => t.perguntaId === q.id).map((t) => t.texto!) : null,
    por_profissional: profs,
  };
}

/**
 * `GET /api/pesquisas/{id}/resultados`: per question `n`, and as its kind has them `media`,
 * `distribuicao`, `nps`, `opcoes` (counts per option), `textos`, and for `criterio` questions
 * `por_profissional`. Aggregated in SQL: one round trip whatever the number of answers.
 * Anonymous survey (docs/decisions.md#d21): `enough()` withholds every figure over fewer than
 * MIN_ANONIMO distinct responses, and a `criterio` question's figures over all its ratings while any
 * of its professionals is withheld (subtracting the others' figures would give that one's away).
 * `n` (ratings) stays: each professional's `n` is shown anyway. Not anonymous: everything shown.
 */
export async function resultados({ db, regiao }: QueryCtx, id: string) {
  const [[p], perguntas, stats, dist, opts, textos, porProf] = await db.batch(resultadosSelects(db, regiao, id));
  if (!p) throw notFound();
  const anon = p.p.anonima;
  /** The anonymity minimum, the one place it is applied: counted in responses, not ratings. */
  const enough = (respostas: number) => !anon || respostas >= MIN_ANONIMO;
  const figures = { stats, dist, opts, textos, porProf };
  const out = perguntas.map((q) => perguntaResultado(q, figures, enough));
  return { pesquisa_id: p.p.id, titulo: p.p.titulo, anonima: anon, respostas: p.respostas, perguntas: out };
}

/** Every answer of a survey that is not anonymous, one row per item, in the file's order. */
const answerRows = (db: Db, id: string) =>
  db
    .select({
      respostaId: pesquisaRespostas.id,
      data: pesquisaRespostas.createdAt,
      email: sql<
        string | null
      >`(select ${pesquisaEnvios.email} from ${pesquisaEnvios} where ${pesquisaEnvios.id} = ${pesquisaRespostas.envioId})`,
      agendaId: pesquisaRespostas.agendaId,
      ordem: pesquisaPerguntas.ordem,
      pergunta: sql<string>`${pesquisaPerguntas.texto}`.as('pergunta_texto'),
      profissionalId: pesquisaRespostaItens.profissionalId,
      profissional: sql<
        string | null
      >`(select ${profissionais.nome} from ${profissionais} where ${profissionais.id} = ${pesquisaRespostaItens.profissionalId})`,
      valorNum: pesquisaRespostaItens.valorNum,
      opcoes: pesquisaRespostaItens.opcoes,
      texto: pesquisaRespostaItens.texto,
      tipo: sql<string>`${pesquisaPerguntas.tipo}`.as('pergunta_tipo'),
    })
    .from(pesquisaRespostaItens)
    .innerJoin(pesquisaRespostas, eq(pesquisaRespostas.id, pesquisaRespostaItens.respostaId))
    .innerJoin(pesquisaPerguntas, eq(pesquisaPerguntas.id, pesquisaRespostaItens.perguntaId))
    .where(
      and(
        eq(pesquisaRespostas.pesquisaId, id),
        // The single answers of an anonymous survey are never read for the file.
        sql`exists (select 1 from ${pesquisas} where ${pesquisas.id} = ${id} and ${pesquisas.anonima} = 0)`,
      ),
    )
    .orderBy(
      asc(pesquisaRespostas.createdAt),
      asc(pesquisaRespostas.id),
      asc(pesquisaPerguntas.ordem),
      asc(pesquisaRespostaItens.profissionalId),
    );

const ANSWERS_CSV_HEADER = [
  'resposta_id',
  'data',
  'email',
  'agenda_id',
  'pergunta_ordem',
  'pergunta',
  'profissional_id',
  'profissional',
  'valor',
] as const;

/** An answer's value as the file shows it: sim/nao, the options chosen joined by `; `, the text or the number. */
const valorOf = (r: Rows<ReturnType<typeof answerRows>>[number]) =>
  r.tipo === 'sim_nao' ? (r.valorNum === 1 ? 'sim' : 'nao') : r.opcoes ? r.opcoes.join('; ') : (r.texto ?? r.valorNum);

/**
 * `GET /api/pesquisas/{id}/respostas.csv`. A non-anonymous survey: one line per answer (a
 * `criterio` question one per professional) with the recipient's e-mail, the event and the exact
 * time. An anonymous survey: `anonymousCsv()`, never one line per answer.
 */
export async function respostasCsv(ctx: QueryCtx, id: string) {
  const { db, regiao } = ctx;
  const [[p], rows] = await db.batch([
    selectPesquisas(db).where(visible(regiao, eq(pesquisas.id, id))),
    answerRows(db, id),
  ]);
  if (!p) throw notFound();
  if (p.p.anonima) return anonymousCsv(await resultados(ctx, id));
  const lines = rows.map((r) => [
    r.respostaId,
    r.data,
    r.email,
    r.agendaId,
    r.ordem,
    r.pergunta,
    r.profissionalId,
    r.profissional,
    valorOf(r),
  ]);
  return toCsv(ANSWERS_CSV_HEADER, lines, ',');
}

const ANONYMOUS_CSV_HEADER = [
  'pergunta_ordem',
  'pergunta',
  'profissional_id',
  'profissional',
  'medida',
  'categoria',
  'valor',
] as const;

/**
 * The CSV of an anonymous survey: the figures of `/resultados` (so the same rule decides what is
 * withheld), one per line, and nothing per answer: no response id, date, e-mail or event, no two
 * answers of one response on a line or linked by a column. Per question its `n`; when shown,
 * `media`, `nps`, `distribuicao` and `opcao` counts, and each free text alone on its line, sorted by
 * text (not in the order they came). A `criterio` question adds `n` and `media` per professional
 * shown; a withheld professional has no line (and withholds the figures over the whole question).
 */
function anonymousCsv(r: Awaited<ReturnType<typeof resultados>>) {
  const lines: CsvCell[][] = [];
  // Figures we computed are written as they are: the formula escape made a negative NPS '-20.
  const figure = (v: string | number | null) => (typeof v === 'number' ? verbatim(String(v)) : v);
  for (const q of r.perguntas) {
    const line = (
      medida: string,
      categoria: string | null,
      valor: string | number | null,
      prof?: [string, string | null],
    ) => lines.push([q.ordem, q.texto, prof?.[0] ?? null, prof?.[1] ?? null, medida, categoria, figure(valor)]);
    line('n', null, q.n);
    if (!q.retido) {
      if (q.media !== null) line('media', null, q.media);
      if (q.nps !== null) line('nps', null, q.nps);
      for (const [valor, n] of Object.entries(q.distribuicao ?? {})) line('distribuicao', valor, n); // integer keys: ascending
      for (const o of q.opcoes ?? []) line('opcao', o.opcao, o.total);
      for (const t of [...(q.textos ?? [])].sort((a, b) => a.localeCompare(b, 'pt-BR'))) line('texto', null, t);
    }
    const shown = (q.por_profissional ?? []).filter((x) => !x.retido);
    shown.sort(
      (a, b) =>
        (a.nome ?? '').localeCompare(b.nome ?? '', 'pt-BR') || a.profissional_id.localeCompare(b.profissional_id),
    );
    for (const x of shown) {
      line('n', null, x.n, [x.profissional_id, x.nome]);
      line('media', null, x.media, [x.profissional_id, x.nome]);
    }
  }
  return toCsv(ANONYMOUS_CSV_HEADER, lines, ',');
}
