import Papa from 'papaparse';

/**
 * Spreadsheet files (docs/decisions.md#d20): decoding, parsing with line numbers, the Brazilian cell
 * formats and the writer of CSV answers (formula-injection escaping, docs/decisions.md#shared-rules).
 */

/** Valid UTF-8 (with or without BOM) is UTF-8; anything else is taken as Windows-1252 (Excel's "CSV" in pt-BR). */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

export interface CsvRow {
  /** The line a spreadsheet shows for the row's first cell (header = 1). */
  linha: number;
  cells: string[];
}

export interface ParsedCsv {
  delimiter: ';' | ',';
  header: string[];
  rows: CsvRow[];
  /** Rows the parser could not read (an unclosed quote): their line and the reason. */
  problems: { linha: number; error: string }[];
}

const NEWLINES = /\r\n|\r|\n/g;
const countNewlines = (s: string) => s.match(NEWLINES)?.length ?? 0;

/**
 * `;` or `,`, whichever the header line holds more of; quoted fields may hold either and newlines.
 * Line numbers: a row starts one line after the previous row's last line (a quoted newline moves the
 * next rows down). Blank lines are skipped but counted.
 */
export function parseCsv(text: string): ParsedCsv {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = body.split(/\r\n|\r|\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const parsed = Papa.parse<string[]>(body, { delimiter, skipEmptyLines: false });
  const rows: CsvRow[] = [];
  const lineOfData: number[] = [];
  let linha = 1;
  let header: string[] = [];
  parsed.data.forEach((cells, i) => {
    lineOfData.push(linha);
    const here = linha;
    linha += 1 + cells.reduce((n, cell) => n + countNewlines(cell), 0);
    if (i === 0) header = cells.map((h) => h.trim().toLowerCase());
    else if (cells.some((cell) => cell.trim() !== '')) rows.push({ linha: here, cells });
  });
  // An unclosed quote runs to the end of the file: the row where it opened is reported.
  const problems = parsed.errors
    .filter((e) => e.type === 'Quotes')
    .map((e) => ({ linha: lineOfData[e.row ?? 0] ?? linha, error: 'aspas sem fechamento' }));
  return { delimiter, header, rows, problems };
}

/** A cell a spreadsheet would run as a formula starts with one of these (docs/decisions.md#shared-rules). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Prefixes `'` to a cell that would start a formula. */
export const escapeFormula = (s: string) => (FORMULA_START.test(s) ? `'${s}` : s);

/** The reverse, for cells read back from a file we wrote: `'=x` is the text `=x`. */
export const unescapeFormula = (s: string) => (s.startsWith("'") && FORMULA_START.test(s.slice(1)) ? s.slice(1) : s);

/** Quoted when it holds either separator (so it reads right whatever the reader's locale assumes), a quote or a line break. */
const quote = (s: string) => (/[;,"\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s);

/**
 * A cell the code has validated as a value that is not text (a PIX key checked against its type, a
 * number it formatted): written as it is, without the formula escape, which would corrupt it for the
 * program that reads the file (a bank's importer takes `'+5511...` as a wrong key). Never for text
 * a user typed. Still quoted when it holds a separator.
 */
export class VerbatimCell {
  constructor(readonly value: string) {}
}
export const verbatim = (value: string) => new VerbatimCell(value);

export type CsvCell = string | number | null | undefined | VerbatimCell;

/**
 * CSV text: header plus rows, `;`-separated (what Excel in pt-BR opens by double click), CRLF, a UTF-8
 * BOM (without it Excel reads the accents as Windows-1252), every cell formula-escaped but those
 * marked `verbatim()`.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[], delimiter = ';') {
  const cell = (c: CsvCell) => (c instanceof VerbatimCell ? c.value : escapeFormula(c == null ? '' : String(c)));
  const line = (cells: readonly CsvCell[]) => cells.map((c) => quote(cell(c))).join(delimiter);
  return `\uFEFF${[line(header), ...rows.map(line)].join('\r\n')}\r\n`;
}

// --- Brazilian cell formats -------------------------------------------------------------------------
// Each parser answers the wire value when it recognises the cell, and the cell itself otherwise, so
// the route's own Zod schema reports the error with its usual message.

/** DD/MM/AAAA or YYYY-MM-DD → YYYY-MM-DD. */
export function parseDateCell(s: string): string {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s.trim());
  return m ? `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}` : s.trim();
}

/** `1.234,56`, `1234,56`, `1234.56`, `R$ 10` → a number; `1.500` (dot and groups of 3) is one thousand five hundred. */
export function parseMoneyCell(s: string): number | string {
  const v = s.replace(/^R\$\s*/i, '').trim();
  if (/^-?\d{1,3}(\.\d{3})+(,\d+)?$/.test(v) || /^-?\d+,\d+$/.test(v))
    return Number(v.replace(/\./g, '').replace(',', '.'));
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return s;
}

/** An integer cell (`1.000` and `1000` alike). */
export function parseIntCell(s: string): number | string {
  const v = s.trim();
  if (/^-?\d+$/.test(v)) return Number(v);
  if (/^-?\d{1,3}(\.\d{3})+$/.test(v)) return Number(v.replace(/\./g, ''));
  return s;
}

const TRUE = new Set(['sim', 's', 'true', '1', 'verdadeiro']);
const FALSE = new Set(['não', 'nao', 'n', 'false', '0', 'falso']);

/** sim/não/true/false/1/0 (any case) → boolean. */
export function parseBoolCell(s: string): boolean | string {
  const v = s.trim().toLocaleLowerCase('pt-BR');
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return s;
}

export const formatDate = (iso: string | null) =>
  iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : '';

/** Cents → `1.234,56`. */
export function formatMoney(centavos: number | null): string {
  if (centavos === null) return '';
  const neg = centavos < 0;
  const abs = Math.abs(centavos);
  const reais = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${neg ? '-' : ''}${reais},${(abs % 100).toString().padStart(2, '0')}`;
}

export const formatBool = (b: boolean | null) => (b === null ? '' : b ? 'sim' : 'não');
