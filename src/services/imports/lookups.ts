import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import {
  agenda,
  anosFormaturas,
  cadastroFot,
  categoriasFinanceiras,
  cidades,
  cursos,
  empresas,
  funcoes,
  lancamentos,
  profissionais,
  tiposEventos,
  users,
  type CatalogTable,
} from '../../db/schema';
import { normalizeCpfCnpj } from '../../lib/brazil';
import { parseIntCell } from '../../lib/csv';
import { UUID_RE } from '../../lib/fields';
import { nameKey } from '../../lib/names';
import type { QueryCtx } from '../core/context';
import { ID_COLUMN, type RefTo, type Row, type SupportedTipo } from './columns';

/**
 * The catalogs and existing records a file refers to, read in ONE batch of a fixed number of
 * selects per kind (large key lists travel as one JSON parameter read with json_each: D1 binds at
 * most 100).
 */

const jsonList = (values: Iterable<string>) => JSON.stringify([...new Set(values)]);
const inJson = (col: SQLiteColumn | SQL, values: Iterable<string>) =>
  sql`${col} in (select value from json_each(${jsonList(values)}))`;
/**
 * `regiao = ?` beside a lookup by a key whose index does not lead with the region (the id, a CPF, a
 * FOT number), written `+regiao` so that SQLite looks each key up in that index instead of reading
 * the region's every row through the region's.
 */
const inRegion = (col: SQLiteColumn, regiao: string) => sql`+${col} = ${regiao}`;

/** How the cells of a reference column name their rows: `key`, each cell turned into its stored form by `toKey`. */
interface NamedBy {
  table: SQLiteTable & { id: SQLiteColumn; regiao: SQLiteColumn };
  key: SQLiteColumn;
  toKey?: (cell: string) => string | null | undefined;
  /** The key's index leads with the region. */
  keyByRegion?: boolean;
}

/**
 * The rows of the region a column of references names, by id (any case) or by its natural key
 * (`key`, a cell turned into the stored form by `toKey`): one select for the lookup's batch, two
 * index lookups joined by OR (SQLite's MULTI-INDEX OR). `keyByRegion`: the key's index leads with
 * the region ((regiao, chave_externa), a catalog's (regiao, name key)), so its side keeps
 * `regiao = ?` for that index; the id's side always writes `+regiao`.
 */
const namedBy = (
  { db, regiao }: QueryCtx,
  { table, key, toKey = (cell) => cell, keyByRegion = false }: NamedBy,
  cells: string[],
) =>
  db
    // The key as text (a FOT number is an integer), as the maps compare it.
    .select({ id: sql<string>`${table.id}`, key: sql<string | null>`cast(${key} as text)` })
    .from(table)
    .where(
      or(
        and(
          keyByRegion ? eq(table.regiao, regiao) : inRegion(table.regiao, regiao),
          inJson(
            key,
            cells.map(toKey).filter((v): v is string => !!v),
          ),
        ),
        and(
          inRegion(table.regiao, regiao),
          inJson(
            table.id,
            cells.map((v) => v.toLowerCase()),
          ),
        ),
      ),
    );

/** FOT records by id or number. */
const fotsNamed = (ctx: QueryCtx, cells: string[]) =>
  namedBy(ctx, { table: cadastroFot, key: cadastroFot.fot, toKey: (cell) => String(parseIntCell(cell)) }, cells);

/** The entries of a catalog the file names, by name or id: not the region's every entry. */
const catalogNamed = (ctx: QueryCtx, table: CatalogTable, cells: string[]) =>
  namedBy(ctx, { table, key: table.labelKey, toKey: nameKey, keyByRegion: true }, cells);

/** name key or id → id, per referenced catalog. */
export type RefMaps = Partial<Record<RefTo, Map<string, string>>>;

function catalogMap(rows: { id: string; label: string; key: string }[]) {
  const m = new Map<string, string>();
  for (const r of rows) {
    m.set(r.key, r.id);
    m.set(r.id, r.id);
  }
  return m;
}

/** key → id and id → id (a reference by its natural key or by id). */
function pairMap(pairs: [string | null, string][]) {
  const m = new Map<string, string>();
  for (const [key, id] of pairs) {
    if (key !== null) m.set(key, id);
    m.set(id, id);
  }
  return m;
}

/** A lookup's rows as key → id pairs. */
const pairs = (rows: { id: string; key: string | null }[]) => pairMap(rows.map((x) => [x.key, x.id]));

/** How a reference cell is looked up in its map. */
export function refKey(ref: RefTo, v: string): string {
  if (UUID_RE.test(v)) return v.toLowerCase();
  if (ref === 'cadastro_fot') return String(parseIntCell(v));
  if (ref === 'agenda') return v;
  if (ref === 'profissionais') return normalizeCpfCnpj(v) ?? v;
  return nameKey(v);
}

export interface Existing {
  rows: Row[];
  /** Another region's FOT numbers (`fot` is unique across regions). */
  fotsElsewhere?: Set<number>;
  /** E-mails that already have an account. */
  takenEmails?: Set<string>;
  /** receita | despesa of each finance category. */
  categoriaTipo?: Map<string, string>;
  /** The IBGE codes of the file that name a city (an unknown one would fail the apply on its foreign key). */
  cidades?: Set<number>;
}

export interface Lookups {
  refs: RefMaps;
  existing: Existing;
}

/** The non-empty cells of a column, and the ids of the `id` column (lower case). */
interface Cells {
  col: (name: string) => string[];
  ids: string[];
}

/** Professionals: their functions, the profiles the file matches (id, CPF/CNPJ, e-mail), the e-mails with a login. */
async function profissionaisLookups(ctx: QueryCtx, { col, ids }: Cells): Promise<Lookups> {
  const { db, regiao } = ctx;
  const cpfs = col('cpf_cnpj_titular')
    .map((v) => normalizeCpfCnpj(v))
    .filter((v): v is string => !!v);
  const emails = col('email').map((e) => e.toLowerCase());
  const [fs, found, taken] = await db.batch([
    catalogNamed(ctx, funcoes, col('funcao_profissional')),
    db
      .select()
      .from(profissionais)
      .where(
        and(
          inRegion(profissionais.regiao, regiao),
          or(
            inJson(profissionais.id, ids),
            inJson(profissionais.cpfCnpjTitular, cpfs),
            inJson(profissionais.email, emails),
          ),
        ),
      )
      .orderBy(asc(profissionais.createdAt), asc(profissionais.id)),
    db.select({ email: users.email }).from(users).where(inJson(users.email, emails)),
  ]);
  return {
    refs: { funcoes: pairs(fs) },
    existing: { rows: found, takenEmails: new Set(taken.map((u) => u.email)) },
  };
}

/** FOT records: their catalogs, and the records of the file's ids and numbers, in any region (numbers are unique across regions). */
async function fotLookups(ctx: QueryCtx, { col, ids }: Cells): Promise<Lookups> {
  const { db, regiao } = ctx;
  const fots = col('fot').map((v) => String(parseIntCell(v)));
  const [e, cu, an, found] = await db.batch([
    catalogNamed(ctx, empresas, col('empresa')),
    catalogNamed(ctx, cursos, col('curso')),
    catalogNamed(ctx, anosFormaturas, col('ano_formatura')),
    db
      .select()
      .from(cadastroFot)
      .where(or(inJson(cadastroFot.id, ids), inJson(cadastroFot.fot, fots))),
  ]);
  return {
    refs: { empresas: pairs(e), cursos: pairs(cu), anos_formaturas: pairs(an) },
    existing: {
      rows: found.filter((f) => f.regiao === regiao),
      fotsElsewhere: new Set(found.filter((f) => f.regiao !== regiao).map((f) => f.fot)),
    },
  };
}

/** Finance entries: the region's categories (and their kind), the FOTs, events and professionals named, the entries matched. */
async function lancamentoLookups(ctx: QueryCtx, { col, ids }: Cells): Promise<Lookups> {
  const { db, regiao } = ctx;
  const [cats, fots, evs, profs, found] = await db.batch([
    db
      .select({
        id: categoriasFinanceiras.id,
        label: categoriasFinanceiras.label,
        key: categoriasFinanceiras.labelKey,
        tipo: categoriasFinanceiras.tipo,
      })
      .from(categoriasFinanceiras)
      .where(eq(categoriasFinanceiras.regiao, regiao)),
    fotsNamed(ctx, col('fot')),
    namedBy(ctx, { table: agenda, key: agenda.chaveExterna, keyByRegion: true }, col('agenda')),
    namedBy(
      ctx,
      { table: profissionais, key: profissionais.cpfCnpjTitular, toKey: normalizeCpfCnpj },
      col('profissional'),
    ),
    db
      .select()
      .from(lancamentos)
      .where(
        and(
          eq(lancamentos.regiao, regiao),
          or(inJson(lancamentos.id, ids), inJson(lancamentos.chaveExterna, col('chave_externa'))),
        ),
      ),
  ]);
  return {
    refs: {
      categorias_financeiras: catalogMap(cats),
      cadastro_fot: pairs(fots),
      agenda: pairs(evs),
      profissionais: pairs(profs),
    },
    existing: { rows: found, categoriaTipo: new Map(cats.map((x) => [x.id, x.tipo])) },
  };
}

/** Agenda events: the event types, FOTs and cities named, the events matched by id or external key. */
async function agendaLookups(ctx: QueryCtx, { col, ids }: Cells): Promise<Lookups> {
  const { db, regiao } = ctx;
  const codes = col('cidade_ibge').map((v) => String(parseIntCell(v)));
  const [te, fots, found, cs] = await db.batch([
    catalogNamed(ctx, tiposEventos, col('tipo_evento')),
    fotsNamed(ctx, col('fot')),
    db
      .select()
      .from(agenda)
      .where(
        and(eq(agenda.regiao, regiao), or(inJson(agenda.id, ids), inJson(agenda.chaveExterna, col('chave_externa')))),
      ),
    db.select({ c: cidades.codigoIbge }).from(cidades).where(inJson(cidades.codigoIbge, codes)),
  ]);
  return {
    refs: { tipos_eventos: pairs(te), cadastro_fot: pairs(fots) },
    existing: { rows: found, cidades: new Set(cs.map((x) => x.c)) },
  };
}

const BY_KIND: Record<SupportedTipo, (ctx: QueryCtx, cells: Cells) => Promise<Lookups>> = {
  profissionais: profissionaisLookups,
  'cadastro-fot': fotLookups,
  lancamentos: lancamentoLookups,
  agenda: agendaLookups,
};

/** What the file's rows (`records`: header → cell) refer to and match, for kind `tipo`: one round trip. */
export function lookups(ctx: QueryCtx, tipo: SupportedTipo, records: Map<string, string>[]) {
  const col = (name: string) => records.map((r) => (r.get(name) ?? '').trim()).filter(Boolean);
  return BY_KIND[tipo](ctx, { col, ids: col(ID_COLUMN).map((s) => s.toLowerCase()) });
}
