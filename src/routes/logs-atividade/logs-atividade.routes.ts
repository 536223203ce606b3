import { z } from '@hono/zod-openapi';
import { nextCursorHeader } from '../../lib/cursor';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { LogEntrySchema, LogListQuery, VerificationSchema } from './logs-atividade.schemas';

const tags = ['Activity log'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: requireAdmin,
  fold: true,
  regional: true,
  summary: 'The activity log, newest first',
  description:
    'Every change made through the API (docs/decisions.md#d15). A SUPERADMIN sees every entry; a BUSINESS_OWNER the ' +
    'entries of the `x-regiao` region and the global ones (users, sessions, notifications). Newest first (seq descending); when ' +
    'more remain, the answer carries `X-Next-Cursor`: pass it as `antes` for the next page. `hash_anterior` and `hash` are ' +
    'null until the scheduled job seals the entry (within 15 minutes).',
  request: { query: LogListQuery },
  responses: { 200: { ...jsonResponse(z.array(LogEntrySchema), 'Entries'), headers: nextCursorHeader } },
});

export const verify = authedRoute({
  method: 'get',
  path: '/verificacao',
  tags,
  allow: requireRole('SUPERADMIN'),
  summary: 'Recompute the hash chain over the sealed entries',
  description:
    '`{"ok": true, "total": N}` when every sealed entry still hashes to its seal, in seq order; otherwise ' +
    '`{"ok": false, "quebra_em_seq": N}`, the first entry that was changed, removed or re-chained. Entries not yet sealed ' +
    '(the last 15 minutes) are not covered.',
  responses: { 200: jsonResponse(VerificationSchema, 'The result of the check') },
});
