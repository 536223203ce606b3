import { createRoute, z, type RouteConfig, type RouteHandler } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { auth } from '../middleware/auth';
import { inBackground } from '../lib/background';
import { authorizedBatch, authorizedSelf, authorizedWrite } from '../middleware/folded';
import type { AuthoredWrite } from '../db/authored';
import { region } from '../middleware/region';
import { enqueueEmails, type SendMail } from '../services/core/mail';
import { enqueuePush, type Push } from '../services/core/notifications';
import { enqueueWhatsapp, type SendWhatsapp } from '../services/core/whatsapp';
import type { LogCtx } from '../services/core/activity-log';
import type { Ctx, Read, ReadCtx, WriteCtx } from '../services/core/context';
import { bearer, errors, protectedErrors, RegionHeader } from './openapi';

/**
 * How every route is declared: `authedRoute()` for the authenticated ones, `publicRoute()` for the
 * rest. A route says who may call it (`allow`), whether it is regional and whether its read is
 * folded; the helper adds the middleware in the one right order (who you are, whether you may,
 * which region: docs/decisions.md#d4, #d5), the bearer requirement, the x-regiao header and the
 * error responses every authenticated route can give. Handlers are declared with `handler()` or,
 * for folded routes, `foldedHandler()`, so a route and its handler cannot disagree on the fold.
 */

type Mw = MiddlewareHandler<AppEnv>;
// Mapped types lose the implicit index signature of the literal they came from; RouteConfig wants it.
// The extension fields of OpenAPI are untyped.
type Extensions = { [key: `x-${string}`]: any };

declare const foldedBrand: unique symbol;
/** Type-only mark of a route declared with `fold: true`. */
export interface Folded {
  readonly [foldedBrand]: true;
}

interface Access {
  /** The role rule (requireRole(...), requireAdmin, allowAgenda(action)); none: any active user. */
  allow?: Mw;
  /** Reads and documents x-regiao (c.get('regiao')). */
  regional?: boolean;
  /** A pending account may call it (its own account and profile: docs/decisions.md#d4). */
  allowPending?: boolean;
  /**
   * The user row travels in the handler's own batch: its handler is a foldedHandler(), which gets
   * `read` (GET) or `write` (other methods, statements guarded by the author check).
   */
  fold?: boolean;
}

type Def = Omit<RouteConfig, 'security' | 'middleware'> & Access;

type RequestOf<D> = (D extends { request: infer Rq } ? Rq : {}) &
  (D extends { regional: true } ? { headers: typeof RegionHeader } : {});
/** A regional route's headers: its own (an Idempotency-Key) plus x-regiao. */
const withRegion = (headers: unknown) =>
  headers instanceof z.ZodObject ? headers.extend(RegionHeader.shape) : RegionHeader;
/**
 * 413: the body limit (app.ts) reads the body of any request that has one, before routing, so every
 * operation a client can send a body to can answer it: every method but GET and HEAD, documented
 * body or not (a DELETE with a 1 MiB body is 413 too).
 */
type BodyErrors<D> = D extends { method: 'get' | 'head' } ? {} : { 413: (typeof errors)[413] };
const bodyErrors = (method: string): { 413?: (typeof errors)[413] } =>
  method === 'get' || method === 'head' ? {} : { 413: errors[413] };

export type AuthedRoute<D extends Def> = Omit<D, keyof Access | 'request' | 'responses'> & {
  security: typeof bearer;
  middleware: Mw[];
  request: RequestOf<D>;
  responses: D['responses'] & typeof protectedErrors & BodyErrors<D>;
  getRoutingPath(): string;
} & Extensions &
  (D extends { fold: true } ? Folded : {});

export function authedRoute<const D extends Def>(def: D): AuthedRoute<D> {
  const { allow, regional, allowPending, fold, request, responses, ...rest } = def;
  const middleware: Mw[] = [auth({ allowPending, fold }), ...(allow ? [allow] : []), ...(regional ? [region] : [])];
  return createRoute({
    ...rest,
    security: bearer,
    middleware,
    request: { ...request, ...(regional ? { headers: withRegion(request?.headers) } : {}) },
    responses: { ...responses, ...protectedErrors, ...bodyErrors(rest.method) },
  }) as unknown as AuthedRoute<D>;
}

type PublicDef = Omit<RouteConfig, 'security'> & { regional?: boolean };
/** What any public route can answer besides its own responses: a malformed request, a failure. */
const publicErrors = { 400: errors[400], 500: errors[500] } as const;
type PublicRoute<D extends PublicDef> = Omit<D, 'regional' | 'request' | 'middleware' | 'responses'> & {
  security: [];
  request: RequestOf<D>;
  middleware: Mw[];
  responses: D['responses'] & typeof publicErrors & BodyErrors<D>;
  getRoutingPath(): string;
} & Extensions;

/**
 * A route anyone may call (login, register, the public function list): documented with `security: []`,
 * the 400/500 every route can give and the 413 of a body.
 */
export function publicRoute<const D extends PublicDef>(def: D): PublicRoute<D> {
  const { regional, request, middleware, responses, ...rest } = def;
  // The region first: a route's own middleware (an edge cache keyed by region) may read c.get('regiao').
  const mws = [...(regional ? [region] : []), ...((middleware as Mw[] | undefined) ?? [])];
  return createRoute({
    ...rest,
    security: [],
    middleware: mws,
    request: { ...request, ...(regional ? { headers: RegionHeader } : {}) },
    responses: { ...responses, ...publicErrors, ...bodyErrors(rest.method) },
  }) as unknown as PublicRoute<D>;
}

/** The request's context for its services (services/core/context.ts), built once per request. */
export const ctxOf = (c: Context<AppEnv, any, any>): Ctx => ({
  db: c.get('db'),
  config: c.get('config'),
  regiao: c.get('regiao'),
  user: c.get('user'),
  log: logCtx(c),
  push: pushOf(c),
  mail: mailOf(c),
  whatsapp: whatsappOf(c),
});

type HandlerContext<R extends RouteConfig> = Parameters<RouteHandler<R, AppEnv>>[0];
type HandlerResult<R extends RouteConfig> = ReturnType<RouteHandler<R, AppEnv>>;

/** The handler of a route that is not folded: `fn(c, ctx)`, the caller in ctx.user. */
export const handler =
  <R extends RouteConfig>(
    _route: R & (R extends Folded ? 'a folded route takes a foldedHandler()' : unknown),
    fn: (c: HandlerContext<R>, ctx: Ctx) => HandlerResult<R>,
  ): RouteHandler<R, AppEnv> =>
  (c) =>
    fn(c, ctxOf(c));

/**
 * A folded GET's `read`; `read.self` reads the caller's own row with more joined to it as that
 * check itself (middleware/folded.ts authorizedSelf).
 */
export type FoldedRead = Read & {
  self: typeof authorizedSelf extends (c: never, ...rest: infer A) => infer O ? (...rest: A) => O : never;
};

/** A folded GET reads through `ctx.read`; any other folded method writes through `ctx.write` (db/authored.ts). */
export type FoldedCtx<R> = R extends { method: 'get' | 'head' } ? ReadCtx & { read: FoldedRead } : WriteCtx;

/**
 * The handler of a folded route: `fn(c, ctx)`, its data only through `ctx.read` (a GET) or `ctx.write`
 * (a write: one batch whose statements carry `author.guard`), which also read and admit the caller
 * (c.get('user') is not set before them).
 */
export const foldedHandler =
  <R extends RouteConfig & Folded>(
    route: R,
    fn: (c: HandlerContext<R>, ctx: FoldedCtx<R>) => HandlerResult<R>,
  ): RouteHandler<R, AppEnv> =>
  (c) => {
    const { user: _none, ...ctx } = ctxOf(c);
    return fn(
      c,
      (route.method === 'get' || route.method === 'head'
        ? {
            ...ctx,
            read: Object.assign((build: Parameters<Read>[0]) => authorizedBatch(c, build), {
              self: (...args: Parameters<FoldedRead['self']>) => authorizedSelf(c, ...args),
            }),
          }
        : { ...ctx, write: (...args: Parameters<AuthoredWrite>) => authorizedWrite(c, ...args) }) as FoldedCtx<R>,
    );
  };

/** Push messages of a request go to the push queue in the background (never delaying the answer). */
export const pushOf =
  // Any route's context.
  (c: Context<AppEnv, any, any>): Push =>
    (messages) =>
      enqueuePush(c.env.PUSH_QUEUE, inBackground(c), messages);

/** E-mails of a request (outbox ids) go to the e-mail queue in the background, after its batch. */
export const mailOf =
  (c: Context<AppEnv, any, any>): SendMail =>
  (outboxIds) =>
    enqueueEmails(c.env.EMAIL_QUEUE, inBackground(c), outboxIds);

/** WhatsApp messages of a request (outbox ids) go to the WhatsApp queue in the background, after its batch. */
export const whatsappOf =
  (c: Context<AppEnv, any, any>): SendWhatsapp =>
  (outboxIds) =>
    enqueueWhatsapp(c.env.WHATSAPP_QUEUE, inBackground(c), outboxIds);

/** Who acts, for the activity log (services/core/activity-log.ts): the caller if authenticated, and the request id. */
export const logCtx = (c: Context<AppEnv, any, any>): LogCtx => {
  const user = c.get('user') as AppEnv['Variables']['user'] | undefined;
  return { atorId: user?.id ?? null, atorRole: user?.role ?? null, requestId: c.get('requestId') ?? null };
};

/** A CSV answer (docs/decisions.md#shared-rules): `text/csv; charset=utf-8`, downloaded as `filename`. */
export const csvAnswer = (c: Context, body: string, filename: string) =>
  c.body(body, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${filename}"`,
  });
