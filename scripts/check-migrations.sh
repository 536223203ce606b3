#!/usr/bin/env bash
# Fails when the Drizzle schema has changes that no migration in drizzle/ carries.
# (`drizzle-kit check` does not detect this; `generate` exits 0 either way, so look at the tree.)
# Whatever the outcome, drizzle/ is left as it was, including migrations not yet committed.
set -euo pipefail
cd "$(dirname "$0")/.."
journal=drizzle/meta/_journal.json
saved=$(mktemp)
untracked_before=$(mktemp)
trap 'rm -f "$saved" "$untracked_before"' EXIT
cp "$journal" "$saved"
git ls-files -z --others --exclude-standard -- drizzle | sort -z > "$untracked_before"

# Removes only what generate wrote (a new migration and its snapshot) and restores the journal.
restore() {
  comm -z -13 "$untracked_before" <(git ls-files -z --others --exclude-standard -- drizzle | sort -z) |
    xargs -0 -r rm -f --
  cp "$saved" "$journal"
}

before=$(git status --porcelain -- drizzle)
if ! npx --no-install drizzle-kit generate --name schema_sync_check > /tmp/drizzle-generate.log 2>&1; then
  cat /tmp/drizzle-generate.log
  restore
  exit 1
fi
after=$(git status --porcelain -- drizzle)
if [ "$before" != "$after" ] || ! cmp -s "$journal" "$saved"; then
  echo "drizzle/ is out of sync with src/db/schema: run 'npx drizzle-kit generate --name <change>' and commit the migration." >&2
  git status --porcelain -- drizzle >&2
  restore
  exit 1
fi
echo "drizzle schema and migrations are in sync"
