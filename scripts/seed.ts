/**
 * npm run db:seed -- [--local | --remote] [--persist-to DIR] [--size small|bench] [--force] [--sql-out FILE]
 *
 * Loads deterministic Brazilian demo data for both regions (SP and MG) into the D1 database bound as
 * DB (decisions D13): catalogs, event types with prices, FOT records, professionals, agenda events,
 * teams, and one active user per role with the demo passwords printed at the end. `--size small`
 * (the default) is tens of rows; `--size bench` is the benchmark's volume (issue 8). A database that
 * already has FOT records is refused unless --force, which adds more with fresh FOT numbers.
 * --local (the default) applies the local migrations first.
 */
import { applyLocalMigrations, CliError, fail, parseCli, readTarget, resolveUserPath, targetOptions } from './lib.ts';
import { AlreadySeeded, countRows, SEED_SIZES, seedDatabase, type SeedSize } from './seed-lib.ts';

const USAGE =
  'usage: npm run db:seed -- [--local | --remote] [--persist-to DIR] [--size small|bench] [--force] [--sql-out FILE]';

function parse(argv: string[]) {
  const values = parseCli(argv, USAGE, {
    ...targetOptions,
    size: { type: 'string', default: 'small' },
    force: { type: 'boolean', default: false },
    'sql-out': { type: 'string' },
  });
  if (!(values.size! in SEED_SIZES)) throw new CliError(`--size must be small or bench, not "${values.size}"`);
  const target = readTarget(values);
  return {
    target,
    size: values.size as SeedSize,
    force: values.force === true,
    sqlOut: values['sql-out'] ? resolveUserPath(values['sql-out']) : undefined,
  };
}

async function main() {
  const { target, size, force, sqlOut } = parse(process.argv.slice(2));
  const where = target.remote
    ? 'remote D1 database'
    : `local D1 database${target.persistTo ? ` in ${target.persistTo}` : ''}`;
  if (!target.remote) console.log(await applyLocalMigrations(target.persistTo));
  const started = Date.now();
  let result;
  try {
    result = await seedDatabase({ target, size, force, keepFile: sqlOut });
  } catch (e) {
    if (e instanceof AlreadySeeded) {
      console.error(`Not seeding the ${where}: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  const inserted = Object.entries(result.counts)
    .map(([t, k]) => `${t} ${k}`)
    .join(', ');
  console.log(
    `Seeded the ${where} (size ${size}${force ? ', --force' : ''}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
  console.log(`Inserted: ${inserted}. FOT numbers ${result.fotRange[0]}-${result.fotRange[1]}.`);
  if (result.file) console.log(`SQL kept in ${result.file}`);

  console.log('\nRows now in the database:');
  console.log('| table | SP | MG | total |\n|---|---:|---:|---:|');
  for (const r of await countRows(target)) console.log(`| ${r.table} | ${r.SP || ''} | ${r.MG || ''} | ${r.total} |`);

  console.log('\nDemo users (all active; demo passwords, never use them on a real deployment):');
  console.log('| role | e-mail | password | |\n|---|---|---|---|');
  for (const u of result.users) {
    console.log(
      `| ${u.role} | ${u.email} | ${u.password} | ${u.created ? 'created' : 'already existed: left unchanged (its password may differ)'} |`,
    );
  }
  console.log(
    '\nThe EVENT_OWNER belongs to the first SP company; the agenda_viewer owns about 1 in 6 events of each region; ' +
      'the profissional is linked to an SP profile invited to some SP events. Send x-regiao: MG for Minas Gerais data.',
  );
}

main().catch(fail);
