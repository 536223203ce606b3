#!/usr/bin/env node
/**
 * node scripts/redocly-lint.mjs FILE: `redocly lint FILE --config redocly.yaml` (part of `npm run
 * lint:openapi`), offline, printing one line when the document passes. Redocly CLI draws a boxed
 * "Node.js 20 support is ending" notice on stderr each time it starts on Node 20 (nothing turns it off:
 * it is printed while the CLI loads); that box is dropped, and so is the rest of a passing run's chatter.
 * A failing run prints everything else as Redocly wrote it.
 */
import { spawnSync } from 'node:child_process';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/redocly-lint.mjs FILE');
  process.exit(2);
}
const run = spawnSync('npx', ['--no-install', 'redocly', 'lint', file, '--config', 'redocly.yaml'], {
  encoding: 'utf8',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
});

/** The text without the box drawn from its ╔ line to its ╚ line. */
function withoutBox(text) {
  let inBox = false;
  return text
    .split('\n')
    .filter((line) => {
      if (line.includes('╔')) inBox = true;
      const keep = !inBox;
      if (line.includes('╚')) inBox = false;
      return keep;
    })
    .join('\n');
}

if (run.status === 0 && !/You have \d+ warning/.test(`${run.stdout}${run.stderr}`)) {
  console.log(`redocly lint: ${file} is valid (redocly.yaml: recommended-strict, warnings are errors)`);
} else {
  process.stdout.write(withoutBox(run.stdout ?? ''));
  process.stderr.write(withoutBox(run.stderr ?? '').replace(/^\n+/, ''));
  if (run.error) console.error(`redocly lint: could not run npx redocly: ${run.error.message}`);
  process.exit(run.status ?? 1);
}
