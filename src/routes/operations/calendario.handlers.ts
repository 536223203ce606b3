import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { forgetCached } from '../../middleware/cached';
import {
  disableFeed,
  feedCalendar,
  feedKeysOf,
  feedPath,
  feedPathOf,
  feedUrlFor,
  rotateFeed,
  type FeedRef,
} from '../../services/operations/calendario';
import { handler, logCtx } from '../route';
import * as r from './calendario.routes';

const keys = (c: Context<AppEnv, any, any>) => feedKeysOf(c.get('config'));

/**
 * API_URL: a feed url is never built from the request's Host (an attacker's Host would make the
 * caller subscribe to the attacker's server). Unset, the url is refused (503 CONFIG_MISSING) before
 * anything is written.
 */
const origin = (c: Context<AppEnv, any, any>) => {
  const url = c.get('config').API_URL;
  if (!url)
    throw new ApiError(
      'CONFIG_MISSING',
      'o endereço público da API (API_URL) não está configurado: o link do calendário não pode ser gerado',
    );
  return url;
};

export const get = handler(r.get, async (c) => {
  const base = origin(c);
  return c.json(await feedUrlFor(c.get('db'), logCtx(c), c.get('user').id, keys(c), base), 200);
});

/** The old url's cached feed leaves this colo's edge cache at once (others: within FEED_TTL). */
const forgetToken = (c: Context<AppEnv, any, any>, oldToken: string | undefined) =>
  oldToken ? forgetCached(c, [feedPath(oldToken)]) : undefined;

/**
 * For the writes that make D1 refuse a feed without touching it (its account deleted, or moved to a
 * role without feeds): drops this colo's edge-cached copy of it at once.
 */
export const forgetFeed = async (c: Context<AppEnv, any, any>, feed: FeedRef | null | undefined) =>
  feed ? forgetCached(c, [await feedPathOf(keys(c), feed)]) : undefined;

export const rotate = handler(r.rotate, async (c) => {
  const base = origin(c);
  const { url, oldToken } = await rotateFeed(c.get('db'), logCtx(c), c.get('user').id, keys(c), base);
  await forgetToken(c, oldToken);
  return c.json({ url }, 200);
});

export const disable = handler(r.disable, async (c) => {
  await forgetToken(c, await disableFeed(c.get('db'), logCtx(c), c.get('user').id, keys(c)));
  return c.body(null, 204);
});

const unknownFeed = () => new ApiError('NOT_FOUND', 'calendário não encontrado');

/**
 * GET /ical/{token}.ics. Behind the edge cache (FEED_TTL), which adds the ETag and the client's
 * `Cache-Control: private, no-cache`. The query is ignored (and so is it by the cache's entry).
 */
export async function feed(c: Context<AppEnv>) {
  const token = r.feedTokenOf(c);
  if (!token) throw unknownFeed();
  const body = await feedCalendar(c.get('db'), token, new Date());
  if (body === undefined) throw unknownFeed();
  return c.body(body, 200, { 'content-type': 'text/calendar; charset=utf-8' });
}
