import { and, eq, gte, isNull, lte, ne, notExists, sql, asc } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { rawBatch } from '../../db/raw-batch';
import {
  agenda,
  agendaLogistica,
  cadastroFot,
  convites,
  feriados,
  funcoes,
  lembretesEnviados,
  notifications,
  profissionais,
  regras,
  users,
  type Documento,
} from '../../db/schema';
import type { SqlScope } from '../../db/scope';
import { saoPauloDate } from '../../lib/dates';
import { diasUteisAntes } from '../../lib/dias-uteis';
import type { PushMessage } from '../../lib/messages';
import { toCsv } from '../../lib/csv';
import { regionAdmin } from '../accounts/profile';
import { visible } from '../agenda/agenda';
import type { QueryCtx } from '../core/context';
import { emVigor, regrasEmVigor } from './avaliacao';
import { eventNotFound, eventoFatosSelect, type EventoFatos } from './evento';
import { toRegra } from './regras';
import { DOCUMENTOS } from '../../db/schema';

/**
 * The credential list of an event (docs/decisions.md#d25): its CSV for the institution, and the
 * reminder to administrators 2 business days before its deadline while the call sheet does not say
 * it was sent.
 */

/** Days ahead the job looks for deadlines: 2 business days back from them never reaches further. */
const HORIZONTE_DIAS = 15;

/** The sheets whose credential deadline is near, not sent, not yet reminded. */
function candidatos(db: Db, hoje: string) {
  const l = agendaLogistica;
  return db
    .select({
      fatos: {
        id: agenda.id,
        regiao: agenda.regiao,
        dataEvento: agenda.dataEvento,
      },
      prazo: l.prazoCredenciamento,
      instituicaoId: cadastroFot.instituicaoId,
    })
    .from(l)
    .innerJoin(agenda, eq(agenda.id, l.agendaId))
    .innerJoin(cadastroFot, eq(cadastroFot.id, agenda.fotId))
    .where(
      and(
        gte(l.prazoCredenciamento, hoje),
        lte(l.prazoCredenciamento, sql`date(${hoje}, ${`+${HORIZONTE_DIAS} days`})`),
        isNull(l.credenciamentoEnviadoEm),
        notExists(
          db
            .select({ x: sql`1` })
            .from(lembretesEnviados)
            .where(
              and(eq(lembretesEnviados.alvoId, l.agendaId), eq(lembretesEnviados.tipo, 'credenciamento_pendente')),
            ),
        ),
      ),
    );
}

/**
 * The job: for each candidate, the day 2 business days before its deadline (the holidays of its
 * place, as the evaluation counts them); from that day on, one notification per region administrator,
 * once per event whatever the number or overlap of runs (the reminder's row, primary key (event, kind)).
 */
export async function lembrarCredenciamento(db: Db, now: Date) {
  const hoje = saoPauloDate(now);
  const found = await candidatos(db, hoje);
  if (found.length === 0) return { lembretes: 0, push: [] as PushMessage[] };
  const facts = await db.batch(
    found.map((f) => eventoFatosSelect(db, eq(agenda.id, f.fatos.id))) as unknown as [
      ReturnType<typeof eventoFatosSelect>,
    ],
  );
  const naoUteis = await db
    .select()
    .from(feriados)
    .where(
      and(
        gte(feriados.data, hoje),
        lte(feriados.data, sql`date(${hoje}, ${`+${HORIZONTE_DIAS} days`})`),
        ne(feriados.tipo, 'ponto_facultativo'),
      ),
    );
  const due = found.filter((f, i) => {
    const ev = (facts[i] as EventoFatos[])[0];
    if (!ev || !f.prazo) return false;
    const map = new Map<string, string>();
    for (const d of naoUteis) {
      const here =
        (d.regiao === null || d.regiao === ev.regiao) &&
        (d.escopo === 'nacional' ||
          (d.escopo === 'uf' && d.uf === ev.uf) ||
          (d.escopo === 'municipio' && d.cidadeIbge === ev.cidadeIbge) ||
          (d.escopo === 'instituicao' && d.instituicaoId === ev.instituicaoId));
      if (here) map.set(d.data, d.nome);
    }
    return diasUteisAntes(f.prazo, 2, map).data <= hoje;
  });
  if (due.length === 0) return { lembretes: 0, push: [] as PushMessage[] };
  const run = crypto.randomUUID();
  const at = now.toISOString();
  const ids = sql.join(
    due.map((d) => sql`${d.fatos.id}`),
    sql`, `,
  );
  const [claimed, notes] = await rawBatch(db, [
    sql`insert into ${lembretesEnviados} (alvo_id, tipo, agenda_id, execucao, enviado_em)
      select ${agenda.id}, 'credenciamento_pendente', ${agenda.id}, ${run}, ${at} from ${agenda}
      where ${agenda.id} in (${ids})
        and exists (select 1 from ${agendaLogistica} where ${agendaLogistica.agendaId} = ${agenda.id} and ${agendaLogistica.credenciamentoEnviadoEm} is null)
      on conflict do nothing`,
    sql`insert into ${notifications} (id, user_id, tipo, titulo, mensagem, dados, lida, read_at, created_at, updated_at)
      select ${generatedId}, ${users.id}, 'credenciamento_pendente', 'Lista de credenciamento pendente',
        'A lista de credenciamento do evento de ' || substr(${agenda.dataEvento}, 9, 2) || '/' || substr(${agenda.dataEvento}, 6, 2) || '/' || substr(${agenda.dataEvento}, 1, 4)
          || ' vence em ' || substr(${agendaLogistica.prazoCredenciamento}, 9, 2) || '/' || substr(${agendaLogistica.prazoCredenciamento}, 6, 2) || '/' || substr(${agendaLogistica.prazoCredenciamento}, 1, 4)
          || ' e ainda não foi enviada.',
        json_object('agenda_id', ${agenda.id}, 'regiao', ${agenda.regiao}, 'prazo_credenciamento', ${agendaLogistica.prazoCredenciamento}),
        0, null, ${at}, ${at}
      from ${lembretesEnviados} l
        join ${agenda} on ${agenda.id} = l.agenda_id
        join ${agendaLogistica} on ${agendaLogistica.agendaId} = l.agenda_id
        join ${users} on ${regionAdmin(agenda.regiao as unknown as string)}
      where l.execucao = ${run} and l.tipo = 'credenciamento_pendente'
      returning id, user_id, titulo, mensagem, dados`,
  ]);
  const push: PushMessage[] = notes!.rows.map((r) => ({
    userId: r.user_id as string,
    notificationId: r.id as string,
    titulo: r.titulo as string,
    mensagem: r.mensagem as string,
    dados: JSON.parse(r.dados as string) as PushMessage['dados'],
  }));
  return { lembretes: claimed!.changes, push };
}

const COLUNAS: Record<Documento, string> = {
  nome_completo: 'Nome completo',
  cpf: 'CPF',
  rg: 'RG',
  funcao: 'Função',
  foto: 'Foto',
};

/** The reads of the credential list: the event, its accepted team, the rules that may hold. */
export function credenciamentoSelects({ db, regiao }: QueryCtx, scope: SqlScope, id: string) {
  return [
    eventoFatosSelect(db, visible(scope, regiao, eq(agenda.id, id))),
    db
      .select({
        nome: profissionais.nome,
        cpfCnpjTitular: profissionais.cpfCnpjTitular,
        avatarUrl: profissionais.avatarUrl,
        // Aliased: in a batch, rows are keyed by column name and both are `nome`.
        funcao: sql<string>`${funcoes.label}`.as('funcao_nome'),
      })
      .from(convites)
      .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
      .innerJoin(funcoes, eq(funcoes.id, convites.funcaoId))
      .where(and(eq(convites.agendaId, id), eq(convites.status, 'aceito')))
      .orderBy(asc(funcoes.label), asc(profissionais.nome), asc(convites.id)),
    db.select().from(regras).where(eq(regras.regiao, regiao)),
  ] as const;
}

type CredRows = { nome: string; cpfCnpjTitular: string | null; avatarUrl: string | null; funcao: string }[];

/**
 * The CSV: one row per accepted professional, the columns the rules in force name (`documentos`),
 * formula-escaped (lib/csv.ts). Without a rule naming documents: name and function. The CPF is the
 * payout holder's document when it is a CPF (11 digits); the profile keeps no RG, so that column
 * comes empty for the office to fill.
 */
export function credenciamentoCsv(
  fatos: EventoFatos | undefined,
  team: CredRows,
  stored: (typeof regras.$inferSelect)[],
) {
  if (!fatos) throw eventNotFound();
  const evento = {
    data_evento: fatos.dataEvento,
    tipo_evento_id: fatos.tipoEventoId,
    instituicao_id: fatos.instituicaoId,
    qtd_formandos: fatos.qtdFormandos,
  };
  const vigentes = regrasEmVigor(
    stored.map((r) => toRegra(r)).filter((r) => emVigor(r, fatos.dataEvento)),
    evento,
  );
  let docs = DOCUMENTOS.filter((d) => vigentes.some((r) => r.definicao.documentos.includes(d)));
  if (docs.length === 0) docs = ['nome_completo', 'funcao'];
  const cell = (d: Documento, t: CredRows[number]) => {
    switch (d) {
      case 'nome_completo':
        return t.nome;
      case 'cpf':
        return t.cpfCnpjTitular && /^\d{11}$/.test(t.cpfCnpjTitular) ? t.cpfCnpjTitular : '';
      case 'rg':
        return '';
      case 'funcao':
        return t.funcao;
      case 'foto':
        return t.avatarUrl ?? '';
    }
  };
  return toCsv(
    docs.map((d) => COLUNAS[d]),
    team.map((t) => docs.map((d) => cell(d, t))),
  );
}
