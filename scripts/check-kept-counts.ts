/**
 * npm run db:check-counts -- [--local | --remote] [--persist-to DIR]
 *
 * Compares the counts SQLite triggers keep in contagens (docs/architecture.md, "Kept by triggers")
 * with a count of the rows they count, in the D1 database bound as DB. Prints every key that
 * differs and exits 1 if any does (a trigger dropped by a table rebuild, a write that bypassed
 * them): then recreate the triggers and rebuild contagens from the counts (the backfills of
 * drizzle/0022 and 0023). It reads whole tables: run it off-peak. Changes nothing.
 */
import { d1Execute, fail, parseCli, readTarget, targetOptions } from './lib.ts';
import { KEPT_COUNTS_DRIFT } from './kept-counts.ts';

const USAGE = 'usage: npm run db:check-counts -- [--local | --remote] [--persist-to DIR]';

async function main() {
  const target = readTarget(parseCli(process.argv.slice(2), USAGE, targetOptions));
  const where = target.remote
    ? 'remote D1 database'
    : `local D1 database${target.persistTo ? ` in ${target.persistTo}` : ''}`;
  const drift = (await d1Execute(KEPT_COUNTS_DRIFT, target))[0]?.results ?? [];
  if (drift.length === 0) {
    console.log(`kept counts equal a count of their rows [${where}]`);
    return;
  }
  console.log(`${drift.length} kept count(s) differ from a count of their rows [${where}]:`);
  for (const d of drift) console.log(`  ${JSON.stringify(d)}`);
  process.exitCode = 1;
}

main().catch(fail);
