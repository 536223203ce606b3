/**
 * npm run admin:create -- --email E --password P [--name N] [--local | --remote] [--persist-to DIR]
 *
 * Creates an active SUPERADMIN in the D1 database bound as DB (decisions D13), or says that the
 * e-mail already exists and changes nothing. --local (the default) applies the local migrations
 * first, so it works on a fresh clone. Exit code 1 only for bad arguments or a wrangler failure.
 */
import {
  applyLocalMigrations,
  createSuperadmin,
  describeAdmin,
  fail,
  parseCli,
  readTarget,
  targetOptions,
  validateAdmin,
} from './lib.ts';

const USAGE =
  'usage: npm run admin:create -- --email E --password P [--name N] [--local | --remote] [--persist-to DIR]';

function parse(argv: string[]) {
  const values = parseCli(argv, USAGE, {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    ...targetOptions,
  });
  const target = readTarget(values);
  const input = validateAdmin({ email: values.email, password: values.password, name: values.name });
  return { input, target };
}

async function main() {
  const { input, target } = parse(process.argv.slice(2));
  if (!target.remote) console.log(await applyLocalMigrations(target.persistTo));
  const where = target.remote
    ? 'remote D1 database'
    : `local D1 database${target.persistTo ? ` in ${target.persistTo}` : ''}`;
  const result = await createSuperadmin(input, target);
  console.log(`${describeAdmin(result)} [${where}]`);
}

main().catch(fail);
