import { and, asc, eq, getTableColumns, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { insertSelect } from '../../db/insert-select';
import {
  agenda,
  anosFormaturas,
  cadastroFot,
  categoriasFinanceiras,
  cursos,
  emailOutbox,
  empresas,
  funcoes,
  importacaoLinhas,
  importacoes,
  lancamentos,
  passwordResetTokens,
  profissionais,
  profissionalFuncoes,
  reservedKeyPrefix,
  tiposEventos,
  users,
  type AuthUser,
  type CatalogTable,
  type ImportacaoRow,
  type ImportTipo,
  type TipoChavePix,
} from '../../db/schema';
import { wireToRow } from '../../db/wire';
import type { Config } from '../../env';
import { normalizeCpfCnpj } from '../../lib/brazil';
import {
  decodeCsv,
  formatBool,
  formatDate,
  formatMoney,
  parseBoolCell,
  parseCsv,
  parseDateCell,
  parseIntCell,
  parseMoneyCell,
  toCsv,
  unescapeFormula,
} from '../../lib/csv';
import { saoPauloDayStart } from '../../lib/dates';
import { toCentavos } from '../../lib/money';
import { ApiError, type ErrorCode } from '../../lib/errors';
import { RESERVED_KEY_MESSAGE, UUID_RE } from '../../lib/fields';
import { nameKey } from '../../lib/names';
import { hashPassword } from '../../lib/password';
import { newRefreshToken, sha256Hex } from '../../lib/tokens';
import { logEachRow, logStatement, type Change, type LogCtx } from '../core/activity-log';
import { fotColumns } from '../records/cadastro-fot';
import { sealSecret, type SendMail } from '../core/mail';
import { INVITE_TTL_SECONDS } from '../accounts/password-reset';
import { checkPixPair, profissionalColumns } from '../professionals/profissionais';

/**
 * Spreadsheet import and export (docs/decisions-2 D20; docs/guide/imports.md).
 *
 * POST /api/importacoes validates every row with the SAME Zod schema as the kind's single-record
 * create route (the route layer hands it in: `RowSchemas`) after turning the Brazilian cell formats
 * and catalog names into wire values, matches each row to an existing record, and stages the rows
 * that change something in `importacao_linhas` (JSON keyed by column name). Validation reads the
 * catalogs and the existing records of the whole file in ONE batch of a fixed number of selects
 * (large key lists travel as one JSON parameter read with json_each: D1 binds at most 100).
 *
 * The apply is ONE batch of set-based statements (`INSERT ... SELECT` / `UPDATE ... FROM` over the
 * staged rows), each guarded by the import's claim, so 5,000 rows cost the same dozen statements
 * as 5 and the whole file is written or nothing is.
 */

export const MAX_BYTES = 1024 * 1024;
export const MAX_ROWS = 5000;

type Cell = 'text' | 'int' | 'money' | 'bool' | 'date' | 'time' | 'ref';
type RefTo =
  | 'funcoes'
  | 'empresas'
  | 'cursos'
  | 'anos_formaturas'
  | 'tipos_eventos'
  | 'cadastro_fot'
  | 'categorias_financeiras'
  | 'agenda'
  | 'profissionais';

interface ColumnDef {
  /** Header name in the file. */
  csv: string;
  /** Field of the single-record route's body. */
  wire: string;
  /** Drizzle key of the target table's column. */
  key: string;
  cell: Cell;
  ref?: RefTo;
  required?: boolean;
  /** An empty cell is absent (the stored value stays; a create gets CREATE_DEFAULTS): a NOT NULL column. */
  keep?: boolean;
  example: string;
}

const c = (
  csv: string,
  cell: Cell,
  example: string,
  more: Partial<Pick<ColumnDef, 'wire' | 'key' | 'ref' | 'required' | 'keep'>> = {},
): ColumnDef => ({
  csv,
  cell,
  example,
  wire: more.wire ?? csv,
  key: more.key ?? csv.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase()),
  ref: more.ref,
  required: more.required,
  keep: more.keep,
});

/** Every kind's columns, in file order; `id` (optional, filled by exports) comes first in all. */
const COLUMNS: Record<ImportTipo, ColumnDef[]> = {
  profissionais: [
    c('nome', 'text', 'Maria da Silva', { required: true }),
    c('email', 'text', 'maria@example.com'),
    c('funcao_profissional', 'ref', 'Fotógrafo', {
      wire: 'funcao_profissional_id',
      key: 'funcaoProfissionalId',
      ref: 'funcoes',
    }),
    c('whatsapp', 'text', '(11) 99999-0000'),
    c('endereco', 'text', 'Rua das Flores, 10'),
    c('cidade', 'text', 'São Paulo'),
    c('uf', 'text', 'SP'),
    c('banco', 'text', 'Banco do Brasil'),
    c('agencia', 'text', '1234-5'),
    c('conta_pix', 'text', 'maria@example.com'),
    c('tipo_chave_pix', 'text', 'email'),
    c('regime_fiscal', 'text', 'mei', { keep: true }),
    c('cpf_cnpj_titular', 'text', '529.982.247-25'),
    c('tipo_cartao', 'text', ''),
    c('tabela_free', 'text', ''),
    c('equipamentos', 'text', 'Canon R6; 24-70mm'),
    c('observacao', 'text', ''),
    c('carro_disponivel', 'bool', 'sim'),
    c('tem_estudio', 'bool', 'não'),
    c('qtd_estudio', 'int', '0'),
    c('extra_por_equipamento', 'bool', 'não'),
  ],
  'cadastro-fot': [
    c('fot', 'int', '4521', { required: true }),
    c('empresa', 'ref', 'Alfa Formaturas', { wire: 'empresa_id', key: 'empresaId', ref: 'empresas', required: true }),
    c('curso', 'ref', 'Medicina', { wire: 'curso_id', key: 'cursoId', ref: 'cursos', required: true }),
    c('ano_formatura', 'ref', '2027.2', {
      wire: 'ano_formatura_id',
      key: 'anoFormaturaId',
      ref: 'anos_formaturas',
      required: true,
    }),
    c('instituicao', 'text', 'USP'),
    c('cidade', 'text', 'São Paulo'),
    c('estado', 'text', 'SP'),
    c('observacoes', 'text', ''),
    c('gastos_captacao', 'money', '1.234,56', { key: 'gastosCaptacaoCentavos' }),
    c('pre_venda', 'bool', 'não'),
  ],
  agenda: [
    c('chave_externa', 'text', 'EVT-2027-001'),
    c('fot', 'ref', '4521', { wire: 'fot_id', key: 'fotId', ref: 'cadastro_fot', required: true }),
    c('tipo_evento', 'ref', 'Colação de grau', {
      wire: 'tipo_evento_id',
      key: 'tipoEventoId',
      ref: 'tipos_eventos',
      required: true,
    }),
    c('data_evento', 'date', '05/12/2027', { required: true }),
    c('horario', 'time', '19:30'),
    c('horario_fim', 'time', '23:30'),
    c('local_evento', 'text', 'Teatro Municipal'),
    c('endereco', 'text', 'Praça Ramos de Azevedo, s/n'),
    c('observacoes_evento', 'text', ''),
    c('logistica_observacoes', 'text', ''),
    c('status_profissionais', 'text', ''),
    c('pre_venda', 'bool', 'não'),
    ...[
      'qtd_formandos',
      'qtd_fotografos',
      'qtd_cinegrafistas',
      'qtd_recepcionistas',
      'qtd_estudios',
      'qtd_ponto_foto',
      'qtd_ponto_id',
      'qtd_ponto_decorado',
      'qtd_pontos_led',
      'qtd_plataforma_360',
      'foto_faltante',
      'cine_faltante',
      'recep_faltante',
    ].map((name) => c(name, 'int', name === 'qtd_formandos' ? '120' : '')),
  ],
  lancamentos: [
    c('chave_externa', 'text', 'NF-2027-0001'),
    c('tipo', 'text', 'receita', { required: true }),
    c('categoria', 'ref', 'Contrato', {
      wire: 'categoria_id',
      key: 'categoriaId',
      ref: 'categorias_financeiras',
      required: true,
    }),
    c('descricao', 'text', 'Parcela 1 do contrato', { required: true }),
    c('valor', 'money', '1.500,00', { key: 'valorCentavos', required: true }),
    c('vencimento', 'date', '10/01/2027', { required: true }),
    c('status', 'text', 'previsto'),
    c('pago_em', 'date', ''),
    c('fot', 'ref', '4521', { wire: 'fot_id', key: 'fotId', ref: 'cadastro_fot' }),
    c('agenda', 'ref', '', { wire: 'agenda_id', key: 'agendaId', ref: 'agenda' }),
    c('profissional', 'ref', '', { wire: 'profissional_id', key: 'profissionalId', ref: 'profissionais' }),
  ],
};

/** Columns a create fills when the file leaves them empty (NOT NULL with a default in the single-record routes). */
const CREATE_DEFAULTS: Partial<Record<ImportTipo, Record<string, unknown>>> = {
  profissionais: { regimeFiscal: 'mei' },
  'cadastro-fot': { preVenda: false },
  lancamentos: { status: 'previsto' },
};

type SupportedTipo = ImportTipo;
const ID_COLUMN = 'id';

const TABLES = { profissionais, 'cadastro-fot': cadastroFot, agenda, lancamentos } as const;
type TargetTable = (typeof TABLES)[SupportedTipo];
const ENTIDADE: Record<SupportedTipo, string> = {
  profissionais: 'profissionais',
  'cadastro-fot': 'cadastro_fot',
  agenda: 'agenda',
  lancamentos: 'lancamentos',
};

const supported = (tipo: ImportTipo): SupportedTipo => tipo;

const headerOf = (tipo: SupportedTipo) => [ID_COLUMN, ...COLUMNS[tipo].map((col) => col.csv)];

/** GET /api/importacoes/modelos/{tipo}.csv: the header and one example row. */
export function templateCsv(tipo: ImportTipo): string {
  const t = supported(tipo);
  return toCsv(headerOf(t), [['', ...COLUMNS[t].map((col) => col.example)]]);
}

/** The route's own body schema of each kind (routes/*\/schemas.ts), handed in by the route layer. */
export interface RowSchema {
  safeParse(v: unknown): {
    success: boolean;
    data?: unknown;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
}
export type RowSchemas = Record<SupportedTipo, RowSchema>;

export interface ImportError {
  linha: number;
  coluna: string | null;
  code: ErrorCode;
  error: string;
}

interface Staged {
  linha: number;
  acao: 'criar' | 'atualizar';
  alvoId: string;
  dados: Record<string, unknown>;
}

type Row = Record<string, unknown>;

// --- Lookups: the catalogs and existing records the file refers to, in ONE batch -------------------

const jsonList = (values: Iterable<string>) => JSON.stringify([...new Set(values)]);
const inJson = (col: SQLiteColumn | SQL, values: Iterable<string>) =>
  sql`${col} in (select value from json_each(${jsonList(values)}))`;
/**
 * `regiao = ?` beside a lookup by a key whose index does not lead with the region (the id, a CPF, a
 * FOT number), written `+regiao` so that SQLite looks each key up in that index instead of reading
 * the region's every row through the region's.
 */
const inRegion = (col: SQLiteColumn, regiao: string) => sql`+${col} = ${regiao}`;

/**
 * The rows of the region a column of references names, by id (any case) or by its natural key
 * (`key`, a cell turned into the stored form by `toKey`): one select for the lookup's batch, two
 * index lookups joined by OR (SQLite's MULTI-INDEX OR). `keyByRegion`: the key's index leads with
 * the region ((regiao, chave_externa), a catalog's (regiao, name key)), so its side keeps
 * `regiao = ?` for that index; the id's side always writes `+regiao`.
 */
const namedBy = (
  db: Db,
  table: SQLiteTable & { id: SQLiteColumn; regiao: SQLiteColumn },
  key: SQLiteColumn,
  regiao: string,
  cells: string[],
  toKey: (cell: string) => string | null | undefined = (cell) => cell,
  keyByRegion = false,
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
const fotsNamed = (db: Db, regiao: string, cells: string[]) =>
  namedBy(db, cadastroFot, cadastroFot.fot, regiao, cells, (cell) => String(parseIntCell(cell)));

/** The entries of a catalog the file names, by name or id: not the region's every entry. */
const catalogNamed = (db: Db, table: CatalogTable, regiao: string, cells: string[]) =>
  namedBy(db, table, table.labelKey, regiao, cells, nameKey, true);

const catalogSelect = (db: Db, table: CatalogTable, regiao: string) =>
  db.select({ id: table.id, label: table.label, key: table.labelKey }).from(table).where(eq(table.regiao, regiao));

/** name key or id → id, per referenced catalog. */
type RefMaps = Partial<Record<RefTo, Map<string, string>>>;

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

/** How a reference cell is looked up in its map. */
function refKey(ref: RefTo, v: string): string {
  if (UUID_RE.test(v)) return v.toLowerCase();
  if (ref === 'cadastro_fot') return String(parseIntCell(v));
  if (ref === 'agenda') return v;
  if (ref === 'profissionais') return normalizeCpfCnpj(v) ?? v;
  return nameKey(v);
}

interface Existing {
  rows: Row[];
  /** Another region's FOT numbers (`fot` is unique across regions). */
  fotsElsewhere?: Set<number>;
  /** E-mails that already have an account. */
  takenEmails?: Set<string>;
  /** receita | despesa of each finance category. */
  categoriaTipo?: Map<string, string>;
}

async function lookups(db: Db, tipo: SupportedTipo, regiao: string, records: Map<string, string>[]) {
  const col = (name: string) => records.map((r) => (r.get(name) ?? '').trim()).filter(Boolean);
  const ids = col(ID_COLUMN).map((s) => s.toLowerCase());
  const refs: RefMaps = {};
  const existing: Existing = { rows: [] };
  if (tipo === 'profissionais') {
    const cpfs = col('cpf_cnpj_titular')
      .map((v) => normalizeCpfCnpj(v))
      .filter((v): v is string => !!v);
    const emails = col('email').map((e) => e.toLowerCase());
    const [fs, found, taken] = await db.batch([
      catalogNamed(db, funcoes, regiao, col('funcao_profissional')),
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
    refs.funcoes = pairMap(fs.map((x) => [x.key, x.id]));
    existing.rows = found;
    existing.takenEmails = new Set(taken.map((u) => u.email));
  } else if (tipo === 'cadastro-fot') {
    const fots = col('fot').map((v) => String(parseIntCell(v)));
    const [e, cu, an, found] = await db.batch([
      catalogNamed(db, empresas, regiao, col('empresa')),
      catalogNamed(db, cursos, regiao, col('curso')),
      catalogNamed(db, anosFormaturas, regiao, col('ano_formatura')),
      db
        .select()
        .from(cadastroFot)
        .where(or(inJson(cadastroFot.id, ids), inJson(cadastroFot.fot, fots))),
    ]);
    refs.empresas = pairMap(e.map((x) => [x.key, x.id]));
    refs.cursos = pairMap(cu.map((x) => [x.key, x.id]));
    refs.anos_formaturas = pairMap(an.map((x) => [x.key, x.id]));
    existing.rows = found.filter((f) => f.regiao === regiao);
    existing.fotsElsewhere = new Set(found.filter((f) => f.regiao !== regiao).map((f) => f.fot));
  } else if (tipo === 'lancamentos') {
    const fotRefs = col('fot');
    const agendaRefs = col('agenda');
    const profRefs = col('profissional');
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
      fotsNamed(db, regiao, fotRefs),
      namedBy(db, agenda, agenda.chaveExterna, regiao, agendaRefs, undefined, true),
      namedBy(db, profissionais, profissionais.cpfCnpjTitular, regiao, profRefs, normalizeCpfCnpj),
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
    refs.categorias_financeiras = catalogMap(cats);
    existing.categoriaTipo = new Map(cats.map((x) => [x.id, x.tipo]));
    refs.cadastro_fot = pairMap(fots.map((f) => [f.key, f.id]));
    refs.agenda = pairMap(evs.map((e) => [e.key, e.id]));
    refs.profissionais = pairMap(profs.map((p) => [p.key, p.id]));
    existing.rows = found;
  } else {
    const fotRefs = col('fot');
    const chaves = col('chave_externa');
    const [te, fots, found] = await db.batch([
      catalogNamed(db, tiposEventos, regiao, col('tipo_evento')),
      fotsNamed(db, regiao, fotRefs),
      db
        .select()
        .from(agenda)
        .where(and(eq(agenda.regiao, regiao), or(inJson(agenda.id, ids), inJson(agenda.chaveExterna, chaves)))),
    ]);
    refs.tipos_eventos = pairMap(te.map((x) => [x.key, x.id]));
    refs.cadastro_fot = pairMap(fots.map((f) => [f.key, f.id]));
    existing.rows = found;
  }
  return { refs, existing };
}

// --- Validation -----------------------------------------------------------------------------------

/** A cell as the route's body would carry it: the Brazilian formats turned into wire values. */
function wireValue(col: ColumnDef, raw: string): unknown {
  const v = raw.trim();
  if (v === '') return col.required || col.keep ? undefined : null;
  switch (col.cell) {
    case 'int':
      return parseIntCell(v);
    case 'money':
      return parseMoneyCell(v);
    case 'bool':
      return parseBoolCell(v);
    case 'date':
      return parseDateCell(v);
    default:
      return raw;
  }
}

/** Wire body (validated) → the target's columns, by the kind's own service mapper. */
function toColumns(tipo: SupportedTipo, out: Row): Row {
  if (tipo === 'profissionais') return profissionalColumns(out) as Row;
  if (tipo === 'cadastro-fot') return fotColumns(out) as Row;
  if (tipo === 'lancamentos') {
    // The finance routes' own mapper is not on this branch yet: wire names are the columns, `valor` in cents.
    const { valor, ...rest } = out;
    return {
      ...wireToRow(lancamentos, rest),
      ...(valor !== undefined ? { valorCentavos: toCentavos(valor as number) } : {}),
    };
  }
  return wireToRow(agenda, out) as Row;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

function keyOf(tipo: SupportedTipo, cols: Row): { kind: string; value: string }[] {
  if (tipo === 'profissionais') {
    const keys = [];
    if (cols.cpfCnpjTitular) keys.push({ kind: 'cpf_cnpj_titular', value: String(cols.cpfCnpjTitular) });
    if (cols.email) keys.push({ kind: 'email', value: String(cols.email) });
    return keys;
  }
  if (tipo === 'cadastro-fot') return [{ kind: 'fot', value: String(cols.fot) }];
  return cols.chaveExterna ? [{ kind: 'chave_externa', value: String(cols.chaveExterna) }] : [];
}

/** The existing record a row updates: by `id`, else by the kind's key (D20). */
function matchOf(tipo: SupportedTipo, existing: Row[], id: string | undefined, cols: Row) {
  if (id) return existing.find((r) => r.id === id);
  if (tipo === 'profissionais') {
    const byCpf = cols.cpfCnpjTitular ? existing.find((r) => r.cpfCnpjTitular === cols.cpfCnpjTitular) : undefined;
    return byCpf ?? (cols.email ? existing.find((r) => r.email === cols.email) : undefined);
  }
  if (tipo === 'cadastro-fot') return existing.find((r) => r.fot === cols.fot);
  return cols.chaveExterna ? existing.find((r) => r.chaveExterna === cols.chaveExterna) : undefined;
}

const KEY_LABEL: Record<string, string> = {
  cpf_cnpj_titular: 'CPF/CNPJ',
  email: 'e-mail',
  fot: 'número de FOT',
  chave_externa: 'chave externa',
  id: 'id',
};

/**
 * Finance entries (D18): the category's kind is the entry's; an import creates `previsto` or `pago`
 * entries only, and changes only entries still `previsto` (a paid amount never changes; payments,
 * cancellations and refunds go through their own routes). A `chave_externa` with a prefix the
 * system writes (`pedido:`) is refused as on the entries' route, except on the entry that already
 * holds it: an export of an order's revenue entry reads back unchanged.
 */
function lancamentoRules(
  cols: Row,
  target: Row | undefined,
  existing: Existing,
  err: (coluna: string | null, code: ErrorCode, error: string) => void,
) {
  const key = cols.chaveExterna;
  if (typeof key === 'string' && reservedKeyPrefix(key) !== undefined && target?.chaveExterna !== key)
    err('chave_externa', 'VALIDATION_FAILED', `chave_externa: ${RESERVED_KEY_MESSAGE}`);
  const catTipo = existing.categoriaTipo?.get(String(cols.categoriaId));
  if (catTipo && cols.tipo && catTipo !== cols.tipo)
    err(
      'categoria',
      'VALIDATION_FAILED',
      `categoria: é uma categoria de ${catTipo}, o lançamento é ${String(cols.tipo)}`,
    );
  const status = cols.status ?? null;
  if (!target) {
    if (status !== null && status !== 'previsto' && status !== 'pago')
      err('status', 'VALIDATION_FAILED', 'status: um lançamento importado é previsto ou pago');
    if (status === 'pago' && !cols.pagoEm)
      err('pago_em', 'VALIDATION_FAILED', 'pago_em: obrigatório quando status é pago');
    if (status !== 'pago' && cols.pagoEm) err('pago_em', 'VALIDATION_FAILED', 'pago_em: só com status pago');
    return;
  }
  if (!Object.entries(cols).some(([key, v]) => key in target && !same(target[key], v))) return;
  if (target.status !== 'previsto')
    err(null, 'CONFLICT', `o lançamento está ${String(target.status)} e não pode ser alterado por importação`);
  else if ((status !== null && status !== 'previsto') || cols.pagoEm)
    err(
      'status',
      'CONFLICT',
      'status: pagamentos, cancelamentos e estornos têm rotas próprias; a importação não os faz',
    );
}

/**
 * Professionals (docs/decisions.md#d18-finance): the PIX key and its type by the routes' own rule
 * (services/professionals/profissionais.ts checkPixPair): a key without a type gets the type it shows, the key is
 * stored normalized, and a pair the row leaves as stored is not checked again, so an export of a
 * profile whose key predates the type reads back unchanged.
 */
function pixRule(
  cols: Row,
  target: Row | undefined,
  err: (coluna: string | null, code: ErrorCode, error: string) => void,
) {
  const stored = {
    contaPix: (target?.contaPix as string | null | undefined) ?? null,
    tipoChavePix: (target?.tipoChavePix as TipoChavePix | null | undefined) ?? null,
  };
  const sent = (key: string) => (key in cols ? (cols[key] ?? null) : undefined);
  const checked = checkPixPair({ conta_pix: sent('contaPix'), tipo_chave_pix: sent('tipoChavePix') }, stored);
  if (!checked) return;
  if ('error' in checked) err(checked.error.slice(0, checked.error.indexOf(':')), 'VALIDATION_FAILED', checked.error);
  else {
    cols.contaPix = checked.chave;
    cols.tipoChavePix = checked.tipo;
  }
}

/** A cell quoted in an error, cut to a readable length. */
const short = (v: string) => (v.length > 60 ? `${v.slice(0, 57)}...` : v);

/** Errors kept and answered per import (the rest is counted in `erro`): the summary row stays far below D1's 2 MB. */
export const MAX_ERRORS = 2000;

export interface ValidationResult {
  total: number;
  criar: number;
  atualizar: number;
  iguais: number;
  erro: number;
  erros: ImportError[];
  staged: Staged[];
}

/** Parses and validates a file against the region's data; writes nothing. */
export async function validateFile(
  db: Db,
  tipo: ImportTipo,
  regiao: string,
  bytes: Uint8Array,
  schemas: RowSchemas,
): Promise<ValidationResult> {
  const t = supported(tipo);
  if (bytes.byteLength > MAX_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', 'o arquivo passa de 1 MiB');
  const parsed = parseCsv(decodeCsv(bytes));
  const columns = COLUMNS[t];
  const known = new Set(headerOf(t));
  const unknown = parsed.header.filter((h) => !known.has(h));
  if (parsed.header.length === 0 || parsed.header.every((h) => h === ''))
    throw new ApiError('VALIDATION_FAILED', 'arquivo vazio: a primeira linha deve ser o cabeçalho');
  if (unknown.length)
    throw new ApiError(
      'VALIDATION_FAILED',
      `cabeçalho: coluna desconhecida ${unknown.map((u) => `"${u}"`).join(', ')} (modelo em /api/importacoes/modelos/${t}.csv)`,
    );
  const dup = parsed.header.find((h, i) => parsed.header.indexOf(h) !== i);
  if (dup) throw new ApiError('VALIDATION_FAILED', `cabeçalho: coluna "${dup}" repetida`);
  const missing = columns.filter((col) => col.required && !parsed.header.includes(col.csv));
  if (missing.length)
    throw new ApiError('VALIDATION_FAILED', `cabeçalho: falta a coluna ${missing.map((m) => `"${m.csv}"`).join(', ')}`);
  if (parsed.rows.length === 0) throw new ApiError('VALIDATION_FAILED', 'o arquivo não tem linhas de dados');
  if (parsed.rows.length > MAX_ROWS)
    throw new ApiError('PAYLOAD_TOO_LARGE', `o arquivo tem ${parsed.rows.length} linhas; o máximo é ${MAX_ROWS}`);

  const present = columns.filter((col) => parsed.header.includes(col.csv));
  const records = parsed.rows.map((row) => {
    const m = new Map<string, string>();
    parsed.header.forEach((h, i) => m.set(h, unescapeFormula(row.cells[i] ?? '')));
    return m;
  });
  const { refs, existing } = await lookups(db, t, regiao, records);
  const schema = schemas[t];
  const csvOfWire = new Map(columns.map((col) => [col.wire, col.csv]));
  const table = TABLES[t];
  const tableCols = getTableColumns(table) as Record<string, SQLiteColumn>;

  const erros: ImportError[] = [];
  const staged: Staged[] = [];
  const seenKeys = new Map<string, number>();
  let iguais = 0;
  let linhasComErro = 0;
  const problemLines = new Set(parsed.problems.map((p) => p.linha));
  for (const p of parsed.problems)
    erros.push({ linha: p.linha, coluna: null, code: 'VALIDATION_FAILED', error: p.error });

  parsed.rows.forEach((row, i) => {
    const rec = records[i]!;
    const rowErrors: ImportError[] = [];
    const err = (coluna: string | null, code: ErrorCode, error: string) =>
      rowErrors.push({ linha: row.linha, coluna, code, error });
    if (row.cells.length > parsed.header.length && row.cells.slice(parsed.header.length).some((x) => x.trim()))
      err(null, 'VALIDATION_FAILED', `a linha tem ${row.cells.length} colunas; o cabeçalho, ${parsed.header.length}`);

    const wire: Row = {};
    for (const col of present) {
      const raw = rec.get(col.csv) ?? '';
      if (col.cell !== 'ref') {
        wire[col.wire] = wireValue(col, raw);
        continue;
      }
      const v = raw.trim();
      if (v === '') {
        wire[col.wire] = col.required ? undefined : null;
        continue;
      }
      const found = refs[col.ref!]?.get(refKey(col.ref!, v));
      if (found) wire[col.wire] = found;
      else {
        err(col.csv, 'NOT_FOUND', `${col.csv}: "${short(v)}" não encontrado na região ${regiao}`);
        wire[col.wire] = '00000000-0000-4000-8000-000000000000'; // reported once, not again by the schema
      }
    }
    const parsedRow = schema.safeParse(wire);
    if (!parsedRow.success) {
      for (const issue of parsedRow.error?.issues ?? []) {
        const field = String(issue.path[0] ?? '');
        const coluna = csvOfWire.get(field) ?? (field || null);
        err(coluna, 'VALIDATION_FAILED', `${coluna ?? 'linha'}: ${issue.message}`);
      }
    }
    const idCell = (rec.get(ID_COLUMN) ?? '').trim();
    if (idCell && !UUID_RE.test(idCell)) err(ID_COLUMN, 'INVALID_ID', 'id: deve ser um UUID');
    if (rowErrors.length === 0 && parsedRow.success) {
      const cols = toColumns(t, parsedRow.data as Row);
      // An empty cell of a column with a default (NOT NULL) keeps the stored value; a create gets the default.
      for (const key of Object.keys(CREATE_DEFAULTS[t] ?? {})) if (cols[key] === null) delete cols[key];
      const id = idCell ? idCell.toLowerCase() : undefined;
      const target = matchOf(t, existing.rows, id, cols);
      if (id && !target) err(ID_COLUMN, 'NOT_FOUND', `id: registro não encontrado na região ${regiao}`);
      const keys = [...(id ? [{ kind: 'id', value: id }] : []), ...keyOf(t, cols)];
      if (target) keys.push({ kind: 'id', value: String(target.id) });
      for (const k of keys) {
        const prev = seenKeys.get(`${k.kind}:${k.value}`);
        if (prev !== undefined && prev !== row.linha) {
          err(
            k.kind === 'id' ? ID_COLUMN : k.kind,
            'CONFLICT',
            `${k.kind === 'id' ? 'id' : k.kind}: ${KEY_LABEL[k.kind]} repetido no arquivo (linha ${prev})`,
          );
          break; // one line repeated is one error, whatever the number of keys it shares
        }
      }
      if (t === 'cadastro-fot' && !target && existing.fotsElsewhere?.has(cols.fot as number))
        err('fot', 'DUPLICATE_FOT', 'fot: este número de FOT já existe em outra região');
      if (t === 'profissionais' && !target && cols.email && existing.takenEmails?.has(String(cols.email)))
        err('email', 'EMAIL_TAKEN', 'email: já existe uma conta com este e-mail');
      if (t === 'profissionais') pixRule(cols, target, err);
      if (t === 'lancamentos') lancamentoRules(cols, target, existing, err);
      if (rowErrors.length === 0) {
        for (const k of keys) seenKeys.set(`${k.kind}:${k.value}`, row.linha);
        const dados: Row = {};
        for (const [key, v] of Object.entries(cols)) if (tableCols[key]) dados[tableCols[key].name] = v;
        if (!target) {
          // A create carries every column: the absent ones as the create route would store them.
          for (const col of columns) {
            const name = tableCols[col.key]!.name;
            if (!(name in dados) || dados[name] === null)
              dados[name] = CREATE_DEFAULTS[t]?.[col.key] ?? dados[name] ?? null;
          }
          if (t === 'profissionais' && cols.email) dados.usuario_id = crypto.randomUUID();
          staged.push({ linha: row.linha, acao: 'criar', alvoId: crypto.randomUUID(), dados });
        } else if (Object.entries(cols).some(([key, v]) => tableCols[key] && !same(target[key], v))) {
          staged.push({ linha: row.linha, acao: 'atualizar', alvoId: String(target.id), dados });
        } else iguais++;
      }
    }
    if (rowErrors.length || problemLines.has(row.linha)) linhasComErro++;
    erros.push(...rowErrors);
  });
  const criar = staged.filter((s) => s.acao === 'criar').length;
  return {
    total: parsed.rows.length,
    criar,
    atualizar: staged.length - criar,
    iguais,
    erro: linhasComErro,
    erros: erros.sort((a, b) => a.linha - b.linha).slice(0, MAX_ERRORS),
    staged,
  };
}

/**
 * JSON parameters of at most this many characters: under D1's 100 KB per statement even if a bound
 * value counted towards it (a value may hold 2 MB). A 1 MiB file stages in about 15 statements.
 */
const JSON_CHUNK_CHARS = 90_000;

function jsonChunks<T>(items: T[]): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  let size = 2;
  for (const item of items) {
    const s = JSON.stringify(item);
    if (cur.length && size + s.length + 1 > JSON_CHUNK_CHARS) {
      out.push(`[${cur.join(',')}]`);
      cur = [];
      size = 2;
    }
    cur.push(s);
    size += s.length + 1;
  }
  if (cur.length) out.push(`[${cur.join(',')}]`);
  return out;
}

/** POST /api/importacoes: validates, then stores the summary and the staged rows in ONE batch. */
export async function createImport(
  db: Db,
  log: LogCtx,
  user: AuthUser,
  regiao: string,
  tipo: ImportTipo,
  bytes: Uint8Array,
  schemas: RowSchemas,
) {
  const v = await validateFile(db, tipo, regiao, bytes, schemas);
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const row = {
    id,
    regiao,
    tipo,
    status: v.erro === 0 ? ('validado' as const) : ('com_erros' as const),
    total: v.total,
    criar: v.criar,
    atualizar: v.atualizar,
    iguais: v.iguais,
    erro: v.erro,
    erros: JSON.stringify(v.erros),
    criadoPor: user.id,
    aplicacaoId: null,
    aplicadoEm: null,
    createdAt: now,
    updatedAt: now,
  };
  // Rows with errors make the import unusable: staging them would be wasted work.
  const toStage = row.status === 'validado' ? v.staged : [];
  const stage = jsonChunks(toStage.map((s) => [s.linha, s.acao, s.alvoId, s.dados])).map((chunk) =>
    db
      .insert(importacaoLinhas)
      .select(
        sql`select ${id}, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'), json(json_extract(j.value, '$[3]')) from json_each(${chunk}) j`,
      ),
  );
  await db.batch([
    db.insert(importacoes).values(row),
    ...stage,
    logStatement(db, log, {
      acao: 'importacoes.create',
      entidade: 'importacoes',
      entidadeId: id,
      regiao,
      dados: {
        tipo: { depois: tipo },
        status: { depois: row.status },
        total: { depois: v.total },
        criar: { depois: v.criar },
        atualizar: { depois: v.atualizar },
        erro: { depois: v.erro },
      },
    }),
  ]);
  return toImportResponse({ ...row, erros: v.erros });
}

export function toImportResponse(r: Omit<ImportacaoRow, 'erros'> & { erros: ImportError[] | string }) {
  return {
    id: r.id,
    tipo: r.tipo,
    status: r.status,
    total: r.total,
    por_acao: { criar: r.criar, atualizar: r.atualizar, sem_alteracao: r.iguais, erro: r.erro },
    erros: typeof r.erros === 'string' ? (JSON.parse(r.erros) as ImportError[]) : r.erros,
    created_at: r.createdAt,
    aplicado_em: r.aplicadoEm,
  };
}

const notFound = () => new ApiError('NOT_FOUND', 'importação não encontrada');

export const importByIdSelect = (db: Db, regiao: string, id: string) =>
  db
    .select()
    .from(importacoes)
    .where(and(eq(importacoes.id, id), eq(importacoes.regiao, regiao)));

export function oneImport(rows: ImportacaoRow[]) {
  if (!rows[0]) throw notFound();
  return toImportResponse(rows[0]);
}

/** GET /api/importacoes/{id}/erros.csv: every error, formula-escaped. */
export function errorsCsv(rows: ImportacaoRow[]) {
  const r = oneImport(rows);
  return toCsv(
    ['linha', 'coluna', 'code', 'error'],
    r.erros.map((e) => [String(e.linha), e.coluna, e.code, e.error]),
  );
}

// --- Apply ----------------------------------------------------------------------------------------

const L = sql.raw('l');
const fromJson = (field: string) => sql.raw(`json_extract(l.dados, '$.${field}')`);
const has = (field: string) => sql.raw(`json_type(l.dados, '$.${field}') is not null`);

/**
 * POST /api/importacoes/{id}/aplicar. One read (the import, and for professionals the invitations to
 * prepare), then ONE batch: the claim (`validado` → `aplicando`, a guarded UPDATE: of N parallel
 * applies exactly one claims), a re-check that fails the whole batch when the data changed since the
 * validation, the set-based writes and their activity-log entries (each guarded by the claim), the
 * staging rows dropped and the status `aplicado`. A reference deleted meanwhile fails its foreign key,
 * a key taken meanwhile its unique index: the batch rolls back and the import stays `validado`.
 */
export async function applyImport(
  db: Db,
  log: LogCtx,
  user: AuthUser,
  regiao: string,
  id: string,
  mail: { config: Pick<Config, 'JWT_SECRET'>; send: SendMail; now: Date },
) {
  const [rows, invites] = await db.batch([
    importByIdSelect(db, regiao, id),
    db
      .select({
        usuarioId: sql<string>`json_extract(${importacaoLinhas.dados}, '$.usuario_id')`,
        email: sql<string>`json_extract(${importacaoLinhas.dados}, '$.email')`,
      })
      .from(importacaoLinhas)
      .where(
        and(
          eq(importacaoLinhas.importacaoId, id),
          eq(importacaoLinhas.acao, 'criar'),
          sql`json_extract(${importacaoLinhas.dados}, '$.usuario_id') is not null`,
        ),
      ),
  ]);
  const imp = rows[0];
  if (!imp) throw notFound();
  if (imp.status === 'com_erros')
    throw new ApiError('IMPORT_HAS_ERRORS', 'a importação tem erros: corrija o arquivo e envie de novo');
  if (imp.status !== 'validado') throw new ApiError('ALREADY_APPLIED', 'esta importação já foi aplicada');
  const tipo = supported(imp.tipo);
  const table = TABLES[tipo] as TargetTable;
  const now = mail.now.toISOString();
  const claimId = crypto.randomUUID();
  const claimed = sql`exists (select 1 from ${importacoes} where ${importacoes.id} = ${id} and ${importacoes.aplicacaoId} = ${claimId} and ${importacoes.status} = 'aplicando')`;
  const lines = (acao: 'criar' | 'atualizar') => sql`l.importacao_id = ${id} and l.acao = ${acao} and ${claimed}`;
  const fromLines = sql`from ${importacaoLinhas} ${L}`;
  const columns = COLUMNS[tipo];
  const tableCols = getTableColumns(table) as Record<string, SQLiteColumn>;
  const colOf = (key: string) => tableCols[key]!;
  const entidade = ENTIDADE[tipo];
  const importRef: Record<string, Change> = { importacao_id: { depois: id } };

  // The data changed since the validation (a record to update is gone, or a professional to create
  // now matches an existing one): an UPDATE that sets a NOT NULL column to null fails the batch.
  const conflicts: SQL[] = [
    sql`exists (select 1 from ${importacaoLinhas} l where l.importacao_id = ${id} and l.acao = 'atualizar'
      and not exists (select 1 from ${table} where ${table.id} = l.alvo_id and ${table.regiao} = ${regiao}))`,
  ];
  if (tipo === 'profissionais') {
    // Two probes per staged line, each on an index (cpf_cnpj_titular, email): never a join of the two tables.
    const holder = (col: SQLiteColumn, field: string) =>
      sql`exists (select 1 from ${profissionais} where ${col} = ${fromJson(field)} and ${profissionais.regiao} = ${regiao})`;
    conflicts.push(sql`exists (select 1 from ${importacaoLinhas} l where l.importacao_id = ${id} and l.acao = 'criar'
      and (${holder(profissionais.cpfCnpjTitular, 'cpf_cnpj_titular')} or ${holder(profissionais.email, 'email')}))`);
  }
  if (tipo === 'lancamentos')
    conflicts.push(sql`exists (select 1 from ${importacaoLinhas} l join ${lancamentos} on ${lancamentos.id} = l.alvo_id
      where l.importacao_id = ${id} and l.acao = 'atualizar' and ${lancamentos.status} <> 'previsto')`);
  const recheck = db
    .update(importacoes)
    .set({ status: sql`null` as unknown as 'validado' })
    .where(and(eq(importacoes.id, id), eq(importacoes.aplicacaoId, claimId), or(...conflicts)));

  const writes: BatchItem<'sqlite'>[] = [];
  // Updates: entries first (they read `antes` from the row), then one UPDATE ... FROM.
  const newValue = (key: string) => {
    const name = colOf(key).name;
    return sql`case when ${has(name)} then ${fromJson(name)} else ${colOf(key)} end`;
  };
  const updateDados: Record<string, Change> = { ...importRef };
  for (const col of columns) updateDados[colOf(col.key).name] = { antes: colOf(col.key), depois: newValue(col.key) };
  writes.push(
    logEachRow(db, log, {
      acao: `${entidade}.update`,
      entidade,
      entidadeId: sql`l.alvo_id`,
      regiao,
      dados: updateDados,
      from: sql`${fromLines} join ${table} on ${table.id} = l.alvo_id`,
      when: lines('atualizar'),
    }),
  );
  const set: Record<string, SQL | string> = { updatedAt: now };
  for (const col of columns) set[col.key] = newValue(col.key);
  writes.push(
    db
      .update(table)
      .set(set as never)
      .from(
        sql`(select alvo_id, dados from ${importacaoLinhas} where importacao_id = ${id} and acao = 'atualizar') as l`,
      )
      .where(sql`${table.id} = l.alvo_id and ${table.regiao} = ${regiao} and ${claimed}`),
  );

  // Creates. Professionals with an e-mail get their login first (the profile references it).
  let outboxIds: string[] = [];
  if (tipo === 'profissionais' && invites.length) {
    // One unusable password hash for the logins of this apply: a PBKDF2 hash costs ~25 ms, 5,000 of
    // them would pass the Workers CPU limit; its random password is discarded, so nobody can log in
    // until they set their own through the invitation (as a single team registration).
    const senhaHash = await hashPassword(newRefreshToken());
    const withLogin = sql`${lines('criar')} and ${has('usuario_id')}`;
    writes.push(
      logEachRow(db, log, {
        acao: 'users.create',
        entidade: 'users',
        entidadeId: fromJson('usuario_id'),
        dados: {
          ...importRef,
          nome: { depois: fromJson('nome') },
          email: { depois: fromJson('email') },
          role: { depois: 'profissional' },
          ativo: { depois: true },
        },
        from: fromLines,
        when: withLogin,
      }),
      insertSelect(
        db,
        users,
        {
          id: fromJson('usuario_id'),
          nome: fromJson('nome'),
          email: fromJson('email'),
          senhaHash: sql`${senhaHash}`,
          telefone: fromJson('whatsapp'),
          role: sql`'profissional'`,
          ativo: sql`1`,
          createdAt: sql`${now}`,
          updatedAt: sql`${now}`,
        },
        sql`${fromLines} where ${withLogin}`,
      ),
    );
    const expiresAt = new Date(mail.now.getTime() + INVITE_TTL_SECONDS * 1000).toISOString();
    const tokens = await Promise.all(
      invites.map(async (inv) => {
        const token = newRefreshToken();
        return {
          t: crypto.randomUUID(),
          u: inv.usuarioId,
          h: await sha256Hex(token),
          o: crypto.randomUUID(),
          s: await sealSecret(mail.config.JWT_SECRET, token),
        };
      }),
    );
    outboxIds = tokens.map((tk) => tk.o);
    const j = (f: string) => sql.raw(`json_extract(j.value, '$.${f}')`);
    for (const chunk of jsonChunks(tokens)) {
      const from = sql`from json_each(${chunk}) j where ${claimed}`;
      writes.push(
        insertSelect(
          db,
          passwordResetTokens,
          {
            id: j('t'),
            userId: j('u'),
            tipo: sql`'convite'`,
            tokenHash: j('h'),
            expiresAt: sql`${expiresAt}`,
            createdAt: sql`${now}`,
          },
          from,
        ),
        insertSelect(
          db,
          emailOutbox,
          {
            id: j('o'),
            para: sql`(select ${users.email} from ${users} where ${users.id} = ${j('u')})`,
            tipo: sql`'convite_acesso'`,
            dados: sql`json_object('nome', (select ${users.nome} from ${users} where ${users.id} = ${j('u')}))`,
            segredo: j('s'),
            status: sql`'pendente'`,
            tentativas: sql`0`,
            disponivelEm: sql`${now}`,
            createdAt: sql`${now}`,
            updatedAt: sql`${now}`,
          },
          from,
        ),
      );
    }
  }
  const createDados: Record<string, Change> = { ...importRef };
  for (const col of columns) createDados[colOf(col.key).name] = { depois: fromJson(colOf(col.key).name) };
  const exprs: Record<string, SQL> = {
    id: sql`l.alvo_id`,
    regiao: sql`${regiao}`,
    createdAt: sql`${now}`,
    updatedAt: sql`${now}`,
  };
  for (const col of columns) exprs[col.key] = fromJson(colOf(col.key).name);
  if (tipo === 'profissionais') {
    exprs.usuarioId = fromJson('usuario_id');
    exprs.aprovado = sql`1`;
  }
  if (tipo === 'agenda') exprs.userId = sql`${user.id}`;
  if (tipo === 'lancamentos') exprs.origem = sql`'importacao'`;
  writes.push(
    logEachRow(db, log, {
      acao: `${entidade}.create`,
      entidade,
      entidadeId: sql`l.alvo_id`,
      regiao,
      dados: createDados,
      from: fromLines,
      when: lines('criar'),
    }),
    insertSelect(db, table, exprs as never, sql`${fromLines} where ${lines('criar')}`),
  );
  if (tipo === 'profissionais')
    // Every profile holds its main function (as the single-record routes keep it). listado is its
    // SQL default, 0: the table's triggers set it from the profile (drizzle/0030).
    writes.push(
      db
        .insert(profissionalFuncoes)
        .select(
          sql`select l.alvo_id, ${fromJson('funcao_profissional_id')}, 0 ${fromLines} where l.importacao_id = ${id} and ${has('funcao_profissional_id')} and ${fromJson('funcao_profissional_id')} is not null and ${claimed}`,
        )
        .onConflictDoNothing(),
    );

  const claim = db
    .update(importacoes)
    .set({ status: 'aplicando', aplicacaoId: claimId, updatedAt: now })
    .where(and(eq(importacoes.id, id), eq(importacoes.regiao, regiao), eq(importacoes.status, 'validado')));
  const done = db
    .update(importacoes)
    .set({ status: 'aplicado', aplicadoEm: now, updatedAt: now })
    .where(and(eq(importacoes.id, id), eq(importacoes.aplicacaoId, claimId), eq(importacoes.status, 'aplicando')));
  const results = await runApply(db, [
    claim,
    recheck,
    ...writes,
    logStatement(db, log, {
      acao: 'importacoes.apply',
      entidade: 'importacoes',
      entidadeId: id,
      regiao,
      dados: {
        status: { antes: 'validado', depois: 'aplicado' },
        criar: { depois: imp.criar },
        atualizar: { depois: imp.atualizar },
      },
      when: claimed,
    }),
    db.delete(importacaoLinhas).where(and(eq(importacaoLinhas.importacaoId, id), claimed)),
    done,
  ]);
  if ((results[0] as D1Result).meta.changes !== 1)
    throw new ApiError('ALREADY_APPLIED', 'esta importação já foi aplicada');
  for (let i = 0; i < outboxIds.length; i += 100) mail.send(outboxIds.slice(i, i + 100));
  return toImportResponse({ ...imp, status: 'aplicado', aplicadoEm: now, updatedAt: now });
}

/** The apply's batch; a constraint it trips (data changed since the validation) is 409, never 500. */
async function runApply(db: Db, stmts: BatchItem<'sqlite'>[]) {
  try {
    return await db.batch(stmts as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  } catch (err) {
    const text = messagesOf(err);
    if (/constraint failed/i.test(text))
      throw new ApiError(
        'CONFLICT',
        'os dados mudaram desde a validação (um registro ou referência do arquivo foi criado, alterado ou excluído): envie o arquivo de novo',
      );
    throw err;
  }
}

function messagesOf(err: unknown): string {
  const parts: string[] = [];
  for (let cur: unknown = err, i = 0; cur && i < 5; i++) {
    parts.push(cur instanceof Error ? cur.message : String(cur));
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return parts.join(' | ');
}

// --- Export ---------------------------------------------------------------------------------------

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

/**
 * GET /api/exportacoes/{tipo}.csv: the region's records in the import format, with their `id`.
 * `de`/`ate` (inclusive days): the event date for the agenda, the creation day (São Paulo) for the rest.
 */
export async function exportCsv(db: Db, tipo: ImportTipo, regiao: string, f: ExportFilters) {
  const t = supported(tipo);
  const range = (col: SQLiteColumn, isDate: boolean) => [
    f.de ? gte(col, isDate ? f.de : saoPauloDayStart(f.de)) : undefined,
    f.ate ? (isDate ? sql`${col} <= ${f.ate}` : lt(col, saoPauloDayStart(f.ate, 1))) : undefined,
  ];
  const names = new Map<string, string>();
  let rows: Row[];
  if (t === 'profissionais') {
    const [fs, ps] = await db.batch([
      catalogSelect(db, funcoes, regiao),
      db
        .select()
        .from(profissionais)
        .where(and(eq(profissionais.regiao, regiao), ...range(profissionais.createdAt, false)))
        .orderBy(asc(profissionais.nome), asc(profissionais.id)),
    ]);
    for (const x of fs) names.set(x.id, x.label);
    rows = ps;
  } else if (t === 'cadastro-fot') {
    const [e, cu, an, fots] = await db.batch([
      catalogSelect(db, empresas, regiao),
      catalogSelect(db, cursos, regiao),
      catalogSelect(db, anosFormaturas, regiao),
      db
        .select()
        .from(cadastroFot)
        .where(and(eq(cadastroFot.regiao, regiao), ...range(cadastroFot.createdAt, false)))
        .orderBy(asc(cadastroFot.fot)),
    ]);
    for (const x of [...e, ...cu, ...an]) names.set(x.id, x.label);
    rows = fots;
  } else if (t === 'lancamentos') {
    const [cats, fots, ls] = await db.batch([
      db
        .select({ id: categoriasFinanceiras.id, label: categoriasFinanceiras.label })
        .from(categoriasFinanceiras)
        .where(eq(categoriasFinanceiras.regiao, regiao)),
      db.select({ id: cadastroFot.id, fot: cadastroFot.fot }).from(cadastroFot).where(eq(cadastroFot.regiao, regiao)),
      db
        .select()
        .from(lancamentos)
        .where(and(eq(lancamentos.regiao, regiao), ...range(lancamentos.vencimento, true)))
        .orderBy(asc(lancamentos.vencimento), asc(lancamentos.id)),
    ]);
    for (const x of cats) names.set(x.id, x.label);
    for (const x of fots) names.set(x.id, String(x.fot));
    rows = ls;
  } else {
    const [te, fots, evs] = await db.batch([
      catalogSelect(db, tiposEventos, regiao),
      db.select({ id: cadastroFot.id, fot: cadastroFot.fot }).from(cadastroFot).where(eq(cadastroFot.regiao, regiao)),
      db
        .select()
        .from(agenda)
        .where(and(eq(agenda.regiao, regiao), ...range(agenda.dataEvento, true)))
        .orderBy(asc(agenda.dataEvento), asc(agenda.horario), asc(agenda.id)),
    ]);
    for (const x of te) names.set(x.id, x.label);
    for (const x of fots) names.set(x.id, String(x.fot));
    rows = evs;
  }
  const columns = COLUMNS[t];
  return toCsv(
    headerOf(t),
    rows.map((r) => [String(r.id), ...columns.map((col) => cellOf(col, r[col.key], names))]),
  );
}
