/**
 * npm run db:check-counts -- [--local | --remote] [--persist-to DIR]
 *
 * Compares the counts SQLite triggers keep in contagens and in agenda_equipe's columns
 * (docs/architecture.md, "Kept by triggers") with a count of the rows they count, in the D1 database bound as DB. Prints every key that
 * differs and exits 1 if any does (a trigger dropped by a table rebuild, a write that bypassed
 * them): then recreate the triggers and rebuild the counts from their rows (the backfills of
 * drizzle/0018, 0022, 0023, 0025 and 0027). It reads whole tables: run it off-peak. Changes nothing.
 */
import { d1Execute, fail, parseCli, readTarget, targetOptions } from './lib.ts';
import { KEPT_DRIFT_CHECKS } from './kept-counts.ts';

const USAGE = 'usage: npm run db:check-counts -- [--local | --remote] [--persist-to DIR]';

async function main() {
  const target = readTarget(parseCli(process.argv.slice(2), USAGE, targetOptions));
  const where = target.remote
    ? 'remote D1 database'
    : `local D1 database${target.persistTo ? ` in ${target.persistTo}` : ''}`;
  for (const [what, check] of KEPT_DRIFT_CHECKS) {
    const drift = (await d1Execute(check, target))[0]?.results ?? [];
    if (drift.length === 0) {
      console.log(`${what} equal a count of their rows [${where}]`);
      continue;
    }
    console.log(`${drift.length} of the ${what} differ from a count of their rows [${where}]:`);
    for (const d of drift) console.log(`  ${JSON.stringify(d)}`);
    process.exitCode = 1;
  }
}

main().catch(fail);
