import type { OpenAPIHono } from '@hono/zod-openapi';

/**
 * The OpenAPI document as a contract: what the generator cannot know (servers, tags with their
 * descriptions, contact, license, the deployment's regions) and an `operationId` for every operation,
 * derived from its method and full path, so it is stable and unique (a route group mounts its routes
 * at relative paths, so route.ts cannot know the full path). Served at /openapi.json and dumped by
 * `npm run lint:openapi`.
 */

/** Every tag an operation may carry, with its description (a tag missing here fails the document). */
export const TAGS: Record<string, string> = {
  Authentication: 'Registration, login, token refresh and logout; the current account (/api/me).',
  Administration: 'User accounts: approval, roles, creation and deletion (SUPERADMIN, BUSINESS_OWNER).',
  'Graduation years': 'Catalog of graduation years/semesters, per region.',
  Courses: 'Catalog of courses, per region.',
  Companies: 'Catalog of companies (clients), per region.',
  'Professional functions': 'Catalog of the functions a professional performs (photographer, ...), per region.',
  'Service types': 'Catalog of service types, per region.',
  'Event types and prices': 'Catalog of event types and the price of each function in them, per region.',
  'FOT records': 'Graduation classes (FOT records), per region.',
  Professionals: 'Freelance professionals, their functions, bank data and ratings, per region.',
  Places:
    'Brazilian municipalities (IBGE codes and coordinates), institutions, and the travel minutes between cities (docs/guide/places.md).',
  Agenda: 'Events of the graduation classes, per region.',
  'Teams and invitations': 'Team quota of an event and the invitations of professionals to it.',
  Notifications: "The caller's in-app notifications and push tokens.",
  'Activity log': 'Every change made through the API, append-only and hash-chained (SUPERADMIN, BUSINESS_OWNER).',
  'Import and export':
    'Spreadsheet (CSV) import with validation, preview and an all-or-nothing apply; exports in the same format (administrators).',
  Health: 'Whether the Worker and its database answer.',
  'Photo packages and orders':
    'Photo packages sold to graduates and their orders, paid through the gateway (Mercado Pago), per region.',
  'Payment webhooks': "The payment gateway's signed notifications (no token).",
  WhatsApp:
    "Meta's signed WhatsApp webhook (button replies answer invitations; delivery statuses) and the office's view of delivery per invitation (docs/guide/whatsapp.md).",
  Finance:
    'Categories, entries, contracts, results, payout batches and tax tables (/api/financeiro; docs/guide/money.md).',
  'Call sheets': "An event's logistics (call sheet), versioned; changes notify the accepted team.",
  'Calendar feeds': "The caller's iCalendar (RFC 5545) subscription url, and the public feed it points to.",
  'Job listings': 'Open places of published team functions, and the applications of professionals to them.',
  Surveys:
    'Surveys with their questions, single-use links e-mailed to recipients, results and CSV (RESEARCHER, administrators).',
  'Public surveys': 'The answer side of an e-mailed survey link: no account, the link is the credential (single use).',
  'Support tickets':
    "Tickets opened by any user and answered by the region's administrators; internal notes stay among administrators.",
  'Check-in':
    "QR check-in and check-out (docs/guide/checkin.md): an event's settings and coordinator, its rotating code and display key, the professional's check-in, personal codes read by the coordinator, manual records, the attendance list, no-shows.",
  Availability:
    "When professionals cannot (or prefer to) work: their own declarations, administrators' for anyone, the planners' summary per function and the season poll.",
  Rules:
    'Institution and company rules (team sizes per graduates, deadlines in business days, fees), their explained evaluation and application, holidays, the credential list (docs/guide/rules.md).',
  Reliability:
    'The reliability score: decayed, explained row by row to the professional, contestable; aggregates per region for research (docs/guide/reliability.md).',
  Planning:
    'The season planner: demand per day or week against the pool, per function and equipment, with what-if events; the equipment stock (administrators; docs/guide/planning.md).',
  Ranking:
    "Who to invite and why: an event's candidates per function with each component of their score, the region's weights, and batch invitations that keep the ranking's snapshot.",
};

export interface DocumentOptions {
  /**
   * The `servers` entry: API_URL, or `/` (relative: the origin the document was fetched from) when
   * unset. Never the request's Host, which a client chooses.
   */
  server: string;
  /** The deployment's regions (REGIOES), uppercase. */
  regioes: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** `GET /api/admin/users/{id}/role` → `getAdminUsersByIdRole` (a leading `api` and `v1` dropped). */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .filter((seg, i, all) => !(i === 0 && seg === 'api') && !(seg === 'v1' && all[i - 1] === 'api'))
    // `{token}.ics` → `by-token-ics`
    .map((seg) => seg.replace(/\{(\w+)\}/g, 'by-$1'))
    .flatMap((seg) => seg.split(/[-_.]/))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

const anyCase = (s: string) =>
  [...s].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toUpperCase()}${ch.toLowerCase()}]` : ch));

// biome-ignore lint/suspicious/noExplicitAny: any app's environment
export function openApiDocument(app: OpenAPIHono<any, any, any>, opts: DocumentOptions) {
  const doc = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Event Operations API',
      version: '1.0',
      description:
        'Backend of the graduation-event coverage system. Errors are `{"error", "code"}`. ' +
        'Generate clients from this document (see docs/guide/clients.md: openapi-typescript + openapi-fetch). ' +
        'Read replicas: every answer that read or wrote D1 carries an `x-d1-bookmark` header; send the last one ' +
        'back as the `x-d1-bookmark` request header so that your reads see your own writes (a malformed one is ignored).',
      contact: { name: 'Event Operations API maintainers' },
      // OpenAPI 3.1's SPDX `identifier` (the generator's types know only 3.0's `url`).
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } as { name: string },
    },
    servers: [{ url: opts.server, description: 'this deployment' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
  });

  const regions = opts.regioes.map((r) => anyCase(r).join('')).join('|');
  const schemas = doc.components?.schemas ?? {};
  if (schemas.Regiao) schemas.Regiao = { ...schemas.Regiao, enum: opts.regioes };

  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      op.operationId ??= operationIdOf(method, path);
      const other = seen.get(op.operationId);
      if (other) throw new Error(`operationId ${op.operationId} of ${where} is also that of ${other}`);
      seen.set(op.operationId, where);
      for (const tag of op.tags ?? []) if (!TAGS[tag]) throw new Error(`tag "${tag}" of ${where} has no description`);
      for (const param of op.parameters ?? []) {
        if ('in' in param && param.in === 'header' && param.name === 'x-regiao' && param.schema)
          param.schema = { ...param.schema, pattern: `^\\s*(?:${regions})?\\s*$` };
      }
    }
  }
  return doc;
}
