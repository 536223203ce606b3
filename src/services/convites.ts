import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { agenda, agendaEquipe, convites, funcoes, profissionais, tiposEventos } from '../db/schema';
import type { Db } from '../env';
import { nameKey } from '../lib/names';

/** Quota per function of the events matching `where`, with accepted and pending counts: one query. */
export function equipeQuery(db: Db, where: SQL | undefined) {
  const count = (status: 'aceito' | 'pendente') =>
    sql<number>`(select count(*) from ${convites} where ${convites.agendaId} = ${agendaEquipe.agendaId} and ${convites.funcaoId} = ${agendaEquipe.funcaoId} and ${convites.status} = ${status})`;
  return db
    .select({
      agendaId: agendaEquipe.agendaId,
      funcaoId: agendaEquipe.funcaoId,
      funcaoNome: sql<string>`${funcoes.label}`.as('funcao_nome'),
      quantidade: agendaEquipe.quantidade,
      aceitos: count('aceito').as('aceitos'),
      pendentes: count('pendente').as('pendentes'),
    })
    .from(agendaEquipe)
    .innerJoin(funcoes, eq(funcoes.id, agendaEquipe.funcaoId))
    .innerJoin(agenda, eq(agenda.id, agendaEquipe.agendaId))
    .where(where)
    .orderBy(asc(funcoes.labelKey));
}

export type EquipeRow = Awaited<ReturnType<typeof equipeQuery>>[number];

export interface EquipeItem {
  funcao_id: string;
  funcao_nome: string;
  quantidade: number;
  aceitos: number;
  pendentes: number;
  faltantes: number;
}

export function groupEquipe(rows: EquipeRow[]) {
  const byAgenda = new Map<string, EquipeItem[]>();
  for (const r of rows) {
    const list = byAgenda.get(r.agendaId) ?? [];
    list.push({
      funcao_id: r.funcaoId,
      funcao_nome: r.funcaoNome,
      quantidade: r.quantidade,
      aceitos: r.aceitos,
      pendentes: r.pendentes,
      faltantes: Math.max(r.quantidade - r.aceitos, 0),
    });
    byAgenda.set(r.agendaId, list);
  }
  return byAgenda;
}

/**
 * Which legacy counter (`foto_faltante`, `cine_faltante`, `recep_faltante`) a function feeds,
 * by its name: functions are a free catalog, so this is a convention (Fotógrafo, Cinegrafista /
 * Videomaker, Recepcionista).
 */
export function faltanteField(funcaoNome: string): FaltanteField | undefined {
  // Memoised: an agenda list asks it for every team row, and the catalog has few names.
  let field = faltanteByName.get(funcaoNome);
  if (field === undefined) {
    const k = nameKey(funcaoNome);
    if (k.startsWith('fot')) field = 'foto_faltante';
    else if (k.startsWith('cine') || k.startsWith('víd') || k.startsWith('vid') || k.startsWith('film'))
      field = 'cine_faltante';
    else if (k.startsWith('recep')) field = 'recep_faltante';
    else field = null;
    if (faltanteByName.size >= 1000) faltanteByName.clear();
    faltanteByName.set(funcaoNome, field);
  }
  return field ?? undefined;
}
type FaltanteField = 'foto_faltante' | 'cine_faltante' | 'recep_faltante';
const faltanteByName = new Map<string, FaltanteField | null>();

/** Once a quota is set, the missing counts and `status_profissionais` follow from the team (D11). */
export function derivedFromEquipe(equipe: EquipeItem[]) {
  if (equipe.length === 0) return {};
  const out: Record<string, number | string> = { foto_faltante: 0, cine_faltante: 0, recep_faltante: 0 };
  for (const item of equipe) {
    const field = faltanteField(item.funcao_nome);
    if (field) out[field] = (out[field] as number) + item.faltantes;
  }
  out.status_profissionais = equipe.some((i) => i.faltantes > 0) ? 'pendente' : 'completo';
  return out;
}

/** Invitations with the professional's, function's and event's names: one query. */
export const selectConvites = (db: Db) =>
  db
    .select({
      c: convites,
      profissionalNome: sql<string>`${profissionais.nome}`.as('profissional_nome'),
      funcaoNome: sql<string>`${funcoes.label}`.as('funcao_nome'),
      regiao: agenda.regiao,
      dataEvento: agenda.dataEvento,
      horario: agenda.horario,
      localEvento: agenda.localEvento,
      tipoEventoNome: sql<string>`${tiposEventos.label}`.as('tipo_evento_nome'),
    })
    .from(convites)
    .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
    .innerJoin(funcoes, eq(funcoes.id, convites.funcaoId))
    .innerJoin(agenda, eq(agenda.id, convites.agendaId))
    .innerJoin(tiposEventos, eq(tiposEventos.id, agenda.tipoEventoId));

export const conviteOrder = [asc(agenda.dataEvento), asc(agenda.horario), desc(convites.createdAt), asc(convites.id)];

export type ConviteView = Awaited<ReturnType<typeof selectConvites>>[number];

export function toConviteResponse(v: ConviteView) {
  return {
    id: v.c.id,
    agenda_id: v.c.agendaId,
    profissional_id: v.c.profissionalId,
    profissional_nome: v.profissionalNome,
    funcao_id: v.c.funcaoId,
    funcao_nome: v.funcaoNome,
    status: v.c.status,
    convidado_por: v.c.convidadoPor,
    respondido_em: v.c.respondidoEm,
    created_at: v.c.createdAt,
    updated_at: v.c.updatedAt,
    evento: {
      regiao: v.regiao,
      data_evento: v.dataEvento,
      horario: v.horario,
      local_evento: v.localEvento,
      tipo_evento_nome: v.tipoEventoNome,
    },
  };
}

// The outer row of the guarded UPDATE, named explicitly: inside the subqueries an unqualified
// column would bind to the subquery's own table.
const outer = {
  agendaId: sql.raw('"convites"."agenda_id"'),
  funcaoId: sql.raw('"convites"."funcao_id"'),
  profissionalId: sql.raw('"convites"."profissional_id"'),
};

/** The function's quota is not yet filled (no quota set = no limit). */
export const quotaOpen = sql`(
  not exists (select 1 from agenda_equipe e where e.agenda_id = ${outer.agendaId} and e.funcao_id = ${outer.funcaoId})
  or (select count(*) from convites c2 where c2.agenda_id = ${outer.agendaId} and c2.funcao_id = ${outer.funcaoId} and c2.status = 'aceito')
     < (select e.quantidade from agenda_equipe e where e.agenda_id = ${outer.agendaId} and e.funcao_id = ${outer.funcaoId})
)`;

/** The professional has accepted no other event on the same date. */
export const notDoubleBooked = sql`not exists (
  select 1 from convites c3 join agenda a3 on a3.id = c3.agenda_id
  where c3.profissional_id = ${outer.profissionalId} and c3.status = 'aceito' and c3.agenda_id <> ${outer.agendaId}
    and a3.data_evento = (select a4.data_evento from agenda a4 where a4.id = ${outer.agendaId})
)`;

/**
 * Accepting is ONE guarded statement: SQLite runs writes one at a time, so of N professionals
 * racing for the last place exactly one UPDATE sees the quota open.
 */
export const acceptStatement = (db: Db, id: string, now: string) =>
  db
    .update(convites)
    .set({ status: 'aceito', respondidoEm: now, updatedAt: now })
    .where(and(eq(convites.id, id), inArray(convites.status, ['pendente', 'recusado']), quotaOpen, notDoubleBooked));

/** Why an acceptance did not happen, read after the guarded statement refused it. */
export async function refusalReason(db: Db, id: string) {
  const rows = await db.values<[number, number]>(
    sql`select ${quotaOpen} as quota_open, ${notDoubleBooked} as free from convites where "convites"."id" = ${id}`,
  );
  const [quotaIsOpen, isFree] = rows[0] ?? [1, 1];
  if (!isFree) return 'DOUBLE_BOOKED' as const;
  if (!quotaIsOpen) return 'QUOTA_FULL' as const;
  return undefined;
}
