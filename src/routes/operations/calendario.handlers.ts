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
import { ctxOf, handler } from '../route';
import * as r from './calendario.routes';

const keys = (c: Context<AppEnv, any, any>) => feedKeysOf(c.get('config'));

export const get = handler(r.get, async (c, ctx) => c.json(await feedUrlFor(ctx), 200));

/** The old url's cached feed leaves this colo's edge cache at once (others: within FEED_TTL). */
const forgetToken = (c: Context<AppEnv, any, any>, oldToken: string | undefined) =>
  oldToken ? forgetCached(c, [feedPath(oldToken)]) : undefined;

/**
 * For the writes that make D1 refuse a feed without touching it (its account deleted, or moved to a
 * role without feeds): drops this colo's edge-cached copy of it at once.
 */
export const forgetFeed = async (c: Context<AppEnv, any, any>, feed: FeedRef | null | undefined) =>
  feed ? forgetCached(c, [await feedPathOf(keys(c), feed)]) : undefined;

export const rotate = handler(r.rotate, async (c, ctx) => {
  const { url, oldToken } = await rotateFeed(ctx);
  await forgetToken(c, oldToken);
  return c.json({ url }, 200);
});

export const disable = handler(r.disable, async (c, ctx) => {
  await forgetToken(c, await disableFeed(ctx));
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
  const body = await feedCalendar(ctxOf(c), token, new Date());
  if (body === undefined) throw unknownFeed();
  return c.body(body, 200, { 'content-type': 'text/calendar; charset=utf-8' });
}
