import { text } from 'drizzle-orm/sqlite-core';

export const nowIso = () => new Date().toISOString();

/** Every row carries ISO-8601 UTC timestamps (text sorts in time order). */
export const timestamps = {
  createdAt: text('created_at').notNull().$defaultFn(nowIso),
  updatedAt: text('updated_at').notNull().$defaultFn(nowIso).$onUpdateFn(nowIso),
};

export const uuidPk = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
