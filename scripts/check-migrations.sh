#!/usr/bin/env bash
# Fails when the Drizzle schema has changes that no migration in drizzle/ carries.
# (`drizzle-kit check` does not detect this; `generate` exits 0 either way, so look at the tree.)
# Whatever the outcome, drizzle/ is left as it was, including migrations not yet committed.
set -euo pipefail
cd "$(dirname "$0")/.."
journal=drizzle/meta/_journal.json
saved=$(mktemp)
cp "$journal" "$saved"
before=$(git status --porcelain -- drizzle)
untracked_before=$(git ls-files --others --exclude-standard -- drizzle)
npx --no-install drizzle-kit generate --name schema_sync_check > /tmp/drizzle-generate.log 2>&1 || { cat /tmp/drizzle-generate.log; rm -f "$saved"; exit 1; }
after=$(git status --porcelain -- drizzle)
if [ "$before" != "$after" ] || ! cmp -s "$journal" "$saved"; then
  echo "drizzle/ is out of sync with src/db/schema: run 'npx drizzle-kit generate --name <change>' and commit the migration." >&2
  git status --porcelain -- drizzle >&2
  # Remove only what generate wrote: the new migration, its snapshot and the journal's new entry.
  comm -13 <(printf '%s\n' "$untracked_before" | sort) <(git ls-files --others --exclude-standard -- drizzle | sort) |
    xargs -r rm -f
  cp "$saved" "$journal"
  rm -f "$saved"
  exit 1
fi
rm -f "$saved"
echo "drizzle schema and migrations are in sync"
