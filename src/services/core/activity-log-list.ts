import { and, desc, eq, getTableColumns, gte, isNull, lt, or, type Placeholder } from 'drizzle-orm';
import { logsAtividade, logsAtividadeSelos, type LogAtividadeRow } from '../../db/schema';
import type { Scope, SqlScope } from '../../db/scope';
import { scopedSelect } from '../../db/scoped-select';
import { entryFields, parseDados } from './activity-log-chain';
import type { QueryCtx } from './context';

/** The activity log's list (GET /api/logs-atividade): administrators', by filters, newest first. */

export interface LogFilters {
  entidade?: string;
  entidade_id?: string;
  ator_id?: string;
  acao?: string;
  /** Instants (ISO-8601 UTC): created_at >= de, created_at < ate. */
  de?: string;
  ate?: string;
  limit: number;
  antes?: LogCursor;
}

/** `seq` of the last entry of the previous page, or an instant (entries created before it). */
export type LogCursor = { seq: number } | { createdAt: string };

const entryColumns = {
  ...getTableColumns(logsAtividade),
  hashAnterior: logsAtividadeSelos.hashAnterior,
  hash: logsAtividadeSelos.hash,
};

/** Administrators: a SUPERADMIN sees every entry, a BUSINESS_OWNER its region's and the global ones. */
const visible = (scope: SqlScope, regiao: string | Placeholder) =>
  scope.role === 'SUPERADMIN' ? undefined : or(eq(logsAtividade.regiao, regiao), isNull(logsAtividade.regiao));

type LogFilterShape = Record<
  'entidade' | 'entidadeId' | 'atorId' | 'acao' | 'de' | 'ate' | 'antesSeq' | 'antesAt',
  boolean
>;

// Built once per caller shape and set of filters (db/scoped-select.ts); every value is a placeholder.
const logPage = scopedSelect({
  params: ['regiao', 'entidade', 'entidadeId', 'atorId', 'acao', 'de', 'ate', 'antesSeq', 'antesAt', 'limit'],
  build: (db, scope, p, x: LogFilterShape) => {
    const l = logsAtividade;
    return db
      .select(entryColumns)
      .from(l)
      .leftJoin(logsAtividadeSelos, eq(logsAtividadeSelos.seq, l.seq))
      .where(
        and(
          visible(scope, p.regiao),
          x.entidade ? eq(l.entidade, p.entidade) : undefined,
          x.entidadeId ? eq(l.entidadeId, p.entidadeId) : undefined,
          x.atorId ? eq(l.atorId, p.atorId) : undefined,
          x.acao ? eq(l.acao, p.acao) : undefined,
          x.de ? gte(l.createdAt, p.de) : undefined,
          x.ate ? lt(l.createdAt, p.ate) : undefined,
          x.antesSeq ? lt(l.seq, p.antesSeq) : undefined,
          x.antesAt ? lt(l.createdAt, p.antesAt) : undefined,
        ),
      )
      .orderBy(desc(l.seq))
      .limit(p.limit);
  },
});

/** One page newest first (seq descending), plus one row to know whether more remain. */
export function logPageSelect({ db, regiao }: QueryCtx, scope: Scope, f: LogFilters) {
  const antes = f.antes;
  const values = {
    regiao,
    entidade: f.entidade,
    entidadeId: f.entidade_id,
    atorId: f.ator_id,
    acao: f.acao,
    de: f.de,
    ate: f.ate,
    antesSeq: antes && 'seq' in antes ? antes.seq : undefined,
    antesAt: antes && 'createdAt' in antes ? antes.createdAt : undefined,
    limit: f.limit + 1,
  };
  const shape = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v !== undefined])) as LogFilterShape & {
    regiao: boolean;
    limit: boolean;
  };
  return logPage(db, scope, values, shape);
}

type EntryRow = LogAtividadeRow & { hashAnterior: string | null; hash: string | null };

export const toLogResponse = (r: EntryRow) => ({
  ...entryFields(r),
  dados: parseDados(r.dados),
  hash_anterior: r.hashAnterior,
  hash: r.hash,
});
