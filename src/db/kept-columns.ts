import type { Column } from 'drizzle-orm';
import { agendaEquipe, convites, lancamentos, profissionais, profissionalFuncoes } from './schema';

/**
 * The columns SQLite triggers keep (docs/architecture.md, "Kept by triggers"): copies and counts of
 * other rows. The application never writes them, and a row's own record (a delete's log entry, a
 * manual entry's insert template) leaves them out: they are not the row's data.
 */
const KEPT: ReadonlySet<Column> = new Set<Column>([
  agendaEquipe.regiao,
  agendaEquipe.dataEvento,
  agendaEquipe.aceitos,
  agendaEquipe.pendentes,
  agendaEquipe.espera,
  agendaEquipe.cidade,
  agendaEquipe.uf,
  profissionais.listado,
  profissionais.confiabilidadePeso,
  profissionais.confiabilidadeCreditos,
  profissionais.confiabilidadePesos,
  profissionalFuncoes.listado,
  convites.dataEvento,
  lancamentos.agendaFotId,
]);

export const isKept = (col: Column) => KEPT.has(col);
