import { and, desc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { createDb, type Db } from '../../db/client';
import { rawBatch } from '../../db/raw-batch';
import {
  agenda,
  campanhaFuncoes,
  convites,
  campanhaParticipacoes,
  campanhaRespostas,
  campanhasDisponibilidade,
  disponibilidades,
  funcoes,
  notifications,
  profissionais,
  profissionalFuncoes,
  users,
  type CampanhaResposta,
  type CampanhaRow,
} from '../../db/schema';
import { generatedId } from '../../db/generated-id';
import type { Bindings } from '../../env';
import { daysFrom, saoPauloDate } from '../../lib/dates';
import type { PushMessage } from '../../lib/messages';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import { created, logStatement, loggedUpdate } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { notifyUsersWhere } from '../core/notifications';
import { assertRefsInRegion } from '../core/references';
import { eventList } from './disponibilidades';
import { acceptedMeeting } from './rule';

/**
 * The season poll (docs/decisions.md#d24; docs/guide/availability.md): one question to every active
 * holder of some functions in the region about the dates `de`..`ate`; each answers per date
 * sim / nao / talvez until `prazo` (a São Paulo day, inclusive), replacing its answer; a `nao`
 * becomes an `indisponivel` declaration (origem campanha); the result counts, per date and
 * function, the holders' answers and the silent; the silent get one reminder two days before `prazo`.
 */

const notFound = () => new ApiError('NOT_FOUND', 'campanha não encontrada');

/** The active holders of the campaign's functions in its region (a profile linked to an active account). */
const holdersOf = (campanhaId: SQLWrapper | string, regiao: SQLWrapper | string) =>
  sql`select distinct ${profissionais.id} as pid, ${profissionais.usuarioId} as uid
    from ${campanhaFuncoes} join ${profissionalFuncoes} on ${profissionalFuncoes.funcaoId} = ${campanhaFuncoes.funcaoId}
      join ${profissionais} on ${profissionais.id} = ${profissionalFuncoes.profissionalId}
    where ${campanhaFuncoes.campanhaId} = ${campanhaId} and ${profissionais.regiao} = ${regiao}
      and ${profissionalFuncoes.listado} = 1`;

const funcaoIdsJson = sql<string>`(select json_group_array(${campanhaFuncoes.funcaoId}) from ${campanhaFuncoes} where ${campanhaFuncoes.campanhaId} = ${campanhasDisponibilidade.id})`;

const selectCampanhas = (db: Db) =>
  db.select({ c: campanhasDisponibilidade, funcaoIds: funcaoIdsJson.as('funcao_ids') }).from(campanhasDisponibilidade);

type CampanhaView = { c: CampanhaRow; funcaoIds: string };

export const toCampanha = (v: CampanhaView) => ({
  id: v.c.id,
  regiao: v.c.regiao,
  nome: v.c.nome,
  de: v.c.de,
  ate: v.c.ate,
  prazo: v.c.prazo,
  funcao_ids: (JSON.parse(v.funcaoIds ?? '[]') as string[]).sort(),
  encerrada_em: v.c.encerradaEm,
  lembrete_em: v.c.lembreteEm,
  created_at: v.c.createdAt,
  updated_at: v.c.updatedAt,
});

/** Open: answers are taken through `prazo` (São Paulo), until an administrator closes it. */
const openSql = (hoje: string) =>
  sql`${campanhasDisponibilidade.prazo} >= ${hoje} and ${campanhasDisponibilidade.encerradaEm} is null`;

/** The caller's profile, as a condition on `profissionais`. */
const mine = (ctx: Pick<Ctx, 'user'>) => eq(profissionais.usuarioId, ctx.user.id);
const myProfileId = (ctx: Pick<Ctx, 'user'>) =>
  sql`(select ${profissionais.id} from ${profissionais} where ${mine(ctx)})`;

/** What the caller sees: administrators every campaign of the region; a professional those asking it. */
function visible(ctx: Pick<Ctx, 'user' | 'regiao'>, ...more: (SQL | undefined)[]) {
  const holder = isAdmin(ctx.user.role)
    ? undefined
    : sql`exists (select 1 from (${holdersOf(campanhasDisponibilidade.id, campanhasDisponibilidade.regiao)}) h where h.pid = ${myProfileId(ctx)})`;
  return and(eq(campanhasDisponibilidade.regiao, ctx.regiao), holder, ...more);
}

export interface CampanhaInput {
  nome: string;
  de: string;
  ate: string;
  prazo: string;
  funcao_ids: string[];
}

/**
 * Creates the poll and, in the same batch, notifies every active holder of its functions in the
 * region (docs/decisions.md#d24). The functions must be the region's (404 naming the field).
 */
export async function createCampanha(ctx: Ctx, body: CampanhaInput) {
  const { db, log, user, regiao, push } = ctx;
  const hoje = saoPauloDate(new Date());
  if (body.prazo < hoje) throw new ApiError('VALIDATION_FAILED', `prazo: não pode ser antes de hoje (${hoje})`);
  await assertRefsInRegion(
    ctx,
    body.funcao_ids.map((id) => ({ field: 'funcao_ids', table: funcoes, id })),
  );
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const values = {
    id,
    regiao,
    nome: body.nome,
    de: body.de,
    ate: body.ate,
    prazo: body.prazo,
    criadoPor: user.id,
    createdAt: now,
    updatedAt: now,
  };
  const notes = notifyUsersWhere(
    db,
    {
      tipo: 'campanha_disponibilidade',
      titulo: 'Pesquisa de disponibilidade',
      mensagem: `${body.nome}: diga em quais datas de ${br(body.de)} a ${br(body.ate)} você pode trabalhar (até ${br(body.prazo)})`,
      dados: { campanha_id: id },
    },
    {
      users: sql`${users.ativo} = 1 and ${users.id} in (select h.uid from (${holdersOf(id, regiao)}) h)`,
      when: sql`1`,
      now,
    },
  );
  const [, , , written, rows] = await db.batch([
    db.insert(campanhasDisponibilidade).values(values),
    db.insert(campanhaFuncoes).values(body.funcao_ids.map((funcaoId) => ({ campanhaId: id, funcaoId }))),
    logStatement(db, log, {
      acao: 'campanhas_disponibilidade.create',
      entidade: 'campanhas_disponibilidade',
      entidadeId: id,
      regiao,
      dados: { ...created(campanhasDisponibilidade, values), funcao_ids: { depois: body.funcao_ids } },
    }),
    notes.insert,
    selectCampanhas(db).where(eq(campanhasDisponibilidade.id, id)),
  ]);
  push(notes.push(written));
  return toCampanha(rows[0]!);
}

/** The campaigns the caller sees, newest deadline first. */
export async function listCampanhas(ctx: Ctx) {
  const rows = await selectCampanhas(ctx.db)
    .where(visible(ctx))
    .orderBy(desc(campanhasDisponibilidade.prazo), desc(campanhasDisponibilidade.id));
  return rows.map(toCampanha);
}

/** One campaign with the caller's own answers (none for an administrator). */
export async function getCampanha(ctx: Ctx, id: string) {
  const { db } = ctx;
  const [rows, respostas] = await db.batch([
    selectCampanhas(db).where(visible(ctx, eq(campanhasDisponibilidade.id, id))),
    db
      .select({ data: campanhaRespostas.data, resposta: campanhaRespostas.resposta })
      .from(campanhaRespostas)
      .where(and(eq(campanhaRespostas.campanhaId, id), sql`${campanhaRespostas.profissionalId} = ${myProfileId(ctx)}`))
      .orderBy(campanhaRespostas.data),
  ]);
  if (!rows[0]) throw notFound();
  return { ...toCampanha(rows[0]), minhas_respostas: respostas };
}

/** Closes a campaign before its deadline (administrators): no answer after it. */
export async function encerrarCampanha(ctx: Ctx, id: string) {
  const { db, log, regiao } = ctx;
  const now = new Date().toISOString();
  const where = and(
    eq(campanhasDisponibilidade.id, id),
    eq(campanhasDisponibilidade.regiao, regiao),
    sql`${campanhasDisponibilidade.encerradaEm} is null`,
  );
  const [entry, update] = loggedUpdate(
    { db, log },
    { table: campanhasDisponibilidade, where, set: { encerradaEm: now, updatedAt: now } },
    { acao: 'campanhas_disponibilidade.encerrar', entidade: 'campanhas_disponibilidade', regiao },
  );
  const [, , rows] = await db.batch([
    entry,
    update,
    selectCampanhas(db).where(and(eq(campanhasDisponibilidade.id, id), eq(campanhasDisponibilidade.regiao, regiao))),
  ]);
  if (!rows[0]) throw notFound();
  return toCampanha(rows[0]);
}

const br = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

export interface RespostaItem {
  data: string;
  resposta: CampanhaResposta;
}

/** Answer rows per statement (D1 binds at most 100 parameters; a row binds 2, the statement 3 more). */
const ROWS_PER_STATEMENT = 40;

/**
 * A professional answers (replacing its answer). The deadline is decided by ONE guarded statement,
 * the first of the batch: the upsert of the caller's participation row, written only while the
 * campaign is open and no `nao` day meets an accepted invitation, marked with this request's own
 * `marca`; every other statement of the batch (the answers, the declarations its `nao` days become,
 * the log entry) writes only under that mark. An answer racing the deadline or a close is therefore
 * wholly in or wholly out, and two answers of the same professional replace each other whole.
 */
export async function answerCampanha(ctx: Ctx, id: string, body: { datas: RespostaItem[] }) {
  const { db, log, user, regiao } = ctx;
  const now = new Date().toISOString();
  const hoje = saoPauloDate(new Date());
  const [rows, profile] = await db.batch([
    selectCampanhas(db).where(visible(ctx, eq(campanhasDisponibilidade.id, id))),
    db.select({ id: profissionais.id }).from(profissionais).where(mine(ctx)),
  ]);
  const campanha = rows[0];
  if (!campanha || !profile[0]) throw notFound();
  const pid = profile[0].id;
  const fora = body.datas.find((d) => d.data < campanha.c.de || d.data > campanha.c.ate);
  if (fora)
    throw new ApiError(
      'VALIDATION_FAILED',
      `datas: ${fora.data} fora do período da campanha (${campanha.c.de} a ${campanha.c.ate})`,
    );
  const closed = () =>
    new ApiError('INVALID_STATE', `a campanha não recebe mais respostas (prazo ${campanha.c.prazo})`);
  if (campanha.c.encerradaEm || campanha.c.prazo < hoje) throw closed();

  const marca = crypto.randomUUID();
  const naoDias = body.datas.filter((d) => d.resposta === 'nao' && d.data >= hoje).map((d) => d.data);
  const naoJson = JSON.stringify(naoDias);
  const day = sql.raw('av_j.value');
  const clash = sql`from json_each(${naoJson}) av_j join ${convites} join ${agenda} on ${agenda.id} = ${convites.agendaId}
    where ${acceptedMeeting(sql`${pid}`, { inicio: day, fim: day, horaInicio: sql`null`, horaFim: sql`null`, dias: sql`null` })}`;
  const marked = sql`exists (select 1 from ${campanhaParticipacoes} where ${campanhaParticipacoes.campanhaId} = ${id}
    and ${campanhaParticipacoes.profissionalId} = ${pid} and ${campanhaParticipacoes.marca} = ${marca})`;
  const statements: SQL[] = [
    sql`insert into ${campanhaParticipacoes} (campanha_id, profissional_id, respondido_em, marca)
      select ${id}, ${pid}, ${now}, ${marca}
      where exists (select 1 from ${campanhasDisponibilidade} where ${campanhasDisponibilidade.id} = ${id} and ${openSql(hoje)})
        and not exists (select 1 ${clash})
      on conflict (campanha_id, profissional_id) do update set respondido_em = excluded.respondido_em, marca = excluded.marca`,
    sql`delete from ${campanhaRespostas} where ${campanhaRespostas.campanhaId} = ${id} and ${campanhaRespostas.profissionalId} = ${pid} and ${marked}`,
  ];
  for (let i = 0; i < body.datas.length; i += ROWS_PER_STATEMENT) {
    const chunk = body.datas.slice(i, i + ROWS_PER_STATEMENT).map((d) => sql`(${d.data}, ${d.resposta})`);
    statements.push(sql`insert into ${campanhaRespostas} (campanha_id, profissional_id, data, resposta)
      select ${id}, ${pid}, v.column1, v.column2 from (values ${sql.join(chunk, sql`, `)}) v where ${marked}`);
  }
  // The declarations of its `nao` days (today on; past days are locked) replace those of its previous answer.
  statements.push(sql`delete from ${disponibilidades} where ${disponibilidades.campanhaId} = ${id}
    and ${disponibilidades.profissionalId} = ${pid} and ${disponibilidades.dataInicio} >= ${hoje} and ${marked}`);
  if (naoDias.length)
    statements.push(sql`insert into ${disponibilidades} (id, profissional_id, tipo, data_inicio, data_fim, hora_inicio, hora_fim,
        dias_semana, motivo, origem, campanha_id, criado_por, created_at, updated_at)
      select ${generatedId}, ${pid}, 'indisponivel', av_j.value, av_j.value, null, null, null, null, 'campanha', ${id}, ${user.id}, ${now}, ${now}
      from json_each(${naoJson}) av_j where ${marked}`);
  statements.push(
    logStatement(db, log, {
      acao: 'campanhas_disponibilidade.responder',
      entidade: 'campanhas_disponibilidade',
      entidadeId: id,
      regiao,
      dados: { profissional_id: { depois: pid }, datas: { depois: body.datas } },
      when: marked,
    }).getSQL(),
    sql`select respondido_em from ${campanhaParticipacoes} where ${campanhaParticipacoes.campanhaId} = ${id}
      and ${campanhaParticipacoes.profissionalId} = ${pid} and ${campanhaParticipacoes.marca} = ${marca}`,
    sql`select ${agenda.id} as id, ${agenda.dataEvento} as data, ${agenda.horario} as horario ${clash}
      order by ${agenda.dataEvento}, ${agenda.horario}`,
  );
  const results = await rawBatch(db, statements);
  const [landed, clashes] = results.slice(-2) as unknown as [
    { rows: { respondido_em: string }[] },
    { rows: EventRef[] },
  ];
  if (landed.rows[0])
    return {
      campanha_id: id,
      respondido_em: landed.rows[0].respondido_em,
      datas: [...body.datas].sort((a, b) => a.data.localeCompare(b.data)),
    };
  if (clashes.rows.length)
    throw new ApiError(
      'HAS_ASSIGNMENT',
      `resposta nao em dia com convite aceito: cancele primeiro a participação pelo caminho normal (eventos: ${eventList(clashes.rows)})`,
    );
  throw closed();
}

type EventRef = { id: string; data: string; horario: string | null };

export interface ResultadoLinha {
  data: string;
  funcao_id: string;
  funcao_nome: string;
  titulares: number;
  sim: number;
  talvez: number;
  nao: number;
  sem_resposta: number;
}

/**
 * Per date x function: the active holders' answers and the silent (holders without an answer for
 * that date). Three statements in one round trip, whatever the number of holders and dates: the
 * campaign, the head count per function, the answers counted per date, function and answer.
 */
export async function resultadoCampanha(ctx: Ctx, id: string) {
  const { db, regiao } = ctx;
  const c = campanhasDisponibilidade;
  // The holders of its functions once (a profile holds only functions of its own region), and the
  // answers counted per date, function and answer; the date x function grid is made here.
  const [found, holders, answers] = await rawBatch(db, [
    sql`select ${c.de} as de, ${c.ate} as ate from ${c} where ${c.id} = ${id} and ${c.regiao} = ${regiao}`,
    sql`select cf.funcao_id as funcao_id, f.nome as funcao_nome, count(pf.profissional_id) as titulares
      from ${campanhaFuncoes} cf join ${funcoes} f on f.id = cf.funcao_id
        left join ${profissionalFuncoes} pf on pf.funcao_id = cf.funcao_id and pf.listado = 1
      where cf.campanha_id = ${id}
      group by cf.funcao_id order by f.nome, cf.funcao_id`,
    sql`select r.data as data, pf.funcao_id as funcao_id, r.resposta as resposta, count(*) as n
      from ${campanhaRespostas} r join ${profissionalFuncoes} pf on pf.profissional_id = r.profissional_id and pf.listado = 1
      where r.campanha_id = ${id} and pf.funcao_id in (select funcao_id from ${campanhaFuncoes} where campanha_id = ${id})
      group by r.data, pf.funcao_id, r.resposta`,
  ]);
  const campanha = found!.rows[0] as { de: string; ate: string } | undefined;
  if (!campanha) throw notFound();
  const counts = new Map<string, number>();
  for (const r of answers!.rows) counts.set(`${r.data}|${r.funcao_id}|${r.resposta}`, Number(r.n));
  const linhas: ResultadoLinha[] = [];
  for (const data of daysFrom(campanha.de, campanha.ate))
    for (const h of holders!.rows as { funcao_id: string; funcao_nome: string; titulares: number }[]) {
      const n = (resposta: CampanhaResposta) => counts.get(`${data}|${h.funcao_id}|${resposta}`) ?? 0;
      const [sim, talvez, nao] = [n('sim'), n('talvez'), n('nao')];
      linhas.push({ data, ...h, sim, talvez, nao, sem_resposta: h.titulares - sim - talvez - nao });
    }
  return { campanha_id: id, linhas };
}

/**
 * The scheduled job (src/scheduled/index.ts): one reminder to the silent (active holders with no
 * answer at all) of each open campaign whose `prazo` is two days away or closer, once. The run first
 * claims the campaigns (`UPDATE ... WHERE lembrete_execucao IS NULL`, tagged with its own id), then
 * notifies the silent of exactly the campaigns IT claimed, in the same batch: a repeated or
 * overlapping run claims none. A campaign created inside those two days is not reminded (it was
 * just asked).
 */
export async function lembrarCampanhas(env: Bindings, now: Date) {
  const db = createDb(env.DB);
  const run = crypto.randomUUID();
  const at = now.toISOString();
  const hoje = saoPauloDate(now);
  const c = campanhasDisponibilidade;
  const [claimed, notes] = await rawBatch(db, [
    sql`update ${c} set lembrete_execucao = ${run}, lembrete_em = ${at}, updated_at = ${at}
      where ${c.lembreteExecucao} is null and ${c.encerradaEm} is null
        and ${c.prazo} >= ${hoje} and ${c.prazo} <= date(${hoje}, '+2 days')
        and ${c.createdAt} < ${saoPauloDayStartSql(sql`date(${c.prazo}, '-2 days')`)}
      returning id`,
    sql`insert into ${notifications} (id, user_id, tipo, titulo, mensagem, dados, lida, read_at, created_at, updated_at)
      select ${generatedId}, ${users.id}, 'campanha_lembrete', 'Responda a pesquisa de disponibilidade',
        ${c.nome} || ': o prazo termina em ' || substr(${c.prazo}, 9, 2) || '/' || substr(${c.prazo}, 6, 2) || '/' || substr(${c.prazo}, 1, 4),
        json_object('campanha_id', ${c.id}), 0, null, ${at}, ${at}
      from ${c} join ${users}
      where ${c.lembreteExecucao} = ${run} and ${users.ativo} = 1
        and ${users.id} in (select h.uid from (${holdersOf(c.id, c.regiao)}) h
          where not exists (select 1 from ${campanhaParticipacoes} where ${campanhaParticipacoes.campanhaId} = ${c.id} and ${campanhaParticipacoes.profissionalId} = h.pid))
      returning *`,
  ]);
  const push: PushMessage[] = notes!.rows.map((r) => ({
    userId: r.user_id as string,
    notificationId: r.id as string,
    titulo: r.titulo as string,
    mensagem: r.mensagem as string,
    dados: JSON.parse(r.dados as string) as PushMessage['dados'],
  }));
  return { campanhas: claimed!.rows.length, lembretes: notes!.rows.length, push };
}

/** The instant (ISO, UTC) a São Paulo day given as SQL starts: 03:00Z. */
const saoPauloDayStartSql = (day: SQL) => sql`(${day} || 'T03:00:00.000Z')`;
