#!/usr/bin/env bash
# npm test: installs what is missing, builds the test snapshot once, then runs every test with node:test via tsx.
# `--unit` runs only the files that start no server (scripts/test-files.ts); `--long` the long runs in test/long/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

mode="${1:-}"
need_node
need_node_modules
# tsx strips types without checking them: a type error fails the run here, before any test.
echo "==> tsc --noEmit"
npx --no-install tsc --noEmit
if [ "$mode" != "--unit" ]; then
  need_apt nats-server nats-server
  need_apt chromium chromium
  # test/reliability/nginx.test.ts runs docs/nginx.conf in front of the stack.
  need_apt nginx nginx
  # The Python client's tests (test/clients/python-client.test.ts) run its unittest suite; its mypy --strict
  # check is skipped where mypy cannot be had, so a failed install only says so.
  need_apt python3 python3
  ( need_apt mypy mypy ) || echo "note: the Python client's mypy check will be skipped"
  # Production bundles: the pm2 tests (publish, faults) run dist/ as production does.
  node scripts/bundle.mjs
fi
# The stalled-log-reader run loads the stack with wrk.
if [ "$mode" = "--long" ]; then need_apt wrk wrk; fi

# One snapshot of the real corpora for the whole run; rebuilt only when the corpora or the build changed.
mkdir -p .tmp
export TEST_SNAPSHOT="$PWD/.tmp/test-snapshot.sqlite"
node --import tsx snapshot/compiler/main.ts --out "$TEST_SNAPSHOT" --if-changed

files=$(node --import tsx scripts/test-files.ts $mode)
# Two files at a time: the machine has two cores and integration files start their own servers.
exec node --import tsx --test --test-concurrency=2 --test-reporter=spec $files
