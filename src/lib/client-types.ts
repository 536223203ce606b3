import type { Hono, Schema } from 'hono';

/**
 * The app's type as the typed client (`hc<AppType>` from hono/client) should see it. Type-level only.
 *
 * @hono/zod-openapi makes `header` a required argument of every route that declares a header schema
 * and `query` of every route with a query schema, even when all their fields are optional: every
 * regional call needed `{ header: {} }`. Here a `header` or `query` whose fields are all optional
 * becomes optional itself, so `client.api.cursos.$get()` is enough. (hc's `$url()` then no longer
 * types a `query` for those routes; `$get({ query })` does.)
 */
export type ClientApp<A> =
  A extends Hono<infer E, infer S, infer B>
    ? Hono<E, ClientSchema<S> extends infer C extends Schema ? C : never, B>
    : never;

type ClientSchema<S> = { [P in keyof S]: { [M in keyof S[P]]: ClientEndpoint<S[P][M]> } };

/** Distributes over the union of an operation's responses (one endpoint type per status). */
type ClientEndpoint<E> = E extends { input: infer I }
  ? { [K in keyof E]: K extends 'input' ? ClientInput<I> : E[K] }
  : E;

type Loose = 'header' | 'query';
type AllOptional<T> = {} extends T ? true : false;

type ClientInput<I> = {
  [K in keyof I as K extends Loose ? (AllOptional<I[K]> extends true ? never : K) : K]: I[K];
} & {
  [K in keyof I as K extends Loose ? (AllOptional<I[K]> extends true ? K : never) : never]?: I[K];
};
