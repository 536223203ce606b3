import { IMPORT_TIPOS } from '../../db/schema';
import { RESERVED_KEY_PREFIXES_DOC } from '../../lib/fields';
import { requireAdmin } from '../../middleware/require-role';
import { csvContent, csvUpload, errors, IdParam, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { ExportQuery, ImportSchema, ArquivoParam, TipoQuery } from './importacoes.schemas';

const tags = ['Import and export'];

/**
 * One template route per kind, each a literal path: `/{tipo}.csv` as a parameter would make the
 * document ambiguous with `/{id}/aplicar` (a template named `aplicar`).
 */
export const templates = IMPORT_TIPOS.map((tipo) =>
  authedRoute({
    method: 'get',
    path: `/importacoes/modelos/${tipo}.csv`,
    tags,
    allow: requireAdmin,
    summary: `The CSV template of ${tipo}: header and one example line`,
    responses: { 200: csvContent('Template (UTF-8 with BOM, `;`-separated)') },
  }),
);

export const create = authedRoute({
  method: 'post',
  path: '/importacoes',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Upload a spreadsheet (CSV) and validate it; nothing is written to the records yet',
  description:
    'Body: the file, `Content-Type: text/csv` (UTF-8 with or without BOM, or Windows-1252; `;` or `,` separated; at most ' +
    '1 MiB and 5,000 lines, else 413). Every line is validated by the rules of the single-record route; the answer lists each ' +
    'error with its spreadsheet line and column, and how many lines would create, update or change nothing. ' +
    'An unknown or missing header column is 400. A finance entry whose `chave_externa` starts with a prefix the system ' +
    `writes itself (${RESERVED_KEY_PREFIXES_DOC}, any case) is a VALIDATION_FAILED line, unless the line is the ` +
    'entry that already holds that key (an exported order revenue entry reads back unchanged). ' +
    'See docs/guide/imports.md.',
  request: {
    query: TipoQuery,
    body: { required: true, ...csvUpload('The CSV file') },
  },
  responses: { 201: jsonResponse(ImportSchema, 'Validated (status validado or com_erros)') },
});

export const get = authedRoute({
  method: 'get',
  path: '/importacoes/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'An import: status, counts and errors',
  request: { params: IdParam },
  responses: { 200: jsonResponse(ImportSchema, 'The import'), 404: errors[404] },
});

export const errorsCsv = authedRoute({
  method: 'get',
  path: '/importacoes/{id}/erros.csv',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "An import's errors as CSV (linha, coluna, code, error)",
  request: { params: IdParam },
  responses: { 200: csvContent('The errors, formula-escaped'), 404: errors[404] },
});

export const apply = authedRoute({
  method: 'post',
  path: '/importacoes/{id}/aplicar',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Write a validated import: every line or none',
  description:
    'Only a `validado` import: 409 IMPORT_HAS_ERRORS for `com_erros`, 409 ALREADY_APPLIED for a second apply (also when ' +
    'several run at once: exactly one applies). 409 CONFLICT when the data changed since the validation (a referenced ' +
    'entry deleted, a key taken): nothing is written and the import stays `validado`. Imported professionals with an ' +
    'e-mail get an account and an access invitation e-mail.',
  request: { params: IdParam },
  responses: { 200: jsonResponse(ImportSchema, 'Applied'), 404: errors[404], 409: errors[409] },
});

export const exportCsv = authedRoute({
  method: 'get',
  path: '/exportacoes/{arquivo}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "The region's records of a kind as CSV, in the import format",
  description:
    'With the `id` column: importing the file back changes nothing. `de`/`ate` filter the event date (agenda) or the ' +
    'creation day (the other kinds).',
  request: { params: ArquivoParam, query: ExportQuery },
  responses: { 200: csvContent('The records') },
});
