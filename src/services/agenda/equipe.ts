/** An event's team quota as the agenda reads it (docs/guide/agenda.md#teams-and-invitations): one query, by function. */
import { asc, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agenda, agendaEquipe, funcoes } from '../../db/schema';
import { nameKey } from '../../lib/names';

/**
 * Quota per function of the events matching `where`, with its counts: one query, by function name.
 * `pendentes` counts the invitations and applications waiting for an answer (`pendente`,
 * `solicitado`); `lista_espera` the waiting list (`espera`). Neither takes a place: only `aceito`
 * does (docs/decisions.md#d17). The counts are the team row's own, kept by triggers (drizzle/0018,
 * 0027): a team costs its rows to read, however many invitations its event has. `where` may name
 * the event's columns (the event is joined).
 */
export function equipeQuery(db: Db, where: SQL | undefined) {
  return equipeSelect(db)
    .innerJoin(agenda, eq(agenda.id, agendaEquipe.agendaId))
    .where(where)
    .orderBy(asc(funcoes.labelKey));
}

/**
 * The teams of the events `ids` selects (a page's ids, already what the caller may see): the event
 * is not read again for each of its team rows.
 */
export const equipeOfEvents = (db: Db, ids: SQLWrapper) =>
  equipeSelect(db).where(inArray(agendaEquipe.agendaId, ids)).orderBy(asc(funcoes.labelKey));

function equipeSelect(db: Db) {
  return db
    .select({
      agendaId: agendaEquipe.agendaId,
      funcaoId: agendaEquipe.funcaoId,
      funcaoNome: sql<string>`${funcoes.label}`.as('funcao_nome'),
      quantidade: agendaEquipe.quantidade,
      publicar: agendaEquipe.publicar,
      requerAprovacao: agendaEquipe.requerAprovacao,
      aceitos: agendaEquipe.aceitos,
      pendentes: agendaEquipe.pendentes,
      espera: agendaEquipe.espera,
    })
    .from(agendaEquipe)
    .innerJoin(funcoes, eq(funcoes.id, agendaEquipe.funcaoId))
    .$dynamic();
}

export type EquipeRow = Awaited<ReturnType<typeof equipeQuery>>[number];

export interface EquipeItem {
  funcao_id: string;
  funcao_nome: string;
  quantidade: number;
  publicar: boolean;
  requer_aprovacao: boolean;
  aceitos: number;
  pendentes: number;
  lista_espera: number;
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
      publicar: !!r.publicar,
      requer_aprovacao: !!r.requerAprovacao,
      aceitos: r.aceitos,
      pendentes: r.pendentes,
      lista_espera: r.espera,
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
