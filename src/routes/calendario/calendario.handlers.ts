import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { forgetCached } from '../../middleware/cached';
import { disableFeed, feedCalendar, feedPath, feedUrlFor, rotateFeed, type FeedKeys } from '../../services/calendario';
import { handler, logCtx } from '../route';
import * as r from './calendario.routes';

const keys = (c: Context<AppEnv, any, any>): FeedKeys => ({
  icalSecret: c.get('config').ICAL_TOKEN_SECRET,
  jwtSecret: c.get('config').JWT_SECRET,
});
/** API_URL, or the request's own origin when unset. */
const origin = (c: Context<AppEnv, any, any>) => c.get('config').API_URL ?? new URL(c.req.url).origin;

export const get = handler(r.get, async (c) =>
  c.json(await feedUrlFor(c.get('db'), logCtx(c), c.get('user').id, keys(c), origin(c)), 200),
);

/** The old url's cached feed leaves this colo's edge cache at once (others: within FEED_TTL). */
const forgetFeed = (c: Context<AppEnv, any, any>, oldToken: string | undefined) =>
  oldToken ? forgetCached(c, feedPath(oldToken)) : undefined;

export const rotate = handler(r.rotate, async (c) => {
  const { url, oldToken } = await rotateFeed(c.get('db'), logCtx(c), c.get('user').id, keys(c), origin(c));
  await forgetFeed(c, oldToken);
  return c.json({ url }, 200);
});

export const disable = handler(r.disable, async (c) => {
  await forgetFeed(c, await disableFeed(c.get('db'), logCtx(c), c.get('user').id, keys(c)));
  return c.body(null, 204);
});

const TOKEN_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;
const unknownFeed = () => new ApiError('NOT_FOUND', 'calendário não encontrado');

/**
 * GET /ical/{token}.ics: Hono names the whole segment's parameter `token.ics`. Behind the edge cache
 * (FEED_TTL), which adds the ETag and the client's `Cache-Control: private, no-cache`.
 */
export async function feed(c: Context<AppEnv>) {
  const token = TOKEN_FILE.exec(c.req.param('token.ics') ?? '')?.[1];
  if (!token) throw unknownFeed();
  const body = await feedCalendar(c.get('db'), token, new Date());
  if (body === undefined) throw unknownFeed();
  return c.body(body, 200, { 'content-type': 'text/calendar; charset=utf-8' });
}
