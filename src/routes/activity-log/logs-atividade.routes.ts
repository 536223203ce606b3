import { z } from '@hono/zod-openapi';
import { nextCursorHeader } from '../../lib/cursor';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { LogEntrySchema, LogListQuery, VerificationQuery, VerificationSchema } from './logs-atividade.schemas';

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
    '`{"ok": true, "total": N, "cabeca", "sem_chave_ate_seq"}` when the sealed entries run from seq 1 without a gap and ' +
    'each still matches its seal (HMAC-SHA256 under the key version it names, or SHA-256 for entries sealed before the key; ' +
    'docs/decisions.md#d15); otherwise `{"ok": false, "quebra_em_seq": N, "motivo"}`, the first seq where it breaks (and, for ' +
    'a gap, `lacuna`: the missing seqs). With `seq` and `hash` (a head published by a sealing run: its log line or the daily ' +
    'e-mail to the SUPERADMINs), the chain must also still reach that seal: a removed end answers `cabeca_ausente`. Entries ' +
    'not yet sealed (the last 15 minutes) are not covered.',
  request: { query: VerificationQuery },
  responses: { 200: jsonResponse(VerificationSchema, 'The result of the check') },
});
