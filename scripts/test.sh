#!/usr/bin/env bash
# `npm test`: every check and every test of the project, in the order a failure is cheapest.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p artifacts

step() { printf '\n== %s\n' "$1"; }

step 'System packages the tests need'
bash scripts/ensure-chromium.sh
bash scripts/ensure-sandbox.sh

step 'Formatting (prettier)'
npx prettier --check . --log-level warn

step 'Lint (eslint, zero warnings)'
npx eslint . --max-warnings=0

step 'Types (tsc, strict)'
npm run --silent typecheck

step 'Unit and integration tests (vitest)'
rm -f artifacts/unit.json artifacts/e2e.json
unit_status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=artifacts/unit.json || unit_status=$?

step 'End-to-end journeys (Chromium against the started product)'
e2e_status=0
if [ "$unit_status" = 0 ]; then
  npx vitest run --config e2e/vitest.config.ts --reporter=default --reporter=json \
    --outputFile.json="$PWD/artifacts/e2e.json" || e2e_status=$?
fi

node scripts/summarize-tests.mjs "artifacts/unit.json:$unit_status" "artifacts/e2e.json:$e2e_status"
[ "$unit_status" = 0 ] && [ "$e2e_status" = 0 ]
