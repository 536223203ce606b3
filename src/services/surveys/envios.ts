import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { createDb, type Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { insertWhere } from '../../db/guarded';
import {
  agenda,
  cadastroFot,
  emailOutbox,
  logsAtividade,
  pesquisaEnvios,
  pesquisaPerguntas,
  pesquisas,
  users,
} from '../../db/schema';
import { writeThenRead } from '../../db/write-read';
import { getConfig, type Bindings } from '../../env';
import { ApiError } from '../../lib/errors';
import { saoPauloDate } from '../../lib/dates';
import { newRefreshToken, sha256Hex } from '../../lib/tokens';
import { logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { prepareEmail } from '../core/mail';
import { notFound, visible } from './pesquisa-rows';

/**
 * A survey's single-use links (docs/decisions.md#d21; docs/guide/surveys.md): sent by hand
 * (`POST /api/pesquisas/{id}/envios`) and by the scheduled job the day after events. Each link is
 * stored as a hash only and e-mailed through the outbox.
 */

/** A link lives 14 days. */
export const LINK_TTL_MS = 14 * 86_400_000;

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

const ativa = (pesquisaId: string) =>
  sql`exists (select 1 from ${pesquisas} where ${pesquisas.id} = ${pesquisaId} and ${pesquisas.status} = 'ativa')`;

/**
 * The statements of sending links: for each recipient a link row (hash only) and its outbox
 * e-mail, written only if that very link row exists (an automatic send that lost a race to its
 * unique key writes no e-mail), and only while the survey is `ativa`.
 */
async function envioStatements(
  { db, config }: Pick<Ctx, 'db' | 'config'>,
  envio: { titulo: string; rows: EnvioRow[]; now: Date },
) {
  const { titulo, rows, now } = envio;
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS).toISOString();
  const writes: BatchItem<'sqlite'>[] = [];
  const outboxIds: string[] = [];
  for (const r of rows) {
    const token = newRefreshToken(); // 32 random bytes, base64url
    const values = { ...r, tokenHash: await sha256Hex(token), expiresAt, usadoEm: null, uso: null, createdAt: at };
    writes.push(insertWhere(db, pesquisaEnvios, values, ativa(r.pesquisaId)).onConflictDoNothing());
    const mail = await prepareEmail(
      { db, config },
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

export interface NewEnvio {
  agenda_id?: string;
  destinatarios: Destinatario[];
}

/**
 * What a send needs before it writes: the survey of the region, `ativa` (409), the event of the
 * region (404 naming the field) and, for a survey with questions per professional, an event at all.
 */
async function sendChecks({ db, regiao }: Pick<Ctx, 'db' | 'regiao'>, id: string, body: NewEnvio) {
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
  return p;
}

/** `POST /api/pesquisas/{id}/envios`: one single-use link per recipient, e-mailed through the outbox. */
export async function sendPesquisa(ctx: Ctx, id: string, body: NewEnvio) {
  const { db, log, regiao, mail } = ctx;
  const p = await sendChecks(ctx, id, body);
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
  const { writes, outboxIds } = await envioStatements(ctx, { titulo: p.titulo, rows, now });
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
        when: ativa(id),
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
  mail(outboxIds);
  return { enviados: n!.n, expira_em: new Date(now.getTime() + LINK_TTL_MS).toISOString() };
}

/** At most this many automatic links per run (the rest go in the next runs, 15 minutes apart). */
const AUTO_LIMIT = 40;
/** Events up to this many days ago still get their automatic survey (a missed run is made up). */
const AUTO_DAYS_BACK = 3;

/**
 * The automatic links due at `now`: per `ativa` survey of `publico` `cliente` with an event type,
 * each event of that type of the last days, each active EVENT_OWNER of the event's company, not
 * sent yet; at most AUTO_LIMIT, oldest events first.
 */
const dueLinks = (db: Db, now: Date) =>
  db
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
        sql`${agenda.dataEvento} >= ${saoPauloDate(now, -AUTO_DAYS_BACK)} and ${agenda.dataEvento} < ${saoPauloDate(now)}`,
        sql`not exists (select 1 from ${pesquisaEnvios} e where e.pesquisa_id = ${pesquisas.id} and e.agenda_id = ${agenda.id} and e.usuario_id = ${users.id})`,
      ),
    )
    .orderBy(asc(agenda.dataEvento), asc(agenda.id))
    .limit(AUTO_LIMIT);

/**
 * Scheduled job `enviar-pesquisas`: for each `ativa` survey of `publico` `cliente` with an event
 * type, the day after each event of that type (up to 3 days late), one link to each active
 * EVENT_OWNER of the event's company. Exactly once per (survey, event, recipient): the link row's
 * unique key refuses a second one, and the e-mail is written only with the row that got in.
 * One read and one batch per run, whatever the number of events.
 */
export async function enviarPesquisas(env: Bindings, now: Date) {
  const db = createDb(env.DB);
  const due = await dueLinks(db, now);
  if (due.length === 0) return 0;
  const ctx = { db, config: getConfig(env) };
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
    const s = await envioStatements(ctx, { titulo: d.titulo, rows: [row], now });
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
