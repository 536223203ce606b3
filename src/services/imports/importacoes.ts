import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { importacaoLinhas, importacoes, type ImportacaoRow } from '../../db/schema';
import { toCsv } from '../../lib/csv';
import { ApiError } from '../../lib/errors';
import { logStatement } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';
import type { ImportError, RowSchemas, Staged } from './columns';
import { validateFile, type ImportFile } from './validation';

/**
 * Spreadsheet import and export (docs/decisions.md#d20; docs/guide/imports.md).
 *
 * POST /api/importacoes validates every row (validation.ts: the kind's columns in columns.ts, its
 * references and existing records read by lookups.ts in ONE batch), and stages the rows that change
 * something in `importacao_linhas` (JSON keyed by column name) with the import's summary, here.
 *
 * The apply (apply.ts) is ONE batch of set-based statements (`INSERT ... SELECT` / `UPDATE ... FROM`
 * over the staged rows), each guarded by the import's claim, so 5,000 rows cost the same dozen
 * statements as 5 and the whole file is written or nothing is. The export: export.ts.
 */

export { MAX_BYTES } from './columns';

/**
 * JSON parameters of at most this many characters: under D1's 100 KB per statement even if a bound
 * value counted towards it (a value may hold 2 MB). A 1 MiB file stages in about 15 statements.
 */
const JSON_CHUNK_CHARS = 90_000;

export function jsonChunks<T>(items: T[]): string[] {
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

/** The staging of validated rows: one `INSERT ... SELECT` per JSON chunk of [linha, acao, alvo_id, dados]. */
const stageInserts = (db: Db, id: string, staged: Staged[]) =>
  jsonChunks(staged.map((s) => [s.linha, s.acao, s.alvoId, s.dados])).map((chunk) =>
    db
      .insert(importacaoLinhas)
      .select(
        sql`select ${id}, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'), json(json_extract(j.value, '$[3]')) from json_each(${chunk}) j`,
      ),
  );

/** POST /api/importacoes: validates, then stores the summary and the staged rows in ONE batch. */
export async function createImport(ctx: Ctx, file: ImportFile, schemas: RowSchemas) {
  const { db, log, user, regiao } = ctx;
  const { tipo } = file;
  const v = await validateFile(ctx, file, schemas);
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
  await db.batch([
    db.insert(importacoes).values(row),
    // Rows with errors make the import unusable: staging them would be wasted work.
    ...stageInserts(db, id, row.status === 'validado' ? v.staged : []),
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

export const notFound = () => new ApiError('NOT_FOUND', 'importação não encontrada');

export const importByIdSelect = ({ db, regiao }: QueryCtx, id: string) =>
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
