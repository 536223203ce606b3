import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema';
import type { Db } from '../env';

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
