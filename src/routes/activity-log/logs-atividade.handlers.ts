import { encodeCursor, pageWithCursor } from '../../lib/cursor';
import { verifyChain } from '../../services/core/activity-log-chain';
import { logPageSelect, toLogResponse } from '../../services/core/activity-log-list';
import { foldedHandler, handler } from '../route';
import * as r from './logs-atividade.routes';

export const list = foldedHandler(r.list, async (c, ctx) => {
  const q = c.req.valid('query');
  const [rows] = await ctx.read((scope) => [logPageSelect(ctx, scope, q)]);
  return c.json(pageWithCursor(c, rows, q.limit, (last) => encodeCursor(last.seq)).map(toLogResponse), 200);
});

export const verify = handler(r.verify, async (c, ctx) => {
  const { seq, hash } = c.req.valid('query');
  const expected = seq !== undefined && hash !== undefined ? { seq, hash } : undefined;
  return c.json(await verifyChain(ctx.db, ctx.config.LOG_CHAIN_SECRET, expected), 200);
});
