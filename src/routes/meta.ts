/** The routes about the API itself: GET / (where to start), GET /health and the /docs page. */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { errors, jsonResponse } from './openapi';
import { publicRoute } from './route';

export const HealthSchema = z.object({ status: z.literal('ok') }).openapi('Health');

export const healthRoute = publicRoute({
  method: 'get',
  path: '/health',
  tags: ['Health'],
  summary: 'Liveness: the Worker answers and D1 answers a query',
  description: 'Public: no token needed. Runs `select 1` on D1; a failing database gives 500 INTERNAL.',
  responses: {
    200: jsonResponse(HealthSchema, 'The Worker and its database answer'),
    500: errors[500],
  },
});

export async function health(c: Context<AppEnv>) {
  await c.env.DB.prepare('select 1').first();
  return c.json({ status: 'ok' as const }, 200);
}

/** GET /: a small JSON index, so `curl localhost:8787/` says where to go next. */
export const index = (c: Context<AppEnv>) =>
  c.json({
    name: 'Event Operations API',
    docs: '/docs',
    openapi: '/openapi.json',
    health: '/health',
  });

/**
 * The /docs page loads only files of this origin: Swagger UI from the Workers static assets
 * (public/docs/, copied from the pinned swagger-ui-dist by scripts/docs-assets.mjs) and the document
 * from /openapi.json. The CSP says so, so a page that tried anything else would fail loudly.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Event Operations API</title>
    <link rel="icon" type="image/png" href="/docs/vendor/favicon-32x32.png" />
    <link rel="stylesheet" href="/docs/vendor/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/vendor/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

export const docsPage = (c: Context<AppEnv>) => c.html(DOCS_HTML, 200, { 'Content-Security-Policy': DOCS_CSP });
