import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import type { CatalogTable } from '../../db/schema';
import { reqStr } from '../../lib/fields';
import type { CatalogField } from '../../services/catalogs/catalogs';

export type { CatalogField };

/** DELETE answers 204 (the rule) or 200 {"message"} (DELETE /api/funcoes/{id}, per the interface). */
export type DeleteStyle = 'no-content' | 'message';

/** Everything that differs between two simple catalogs. */
export interface CatalogConfig<F extends CatalogField = CatalogField, D extends DeleteStyle = DeleteStyle> {
  table: CatalogTable;
  /** Mount path, e.g. `/api/cursos`. */
  path: `/api/${string}`;
  field: F;
  maxLength: number;
  example: string;
  /** OpenAPI component names of the request and response bodies. */
  schemaNames: { request: string; response: string };
  tag: string;
  /** Singular noun for summaries ("curso"). */
  noun: string;
  /** The 404 sentence of an unknown id, in Portuguese with the noun's gender ("empresa não encontrada"). */
  notFound: string;
  deleteStyle: D;
  /** The 200 answer's sentence of a delete with deleteStyle 'message' ("função excluída"). */
  deleted?: string;
  /** GET list needs no token (still region-filtered): only /api/funcoes (docs/decisions.md#d4). */
  publicList?: boolean;
  /**
   * A catalog with fields of its own besides the label (institutions: `sigla`, `cidade_ibge`): the
   * body's values of its own columns (create: every one, defaults included; update: those sent).
   */
  columns?: (body: Record<string, unknown>, create: boolean) => Record<string, unknown>;
  /** A write's failure that the catalog explains itself (an unknown city: 400), else undefined. */
  writeError?: (e: unknown) => Error | undefined;
}

type LabelShape<F extends CatalogField, S> = { [K in F]: S };

const labelShape = <F extends CatalogField, S extends z.ZodType>(field: F, schema: S) =>
  ({ [field]: schema }) as LabelShape<F, S>;

/** Create/update body: the one label field, trimmed, empty = missing, bounded. */
export const catalogRequestSchema = <F extends CatalogField>(
  cfg: Pick<CatalogConfig<F>, 'field' | 'maxLength' | 'example'>,
) => z.object(labelShape(cfg.field, reqStr(cfg.maxLength).openapi({ example: cfg.example })));

/** Response fields every catalog entry has; event types extend it with `precos`. */
export const catalogResponseShape = <F extends CatalogField>(field: F) => ({
  id: out.id(),
  ...labelShape(field, z.string()),
  regiao: out.regiao(),
  created_at: out.timestamp(),
  updated_at: out.timestamp(),
});

export function catalogSchemas<F extends CatalogField>(cfg: CatalogConfig<F>) {
  return {
    request: catalogRequestSchema(cfg).openapi(cfg.schemaNames.request),
    response: z.object(catalogResponseShape(cfg.field)).openapi(cfg.schemaNames.response),
  };
}
