#!/usr/bin/env bash
# `npm test`: every check and every test of the project, in the order a failure is cheapest.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p artifacts

step() { printf '\n== %s\n' "$1"; }

step 'System packages the tests need'
bash scripts/ensure-chromium.sh
bash scripts/ensure-sandbox.sh
bash scripts/ensure-postgres.sh
bash scripts/ensure-redis.sh

step 'Formatting (prettier)'
npx prettier --check . --log-level warn

step 'Lint (eslint, zero warnings)'
npx eslint . --max-warnings=0

step 'Types (tsc, strict)'
npm run --silent typecheck

step 'Unit and integration tests (vitest; the PostgreSQL path against a throwaway server)'
# apps/server/src/db/postgres.test.ts runs the product on it; stopped and deleted on exit.
pg_dir="$(mktemp -d "${TMPDIR:-/tmp}/ct-test-pg.XXXXXX")"
trap 'bash scripts/test-postgres.sh stop "$pg_dir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
TEST_DATABASE_URL="$(bash scripts/test-postgres.sh start "$pg_dir")" || {
  echo 'Could not start the PostgreSQL server the tests need (see above).' >&2
  exit 1
}
export TEST_DATABASE_URL
rm -f artifacts/unit.json artifacts/e2e.json
unit_status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=artifacts/unit.json || unit_status=$?
bash scripts/test-postgres.sh stop "$pg_dir"
unset TEST_DATABASE_URL

step 'End-to-end journeys (Chromium against the started product)'
e2e_status=0
if [ "$unit_status" = 0 ]; then
  npx vitest run --config e2e/vitest.config.ts --reporter=default --reporter=json \
    --outputFile.json="$PWD/artifacts/e2e.json" || e2e_status=$?
fi

node scripts/summarize-tests.mjs "artifacts/unit.json:$unit_status" "artifacts/e2e.json:$e2e_status"
[ "$unit_status" = 0 ] && [ "$e2e_status" = 0 ]
