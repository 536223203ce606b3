import { and, asc, count, desc, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { createDb } from '../../db/client';
import { insertWhere } from '../../db/guarded';
import {
  agenda,
  cadastroFot,
  convites,
  emailOutbox,
  funcoes,
  logsAtividade,
  pesquisaEnvios,
  pesquisaPerguntas,
  pesquisaRespostaItens,
  pesquisaRespostas,
  pesquisas,
  profissionais,
  tiposEventos,
  users,
  type AuthUser,
  type Criterio,
  type PerguntaTipo,
} from '../../db/schema';
import { writeThenRead } from '../../db/write-read';
import { getConfig, type Bindings, type Config } from '../../env';
import { ApiError } from '../../lib/errors';
import { toCsv, verbatim, type CsvCell } from '../../lib/csv';
import { saoPauloDate } from '../../lib/dates';
import { pageBounds, totalOf, whenPaged, type Page } from '../../lib/pagination';
import { newRefreshToken, sha256Hex } from '../../lib/tokens';
import { changed, created, deleted, logRowWrite, logStatement, type LogCtx } from '../core/activity-log';
import { prepareEmail, type SendMail } from '../core/mail';
import { refsInRegion } from '../core/references';

/**
 * Surveys (docs/decisions-2 D21; docs/guide/surveys.md): the CRUD of RESEARCHERs and administrators,
 * single-use links sent by e-mail (by hand, and by the scheduled job the day after events), the
 * public answer routes, the results and the CSV. Client ratings of professionals: services/professionals/avaliacoes.ts.
 */

/** A link lives 14 days. */
export const LINK_TTL_MS = 14 * 86_400_000;
/**
 * In an anonymous survey, any aggregate over fewer distinct responses than this is withheld (one
 * response rating a team of 3 is still one client: docs/decisions.md#d21).
 */
export const MIN_ANONIMO = 3;

const notFound = () => new ApiError('NOT_FOUND', 'pesquisa não encontrada');
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

const visible = (regiao: string, ...more: (SQL | undefined)[]) => and(eq(pesquisas.regiao, regiao), ...more);

// The outer row named explicitly: drizzle leaves columns unqualified in a one-table select, and
// inside the subquery a bare `id` would bind to the responses' own id.
const respostasCount = sql<number>`(select count(*) from ${pesquisaRespostas} where ${pesquisaRespostas.pesquisaId} = ${sql.raw('"pesquisas"."id"')})`;
const hasRespostas = (id: string) =>
  sql`exists (select 1 from ${pesquisaRespostas} where ${pesquisaRespostas.pesquisaId} = ${id})`;
/**
 * `anonima` may become `value`: no link sent yet, or it already is `value`. Self-contained (no bare
 * column), so it also guards the question statements of the same batch.
 */
const anonimaMayBe = (id: string, value: boolean) =>
  sql`(not exists (select 1 from ${pesquisaEnvios} where ${pesquisaEnvios.pesquisaId} = ${id})
    or exists (select 1 from ${pesquisas} where ${pesquisas.id} = ${id} and ${pesquisas.anonima} = ${value ? 1 : 0}))`;

const selectPesquisas = (db: Db) =>
  db.select({ p: pesquisas, respostas: respostasCount.as('respostas') }).from(pesquisas);

const selectPerguntas = (db: Db, where: SQL) =>
  db.select().from(pesquisaPerguntas).where(where).orderBy(asc(pesquisaPerguntas.ordem), asc(pesquisaPerguntas.id));

type PesquisaView = Awaited<ReturnType<typeof selectPesquisas>>[number];
type PerguntaRow = typeof pesquisaPerguntas.$inferSelect;

export const toPergunta = (q: PerguntaRow) => ({
  id: q.id,
  ordem: q.ordem,
  texto: q.texto,
  tipo: q.tipo,
  obrigatoria: q.obrigatoria,
  opcoes: q.opcoes ?? null,
  criterio: q.criterio ?? null,
});

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

export async function getPesquisa(db: Db, regiao: string, id: string) {
  const [rows, perguntas] = await db.batch(byId(db, regiao, id));
  return onePesquisa(rows, perguntas);
}

/** A page of the region's surveys (newest first) with their questions, and the total (counted when paged): one round trip. */
export async function listPesquisas(db: Db, regiao: string, f: Page & { status?: PesquisaInput['status'] }) {
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

/** The question rows (new ids), inserted only while `guard` holds (no response yet). */
function perguntaInserts(db: Db, pesquisaId: string, perguntas: PerguntaInput[], guard: SQL) {
  const rows = perguntas.map((q, i) => ({
    id: crypto.randomUUID(),
    pesquisaId,
    ordem: i + 1,
    texto: q.texto,
    tipo: q.tipo,
    obrigatoria: q.obrigatoria,
    opcoes: q.opcoes ?? null,
    criterio: q.criterio ?? null,
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
      db.insert(pesquisaPerguntas).select(sql`select * from (values ${sql.join(values, sql`, `)}) where ${guard}`),
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
  db: Db,
  log: LogCtx,
  user: AuthUser,
  regiao: string,
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
  const [found, ...rest] = await db.batch([
    refs.select,
    insertWhere(db, pesquisas, row, refs.condition),
    ...perguntaInserts(db, id, body.perguntas ?? [], inserted),
    logStatement(db, log, {
      acao: 'pesquisas.create',
      entidade: 'pesquisas',
      entidadeId: id,
      regiao,
      dados: { ...created(pesquisas, row), perguntas: { depois: (body.perguntas ?? []).length } },
      when: inserted,
    }),
    ...byId(db, regiao, id),
  ] as unknown as [BatchItem<'sqlite'>]);
  refs.assertFound(found as Record<string, number>[]);
  const [rows, perguntas] = rest.slice(-2) as unknown as [PesquisaView[], PerguntaRow[]];
  return onePesquisa(rows, perguntas);
}

/**
 * Changes a survey. Questions, `publico` and `anonima` are frozen once a response exists, and
 * `anonima` already once a link is sent (answers were promised it): the statements are guarded by
 * "no response" and "no link, or `anonima` unchanged" inside the batch (a response or a link stored
 * meanwhile makes them write nothing, and the answer is 409), never by a read before.
 */
export async function updatePesquisa(db: Db, log: LogCtx, regiao: string, id: string, body: PesquisaInput) {
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

  const now = new Date().toISOString();
  const set: Partial<typeof pesquisas.$inferInsert> = { updatedAt: now };
  if (body.titulo !== undefined) set.titulo = body.titulo;
  if (body.publico !== undefined) set.publico = body.publico;
  if (body.anonima !== undefined) set.anonima = body.anonima;
  if (body.tipo_evento_id !== undefined) set.tipoEventoId = body.tipo_evento_id;
  if (body.status !== undefined) set.status = body.status;
  const guard = and(
    touchesFrozen ? sql`not ${hasRespostas(id)}` : sql`1`,
    body.anonima !== undefined ? anonimaMayBe(id, body.anonima) : undefined,
  )!;
  const where = and(eq(pesquisas.id, id), guard);
  const writes: BatchItem<'sqlite'>[] = [
    logRowWrite(db, log, pesquisas, where, {
      acao: 'pesquisas.update',
      entidade: 'pesquisas',
      regiao,
      dados: {
        ...changed(pesquisas, { ...set, updatedAt: undefined }),
        ...(body.perguntas ? { perguntas: { depois: body.perguntas.length } } : {}),
      },
    }),
  ];
  if (body.perguntas) {
    writes.push(db.delete(pesquisaPerguntas).where(and(eq(pesquisaPerguntas.pesquisaId, id), guard)));
    writes.push(...perguntaInserts(db, id, body.perguntas, guard));
  }
  const [written, ...rest] = await writeThenRead(db, writes, [
    db.update(pesquisas).set(set).where(where),
    ...byId(db, regiao, id),
  ]);
  const [after] = rest[0] as PesquisaView[];
  if (written.meta.changes === 0) {
    if (!after) throw notFound();
    // Which guard refused: a response (frozen), else a link while `anonima` would change.
    throw touchesFrozen && after.respostas > 0 ? frozen() : anonimaLocked();
  }
  return onePesquisa(rest[0] as PesquisaView[], rest[1] as PerguntaRow[]);
}

/** Deletes a survey without responses (with responses: 409 INVALID_STATE; close it with `encerrada`). */
export async function deletePesquisa(db: Db, log: LogCtx, regiao: string, id: string) {
  const where = and(visible(regiao, eq(pesquisas.id, id)), sql`not ${hasRespostas(id)}`);
  const [found, removed] = await db.batch([
    db
      .select({ id: pesquisas.id })
      .from(pesquisas)
      .where(visible(regiao, eq(pesquisas.id, id))),
    logRowWrite(db, log, pesquisas, where, {
      acao: 'pesquisas.delete',
      entidade: 'pesquisas',
      regiao,
      dados: deleted(pesquisas),
    }),
    db.delete(pesquisas).where(where),
  ]);
  if (!found[0]) throw notFound();
  if (removed.meta.changes === 0)
    throw new ApiError('INVALID_STATE', 'a pesquisa já tem respostas: encerre-a em vez de excluir');
}

// --- Sending links -----------------------------------------------------------------------------

export interface Destinatario {
  email: string;
  nome?: string | null;
}

interface EnvioRow {
  id: string;
  pesquisaId: string;
  agendaId: string | null;
  usuarioId: string | null;
  email: string;
  nome: string | null;
}

/**
 * The statements of sending links: for each recipient a link row (hash only) and its outbox
 * e-mail, written only if that very link row exists (an automatic send that lost a race to its
 * unique key writes no e-mail), and only while the survey is `ativa`.
 */
async function envioStatements(
  db: Db,
  config: Pick<Config, 'JWT_SECRET'>,
  titulo: string,
  rows: EnvioRow[],
  now: Date,
) {
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS).toISOString();
  const writes: BatchItem<'sqlite'>[] = [];
  const outboxIds: string[] = [];
  for (const r of rows) {
    const token = newRefreshToken(); // 32 random bytes, base64url
    const values = { ...r, tokenHash: await sha256Hex(token), expiresAt, usadoEm: null, uso: null, createdAt: at };
    const ativa = sql`exists (select 1 from ${pesquisas} where ${pesquisas.id} = ${r.pesquisaId} and ${pesquisas.status} = 'ativa')`;
    writes.push(insertWhere(db, pesquisaEnvios, values, ativa).onConflictDoNothing());
    const mail = await prepareEmail(
      db,
      config,
      {
        para: r.email,
        tipo: 'pesquisa',
        dados: { nome: r.nome ?? '', titulo },
        token,
        when: sql`exists (select 1 from ${pesquisaEnvios} where ${pesquisaEnvios.id} = ${r.id})`,
      },
      now,
    );
    writes.push(mail.insert);
    outboxIds.push(mail.id);
  }
  return { writes, outboxIds };
}

/** `POST /api/pesquisas/{id}/envios`: one single-use link per recipient, e-mailed through the outbox. */
export async function sendPesquisa(
  db: Db,
  log: LogCtx,
  config: Pick<Config, 'JWT_SECRET'>,
  regiao: string,
  id: string,
  body: { agenda_id?: string; destinatarios: Destinatario[] },
  send: SendMail,
) {
  const [[p], ev, criterios] = await db.batch([
    db
      .select({ status: pesquisas.status, titulo: pesquisas.titulo })
      .from(pesquisas)
      .where(visible(regiao, eq(pesquisas.id, id))),
    db
      .select({ id: agenda.id })
      .from(agenda)
      .where(body.agenda_id ? and(eq(agenda.id, body.agenda_id), eq(agenda.regiao, regiao)) : sql`0`),
    db
      .select({ n: count() })
      .from(pesquisaPerguntas)
      .where(and(eq(pesquisaPerguntas.pesquisaId, id), sql`${pesquisaPerguntas.criterio} is not null`)),
  ]);
  if (!p) throw notFound();
  if (body.agenda_id && !ev[0]) throw new ApiError('NOT_FOUND', 'agenda_id: evento não encontrado na região');
  if (!body.agenda_id && (criterios[0]?.n ?? 0) > 0)
    throw new ApiError('VALIDATION_FAILED', 'agenda_id: obrigatório para uma pesquisa com perguntas por profissional');
  if (p.status !== 'ativa') throw new ApiError('INVALID_STATE', 'apenas uma pesquisa ativa pode ser enviada');
  const now = new Date();
  // One link per address, whatever the repetitions in the list.
  const unique = [...new Map(body.destinatarios.map((d) => [d.email, d])).values()];
  const rows = unique.map((d) => ({
    id: crypto.randomUUID(),
    pesquisaId: id,
    agendaId: body.agenda_id ?? null,
    usuarioId: null,
    email: d.email,
    nome: d.nome ?? null,
  }));
  const { writes, outboxIds } = await envioStatements(db, config, p.titulo, rows, now);
  const [[n]] = await writeThenRead(
    db,
    [
      ...writes,
      logStatement(db, log, {
        acao: 'pesquisas.envio',
        entidade: 'pesquisas',
        entidadeId: id,
        regiao,
        dados: { agenda_id: { depois: body.agenda_id ?? null }, destinatarios: { depois: rows.length } },
        when: sql`exists (select 1 from ${pesquisas} where ${pesquisas.id} = ${id} and ${pesquisas.status} = 'ativa')`,
      }),
    ],
    [
      db
        .select({ n: count() })
        .from(pesquisaEnvios)
        .where(
          inArray(
            pesquisaEnvios.id,
            rows.map((r) => r.id),
          ),
        ),
    ],
  );
  if ((n?.n ?? 0) === 0) throw new ApiError('INVALID_STATE', 'apenas uma pesquisa ativa pode ser enviada');
  send(outboxIds);
  return { enviados: n!.n, expira_em: new Date(now.getTime() + LINK_TTL_MS).toISOString() };
}

/** At most this many automatic links per run (the rest go in the next runs, 15 minutes apart). */
const AUTO_LIMIT = 40;
/** Events up to this many days ago still get their automatic survey (a missed run is made up). */
const AUTO_DAYS_BACK = 3;

/**
 * Scheduled job `enviar-pesquisas`: for each `ativa` survey of `publico` `cliente` with an event
 * type, the day after each event of that type (up to 3 days late), one link to each active
 * EVENT_OWNER of the event's company. Exactly once per (survey, event, recipient): the link row's
 * unique key refuses a second one, and the e-mail is written only with the row that got in.
 * One read and one batch per run, whatever the number of events.
 */
export async function enviarPesquisas(env: Bindings, now: Date) {
  const db = createDb(env.DB);
  const today = saoPauloDate(now);
  const from = saoPauloDate(now, -AUTO_DAYS_BACK);
  const due = await db
    .select({
      pesquisaId: pesquisas.id,
      titulo: pesquisas.titulo,
      regiao: pesquisas.regiao,
      agendaId: agenda.id,
      usuarioId: users.id,
      email: users.email,
      nome: users.nome,
    })
    .from(pesquisas)
    .innerJoin(agenda, and(eq(agenda.tipoEventoId, pesquisas.tipoEventoId), eq(agenda.regiao, pesquisas.regiao)))
    .innerJoin(cadastroFot, eq(cadastroFot.id, agenda.fotId))
    .innerJoin(
      users,
      and(eq(users.empresaId, cadastroFot.empresaId), eq(users.role, 'EVENT_OWNER'), eq(users.ativo, true)),
    )
    .where(
      and(
        eq(pesquisas.status, 'ativa'),
        eq(pesquisas.publico, 'cliente'),
        sql`${agenda.dataEvento} >= ${from} and ${agenda.dataEvento} < ${today}`,
        sql`not exists (select 1 from ${pesquisaEnvios} e where e.pesquisa_id = ${pesquisas.id} and e.agenda_id = ${agenda.id} and e.usuario_id = ${users.id})`,
      ),
    )
    .orderBy(asc(agenda.dataEvento), asc(agenda.id))
    .limit(AUTO_LIMIT);
  if (due.length === 0) return 0;
  const config = getConfig(env);
  const writes: BatchItem<'sqlite'>[] = [];
  const outboxIds: string[] = [];
  const ids: string[] = [];
  for (const d of due) {
    const row = {
      id: crypto.randomUUID(),
      pesquisaId: d.pesquisaId,
      agendaId: d.agendaId,
      usuarioId: d.usuarioId,
      email: d.email,
      nome: d.nome,
    };
    ids.push(row.id);
    const s = await envioStatements(db, config, d.titulo, [row], now);
    writes.push(...s.writes);
    outboxIds.push(...s.outboxIds);
  }
  // One entry per link that got in (anonymous actor), written by one statement.
  writes.push(
    db.insert(logsAtividade)
      .select(sql`select null, ${generatedId}, ${now.toISOString()}, null, null, 'pesquisas.envio_automatico', 'pesquisas',
      ${pesquisaEnvios.pesquisaId}, (select ${pesquisas.regiao} from ${pesquisas} where ${pesquisas.id} = ${pesquisaEnvios.pesquisaId}), null,
      json_object('agenda_id', json_object('depois', ${pesquisaEnvios.agendaId}), 'usuario_id', json_object('depois', ${pesquisaEnvios.usuarioId}))
      from ${pesquisaEnvios} where ${inArray(pesquisaEnvios.id, ids)}`),
  );
  const [sent] = await writeThenRead(db, writes, [
    db.select({ id: emailOutbox.id }).from(emailOutbox).where(inArray(emailOutbox.id, outboxIds)),
  ]);
  // Only the e-mails whose link got in exist. Awaited: a failed enqueue leaves the rows pendente,
  // and requeue-pending-emails sends them.
  if (sent.length > 0 && env.EMAIL_QUEUE)
    await env.EMAIL_QUEUE.sendBatch(sent.map((r) => ({ body: { outboxId: r.id } }))).catch(() => undefined);
  return sent.length;
}

// --- Answering (public, by token) --------------------------------------------------------------

const linkNotFound = () => new ApiError('NOT_FOUND', 'link de pesquisa inválido, expirado ou já usado');

/** A live link: unspent, unexpired, of an `ativa` survey. */
const liveLink = (hash: string, at: string) =>
  and(
    eq(pesquisaEnvios.tokenHash, hash),
    isNull(pesquisaEnvios.usadoEm),
    gt(pesquisaEnvios.expiresAt, at),
    sql`exists (select 1 from ${pesquisas} where ${pesquisas.id} = ${pesquisaEnvios.pesquisaId} and ${pesquisas.status} = 'ativa')`,
  );

/** The accepted team of the link's event: `[{profissional_id, nome, funcao_nome}]`. */
const teamOf = (db: Db, agendaId: SQL) =>
  db
    .select({
      profissional_id: profissionais.id,
      nome: profissionais.nome,
      funcao_nome: sql<string>`${funcoes.label}`.as('funcao_nome'),
    })
    .from(convites)
    .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
    .innerJoin(funcoes, eq(funcoes.id, convites.funcaoId))
    .where(and(sql`${convites.agendaId} = ${agendaId}`, eq(convites.status, 'aceito')))
    .orderBy(asc(profissionais.nome), asc(profissionais.id));

/** The link, its survey, questions and team: one round trip. */
async function readLink(db: Db, token: string, at: string) {
  const hash = await sha256Hex(token);
  const linkSql = (col: SQL) => sql`(select ${col} from ${pesquisaEnvios} where ${liveLink(hash, at)})`;
  const [[link], perguntas, equipe] = await db.batch([
    db
      // Aliased: inside db.batch() D1 keys rows by column name (both tables have `id`).
      .select({
        envioId: sql<string>`${pesquisaEnvios.id}`.as('envio_id'),
        agendaId: sql<string | null>`${pesquisaEnvios.agendaId}`.as('envio_agenda_id'),
        pesquisaId: sql<string>`${pesquisas.id}`.as('pesquisa_id'),
        titulo: pesquisas.titulo,
        publico: pesquisas.publico,
        anonima: pesquisas.anonima,
        regiao: pesquisas.regiao,
      })
      .from(pesquisaEnvios)
      .innerJoin(pesquisas, eq(pesquisas.id, pesquisaEnvios.pesquisaId))
      .where(liveLink(hash, at)),
    selectPerguntas(db, sql`${pesquisaPerguntas.pesquisaId} = ${linkSql(sql`${pesquisaEnvios.pesquisaId}`)}`),
    teamOf(db, linkSql(sql`${pesquisaEnvios.agendaId}`)),
  ]);
  if (!link) throw linkNotFound();
  return { hash, link, perguntas, equipe };
}

export async function publicPesquisa(db: Db, token: string) {
  const { link, perguntas, equipe } = await readLink(db, token, new Date().toISOString());
  const hasCriterio = perguntas.some((q) => q.criterio);
  return {
    titulo: link.titulo,
    publico: link.publico,
    anonima: link.anonima,
    perguntas: perguntas.map(toPergunta),
    equipe: hasCriterio ? equipe : [],
  };
}

export interface RespostaInput {
  pergunta_id: string;
  profissional_id?: string;
  valor: number | string | boolean | string[];
}

interface Item {
  perguntaId: string;
  profissionalId: string | null;
  valorNum: number | null;
  opcoes: string[] | null;
  texto: string | null;
}

const invalid = (i: number, msg: string) => new ApiError('VALIDATION_FAILED', `respostas[${i}]: ${msg}`);

/** Every answer checked against its question's kind, once per question (per team member for `criterio`). */
export function validateRespostas(perguntas: PerguntaRow[], team: string[], respostas: RespostaInput[]): Item[] {
  const byId = new Map(perguntas.map((q) => [q.id, q]));
  const teamSet = new Set(team);
  const seen = new Set<string>();
  const items: Item[] = respostas.map((r, i) => {
    const q = byId.get(r.pergunta_id);
    if (!q) throw invalid(i, 'pergunta_id não pertence a esta pesquisa');
    if (q.criterio) {
      if (!r.profissional_id) throw invalid(i, 'profissional_id é obrigatório nesta pergunta');
      if (!teamSet.has(r.profissional_id)) throw invalid(i, 'profissional_id não faz parte da equipe do evento');
    } else if (r.profissional_id) throw invalid(i, 'profissional_id só cabe em perguntas por profissional');
    const key = `${q.id}:${r.profissional_id ?? ''}`;
    if (seen.has(key)) throw invalid(i, 'pergunta respondida mais de uma vez');
    seen.add(key);
    const v = r.valor;
    const item: Item = {
      perguntaId: q.id,
      profissionalId: r.profissional_id ?? null,
      valorNum: null,
      opcoes: null,
      texto: null,
    };
    const isInt = (x: unknown, lo: number, hi: number) =>
      typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi;
    switch (q.tipo) {
      case 'nota_1_5':
        if (!isInt(v, 1, 5)) throw invalid(i, 'valor deve ser um inteiro de 1 a 5');
        item.valorNum = v as number;
        break;
      case 'nps_0_10':
        if (!isInt(v, 0, 10)) throw invalid(i, 'valor deve ser um inteiro de 0 a 10');
        item.valorNum = v as number;
        break;
      case 'sim_nao':
        if (typeof v !== 'boolean') throw invalid(i, 'valor deve ser true ou false');
        item.valorNum = v ? 1 : 0;
        break;
      case 'escolha_unica':
        if (typeof v !== 'string' || !(q.opcoes ?? []).includes(v)) throw invalid(i, 'valor deve ser uma das opções');
        item.opcoes = [v];
        break;
      case 'escolha_multipla': {
        if (!Array.isArray(v) || v.length === 0) throw invalid(i, 'valor deve ser uma lista não vazia de opções');
        if (new Set(v).size !== v.length) throw invalid(i, 'opção repetida');
        if (!v.every((o) => typeof o === 'string' && (q.opcoes ?? []).includes(o)))
          throw invalid(i, 'valor deve conter apenas opções da pergunta');
        item.opcoes = v;
        break;
      }
      case 'texto':
        if (typeof v !== 'string' || v.trim() === '') throw invalid(i, 'valor deve ser um texto não vazio');
        if (v.length > 2000) throw invalid(i, 'texto com mais de 2000 caracteres');
        item.texto = v.trim();
        break;
    }
    return item;
  });
  for (const q of perguntas) {
    if (!q.obrigatoria) continue;
    if (q.criterio) {
      const missing = team.find((p) => !seen.has(`${q.id}:${p}`));
      if (missing)
        throw new ApiError(
          'VALIDATION_FAILED',
          `respostas: a pergunta ${q.ordem} é obrigatória para cada profissional da equipe`,
        );
    } else if (!seen.has(`${q.id}:`)) {
      throw new ApiError('VALIDATION_FAILED', `respostas: a pergunta ${q.ordem} é obrigatória`);
    }
  }
  return items;
}

/** D1 binds at most 100 parameters per statement; an item binds 7. */
const ITENS_PER_STATEMENT = 12;

/**
 * Stores a submission. The link is spent by ONE guarded UPDATE (`usado_em IS NULL`) that writes a
 * random `uso`; every insert of the batch is guarded by "the link carries MY `uso`", so of racing
 * submissions exactly one stores anything, and the others answer 404. In an anonymous survey the
 * response keeps no link id, no event and only the day, and the link only the day it was used.
 */
export async function answerPesquisa(db: Db, token: string, respostas: RespostaInput[]) {
  const now = new Date();
  const at = now.toISOString();
  const { hash, link, perguntas, equipe } = await readLink(db, token, at);
  const items = validateRespostas(
    perguntas,
    equipe.map((e) => e.profissional_id),
    respostas,
  );
  const uso = crypto.randomUUID();
  const day = `${at.slice(0, 10)}T00:00:00.000Z`;
  const stamp = link.anonima ? day : at;
  const mine = sql`exists (select 1 from ${pesquisaEnvios} where ${pesquisaEnvios.id} = ${link.envioId} and ${pesquisaEnvios.uso} = ${uso})`;
  const respostaId = crypto.randomUUID();
  const writes: BatchItem<'sqlite'>[] = [
    db.update(pesquisaEnvios).set({ usadoEm: stamp, uso }).where(liveLink(hash, at)),
    insertWhere(
      db,
      pesquisaRespostas,
      {
        id: respostaId,
        pesquisaId: link.pesquisaId,
        envioId: link.anonima ? null : link.envioId,
        agendaId: link.anonima ? null : link.agendaId,
        createdAt: stamp,
      },
      mine,
    ),
  ];
  for (let i = 0; i < items.length; i += ITENS_PER_STATEMENT) {
    // Columns in table order: id, resposta_id, pergunta_id, profissional_id, valor_num, opcoes, texto.
    const values = items
      .slice(i, i + ITENS_PER_STATEMENT)
      .map(
        (it) =>
          sql`(${crypto.randomUUID()}, ${respostaId}, ${it.perguntaId}, ${it.profissionalId}, ${it.valorNum}, ${it.opcoes ? JSON.stringify(it.opcoes) : null}, ${it.texto})`,
      );
    writes.push(
      db.insert(pesquisaRespostaItens).select(sql`select * from (values ${sql.join(values, sql`, `)}) where ${mine}`),
    );
  }
  writes.push(
    // Anonymous: the entry names the survey only, never the link or the response.
    logStatement(
      db,
      { atorId: null, atorRole: null, requestId: null },
      {
        acao: 'pesquisas.resposta',
        entidade: 'pesquisas',
        entidadeId: link.pesquisaId,
        regiao: link.regiao,
        dados: link.anonima ? {} : { envio_id: { depois: link.envioId }, resposta_id: { depois: respostaId } },
        when: mine,
      },
    ),
  );
  const [[stored]] = await writeThenRead(db, writes, [
    db.select({ n: count() }).from(pesquisaRespostas).where(eq(pesquisaRespostas.id, respostaId)),
  ]);
  if (!stored?.n) throw linkNotFound();
  return { message: 'resposta registrada, obrigado!' };
}

// --- Results and CSV ---------------------------------------------------------------------------

const round2 = (x: number) => Math.round(x * 100) / 100;

/** NPS: % of 9-10 minus % of 0-6, 2 decimals. */
export const nps = (promotores: number, detratores: number, n: number) =>
  n === 0 ? null : round2(((promotores - detratores) / n) * 100);

/**
 * `GET /api/pesquisas/{id}/resultados`: per question `n`, and as its kind has them `media`,
 * `distribuicao`, `nps`, `opcoes` (counts per option), `textos`, and for `criterio` questions
 * `por_profissional`. Aggregated in SQL: one round trip whatever the number of answers.
 * Anonymous survey (docs/decisions.md#d21): `enough()` withholds every figure over fewer than
 * MIN_ANONIMO distinct responses, and a `criterio` question's figures over all its ratings while any
 * of its professionals is withheld (subtracting the others' figures would give that one's away).
 * `n` (ratings) stays: each professional's `n` is shown anyway. Not anonymous: everything shown.
 */
export async function resultados(db: Db, regiao: string, id: string) {
  const itemsOf = and(
    sql`${pesquisaRespostaItens.perguntaId} in (select ${pesquisaPerguntas.id} from ${pesquisaPerguntas} where ${pesquisaPerguntas.pesquisaId} = ${id})`,
  );
  const [[p], perguntas, stats, dist, opts, textos, porProf] = await db.batch([
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
  ]);
  if (!p) throw notFound();
  const anon = p.p.anonima;
  /** The anonymity minimum, the one place it is applied: counted in responses, not ratings. */
  const enough = (respostas: number) => !anon || respostas >= MIN_ANONIMO;
  const out = perguntas.map((q) => {
    const s = stats.find((x) => x.perguntaId === q.id);
    const n = s?.n ?? 0;
    const profs = q.criterio
      ? porProf
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
        distribuicao[String(v)] = dist.find((d) => d.perguntaId === q.id && d.valor === v)?.n ?? 0;
    }
    let opcoes: { opcao: string; total: number }[] | null = null;
    if (choice && shown) {
      const labels = q.tipo === 'sim_nao' ? ['sim', 'nao'] : (q.opcoes ?? []);
      opcoes = labels.map((opcao) => ({
        opcao,
        total:
          q.tipo === 'sim_nao'
            ? (dist.find((d) => d.perguntaId === q.id && d.valor === (opcao === 'sim' ? 1 : 0))?.n ?? 0)
            : (opts.find((o) => o.perguntaId === q.id && o.opcao === opcao)?.n ?? 0),
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
      textos: q.tipo === 'texto' && shown ? textos.filter((t) => t.perguntaId === q.id).map((t) => t.texto!) : null,
      por_profissional: profs,
    };
  });
  return { pesquisa_id: p.p.id, titulo: p.p.titulo, anonima: anon, respostas: p.respostas, perguntas: out };
}

/**
 * `GET /api/pesquisas/{id}/respostas.csv`. A non-anonymous survey: one line per answer (a
 * `criterio` question one per professional) with the recipient's e-mail, the event and the exact
 * time. An anonymous survey: `anonymousCsv()`, never one line per answer.
 */
export async function respostasCsv(db: Db, regiao: string, id: string) {
  const [[p], rows] = await db.batch([
    selectPesquisas(db).where(visible(regiao, eq(pesquisas.id, id))),
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
      ),
  ]);
  if (!p) throw notFound();
  if (p.p.anonima) return anonymousCsv(await resultados(db, regiao, id));
  const header = [
    'resposta_id',
    'data',
    'email',
    'agenda_id',
    'pergunta_ordem',
    'pergunta',
    'profissional_id',
    'profissional',
    'valor',
  ];
  const lines = rows.map((r) => {
    const valor =
      r.tipo === 'sim_nao'
        ? r.valorNum === 1
          ? 'sim'
          : 'nao'
        : r.opcoes
          ? r.opcoes.join('; ')
          : (r.texto ?? r.valorNum);
    return [r.respostaId, r.data, r.email, r.agendaId, r.ordem, r.pergunta, r.profissionalId, r.profissional, valor];
  });
  return toCsv(header, lines, ',');
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
