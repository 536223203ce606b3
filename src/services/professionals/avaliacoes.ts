import {
  and,
  eq,
  inArray,
  isNotNull,
  sql,
  type AnyColumn,
  type Placeholder,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Selectable } from '../../db/fast-select';
import { jsonRows } from '../../db/json-rows';
import {
  CRITERIOS,
  pesquisaPerguntas,
  pesquisaRespostaItens,
  pesquisas,
  profissionais,
  type Criterio,
} from '../../db/schema';
import { ApiError } from '../../lib/errors';
import type { Ctx } from '../core/context';

/**
 * Client ratings of professionals (docs/decisions.md#d21; docs/guide/surveys.md): each `criterio`
 * answer about a professional, from surveys of `publico` `cliente` or `formando` (a professional
 * rating a colleague is not a client), feeds `avaliacao_clientes`: per criterion the Bayesian
 * mean (C*m + soma) / (C + n), C = 5, m the mean of that criterion over the answers about the
 * region's professionals, rounded to 2 decimals in SQL; null without answers. The administrators'
 * own ratings (D8) are untouched.
 */

/** The prior's weight: as many answers as the region mean counts for. */
export const BAYES_C = 5;

const i = pesquisaRespostaItens;
const q = pesquisaPerguntas;
const clientSurvey = sql`(select ${pesquisas.publico} from ${pesquisas} where ${pesquisas.id} = ${q.pesquisaId}) <> 'profissional'`;

/**
 * Per (professional, criterion) of the answers `about` admits (a condition on the item's
 * professional): n, the Bayesian mean and the professional's number of responses. The one
 * definition behind both shapes below. Aliased columns: D1 keys batch rows by column name.
 */
function avaliacoesOf(db: Db, about: SQL, regiao: string | Placeholder | SQLWrapper) {
  const m = sql`(select avg(i2.valor_num) from pesquisa_resposta_itens i2
      join pesquisa_perguntas q2 on q2.id = i2.pergunta_id
      join pesquisas p2 on p2.id = q2.pesquisa_id
      join profissionais pr2 on pr2.id = i2.profissional_id
      where pr2.regiao = ${regiao} and p2.publico <> 'profissional' and q2.criterio = ${q.criterio})`;
  return db
    .select({
      criterio: sql<Criterio>`${q.criterio}`.as('av_criterio'),
      n: sql<number>`count(*)`.as('av_n'),
      valor: sql<number>`round((${BAYES_C} * ${m} + sum(${i.valorNum})) / (${BAYES_C} + count(*)), 2)`.as('av_valor'),
      respostas: sql<number>`(select count(distinct i3.resposta_id) from pesquisa_resposta_itens i3
          join pesquisa_perguntas q3 on q3.id = i3.pergunta_id
          join pesquisas p3 on p3.id = q3.pesquisa_id
          where i3.profissional_id = ${i.profissionalId} and q3.criterio is not null and p3.publico <> 'profissional')`.as(
        'av_respostas',
      ),
    })
    .from(i)
    .innerJoin(q, eq(q.id, i.perguntaId))
    .where(and(about, isNotNull(q.criterio), clientSurvey))
    .groupBy(i.profissionalId, q.criterio);
}

/** The rows of the professionals `ids` selects (one select; for one professional: GET /api/me/avaliacoes). */
export const avaliacoesSelect = (db: Db, ids: Selectable | SQL, regiao: string | Placeholder | SQL) =>
  avaliacoesOf(db, inArray(i.profissionalId, ids as SQL), regiao);

/**
 * The rows of ONE professional, `profissionalId` a column of the outer query, as a JSON array
 * column (db/json-rows.ts): a correlated subquery on the items' professional index, so a page of
 * profiles carries its ratings in its own rows (no select of their own in the batch). `regiao`:
 * the region whose mean is the prior (a column of the outer query too, or a value).
 */
export const avaliacoesJson = (db: Db, profissionalId: AnyColumn, regiao: string | Placeholder | SQLWrapper) =>
  jsonRows(avaliacoesOf(db, eq(i.profissionalId, profissionalId), regiao), 'av');

export type AvaliacaoRow = Awaited<ReturnType<typeof avaliacoesOf>>[number];

export interface AvaliacaoClientes {
  qual_tec: number | null;
  educacao_simpatia: number | null;
  desempenho_evento: number | null;
  disp_horario: number | null;
  media: number | null;
  respostas: number;
}

/** The rows of one professional as `avaliacao_clientes`; `media` is the mean of the criteria with answers (as D8). */
export function toAvaliacao(rows: AvaliacaoRow[] = []): AvaliacaoClientes {
  const out: AvaliacaoClientes = {
    qual_tec: null,
    educacao_simpatia: null,
    desempenho_evento: null,
    disp_horario: null,
    media: null,
    respostas: 0,
  };
  for (const r of rows) {
    if ((CRITERIOS as readonly string[]).includes(r.criterio)) out[r.criterio] = r.valor;
    out.respostas = r.respostas;
  }
  const set = CRITERIOS.map((c) => out[c]).filter((v): v is number => v !== null);
  // In hundredths: (4.11 + 4.52) / 2 is 4.31499... in binary, and must round half up to 4.32.
  const hundredths = set.reduce((acc, v) => acc + Math.round(v * 100), 0);
  out.media = set.length ? Math.round(hundredths / set.length) / 100 : null;
  return out;
}

/** `GET /api/me/avaliacoes`: the caller's own profile and its client ratings, one round trip. */
export async function minhasAvaliacoes({ db, user }: Pick<Ctx, 'db' | 'user'>) {
  const userId = user.id;
  const own = db.select({ id: profissionais.id }).from(profissionais).where(eq(profissionais.usuarioId, userId));
  const [[profile], rows] = await db.batch([
    db
      .select({ id: profissionais.id, nome: profissionais.nome, regiao: profissionais.regiao })
      .from(profissionais)
      .where(eq(profissionais.usuarioId, userId)),
    avaliacoesSelect(
      db,
      own,
      sql`(select ${profissionais.regiao} from ${profissionais} where ${profissionais.usuarioId} = ${userId})`,
    ),
  ]);
  if (!profile) throw new ApiError('NOT_FOUND', 'você não tem perfil profissional');
  return {
    profissional_id: profile.id,
    nome: profile.nome,
    regiao: profile.regiao,
    avaliacao_clientes: toAvaliacao(rows),
  };
}
