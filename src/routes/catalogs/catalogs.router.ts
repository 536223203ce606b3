import { anosFormaturas, cursos, empresas, funcoes, tiposServicos } from '../../db/schema';
import { createRouter } from '../router';
import { plainPresenter } from '../../services/catalogs/catalogs';
import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { foldedHandler } from '../route';
import { asRouteHandler, catalogHandlers } from './catalogs.handlers';
import { catalogRoutes } from './catalogs.routes';
import { catalogSchemas, type CatalogConfig, type CatalogField, type DeleteStyle } from './catalogs.schemas';

/** Schemas, routes and handlers of one simple catalog, mounted on a router of their own. */
export function catalogRouter<F extends CatalogField, D extends DeleteStyle>(cfg: CatalogConfig<F, D>) {
  const schemas = catalogSchemas(cfg);
  const r = catalogRoutes(cfg, schemas);
  const h = catalogHandlers(cfg, plainPresenter(cfg.field));
  return createRouter()
    .openapi(...catalogList(cfg, r, h))
    .openapi(...catalogCreate(r, h))
    .openapi(r.update, asRouteHandler(r.update, h.update))
    .openapi(r.remove, asRouteHandler(r.remove, h.remove));
}

/** The list route of a catalog: folded (any active user) or, for /api/funcoes, public. */
export function catalogList<R extends Pick<ReturnType<typeof catalogRoutes>, 'list' | 'publicList'>>(
  cfg: { publicList?: boolean } & object,
  r: R,
  h: Pick<ReturnType<typeof catalogHandlers>, 'list' | 'publicList'>,
): readonly [R['list'], RouteHandler<R['list'], AppEnv>] {
  if (cfg.publicList) return [r.publicList as unknown as R['list'], asRouteHandler<R['list']>(r.list, h.publicList)];
  return [r.list, foldedHandler(r.list, h.list as never) as unknown as RouteHandler<R['list'], AppEnv>];
}

/** The create route of a catalog: a folded write (the author's check in the insert's batch). */
export function catalogCreate<R extends Pick<ReturnType<typeof catalogRoutes>, 'create'>>(
  r: R,
  h: Pick<ReturnType<typeof catalogHandlers>, 'create'>,
): readonly [R['create'], RouteHandler<R['create'], AppEnv>] {
  return [r.create, foldedHandler(r.create, h.create as never) as unknown as RouteHandler<R['create'], AppEnv>];
}

// A new simple catalog is one entry here plus one `.route()` line in src/app.ts.

export const anosFormaturasConfig = {
  table: anosFormaturas,
  path: '/api/anos-formaturas',
  field: 'ano_semestre',
  maxLength: 20,
  example: '2026.1',
  schemaNames: { request: 'CreateAnoFormaturaRequest', response: 'AnoFormaturaResponse' },
  tag: 'Graduation years',
  noun: 'ano de formatura',
  notFound: 'ano de formatura não encontrado',
  deleteStyle: 'no-content',
} as const satisfies CatalogConfig;

export const cursosConfig = {
  table: cursos,
  path: '/api/cursos',
  field: 'nome',
  maxLength: 120,
  example: 'Medicina',
  schemaNames: { request: 'CreateCursoRequest', response: 'CursoResponse' },
  tag: 'Courses',
  noun: 'curso',
  notFound: 'curso não encontrado',
  deleteStyle: 'no-content',
} as const satisfies CatalogConfig;

export const empresasConfig = {
  table: empresas,
  path: '/api/empresas',
  field: 'nome',
  maxLength: 120,
  example: 'Formaturas Alfa',
  schemaNames: { request: 'CreateEmpresaRequest', response: 'EmpresaResponse' },
  tag: 'Companies',
  noun: 'empresa',
  notFound: 'empresa não encontrada',
  deleteStyle: 'no-content',
} as const satisfies CatalogConfig;

export const funcoesConfig = {
  table: funcoes,
  path: '/api/funcoes',
  field: 'nome',
  maxLength: 120,
  example: 'Fotógrafo',
  schemaNames: { request: 'CreateFuncaoRequest', response: 'FuncaoResponse' },
  tag: 'Professional functions',
  noun: 'funcao',
  notFound: 'função não encontrada',
  deleteStyle: 'message',
  deleted: 'função excluída',
  publicList: true,
} as const satisfies CatalogConfig;

export const tiposServicosConfig = {
  table: tiposServicos,
  path: '/api/tipos-servicos',
  field: 'nome',
  maxLength: 120,
  example: 'Cobertura fotográfica',
  schemaNames: { request: 'CreateTipoServicoRequest', response: 'TipoServicoResponse' },
  tag: 'Service types',
  noun: 'tipo de servico',
  notFound: 'tipo de serviço não encontrado',
  deleteStyle: 'no-content',
} as const satisfies CatalogConfig;

export const anosFormaturasRoutes = catalogRouter(anosFormaturasConfig);
export const cursosRoutes = catalogRouter(cursosConfig);
export const empresasRoutes = catalogRouter(empresasConfig);
export const funcoesRoutes = catalogRouter(funcoesConfig);
export const tiposServicosRoutes = catalogRouter(tiposServicosConfig);
