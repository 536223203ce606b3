import { getTableColumns } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { agenda, lancamentos, reservedKeyPrefix, type ImportTipo, type TipoChavePix } from '../../db/schema';
import { wireToRow } from '../../db/wire';
import {
  decodeCsv,
  parseBoolCell,
  parseCsv,
  parseDateCell,
  parseIntCell,
  parseMoneyCell,
  unescapeFormula,
  type CsvRow,
  type ParsedCsv,
} from '../../lib/csv';
import { ApiError, type ErrorCode } from '../../lib/errors';
import { RESERVED_KEY_MESSAGE, UUID_RE } from '../../lib/fields';
import { toCentavos } from '../../lib/money';
import type { QueryCtx } from '../core/context';
import { checkPixPair, profissionalColumns } from '../accounts/profile';
import { fotColumns } from '../records/cadastro-fot';
import {
  COLUMNS,
  CREATE_DEFAULTS,
  headerOf,
  ID_COLUMN,
  MAX_BYTES,
  MAX_ROWS,
  supported,
  TABLES,
  type ColumnDef,
  type ImportError,
  type Row,
  type RowSchema,
  type RowSchemas,
  type Staged,
  type SupportedTipo,
} from './columns';
import { lookups, refKey, type Existing, type Lookups } from './lookups';

/**
 * The validation of a file (docs/decisions.md#d20; docs/guide/imports.md), which writes nothing:
 * every row is checked with the SAME Zod schema as the kind's single-record create route (the route
 * layer hands it in: `RowSchemas`) after turning the Brazilian cell formats and catalog names into
 * wire values, matched to an existing record, and, when it changes something, staged (JSON keyed by
 * column name) for importacoes.ts to store.
 */

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

/** Reports an error of the row being checked. */
type Err = (coluna: string | null, code: ErrorCode, error: string) => void;

/** A row's target columns and the existing record it updates (none: a create). */
interface Matched {
  cols: Row;
  target: Row | undefined;
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
function matchOf(tipo: SupportedTipo, existing: Row[], { id, cols }: { id: string | undefined; cols: Row }) {
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
function lancamentoRules({ cols, target }: Matched, existing: Existing, err: Err) {
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
 * (services/accounts/profile.ts checkPixPair): a key without a type gets the type it shows, the key is
 * stored normalized, and a pair the row leaves as stored is not checked again, so an export of a
 * profile whose key predates the type reads back unchanged.
 */
function pixRule({ cols, target }: Matched, err: Err) {
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

/** The file's header and rows, refused whole (400/413) when the header or the size is wrong. */
function readFile(t: SupportedTipo, bytes: Uint8Array): ParsedCsv {
  if (bytes.byteLength > MAX_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', 'o arquivo passa de 1 MiB');
  const parsed = parseCsv(decodeCsv(bytes));
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
  const missing = COLUMNS[t].filter((col) => col.required && !parsed.header.includes(col.csv));
  if (missing.length)
    throw new ApiError('VALIDATION_FAILED', `cabeçalho: falta a coluna ${missing.map((m) => `"${m.csv}"`).join(', ')}`);
  if (parsed.rows.length === 0) throw new ApiError('VALIDATION_FAILED', 'o arquivo não tem linhas de dados');
  if (parsed.rows.length > MAX_ROWS)
    throw new ApiError('PAYLOAD_TOO_LARGE', `o arquivo tem ${parsed.rows.length} linhas; o máximo é ${MAX_ROWS}`);
  return parsed;
}

/** What checking every row of one file shares. */
interface Run extends Lookups {
  t: SupportedTipo;
  regiao: string;
  schema: RowSchema;
  header: string[];
  /** The kind's columns present in the header. */
  present: ColumnDef[];
  csvOfWire: Map<string, string>;
  tableCols: Record<string, SQLiteColumn>;
  /** `kind:value` of every key of the rows staged or unchanged so far → its line. */
  seenKeys: Map<string, number>;
}

/** A row's cells as the route's body would carry them; a reference not found in the region is an error. */
function wireOf(run: Run, rec: Map<string, string>, err: Err): Row {
  const wire: Row = {};
  for (const col of run.present) {
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
    const found = run.refs[col.ref!]?.get(refKey(col.ref!, v));
    if (found) wire[col.wire] = found;
    else {
      err(col.csv, 'NOT_FOUND', `${col.csv}: "${short(v)}" não encontrado na região ${run.regiao}`);
      wire[col.wire] = '00000000-0000-4000-8000-000000000000'; // reported once, not again by the schema
    }
  }
  return wire;
}

/**
 * The checks of a valid row against the region and the rest of the file: the record it names by
 * id, a key an earlier line has, a FOT number of another region, an e-mail with a login, the kind's
 * own rules. Answers the row's keys.
 */
function checkMatched(run: Run, row: Matched & { linha: number; id: string | undefined }, err: Err) {
  const { t, existing } = run;
  const { cols, target, id } = row;
  if (id && !target) err(ID_COLUMN, 'NOT_FOUND', `id: registro não encontrado na região ${run.regiao}`);
  const keys = [...(id ? [{ kind: 'id', value: id }] : []), ...keyOf(t, cols)];
  if (target) keys.push({ kind: 'id', value: String(target.id) });
  for (const k of keys) {
    const prev = run.seenKeys.get(`${k.kind}:${k.value}`);
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
  if (t === 'agenda' && typeof cols.cidadeIbge === 'number' && !existing.cidades?.has(cols.cidadeIbge))
    err('cidade_ibge', 'NOT_FOUND', 'cidade_ibge: cidade não encontrada');
  if (t === 'profissionais') pixRule(row, err);
  if (t === 'lancamentos') lancamentoRules(row, existing, err);
  return keys;
}

/** A checked row staged: a create with every column, an update of what it changes, or unchanged. */
function stageOf(run: Run, { cols, target, linha }: Matched & { linha: number }): Staged | 'igual' {
  const { t, tableCols } = run;
  const dados: Row = {};
  for (const [key, v] of Object.entries(cols)) if (tableCols[key]) dados[tableCols[key].name] = v;
  if (!target) {
    // A create carries every column: the absent ones as the create route would store them.
    for (const col of COLUMNS[t]) {
      const name = tableCols[col.key]!.name;
      if (!(name in dados) || dados[name] === null) dados[name] = CREATE_DEFAULTS[t]?.[col.key] ?? dados[name] ?? null;
    }
    if (t === 'profissionais' && cols.email) dados.usuario_id = crypto.randomUUID();
    return { linha, acao: 'criar', alvoId: crypto.randomUUID(), dados };
  }
  if (Object.entries(cols).some(([key, v]) => tableCols[key] && !same(target[key], v)))
    return { linha, acao: 'atualizar', alvoId: String(target.id), dados };
  return 'igual';
}

/** One row's errors, and when it has none what it stages (or that it changes nothing). */
function validateRow(run: Run, row: CsvRow, rec: Map<string, string>) {
  const errors: ImportError[] = [];
  const err: Err = (coluna, code, error) => errors.push({ linha: row.linha, coluna, code, error });
  if (row.cells.length > run.header.length && row.cells.slice(run.header.length).some((x) => x.trim()))
    err(null, 'VALIDATION_FAILED', `a linha tem ${row.cells.length} colunas; o cabeçalho, ${run.header.length}`);
  const parsedRow = run.schema.safeParse(wireOf(run, rec, err));
  for (const issue of parsedRow.success ? [] : (parsedRow.error?.issues ?? [])) {
    const field = String(issue.path[0] ?? '');
    const coluna = run.csvOfWire.get(field) ?? (field || null);
    err(coluna, 'VALIDATION_FAILED', `${coluna ?? 'linha'}: ${issue.message}`);
  }
  const idCell = (rec.get(ID_COLUMN) ?? '').trim();
  if (idCell && !UUID_RE.test(idCell)) err(ID_COLUMN, 'INVALID_ID', 'id: deve ser um UUID');
  if (errors.length > 0 || !parsedRow.success) return { errors };

  const cols = toColumns(run.t, parsedRow.data as Row);
  // An empty cell of a column with a default (NOT NULL) keeps the stored value; a create gets the default.
  for (const key of Object.keys(CREATE_DEFAULTS[run.t] ?? {})) if (cols[key] === null) delete cols[key];
  const id = idCell ? idCell.toLowerCase() : undefined;
  const matched = { cols, target: matchOf(run.t, run.existing.rows, { id, cols }), linha: row.linha };
  const keys = checkMatched(run, { ...matched, id }, err);
  if (errors.length > 0) return { errors };
  for (const k of keys) run.seenKeys.set(`${k.kind}:${k.value}`, row.linha);
  return { errors, outcome: stageOf(run, matched) };
}

/** A file of one kind, as uploaded. */
export interface ImportFile {
  tipo: ImportTipo;
  bytes: Uint8Array;
}

/** Parses and validates a file against the region's data; writes nothing. */
export async function validateFile(ctx: QueryCtx, file: ImportFile, schemas: RowSchemas): Promise<ValidationResult> {
  const t = supported(file.tipo);
  const parsed = readFile(t, file.bytes);
  const records = parsed.rows.map((row) => {
    const m = new Map<string, string>();
    parsed.header.forEach((h, i) => m.set(h, unescapeFormula(row.cells[i] ?? '')));
    return m;
  });
  const columns = COLUMNS[t];
  const run: Run = {
    ...(await lookups(ctx, t, records)),
    t,
    regiao: ctx.regiao,
    schema: schemas[t],
    header: parsed.header,
    present: columns.filter((col) => parsed.header.includes(col.csv)),
    csvOfWire: new Map(columns.map((col) => [col.wire, col.csv])),
    tableCols: getTableColumns(TABLES[t]) as Record<string, SQLiteColumn>,
    seenKeys: new Map(),
  };

  const erros: ImportError[] = parsed.problems.map((p) => ({
    linha: p.linha,
    coluna: null,
    code: 'VALIDATION_FAILED',
    error: p.error,
  }));
  const problemLines = new Set(parsed.problems.map((p) => p.linha));
  const staged: Staged[] = [];
  let iguais = 0;
  let linhasComErro = 0;
  parsed.rows.forEach((row, i) => {
    const { errors, outcome } = validateRow(run, row, records[i]!);
    if (outcome === 'igual') iguais++;
    else if (outcome) staged.push(outcome);
    if (errors.length || problemLines.has(row.linha)) linhasComErro++;
    erros.push(...errors);
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
