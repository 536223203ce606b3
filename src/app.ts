import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import type { Context } from 'hono';
import { BOOKMARK_HEADER, requestDb } from './db/session';
import { ConfigError, getConfig, type AppEnv } from './env';
import { ApiError, errorBody, mapDbError, type ErrorCode } from './lib/errors';
import type { ClientApp } from './lib/client-types';
import { applyFieldErrors } from './lib/fields';
import { errorText, logger } from './lib/logger';
import { createRouter } from './routes/router';
import { emptyBodyIsNoBody } from './middleware/empty-body';
import { docsPage, health, healthRoute, index } from './routes/meta';
import { adminUsersRoutes } from './routes/accounts';
import { agendaRoutes } from './routes/agenda';
import { cidadesRoutes, deslocamentosRoutes } from './routes/places';
import { agendaTeamRoutes, convitesRoutes } from './routes/teams';
import { agendaRankingRoutes, rankingRoutes } from './routes/ranking';
import { logisticaRoutes, regrasAplicarRoutes } from './routes/operations';
import { calendarioRoutes, icalRoutes } from './routes/operations';
import { authRoutes } from './routes/accounts';
import { cadastroFotRoutes } from './routes/records';
import { chamadosRoutes } from './routes/tickets';
import { pesquisasRoutes, publicPesquisasRoutes } from './routes/surveys';
import { logsAtividadeRoutes } from './routes/activity-log';
import { notificationsRoutes } from './routes/operations';
import { canaisRoutes, passwordResetRoutes } from './routes/accounts';
import { meAvaliacoesRoutes, profissionaisRoutes } from './routes/professionals';
import { importacoesRoutes } from './routes/imports';
import { campanhasRoutes, disponibilidadesResumoRoutes, disponibilidadesRoutes } from './routes/availability';
import { confiabilidadeProfRoutes, confiabilidadeRoutes } from './routes/reliability';
import { equipamentosRoutes, planejamentoRoutes } from './routes/planning';
import { MAX_BYTES as IMPORT_MAX_BYTES } from './services/imports/importacoes';
import {
  anosFormaturasConfig,
  anosFormaturasRoutes,
  cursosConfig,
  cursosRoutes,
  empresasConfig,
  empresasRoutes,
  funcoesConfig,
  funcoesRoutes,
  tiposServicosConfig,
  tiposServicosRoutes,
} from './routes/catalogs';
import { openApiDocument } from './routes/document';
import { instituicoesRoutes, tiposEventosRoutes } from './routes/catalogs';
import { instituicoesConfig } from './routes/catalogs/instituicoes.schemas';
import { pacotesRoutes } from './routes/payments';
import { pedidosRoutes } from './routes/payments';
import { webhooksRoutes } from './routes/payments';
import { whatsappStatusRoutes, whatsappWebhookRoutes } from './routes/whatsapp';
import { financeiroRoutes } from './routes/money';
import { tiposEventosConfig } from './routes/catalogs/tipos-eventos.schemas';
import { vagasRoutes } from './routes/teams';
import { agendaRegrasRoutes, feriadosRoutes, regrasRoutes } from './routes/rules';
import { agendaCheckinRoutes, convitesCheckinRoutes, presencasRoutes } from './routes/checkin';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** One line per unexpected error: never the SQL parameters (they may hold a password hash; lib/logger.ts). */
const logError = (c: Context<AppEnv>, err: unknown) =>
  logger.error(errorText(err), { requestId: c.get('requestId'), method: c.req.method, path: c.req.path });

function httpExceptionCode(err: HTTPException): { code: ErrorCode; message: string; status: 400 | 401 | 413 } {
  if (err.status === 413)
    return { code: 'PAYLOAD_TOO_LARGE', message: 'o corpo da requisição passa de 64 KiB', status: 413 };
  if (err.status === 401) return { code: 'UNAUTHENTICATED', message: 'autenticação necessária', status: 401 };
  if (err.status === 415)
    return {
      code: 'INVALID_JSON',
      message: 'o corpo da requisição deve ser JSON (Content-Type: application/json)',
      status: 400,
    };
  if (/json/i.test(err.message))
    return { code: 'INVALID_JSON', message: 'o corpo da requisição não é um JSON válido', status: 400 };
  return { code: 'VALIDATION_FAILED', message: 'requisição inválida', status: 400 };
}

export function createApp() {
  applyFieldErrors();
  const app = createRouter();

  app.use(requestId());
  app.use(secureHeaders());
  app.use(async (c, next) => {
    c.set('config', getConfig(c.env));
    // One D1 session per request (db/session.ts): reads may go to replicas, writes start on the primary.
    const session = requestDb(c.env.DB, c.req.method, c.req.header(BOOKMARK_HEADER));
    c.set('db', session.db);
    await next();
    const bookmark = session.bookmark();
    if (bookmark) c.res.headers.set(BOOKMARK_HEADER, bookmark);
  });
  app.use(
    cors({
      origin: (origin, c: Context<AppEnv>) => (c.get('config').CORS_ORIGINS.includes(origin) ? origin : null),
      credentials: true,
      allowHeaders: ['Authorization', 'Content-Type', 'x-regiao', 'Idempotency-Key', BOOKMARK_HEADER],
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      exposeHeaders: ['X-Request-Id', 'Retry-After', 'X-Total-Count', 'X-Next-Cursor', BOOKMARK_HEADER],
      maxAge: 600,
    }),
  );
  const smallBody = bodyLimit({
    maxSize: BODY_LIMIT_BYTES,
    onError: (c) => c.json(errorBody('PAYLOAD_TOO_LARGE', 'o corpo da requisição passa de 64 KiB'), 413),
  });
  // A spreadsheet upload (POST /api/importacoes) may carry up to 1 MiB (docs/decisions.md#d20).
  const upload = bodyLimit({
    maxSize: IMPORT_MAX_BYTES,
    onError: (c) => c.json(errorBody('PAYLOAD_TOO_LARGE', 'o arquivo passa de 1 MiB'), 413),
  });
  app.use((c, next) =>
    c.req.method === 'POST' && c.req.path === '/api/importacoes' ? upload(c, next) : smallBody(c, next),
  );
  app.use(emptyBodyIsNoBody);

  app.onError((err, c) => {
    if (err instanceof ApiError)
      return c.json({ ...errorBody(err.code, err.message), ...err.extra }, err.status, err.headers);
    const mapped = mapDbError(err);
    if (mapped) return c.json(errorBody(mapped.code, mapped.message), mapped.status);
    if (err instanceof HTTPException && err.status < 500) {
      const { code, message, status } = httpExceptionCode(err);
      return c.json(errorBody(code, message), status);
    }
    if (err instanceof ConfigError) logger.error(err.message);
    else logError(c, err);
    return c.json(errorBody('INTERNAL', 'erro interno'), 500);
  });
  app.notFound((c) => c.json(errorBody('NOT_FOUND', `rota não encontrada: ${c.req.method} ${c.req.path}`), 404));

  app.openAPIRegistry.registerComponent('securitySchemes', 'BearerAuth', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'The access token, as `Bearer <token>` or the bare token. The `access_token` cookie is accepted too.',
  });

  app.get('/', index);
  app.openapi(healthRoute, health);

  const routes = app
    .route('/', authRoutes)
    .route('/', passwordResetRoutes)
    .route('/', canaisRoutes)
    .route('/api/admin/users', adminUsersRoutes)
    .route('/api/cidades', cidadesRoutes)
    .route('/api/deslocamentos', deslocamentosRoutes)
    .route(anosFormaturasConfig.path, anosFormaturasRoutes)
    .route(cursosConfig.path, cursosRoutes)
    .route(empresasConfig.path, empresasRoutes)
    .route(funcoesConfig.path, funcoesRoutes)
    .route(tiposServicosConfig.path, tiposServicosRoutes)
    .route(tiposEventosConfig.path, tiposEventosRoutes)
    .route(instituicoesConfig.path, instituicoesRoutes)
    .route('/api/cadastro-fot', cadastroFotRoutes)
    .route('/api/profissionais', profissionaisRoutes)
    .route('/api/profissionais', disponibilidadesRoutes)
    .route('/api/profissionais', confiabilidadeProfRoutes)
    .route('/api/confiabilidade', confiabilidadeRoutes)
    .route('/api/disponibilidades', disponibilidadesResumoRoutes)
    .route('/api/campanhas-disponibilidade', campanhasRoutes)
    .route('/api/planejamento', planejamentoRoutes)
    .route('/api/equipamentos', equipamentosRoutes)
    .route('/api/v1/notifications', notificationsRoutes)
    .route('/api/agenda', agendaRoutes)
    .route('/api/agenda', agendaTeamRoutes)
    .route('/api/agenda', agendaRegrasRoutes)
    .route('/api/regras', regrasRoutes)
    .route('/api/feriados', feriadosRoutes)
    .route('/api/agenda', agendaRankingRoutes)
    .route('/api/ranking', rankingRoutes)
    .route('/api/convites', convitesRoutes)
    .route('/api/agenda', agendaCheckinRoutes)
    .route('/api/presencas', presencasRoutes)
    .route('/api/convites', convitesCheckinRoutes)
    .route('/api/logs-atividade', logsAtividadeRoutes)
    .route('/api', importacoesRoutes)
    // Photo packages, orders and the payment webhook (D19).
    .route('/api/pacotes', pacotesRoutes)
    .route('/api/pedidos', pedidosRoutes)
    .route('/webhooks', webhooksRoutes)
    // WhatsApp (D30): Meta's webhook, and the office's view of delivery per invitation.
    .route('/webhooks', whatsappWebhookRoutes)
    .route('/api/agenda', whatsappStatusRoutes)
    .route('/api/agenda', logisticaRoutes)
    .route('/api/agenda', regrasAplicarRoutes)
    .route('/api/me/calendario', calendarioRoutes)
    .route('/ical', icalRoutes)
    .route('/api/vagas', vagasRoutes)
    .route('/api/financeiro', financeiroRoutes)
    .route('/api/chamados', chamadosRoutes)
    .route('/api/pesquisas', pesquisasRoutes)
    .route('/p/pesquisas', publicPesquisasRoutes)
    .route('/api/me', meAvaliacoesRoutes);

  // Built once per configuration (the document names the deployment's server and regions), never
  // from the request's Host: a client-chosen Host would name another server (and grow this map).
  const documents = new Map<string, ReturnType<typeof openApiDocument>>();
  app.get('/openapi.json', (c) => {
    const config = c.get('config');
    const opts = { server: config.API_URL ?? '/', regioes: config.REGIOES };
    const key = JSON.stringify(opts);
    let doc = documents.get(key);
    if (!doc) documents.set(key, (doc = openApiDocument(app, opts)));
    return c.json(doc);
  });
  app.get('/docs', docsPage);

  return routes;
}

/** For `hc<AppType>(url)` (hono/client): see examples/client.ts and docs/guide/clients.md. */
export type AppType = ClientApp<ReturnType<typeof createApp>>;
