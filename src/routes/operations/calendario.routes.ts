import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { cachedPublicGet } from '../../middleware/cached';
import { requireRole } from '../../middleware/require-role';
import { CALENDAR_ROLES, feedPath } from '../../services/operations/calendario';
import { errors, jsonResponse } from '../openapi';
import { authedRoute, publicRoute } from '../route';

const tags = ['Calendar feeds'];

/**
 * Seconds a feed may be served from the edge cache (middleware/cached.ts; the var
 * EDGE_CACHE_TTL_SECONDS caps it). Calendar apps poll every few minutes to hours and the feed used
 * to tell them `max-age=300`, so five minutes of staleness is what a subscriber already saw; it is
 * also how long a rotated or disabled token may still be answered by a colo that held its feed.
 */
export const FEED_TTL = 300;
const TOKEN_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;
/** The token of a feed request (Hono names the whole segment's parameter `token.ics`), if well-formed. */
export const feedTokenOf = (c: Context<AppEnv>) => TOKEN_FILE.exec(c.req.param('token.ics') ?? '')?.[1];

/**
 * The edge-cache entry of a feed is its path without the query (the token is the credential): the
 * url with any query meets the same entry, so dropping `feedPath(old token)` on a rotation, a
 * disabled feed or a deleted account reaches every variant. A new token never meets an old one's.
 */
export const feedCache = cachedPublicGet({
  ttl: FEED_TTL,
  private: true,
  entry: (c) => {
    const token = feedTokenOf(c);
    return token ? feedPath(token) : undefined;
  },
});

export const CalendarUrlSchema = z
  .object({
    url: z.string().openapi({
      format: 'uri',
      example: 'https://api.example.com/ical/3q2-7wExAmPlEtOkEn0fThIrTyTwObYtEsBaSe64uRl.ics',
      description: 'subscribe to it in a calendar app; anyone holding it can read the feed',
    }),
  })
  .openapi('CalendarUrl');

const allow = requireRole(...CALENDAR_ROLES);
const who = 'Professionals, agenda_viewers and EVENT_OWNERs (other roles: 403).';
const apiUrl =
  'The url starts with the var API_URL, never with the Host the request was sent to; a deployment without API_URL answers 503 CONFIG_MISSING and changes nothing.';

export const get = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow,
  summary: "The caller's calendar feed url (created on the first call; the same url until rotated)",
  description: `${who} ${apiUrl}`,
  responses: { 200: jsonResponse(CalendarUrlSchema, 'The feed url'), 409: errors[409], 503: errors[503] },
});

export const rotate = authedRoute({
  method: 'post',
  path: '/rotacionar',
  tags,
  allow,
  summary: `A new feed url; the old one answers 404 (at once; a colo that had it in its edge cache: within ${FEED_TTL} s)`,
  description: `${who} 404 when the caller has no feed (never asked for one, or turned it off). ${apiUrl}`,
  responses: {
    200: jsonResponse(CalendarUrlSchema, 'The new feed url'),
    404: errors[404],
    409: errors[409],
    503: errors[503],
  },
});

export const disable = authedRoute({
  method: 'delete',
  path: '/',
  tags,
  allow,
  summary: `Turn the caller's calendar feed off (its url answers 404, from an edge cache within ${FEED_TTL} s; idempotent)`,
  description: who,
  responses: { 204: { description: 'Turned off' } },
});

/** Documented here; served by a plain Hono route (index.ts): the `.ics` suffix is not an OpenAPI parameter. */
export const feed = publicRoute({
  method: 'get',
  path: '/{token}.ics',
  tags,
  middleware: [feedCache],
  summary: 'The calendar feed (RFC 5545), for calendar apps; the token is the credential',
  description: `One VEVENT per event of the feed's owner, times in UTC. Professional: its invitations (aceito CONFIRMED, pendente TENTATIVE, recusado in the last 30 days CANCELLED); agenda_viewer: the events it created; EVENT_OWNER: its company's events. Events that ended more than 90 days ago are left out. Unknown, rotated or disabled token, or an account deleted or no longer of these roles: 404. A query string is ignored. Answers a strong \`ETag\` and honours \`If-None-Match\` (304, empty body); served from the edge cache for up to ${FEED_TTL} s (one entry per token, whatever the query), so a change shows within ${FEED_TTL} s, and a rotated or disabled url may still answer 200 for up to ${FEED_TTL} s where it was cached (at once 404, with or without a query, in the location that rotated or disabled it or deleted the account).`,
  request: {
    params: z.object({
      token: z
        .string()
        .openapi({ param: { name: 'token', in: 'path' }, pattern: '^[A-Za-z0-9_-]{43}$', description: 'from the url' }),
    }),
  },
  responses: {
    200: {
      description: 'The calendar',
      content: { 'text/calendar': { schema: z.string().openapi({ description: 'RFC 5545, UTF-8, CRLF' }) } },
    },
    304: { description: 'Not modified: the `If-None-Match` ETag is current (no body)' },
    404: errors[404],
  },
});
