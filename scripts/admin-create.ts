/**
 * npm run admin:create -- --email E --password P [--name N] [--local | --remote] [--persist-to DIR]
 *
 * Creates an active SUPERADMIN in the D1 database bound as DB (decisions D13), or says that the
 * e-mail already exists and changes nothing. --local (the default) applies the local migrations
 * first, so it works on a fresh clone. Exit code 1 only for bad arguments or a wrangler failure.
 */
import { parseArgs } from 'node:util';
import { applyLocalMigrations, CliError, createSuperadmin, describeAdmin, fail, resolveUserPath, validateAdmin, type Target } from './lib.ts';

const USAGE = 'usage: npm run admin:create -- --email E --password P [--name N] [--local | --remote] [--persist-to DIR]';

function parse(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        local: { type: 'boolean' },
        remote: { type: 'boolean' },
        'persist-to': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new CliError(`${(e as Error).message.split('\n')[0]} (${USAGE})`);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.local && values.remote) throw new CliError('use either --local or --remote, not both');
  if (values.remote && values['persist-to'] !== undefined) throw new CliError('--persist-to only applies to --local');
  if (values['persist-to'] === '') throw new CliError('--persist-to needs a directory');
  const target: Target = {
    remote: values.remote === true,
    persistTo: values['persist-to'] === undefined ? undefined : resolveUserPath(values['persist-to']),
  };
  const input = validateAdmin({ email: values.email, password: values.password, name: values.name });
  return { input, target };
}

async function main() {
  const { input, target } = parse(process.argv.slice(2));
  if (!target.remote) console.log(await applyLocalMigrations(target.persistTo));
  const where = target.remote ? 'remote D1 database' : `local D1 database${target.persistTo ? ` in ${target.persistTo}` : ''}`;
  const result = await createSuperadmin(input, target);
  console.log(`${describeAdmin(result)} [${where}]`);
}

main().catch(fail);
