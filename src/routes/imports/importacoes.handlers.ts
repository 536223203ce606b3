import type { ImportTipo } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import {
  applyImport,
  createImport,
  errorsCsv as errorsCsvOf,
  exportCsv as exportCsvOf,
  importByIdSelect,
  oneImport,
  templateCsv,
} from '../../services/imports/importacoes';
import { csvAnswer, handler, logCtx, mailOf } from '../route';
import * as r from './importacoes.routes';
import { rowSchemas } from './importacoes.schemas';

const CSV_TYPES = /^(text\/csv|text\/plain|application\/vnd\.ms-excel|application\/octet-stream)\b/i;

export const template = (tipo: ImportTipo) =>
  handler(r.templates[0]!, async (c) => csvAnswer(c, templateCsv(tipo), `modelo-${tipo}.csv`));

export const create = handler(r.create, async (c) => {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  // An empty body has no content type left (middleware/empty-body.ts): it is an empty file.
  if (bytes.byteLength > 0 && !CSV_TYPES.test(c.req.header('content-type') ?? ''))
    throw new ApiError('VALIDATION_FAILED', 'envie o arquivo com Content-Type: text/csv');
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  return c.json(await createImport(db, logCtx(c), user, regiao, c.req.valid('query').tipo, bytes, rowSchemas), 201);
});

export const get = handler(r.get, async (c) =>
  c.json(oneImport(await importByIdSelect(c.get('db'), c.get('regiao'), c.req.valid('param').id)), 200),
);

export const errorsCsv = handler(r.errorsCsv, async (c) => {
  const { id } = c.req.valid('param');
  return csvAnswer(c, errorsCsvOf(await importByIdSelect(c.get('db'), c.get('regiao'), id)), `erros-${id}.csv`);
});

export const apply = handler(r.apply, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  const config = c.get('config');
  const mail = { config, send: mailOf(c), now: new Date() };
  return c.json(await applyImport(db, logCtx(c), user, regiao, c.req.valid('param').id, mail), 200);
});

export const exportCsv = handler(r.exportCsv, async (c) => {
  const tipo = c.req.valid('param').arquivo;
  return csvAnswer(
    c,
    await exportCsvOf(c.get('db'), tipo, c.get('regiao'), c.req.valid('query')),
    `${tipo}-${c.get('regiao')}.csv`,
  );
});
