import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { insertWhere } from '../../db/guarded';
import {
  pesquisaEnvios,
  pesquisaPerguntas,
  pesquisaRespostas,
  pesquisas,
  tiposEventos,
  type Criterio,
  type PerguntaTipo,
} from '../../db/schema';
import { writeThenRead } from '../../db/write-read';
import { ApiError } from '../../lib/errors';
import { pageBounds, totalOf, whenPaged, type Page } from '../../lib/pagination';
import { created, loggedDelete, loggedUpdate, logStatement } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';
import { refsInRegion } from '../core/references';
import {
  notFound,
  respostasCount,
  selectPerguntas,
  selectPesquisas,
  toPergunta,
  visible,
  type PerguntaRow,
  type PesquisaView,
} from './pesquisa-rows';

/**
 * Surveys (docs/decisions.md#d21; docs/guide/surveys.md): the CRUD of RESEARCHERs and administrators.
 * The domain's other parts: single-use links sent by e-mail, by hand and by the scheduled job the day
 * after events (envios.ts), the public answer routes (respostas.ts), the results and the CSV
 * (resultados.ts). Client ratings of professionals: services/professionals/avaliacoes.ts.
 */

// The scheduled dispatcher reads the job from here.
export { enviarPesquisas } from './envios';

const frozen = () =>
  new ApiError('INVALID_STATE', 'a pesquisa já tem respostas: perguntas, público e anonimato não mudam mais');
const anonimaLocked = () =>
  new ApiError('INVALID_STATE', 'a pesquisa já tem links enviados: o anonimato não muda mais');

export interface PerguntaInput {
  texto: string;
  tipo: PerguntaTipo;
  obrigatoria: boolean;
  opcoes?: string[] | null;
  criterio?: Criterio | null;
}

export interface PesquisaInput {
  titulo?: string;
  publico?: (typeof pesquisas.$inferSelect)['publico'];
  anonima?: boolean;
  tipo_evento_id?: string | null;
  status?: (typeof pesquisas.$inferSelect)['status'];
  perguntas?: PerguntaInput[];
}

const hasRespostas = (id: string) =>
  sql`exists (select 1 from ${pesquisaRespostas} where ${pesquisaRespostas.pesquisaId} = ${id})`;
/**
 * `anonima` may become `value`: no link sent yet, or it already is `value`. Self-contained (no bare
 * column), so it also guards the question statements of the same batch.
 */
const anonimaMayBe = (id: string, value: boolean) =>
  sql`(not exists (select 1 from ${pesquisaEnvios} where ${pesquisaEnvios.pesquisaId} = ${id})
    or exists (select 1 from ${pesquisas} where ${pesquisas.id} = ${id} and ${pesquisas.anonima} = ${value ? 1 : 0}))`;

function toPesquisa(v: PesquisaView, perguntas: PerguntaRow[]) {
  const p = v.p;
  return {
    id: p.id,
    regiao: p.regiao,
    titulo: p.titulo,
    publico: p.publico,
    anonima: p.anonima,
    tipo_evento_id: p.tipoEventoId,
    status: p.status,
    criado_por: p.criadoPor,
    respostas: v.respostas,
    perguntas: perguntas.filter((q) => q.pesquisaId === p.id).map(toPergunta),
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

function onePesquisa(rows: PesquisaView[], perguntas: PerguntaRow[]) {
  if (!rows[0]) throw notFound();
  return toPesquisa(rows[0], perguntas);
}

const byId = (db: Db, regiao: string, id: string) =>
  [
    selectPesquisas(db).where(visible(regiao, eq(pesquisas.id, id))),
    selectPerguntas(db, eq(pesquisaPerguntas.pesquisaId, id)),
  ] as const;

export async function getPesquisa({ db, regiao }: QueryCtx, id: string) {
  const [rows, perguntas] = await db.batch(byId(db, regiao, id));
  return onePesquisa(rows, perguntas);
}

/** A page of the region's surveys (newest first) with their questions, and the total (counted when paged): one round trip. */
export async function listPesquisas({ db, regiao }: QueryCtx, f: Page & { status?: PesquisaInput['status'] }) {
  const where = visible(regiao, f.status ? eq(pesquisas.status, f.status) : undefined);
  const { limit, offset } = pageBounds(f);
  const order = [desc(pesquisas.createdAt), asc(pesquisas.id)];
  const page = db
    .select({ id: pesquisas.id })
    .from(pesquisas)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const [rows, perguntas, counted] = await db.batch([
    selectPesquisas(db)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    selectPerguntas(db, inArray(pesquisaPerguntas.pesquisaId, page)),
    ...whenPaged(f, db.select({ n: count() }).from(pesquisas).where(where)),
  ]);
  return { items: rows.map((r) => toPesquisa(r, perguntas)), total: totalOf(counted, rows.length) };
}

/** D1 binds at most 100 parameters per statement; a question row binds 7. */
const PERGUNTAS_PER_STATEMENT = 12;

/** The question rows (new ids) of a survey, inserted only while `guard` holds (no response yet). */
function perguntaInserts(db: Db, q: { pesquisaId: string; perguntas: PerguntaInput[]; guard: SQL }) {
  const rows = q.perguntas.map((p, i) => ({
    id: crypto.randomUUID(),
    pesquisaId: q.pesquisaId,
    ordem: i + 1,
    texto: p.texto,
    tipo: p.tipo,
    obrigatoria: p.obrigatoria,
    opcoes: p.opcoes ?? null,
    criterio: p.criterio ?? null,
  }));
  const out: BatchItem<'sqlite'>[] = [];
  for (let i = 0; i < rows.length; i += PERGUNTAS_PER_STATEMENT) {
    const values = rows
      .slice(i, i + PERGUNTAS_PER_STATEMENT)
      .map(
        (r) =>
          sql`(${r.id}, ${r.pesquisaId}, ${r.ordem}, ${r.texto}, ${r.tipo}, ${r.obrigatoria ? 1 : 0}, ${r.opcoes ? JSON.stringify(r.opcoes) : null}, ${r.criterio})`,
      );
    // Columns in table order: id, pesquisa_id, ordem, texto, tipo, obrigatoria, opcoes, criterio.
    out.push(
      db.insert(pesquisaPerguntas).select(sql`select * from (values ${sql.join(values, sql`, `)}) where ${q.guard}`),
    );
  }
  return out;
}

/** The event type must be of the region (404 naming the field). */
const TIPO_NOT_FOUND = 'tipo_evento_id: tipo de evento não encontrado na região';

const tipoEventoCheck = (db: Db, regiao: string, id: string | null | undefined) =>
  db
    .select({ id: tiposEventos.id })
    .from(tiposEventos)
    .where(id ? and(eq(tiposEventos.id, id), eq(tiposEventos.regiao, regiao)) : sql`0`);

export async function createPesquisa(
  { db, log, user, regiao }: Ctx,
  body: Required<Pick<PesquisaInput, 'titulo' | 'publico'>> & PesquisaInput,
) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const row = {
    id,
    regiao,
    titulo: body.titulo,
    publico: body.publico,
    anonima: body.anonima ?? false,
    tipoEventoId: body.tipo_evento_id ?? null,
    status: body.status ?? 'rascunho',
    criadoPor: user.id,
    createdAt: now,
    updatedAt: now,
  };
  // The event type is checked in the write's own batch (services/core/references.ts): one round trip.
  const refs = refsInRegion(db, regiao, [
    { field: 'tipo_evento_id', table: tiposEventos, id: body.tipo_evento_id, message: TIPO_NOT_FOUND },
  ]);
  const inserted = sql`exists (select 1 from ${pesquisas} where ${pesquisas.id} = ${id})`;
  // The check reads the event type only: after the insert it answers as before it.
  const [found, rows, perguntas] = await writeThenRead(
    db,
    [
      insertWhere(db, pesquisas, row, refs.condition),
      ...perguntaInserts(db, { pesquisaId: id, perguntas: body.perguntas ?? [], guard: inserted }),
      logStatement(db, log, {
        acao: 'pesquisas.create',
        entidade: 'pesquisas',
        entidadeId: id,
        regiao,
        dados: { ...created(pesquisas, row), perguntas: { depois: (body.perguntas ?? []).length } },
        when: inserted,
      }),
    ],
    [refs.select, ...byId(db, regiao, id)],
  );
  refs.assertFound(found);
  return onePesquisa(rows, perguntas);
}

/** The columns an update sets, at `now`. */
function pesquisaSet(body: PesquisaInput, now: string) {
  const set: Partial<typeof pesquisas.$inferInsert> = { updatedAt: now };
  if (body.titulo !== undefined) set.titulo = body.titulo;
  if (body.publico !== undefined) set.publico = body.publico;
  if (body.anonima !== undefined) set.anonima = body.anonima;
  if (body.tipo_evento_id !== undefined) set.tipoEventoId = body.tipo_evento_id;
  if (body.status !== undefined) set.status = body.status;
  return set;
}

/**
 * Changes a survey. Questions, `publico` and `anonima` are frozen once a response exists, and
 * `anonima` already once a link is sent (answers were promised it): the statements are guarded by
 * "no response" and "no link, or `anonima` unchanged" inside the batch (a response or a link stored
 * meanwhile makes them write nothing, and the answer is 409), never by a read before.
 */
export async function updatePesquisa(ctx: Ctx, id: string, body: PesquisaInput) {
  const { db, regiao } = ctx;
  const [[current], tipo] = await db.batch([
    db
      .select({ respostas: respostasCount })
      .from(pesquisas)
      .where(visible(regiao, eq(pesquisas.id, id))),
    tipoEventoCheck(db, regiao, body.tipo_evento_id),
  ]);
  if (!current) throw notFound();
  if (body.tipo_evento_id && !tipo[0]) throw new ApiError('NOT_FOUND', TIPO_NOT_FOUND);
  const touchesFrozen = body.perguntas !== undefined || body.publico !== undefined || body.anonima !== undefined;
  if (touchesFrozen && current.respostas > 0) throw frozen();

  const guard = and(
    touchesFrozen ? sql`not ${hasRespostas(id)}` : sql`1`,
    body.anonima !== undefined ? anonimaMayBe(id, body.anonima) : undefined,
  )!;
  const [entry, update] = loggedUpdate(
    ctx,
    { table: pesquisas, where: and(eq(pesquisas.id, id), guard), set: pesquisaSet(body, new Date().toISOString()) },
    {
      acao: 'pesquisas.update',
      entidade: 'pesquisas',
      regiao,
      extra: body.perguntas ? { perguntas: { depois: body.perguntas.length } } : {},
    },
  );
  const writes: BatchItem<'sqlite'>[] = [entry];
  if (body.perguntas) {
    writes.push(db.delete(pesquisaPerguntas).where(and(eq(pesquisaPerguntas.pesquisaId, id), guard)));
    writes.push(...perguntaInserts(db, { pesquisaId: id, perguntas: body.perguntas, guard }));
  }
  const [written, rows, perguntas] = await writeThenRead(db, writes, [update, ...byId(db, regiao, id)]);
  if (written.meta.changes === 0) {
    if (!rows[0]) throw notFound();
    // Which guard refused: a response (frozen), else a link while `anonima` would change.
    throw touchesFrozen && rows[0].respostas > 0 ? frozen() : anonimaLocked();
  }
  return onePesquisa(rows, perguntas);
}

/** Deletes a survey without responses (with responses: 409 INVALID_STATE; close it with `encerrada`). */
export async function deletePesquisa(ctx: Ctx, id: string) {
  const { db, regiao } = ctx;
  const [entry, remove] = loggedDelete(
    ctx,
    { table: pesquisas, where: and(visible(regiao, eq(pesquisas.id, id)), sql`not ${hasRespostas(id)}`) },
    { acao: 'pesquisas.delete', entidade: 'pesquisas', regiao },
  );
  const [found, , removed] = await db.batch([
    db
      .select({ id: pesquisas.id })
      .from(pesquisas)
      .where(visible(regiao, eq(pesquisas.id, id))),
    entry,
    remove,
  ]);
  if (!found[0]) throw notFound();
  if (removed.meta.changes === 0)
    throw new ApiError('INVALID_STATE', 'a pesquisa já tem respostas: encerre-a em vez de excluir');
}
