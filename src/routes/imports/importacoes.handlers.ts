import type { ImportTipo } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { applyImport } from '../../services/imports/apply';
import { templateCsv } from '../../services/imports/columns';
import { exportCsv as exportCsvOf } from '../../services/imports/export';
import {
  createImport,
  errorsCsv as errorsCsvOf,
  importByIdSelect,
  oneImport,
} from '../../services/imports/importacoes';
import { csvAnswer, handler } from '../route';
import * as r from './importacoes.routes';
import { rowSchemas } from './importacoes.schemas';

const CSV_TYPES = /^(text\/csv|text\/plain|application\/vnd\.ms-excel|application\/octet-stream)\b/i;

export const template = (tipo: ImportTipo) =>
  handler(r.templates[0]!, async (c) => csvAnswer(c, templateCsv(tipo), `modelo-${tipo}.csv`));

export const create = handler(r.create, async (c, ctx) => {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  // An empty body has no content type left (middleware/empty-body.ts): it is an empty file.
  if (bytes.byteLength > 0 && !CSV_TYPES.test(c.req.header('content-type') ?? ''))
    throw new ApiError('VALIDATION_FAILED', 'envie o arquivo com Content-Type: text/csv');
  return c.json(await createImport(ctx, { tipo: c.req.valid('query').tipo, bytes }, rowSchemas), 201);
});

export const get = handler(r.get, async (c, ctx) =>
  c.json(oneImport(await importByIdSelect(ctx, c.req.valid('param').id)), 200),
);

export const errorsCsv = handler(r.errorsCsv, async (c, ctx) => {
  const { id } = c.req.valid('param');
  return csvAnswer(c, errorsCsvOf(await importByIdSelect(ctx, id)), `erros-${id}.csv`);
});

export const apply = handler(r.apply, async (c, ctx) => c.json(await applyImport(ctx, c.req.valid('param').id), 200));

export const exportCsv = handler(r.exportCsv, async (c, ctx) => {
  const tipo = c.req.valid('param').arquivo;
  return csvAnswer(c, await exportCsvOf(ctx, tipo, c.req.valid('query')), `${tipo}-${ctx.regiao}.csv`);
});
