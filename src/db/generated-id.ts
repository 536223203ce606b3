import { sql } from 'drizzle-orm';

/**
 * A fresh UUID v4 made by SQLite, evaluated anew for every row a set-based statement writes (a
 * bound id would repeat): the activity-log entries of an import, notifications written by SQL,
 * the reminders of a scheduled run.
 */
export const generatedId = sql.raw(
  `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`,
);
