import type { AuthoredWrite } from '../../db/authored';
import type { Db } from '../../db/client';
import type { Item, SelectRows } from '../../db/fast-select';
import type { AuthUser } from '../../db/schema';
import type { Scope } from '../../db/scope';
import type { Config } from '../../env';
import type { LogCtx } from './activity-log';
import type { SendMail } from './mail';
import type { Push } from './notifications';
import type { SendWhatsapp } from './whatsapp';

/**
 * One request's context (docs/architecture.md#one-request-context): what a service needs besides its
 * own arguments, built once by the route layer (routes/route.ts `handler`) or by a job or consumer
 * (`jobCtx`). A service takes it first, then at most two arguments of its own: `fn(ctx, id, body)`.
 */
export interface Ctx {
  db: Db;
  config: Config;
  /** x-regiao of a regional route (docs/decisions.md#d5). */
  regiao: string;
  /** The caller: set by the auth middleware on an authenticated route that is not folded. */
  user: AuthUser;
  /** Who acts, for the activity log: the caller (or none) and the request id. */
  log: LogCtx;
  /** Push messages go to the push queue after the answer (never delaying it). */
  push: Push;
  /** E-mails (outbox ids) go to the e-mail queue after the write's batch. */
  mail: SendMail;
  /** WhatsApp messages (outbox ids) go to the WhatsApp queue after the write's batch. */
  whatsapp: SendWhatsapp;
}

/** Runs selects built for the caller's scope, with the caller's check in the same D1 batch. */
export type Read = <T extends readonly [Item, ...Item[]]>(build: (scope: Scope) => T) => Promise<SelectRows<T>>;

/**
 * A folded route's context (docs/architecture.md#folded-authentication): the caller is read in the
 * handler's own batch, so there is no `user` yet; a GET reads through `read`, any other method writes
 * through `write` (db/authored.ts), whose statements carry the caller's check.
 */
export type ReadCtx = Omit<Ctx, 'user'> & { read: Read };
export type WriteCtx = Omit<Ctx, 'user'> & { write: AuthoredWrite };

/** What a query builder needs: the session and the region. */
export type QueryCtx = Pick<Ctx, 'db' | 'regiao'>;
