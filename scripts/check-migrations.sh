#!/usr/bin/env bash
# Fails when the Drizzle schema has changes that no migration in drizzle/ carries.
# (`drizzle-kit check` does not detect this; `generate` exits 0 either way, so look at the tree.)
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(git status --porcelain -- drizzle)
npx --no-install drizzle-kit generate --name schema_sync_check > /tmp/drizzle-generate.log 2>&1 || { cat /tmp/drizzle-generate.log; exit 1; }
after=$(git status --porcelain -- drizzle)
if [ "$before" != "$after" ]; then
  echo "drizzle/ is out of sync with src/db/schema: run 'npx drizzle-kit generate --name <change>' and commit the migration." >&2
  git status --porcelain -- drizzle >&2
  # leave the tree as it was
  git ls-files --others --exclude-standard -- drizzle | xargs -r rm -f
  git checkout -- drizzle 2>/dev/null || true
  exit 1
fi
echo "drizzle schema and migrations are in sync"
