import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  agenda,
  anosFormaturas,
  cadastroFot,
  categoriasFinanceiras,
  cursos,
  empresas,
  funcoes,
  lancamentos,
  profissionais,
  tiposEventos,
  type CatalogTable,
  type ImportTipo,
} from '../../db/schema';
import type { Db } from '../../db/client';
import { formatBool, formatDate, formatMoney, toCsv } from '../../lib/csv';
import { saoPauloDayStart } from '../../lib/dates';
import type { QueryCtx } from '../core/context';
import { COLUMNS, headerOf, supported, type ColumnDef, type Row, type SupportedTipo } from './columns';

/**
 * GET /api/exportacoes/{tipo}.csv (docs/decisions.md#d20; docs/guide/imports.md): the region's
 * records in the import format (columns.ts), with their `id`, so that export → import changes nothing.
 */

export interface ExportFilters {
  de?: string;
  ate?: string;
}

/** Formats a stored value in the import format (so that export → import changes nothing). */
function cellOf(col: ColumnDef, v: unknown, names: Map<string, string>): string {
  if (v === null || v === undefined) return '';
  switch (col.cell) {
    case 'ref':
      return names.get(String(v)) ?? String(v);
    case 'money':
      return formatMoney(v as number);
    case 'bool':
      return formatBool(v as boolean);
    case 'date':
      return formatDate(v as string);
    default:
      return String(v);
  }
}

const catalogSelect = (db: Db, table: CatalogTable, regiao: string) =>
  db.select({ id: table.id, label: table.label, key: table.labelKey }).from(table).where(eq(table.regiao, regiao));

const fotNumbers = (db: Db, regiao: string) =>
  db.select({ id: cadastroFot.id, fot: cadastroFot.fot }).from(cadastroFot).where(eq(cadastroFot.regiao, regiao));

/** The records to export and the name of each id they reference (a catalog's label, a FOT's number). */
interface Exported {
  rows: Row[];
  names: Map<string, string>;
}

/** `de`/`ate` on `col`: inclusive days of a date column, or São Paulo days of an instant. */
type Range = (col: SQLiteColumn, isDate: boolean) => (ReturnType<typeof gte> | undefined)[];

/** Each kind's records of the region in the file's order, and the names of what they reference: one round trip. */
const READS: Record<SupportedTipo, (ctx: QueryCtx, range: Range) => Promise<Exported>> = {
  async profissionais({ db, regiao }, range) {
    const [fs, rows] = await db.batch([
      catalogSelect(db, funcoes, regiao),
      db
        .select()
        .from(profissionais)
        .where(and(eq(profissionais.regiao, regiao), ...range(profissionais.createdAt, false)))
        .orderBy(asc(profissionais.nome), asc(profissionais.id)),
    ]);
    return { rows, names: new Map(fs.map((x) => [x.id, x.label])) };
  },
  async 'cadastro-fot'({ db, regiao }, range) {
    const [e, cu, an, rows] = await db.batch([
      catalogSelect(db, empresas, regiao),
      catalogSelect(db, cursos, regiao),
      catalogSelect(db, anosFormaturas, regiao),
      db
        .select()
        .from(cadastroFot)
        .where(and(eq(cadastroFot.regiao, regiao), ...range(cadastroFot.createdAt, false)))
        .orderBy(asc(cadastroFot.fot)),
    ]);
    return { rows, names: new Map([...e, ...cu, ...an].map((x) => [x.id, x.label])) };
  },
  async lancamentos({ db, regiao }, range) {
    const [cats, fots, rows] = await db.batch([
      db
        .select({ id: categoriasFinanceiras.id, label: categoriasFinanceiras.label })
        .from(categoriasFinanceiras)
        .where(eq(categoriasFinanceiras.regiao, regiao)),
      fotNumbers(db, regiao),
      db
        .select()
        .from(lancamentos)
        .where(and(eq(lancamentos.regiao, regiao), ...range(lancamentos.vencimento, true)))
        .orderBy(asc(lancamentos.vencimento), asc(lancamentos.id)),
    ]);
    const names = new Map(cats.map((x) => [x.id, x.label]));
    for (const x of fots) names.set(x.id, String(x.fot));
    return { rows, names };
  },
  async agenda({ db, regiao }, range) {
    const [te, fots, rows] = await db.batch([
      catalogSelect(db, tiposEventos, regiao),
      fotNumbers(db, regiao),
      db
        .select()
        .from(agenda)
        .where(and(eq(agenda.regiao, regiao), ...range(agenda.dataEvento, true)))
        .orderBy(asc(agenda.dataEvento), asc(agenda.horario), asc(agenda.id)),
    ]);
    const names = new Map(te.map((x) => [x.id, x.label]));
    for (const x of fots) names.set(x.id, String(x.fot));
    return { rows, names };
  },
};

/**
 * GET /api/exportacoes/{tipo}.csv: the region's records in the import format, with their `id`.
 * `de`/`ate` (inclusive days): the event date for the agenda, the creation day (São Paulo) for the rest.
 */
export async function exportCsv(ctx: QueryCtx, tipo: ImportTipo, f: ExportFilters) {
  const t = supported(tipo);
  const range: Range = (col, isDate) => [
    f.de ? gte(col, isDate ? f.de : saoPauloDayStart(f.de)) : undefined,
    f.ate ? (isDate ? sql`${col} <= ${f.ate}` : lt(col, saoPauloDayStart(f.ate, 1))) : undefined,
  ];
  const { rows, names } = await READS[t](ctx, range);
  const columns = COLUMNS[t];
  return toCsv(
    headerOf(t),
    rows.map((r) => [String(r.id), ...columns.map((col) => cellOf(col, r[col.key], names))]),
  );
}
