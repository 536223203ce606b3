import { and, asc, count, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { insertWhere } from '../../db/guarded';
import {
  convites,
  funcoes,
  pesquisaEnvios,
  pesquisaPerguntas,
  pesquisaRespostaItens,
  pesquisaRespostas,
  pesquisas,
  profissionais,
} from '../../db/schema';
import { writeThenRead } from '../../db/write-read';
import { ApiError } from '../../lib/errors';
import { sha256Hex } from '../../lib/tokens';
import { logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { selectPerguntas, toPergunta, type PerguntaRow } from './pesquisa-rows';

/**
 * Answering a survey (docs/decisions.md#d21; docs/guide/surveys.md): the public routes of a
 * single-use link, `GET` and `POST /p/pesquisas/{token}`. No caller: the link is the credential.
 */

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

export async function publicPesquisa({ db }: Pick<Ctx, 'db'>, token: string) {
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

const isInt = (x: unknown, lo: number, hi: number) =>
  typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi;

/** The stored value of answer `i`, `v`, to question `q`, checked against its kind. */
function valueOf(q: PerguntaRow, v: RespostaInput['valor'], i: number): Pick<Item, 'valorNum' | 'opcoes' | 'texto'> {
  const none = { valorNum: null, opcoes: null, texto: null };
  switch (q.tipo) {
    case 'nota_1_5':
      if (!isInt(v, 1, 5)) throw invalid(i, 'valor deve ser um inteiro de 1 a 5');
      return { ...none, valorNum: v as number };
    case 'nps_0_10':
      if (!isInt(v, 0, 10)) throw invalid(i, 'valor deve ser um inteiro de 0 a 10');
      return { ...none, valorNum: v as number };
    case 'sim_nao':
      if (typeof v !== 'boolean') throw invalid(i, 'valor deve ser true ou false');
      return { ...none, valorNum: v ? 1 : 0 };
    case 'escolha_unica':
      if (typeof v !== 'string' || !(q.opcoes ?? []).includes(v)) throw invalid(i, 'valor deve ser uma das opções');
      return { ...none, opcoes: [v] };
    case 'escolha_multipla': {
      if (!Array.isArray(v) || v.length === 0) throw invalid(i, 'valor deve ser uma lista não vazia de opções');
      if (new Set(v).size !== v.length) throw invalid(i, 'opção repetida');
      if (!v.every((o) => typeof o === 'string' && (q.opcoes ?? []).includes(o)))
        throw invalid(i, 'valor deve conter apenas opções da pergunta');
      return { ...none, opcoes: v };
    }
    case 'texto':
      if (typeof v !== 'string' || v.trim() === '') throw invalid(i, 'valor deve ser um texto não vazio');
      if (v.length > 2000) throw invalid(i, 'texto com mais de 2000 caracteres');
      return { ...none, texto: v.trim() };
  }
  return none;
}

/** Every required question answered (a `criterio` one for each professional of the team); `seen` holds `pergunta:profissional`. */
function assertRequired(perguntas: PerguntaRow[], team: string[], seen: Set<string>) {
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
}

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
    return { perguntaId: q.id, profissionalId: r.profissional_id ?? null, ...valueOf(q, r.valor, i) };
  });
  assertRequired(perguntas, team, seen);
  return items;
}

/** D1 binds at most 100 parameters per statement; an item binds 7. */
const ITENS_PER_STATEMENT = 12;

/** The answer items of response `respostaId`, inserted only while `mine` holds. */
function itemInserts(db: Db, { respostaId, items, mine }: { respostaId: string; items: Item[]; mine: SQL }) {
  const out: BatchItem<'sqlite'>[] = [];
  for (let i = 0; i < items.length; i += ITENS_PER_STATEMENT) {
    // Columns in table order: id, resposta_id, pergunta_id, profissional_id, valor_num, opcoes, texto.
    const values = items
      .slice(i, i + ITENS_PER_STATEMENT)
      .map(
        (it) =>
          sql`(${crypto.randomUUID()}, ${respostaId}, ${it.perguntaId}, ${it.profissionalId}, ${it.valorNum}, ${it.opcoes ? JSON.stringify(it.opcoes) : null}, ${it.texto})`,
      );
    out.push(
      db.insert(pesquisaRespostaItens).select(sql`select * from (values ${sql.join(values, sql`, `)}) where ${mine}`),
    );
  }
  return out;
}

/**
 * Stores a submission. The link is spent by ONE guarded UPDATE (`usado_em IS NULL`) that writes a
 * random `uso`; every insert of the batch is guarded by "the link carries MY `uso`", so of racing
 * submissions exactly one stores anything, and the others answer 404. In an anonymous survey the
 * response keeps no link id, no event and only the day, and the link only the day it was used.
 */
export async function answerPesquisa({ db }: Pick<Ctx, 'db'>, token: string, respostas: RespostaInput[]) {
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
    ...itemInserts(db, { respostaId, items, mine }),
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
  ];
  const [[stored]] = await writeThenRead(db, writes, [
    db.select({ n: count() }).from(pesquisaRespostas).where(eq(pesquisaRespostas.id, respostaId)),
  ]);
  if (!stored?.n) throw linkNotFound();
  return { message: 'resposta registrada, obrigado!' };
}
