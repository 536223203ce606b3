import { and, eq, sql } from 'drizzle-orm';
import { createDb } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { rawBatch } from '../../db/raw-batch';
import { capacidadeAlertas, capacidadeExecucoes, notifications, users } from '../../db/schema';
import { getConfig, type Bindings } from '../../env';
import { saoPauloDate } from '../../lib/dates';
import type { PushMessage } from '../../lib/messages';
import { regionAdmin } from '../accounts/profile';
import { capacidade, type CapacidadeLinha } from './capacidade';
import { mondayOf } from './periodos';

/** How many (date, function) pairs the notice names before "e mais N". */
const NAMED = 5;

const ddmm = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}`;

/** The notice's text: how many, then the first few pairs. */
function message(deficits: CapacidadeLinha[], horizonte: number) {
  const named = deficits.slice(0, NAMED).map((l) => `${ddmm(l.periodo)} ${l.nome} (faltam ${l.deficit})`);
  const more = deficits.length > NAMED ? ` e mais ${deficits.length - NAMED}` : '';
  const n = deficits.length;
  return `${n} ${n === 1 ? 'data' : 'datas'} com déficit de equipe nos próximos ${horizonte} dias: ${named.join(', ')}${more}.`;
}

/**
 * The weekly job (docs/decisions.md#d26): for each region, once per week (São Paulo, from Monday),
 * the planner of the next PLANEJAMENTO_HORIZONTE_DIAS days by day, and a `capacidade_deficit` notice
 * to the region's administrators naming each (date, function) in deficit. Once per (date, function,
 * week) whatever the number or overlap of runs: a run claims the (region, week) in its write batch
 * (capacidade_execucoes' key), and the notices and the notified pairs (capacidade_alertas' key) are
 * written only under its own claim, in the same batch. A week with no deficit writes the claim alone,
 * so later runs of that week compute nothing.
 */
export async function alertarDeficits(env: Bindings, now: Date) {
  const config = getConfig(env);
  const db = createDb(env.DB);
  const hoje = saoPauloDate(now);
  const semana = mondayOf(hoje);
  const horizonte = config.PLANEJAMENTO_HORIZONTE_DIAS;
  const at = now.toISOString();
  const out = { regioes: 0, alertas: 0, notificacoes: 0, push: [] as PushMessage[] };
  for (const regiao of config.REGIOES) {
    // A cheap look first: the claim in the batch below is what decides.
    const [done] = await db
      .select({ n: sql<number>`1` })
      .from(capacidadeExecucoes)
      .where(and(eq(capacidadeExecucoes.regiao, regiao), eq(capacidadeExecucoes.semana, semana)));
    if (done) continue;
    const cap = await capacidade(
      { db, regiao, config },
      { de: hoje, ate: saoPauloDate(now, horizonte - 1), agrupar: 'dia', soComDemanda: true },
    );
    const deficits = cap.linhas.filter((l) => l.tipo === 'funcao' && l.status === 'deficit');
    const run = crypto.randomUUID();
    const claimed = sql`exists (select 1 from ${capacidadeExecucoes} where ${capacidadeExecucoes.regiao} = ${regiao}
      and ${capacidadeExecucoes.semana} = ${semana} and ${capacidadeExecucoes.execucao} = ${run})`;
    const pairs = JSON.stringify(deficits.map((l) => [l.periodo, l.funcao_id, l.deficit]));
    const [, alerts, notes] = await rawBatch(db, [
      sql`insert into ${capacidadeExecucoes} (regiao, semana, execucao, created_at)
        values (${regiao}, ${semana}, ${run}, ${at}) on conflict do nothing`,
      sql`insert into ${capacidadeAlertas} (regiao, data, funcao_id, semana, deficit, execucao, created_at)
        select ${regiao}, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), ${semana},
          json_extract(j.value, '$[2]'), ${run}, ${at}
        from json_each(${pairs}) j where ${claimed}
        on conflict do nothing returning data`,
      sql`insert into ${notifications} (id, user_id, tipo, titulo, mensagem, dados, lida, read_at, created_at, updated_at)
        select ${generatedId}, ${users.id}, 'capacidade_deficit', 'Déficit de equipe previsto', ${message(deficits, horizonte)},
          json_object('regiao', ${regiao}, 'semana', ${semana}, 'alertas',
            (select json_group_array(json_object('data', a.data, 'funcao_id', a.funcao_id, 'deficit', a.deficit))
              from ${capacidadeAlertas} a where a.execucao = ${run})),
          0, null, ${at}, ${at}
        from ${users}
        where ${regionAdmin(regiao)} and exists (select 1 from ${capacidadeAlertas} a where a.execucao = ${run})
        returning *`,
    ]);
    out.regioes += 1;
    out.alertas += alerts!.rows.length;
    out.notificacoes += notes!.rows.length;
    for (const r of notes!.rows)
      out.push.push({
        userId: r.user_id as string,
        notificationId: r.id as string,
        titulo: r.titulo as string,
        mensagem: r.mensagem as string,
        dados: JSON.parse(r.dados as string) as PushMessage['dados'],
      });
  }
  return out;
}
