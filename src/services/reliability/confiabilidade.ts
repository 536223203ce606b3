import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { aliasedColumns } from '../../db/aliased';
import { insertWhere } from '../../db/guarded';
import { withTotal } from '../../db/list-total';
import { writeThenRead } from '../../db/write-read';
import {
  CONFIABILIDADE_TIPOS,
  confiabilidadeContestacoes,
  confiabilidadeEventos,
  confiabilidadeRegioes,
  profissionais,
  type ConfiabilidadeContestacaoRow,
  type ConfiabilidadeEventoRow,
  type ContestacaoStatus,
  type NotificationRow,
} from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { pageBounds, type Page } from '../../lib/pagination';
import { regionAdmin } from '../accounts/profile';
import { created, loggedUpdate, logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { notifiedPush, notifyFromRow, notifyUsersWhere } from '../core/notifications';
import { REGRAS, efeito, resumo } from './explain';
import { MIN_PROFISSIONAIS_AGREGADO, PRIOR_PADRAO, ageDays, decay, effectOf, score } from './formula';
import { excuseStatements, regionMeanSql } from './ledger';

/**
 * The reliability score as people see it (docs/decisions.md#d28; docs/guide/reliability.md): the
 * administrators' and the professional's own view (score, sample, the rules, every ledger row with
 * its effect), the contest of a row and its answer (`abonar` excuses it and recomputes in the same
 * batch), and the research aggregates per region. Only these routes read the score: EVENT_OWNER and
 * agenda_viewer never reach them (their roles), a RESEARCHER only the aggregates.
 */

/** Whose score: the caller's own profile, or a profile of the region (administrators). */
export type Alvo = { me: true } | { id: string };

function profileWhere(ctx: Pick<Ctx, 'user' | 'regiao'>, alvo: Alvo): SQL {
  return 'me' in alvo
    ? eq(profissionais.usuarioId, ctx.user.id)
    : and(eq(profissionais.id, alvo.id), eq(profissionais.regiao, ctx.regiao))!;
}
const profileId = (where: SQL) => sql`(select ${profissionais.id} from ${profissionais} where ${where})`;
const profileMissing = (alvo: Alvo) =>
  new ApiError(
    'NOT_FOUND',
    'me' in alvo ? 'nenhum perfil profissional ligado a esta conta' : 'profissional não encontrado',
  );

const round1 = (n: number) => Math.round(n * 10) / 10;

export const toContestacao = (c: ConfiabilidadeContestacaoRow) => ({
  id: c.id,
  evento_id: c.eventoId,
  profissional_id: c.profissionalId,
  regiao: c.regiao,
  motivo: c.motivo,
  status: c.status,
  resposta: c.resposta,
  respondido_por: c.respondidoPor,
  respondido_em: c.respondidoEm,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
});

/** The ledger row as answered, with its decay today and its effect on the score. */
function toEvento(
  r: ConfiabilidadeEventoRow,
  o: { contestacao: ConfiabilidadeContestacaoRow | null; decaimento: number; pontos: number },
) {
  return {
    id: r.id,
    tipo: r.tipo,
    convite_id: r.conviteId,
    agenda_id: r.agendaId,
    data_evento: r.dataEvento,
    minutos: r.minutos,
    credito: r.credito,
    peso: r.peso,
    ocorrido_em: r.ocorridoEm,
    abonado: r.abonado,
    motivo: r.motivo,
    decaimento: Math.round(o.decaimento * 1000) / 1000,
    efeito_pontos: r.abonado ? 0 : round1(o.pontos),
    efeito: efeito(r, o),
    contestacao: o.contestacao ? toContestacao(o.contestacao) : null,
  };
}

/**
 * A professional's score and ledger in one round trip: the profile, the region's mean (kept sums:
 * one read whatever the ledger's length) and the rows with their contests, newest first. The score
 * is computed at this instant from those rows (the kept `profissionais.confiabilidade` is the same
 * formula, refreshed in each row's batch and nightly), so every row's effect adds up with it.
 */
export async function getConfiabilidade(ctx: Pick<Ctx, 'db' | 'user' | 'regiao'>, alvo: Alvo) {
  const { db } = ctx;
  const where = profileWhere(ctx, alvo);
  const [[profile], rows] = await db.batch([
    db
      .select({
        id: profissionais.id,
        nome: profissionais.nome,
        regiao: profissionais.regiao,
        m: sql<number>`${regionMeanSql(sql`${profissionais.regiao}`)}`,
      })
      .from(profissionais)
      .where(where),
    db
      // The contest's columns aliased: in a batch, D1 keys a row's values by column name (db/aliased.ts).
      .select({ e: confiabilidadeEventos, c: aliasedColumns(confiabilidadeContestacoes, 'c') })
      .from(confiabilidadeEventos)
      .leftJoin(confiabilidadeContestacoes, eq(confiabilidadeContestacoes.eventoId, confiabilidadeEventos.id))
      .where(sql`${confiabilidadeEventos.profissionalId} = ${profileId(where)}`)
      .orderBy(desc(confiabilidadeEventos.ocorridoEm), desc(confiabilidadeEventos.id)),
  ]);
  if (!profile) throw profileMissing(alvo);
  const now = new Date();
  const m = profile.m;
  const s = score(
    rows.map((r) => r.e),
    m,
    now,
  );
  const pontuacao = Math.round(s.valor);
  const contando = rows.filter((r) => !r.e.abonado).length;
  return {
    profissional_id: profile.id,
    nome: profile.nome,
    regiao: profile.regiao,
    pontuacao,
    valor: Math.round(s.valor * 100) / 100,
    novo: s.novo,
    amostra: { eventos: contando, abonados: rows.length - contando, peso: s.peso },
    media_regiao: Math.round(m * 10_000) / 10_000,
    calculado_em: now.toISOString(),
    resumo: resumo({ pontuacao, novo: s.novo, m, eventos: contando }),
    regras: [...REGRAS],
    eventos: rows.map(({ e, c }) =>
      toEvento(e, {
        contestacao: c.id === null ? null : (c as ConfiabilidadeContestacaoRow),
        decaimento: decay(ageDays(e.ocorridoEm, now)),
        pontos: effectOf(e, s.sums, m, now),
      }),
    ),
  };
}

// ------------------------------------------------------------------------------ contests

export interface ContestacaoInput {
  evento_id: string;
  motivo: string;
}

/**
 * The professional contests one of its own rows that still counts: one contest per row (the unique
 * key; a second is 409 CONFLICT), an excused row is 409 INVALID_STATE, someone else's 404. The
 * region's administrators are told in the same batch as the insert and its log entry.
 */
export async function createContestacao(ctx: Ctx, body: ContestacaoInput) {
  const { db, log, user, push } = ctx;
  const mine = and(
    eq(confiabilidadeEventos.id, body.evento_id),
    sql`${confiabilidadeEventos.profissionalId} = ${profileId(eq(profissionais.usuarioId, user.id))}`,
  )!;
  const [[row], [existing]] = await db.batch([
    db
      .select({
        profissionalId: confiabilidadeEventos.profissionalId,
        regiao: profissionais.regiao,
        abonado: confiabilidadeEventos.abonado,
      })
      .from(confiabilidadeEventos)
      .innerJoin(profissionais, eq(profissionais.id, confiabilidadeEventos.profissionalId))
      .where(mine),
    db
      .select({ id: confiabilidadeContestacoes.id })
      .from(confiabilidadeContestacoes)
      .where(eq(confiabilidadeContestacoes.eventoId, body.evento_id)),
  ]);
  if (!row) throw new ApiError('NOT_FOUND', 'evento_id: registro não encontrado no seu histórico');
  if (row.abonado) throw new ApiError('INVALID_STATE', 'este registro já foi abonado: não conta na pontuação');
  if (existing)
    throw new ApiError('CONFLICT', 'este registro já foi contestado: acompanhe a resposta no seu histórico');
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const values = {
    id,
    eventoId: body.evento_id,
    profissionalId: row.profissionalId,
    regiao: row.regiao,
    motivo: body.motivo,
    status: 'aberta' as const,
    createdAt: now,
    updatedAt: now,
  };
  // Guarded again in SQL: the row still counts (an answer may have excused it meanwhile).
  const insert = insertWhere(
    db,
    confiabilidadeContestacoes,
    values,
    sql`exists (select 1 from ${confiabilidadeEventos} where ${mine} and ${confiabilidadeEventos.abonado} = 0)`,
  );
  const inserted = sql`exists (select 1 from ${confiabilidadeContestacoes} where ${confiabilidadeContestacoes.id} = ${id})`;
  const notes = notifyUsersWhere(
    db,
    {
      tipo: 'confiabilidade_contestacao',
      titulo: 'Contestação de confiabilidade',
      mensagem:
        'Um profissional contestou um registro do seu histórico de confiabilidade. Responda abonando ou mantendo o registro.',
      dados: { contestacao_id: id, evento_id: body.evento_id, profissional_id: row.profissionalId, regiao: row.regiao },
    },
    { users: regionAdmin(row.regiao), when: inserted, now },
  );
  const [rows, written] = await writeThenRead(
    db,
    [
      insert,
      logStatement(db, log, {
        acao: 'confiabilidade_contestacoes.create',
        entidade: 'confiabilidade_contestacoes',
        entidadeId: id,
        regiao: row.regiao,
        dados: created(confiabilidadeContestacoes, values),
        when: inserted,
      }),
    ],
    [db.select().from(confiabilidadeContestacoes).where(eq(confiabilidadeContestacoes.id, id)), notes.insert],
  );
  if (!rows[0]) throw new ApiError('INVALID_STATE', 'este registro já foi abonado: não conta na pontuação');
  push(notifiedPush(written));
  return toContestacao(rows[0]);
}

export interface ContestacoesQuery extends Page {
  status?: ContestacaoStatus;
}

/** The region's contests (administrators), oldest first: the queue to answer. */
export async function listContestacoes(ctx: Pick<Ctx, 'db' | 'regiao'>, q: ContestacoesQuery) {
  const { db, regiao } = ctx;
  const where = and(
    eq(confiabilidadeContestacoes.regiao, regiao),
    q.status ? eq(confiabilidadeContestacoes.status, q.status) : undefined,
  );
  const { limit, offset } = pageBounds(q);
  const { rows, total } = await withTotal(
    db,
    q,
    db
      .select({
        c: aliasedColumns(confiabilidadeContestacoes, 'c'),
        e: aliasedColumns(confiabilidadeEventos, 'e'),
        nome: profissionais.nome,
      })
      .from(confiabilidadeContestacoes)
      .innerJoin(confiabilidadeEventos, eq(confiabilidadeEventos.id, confiabilidadeContestacoes.eventoId))
      .innerJoin(profissionais, eq(profissionais.id, confiabilidadeContestacoes.profissionalId))
      .where(where)
      .orderBy(asc(confiabilidadeContestacoes.createdAt), asc(confiabilidadeContestacoes.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(confiabilidadeContestacoes).where(where),
  );
  return {
    items: rows.map(({ c, e: ev, nome }) => {
      const e = ev as ConfiabilidadeEventoRow;
      return {
        ...toContestacao(c as ConfiabilidadeContestacaoRow),
        profissional_nome: nome,
        evento: {
          tipo: e.tipo,
          data_evento: e.dataEvento,
          minutos: e.minutos,
          credito: e.credito,
          peso: e.peso,
          ocorrido_em: e.ocorridoEm,
          abonado: e.abonado,
        },
      };
    }),
    total,
  };
}

export interface DecisaoInput {
  decisao: 'abonar' | 'manter';
  resposta: string;
}

/**
 * An administrator of the region answers an open contest, in ONE batch: the guarded update of the
 * contest (only `aberta`: 409 INVALID_STATE otherwise) with its log entry; for `abonar`, the row
 * excused (`abonado`, `motivo` = the answer) with its log entry and the professional's score
 * recomputed at once; the professional's notification; the contest read back. Every statement after
 * the first is guarded by the mark the update left (`respondido_em` = this instant), so a refused or
 * repeated answer changes nothing.
 */
export async function decideContestacao(ctx: Ctx, id: string, body: DecisaoInput) {
  const { db, log, user, regiao, push } = ctx;
  const now = new Date().toISOString();
  const abonar = body.decisao === 'abonar';
  const status: ContestacaoStatus = abonar ? 'abonada' : 'mantida';
  const open = and(
    eq(confiabilidadeContestacoes.id, id),
    eq(confiabilidadeContestacoes.regiao, regiao),
    eq(confiabilidadeContestacoes.status, 'aberta'),
  );
  const [entry, update] = loggedUpdate(
    { db, log },
    {
      table: confiabilidadeContestacoes,
      where: open,
      set: { status, resposta: body.resposta, respondidoPor: user.id, respondidoEm: now, updatedAt: now },
    },
    { acao: 'confiabilidade_contestacoes.decidir', entidade: 'confiabilidade_contestacoes', regiao },
  );
  // This answer's own mark: the contest it just decided.
  const decided = (col: SQL) =>
    sql`(select ${col} from ${confiabilidadeContestacoes} where ${confiabilidadeContestacoes.id} = ${id}
      and ${confiabilidadeContestacoes.status} = ${status} and ${confiabilidadeContestacoes.respondidoEm} = ${now})`;
  const excuse = abonar
    ? excuseStatements(
        { db, log },
        {
          which: sql`${confiabilidadeEventos.id} = ${decided(sql`${confiabilidadeContestacoes.eventoId}`)}`,
          owner: decided(sql`${confiabilidadeContestacoes.profissionalId}`),
          motivo: body.resposta,
          now,
          regiao,
        },
      )
    : [];
  const notes = notifyFromRow(
    db,
    {
      to: [profissionais.usuarioId],
      tipo: 'confiabilidade_resposta',
      titulo: abonar ? 'Contestação aceita' : 'Contestação respondida',
      mensagem: abonar
        ? sql`'Sua contestação foi aceita: o registro foi abonado e não conta mais na sua pontuação. Resposta: ' || ${confiabilidadeContestacoes.resposta}`
        : sql`'Sua contestação foi analisada e o registro foi mantido. Resposta: ' || ${confiabilidadeContestacoes.resposta}`,
      dados: sql`json_object('contestacao_id', ${confiabilidadeContestacoes.id}, 'evento_id', ${confiabilidadeContestacoes.eventoId}, 'decisao', ${body.decisao})`,
    },
    {
      from: sql`from ${confiabilidadeContestacoes} join ${profissionais} on ${profissionais.id} = ${confiabilidadeContestacoes.profissionalId}`,
      where: and(
        eq(confiabilidadeContestacoes.id, id),
        eq(confiabilidadeContestacoes.status, status),
        eq(confiabilidadeContestacoes.respondidoEm, now),
      )!,
      now,
    },
  );
  const readBack = db
    .select()
    .from(confiabilidadeContestacoes)
    .where(and(eq(confiabilidadeContestacoes.id, id), eq(confiabilidadeContestacoes.regiao, regiao)));
  const results = (await db.batch([entry, update, ...excuse, notes.insert, readBack] as unknown as [
    typeof entry,
  ])) as unknown[];
  const changed = results[1] as D1Result;
  const written = results.at(-2) as NotificationRow[];
  const [row] = results.at(-1) as ConfiabilidadeContestacaoRow[];
  if (!row) throw new ApiError('NOT_FOUND', 'contestação não encontrada');
  if (changed.meta.changes === 0)
    throw new ApiError('INVALID_STATE', `esta contestação já foi respondida (${row.status})`);
  push(notes.push(written));
  return toContestacao(row);
}

// ------------------------------------------------------------------------------ research

/**
 * The n-th distinct professional (by id) with rows of the outer confiabilidade_regioes row's region and
 * kind, or null: each step one seek of confiabilidade_eventos_regiao_tipo_idx past the previous one, so
 * n index entries read whatever the ledger's length. Qualified by hand: drizzle leaves a one-table
 * select's columns bare, and both tables have these.
 */
function nthProfessional(n: number): SQL {
  const after = n > 1 ? sql` and e.profissional_id > ${nthProfessional(n - 1)}` : sql``;
  return sql`(select min(e.profissional_id) from ${confiabilidadeEventos} e
    where e.regiao = ${confiabilidadeRegioes}.regiao and e.tipo = ${confiabilidadeRegioes}.tipo${after})`;
}

/**
 * Per region (every configured one), the ledger in aggregate for RESEARCHERs and administrators:
 * rows and excused rows per kind with their mean credit, and the region's mean credit. Read from the
 * kept sums: no professional, no row of anyone's ledger. A kind with fewer than
 * MIN_PROFISSIONAIS_AGREGADO distinct professionals in the region is suppressed (zeros, null mean,
 * `suprimido`), and the region's own figures sum only the kinds shown, so no difference gives a
 * suppressed kind back; a region with no kind shown reads as one without rows (`padrao`, `suprimido`).
 * The floor's count stops at the floor (nthProfessional).
 */
export async function regioesAgregados(ctx: Pick<Ctx, 'db' | 'config'>) {
  const r = confiabilidadeRegioes;
  const kept = await ctx.db
    .select({
      regiao: r.regiao,
      tipo: r.tipo,
      eventos: r.eventos,
      abonados: r.abonados,
      somaCreditoCent: r.somaCreditoCent,
      somaPesoCent: r.somaPesoCent,
      visivel: sql<number>`${nthProfessional(MIN_PROFISSIONAIS_AGREGADO)} is not null`,
    })
    .from(r);
  return ctx.config.REGIOES.map((regiao) => {
    const mine = kept.filter((k) => k.regiao === regiao && k.visivel);
    const credito = mine.reduce((n, k) => n + k.somaCreditoCent, 0);
    const peso = mine.reduce((n, k) => n + k.somaPesoCent, 0);
    const suprimido = kept.some((k) => k.regiao === regiao && !k.visivel && k.eventos > 0);
    return {
      regiao,
      media_credito: peso > 0 ? Math.round((credito / peso) * 10_000) / 10_000 : PRIOR_PADRAO,
      padrao: peso === 0,
      eventos: mine.reduce((n, k) => n + k.eventos, 0),
      abonados: mine.reduce((n, k) => n + k.abonados, 0),
      suprimido,
      por_tipo: CONFIABILIDADE_TIPOS.map((tipo) => {
        const k = mine.find((x) => x.tipo === tipo);
        const hidden = !k && kept.some((x) => x.regiao === regiao && x.tipo === tipo && x.eventos > 0);
        return {
          tipo,
          eventos: k?.eventos ?? 0,
          abonados: k?.abonados ?? 0,
          media_credito:
            k && k.somaPesoCent > 0 ? Math.round((k.somaCreditoCent / k.somaPesoCent) * 10_000) / 10_000 : null,
          suprimido: hidden,
        };
      }),
    };
  });
}
