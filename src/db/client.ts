import { drizzle, type DrizzleD1Database } from 'drizzle-orm/d1';
import * as schema from './schema';

/** The drizzle instance every service receives as its first argument. */
export type Db = DrizzleD1Database<typeof schema> & { $client: D1Database };

// drizzle() rebuilds the relational config of every table: build it once per binding and isolate.
const cache = new WeakMap<D1Database, Db>();

export function createDb(d1: D1Database): Db {
  let db = cache.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    cache.set(d1, db);
  }
  return db;
}
