#!/usr/bin/env bash
# npm test: installs what is missing, builds the test snapshot once, then runs every test with node:test via tsx.
# `--long` adds the long runs under test/long/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

need_node
need_node_modules
need_apt nats-server nats-server
need_apt chromium chromium
# test/reliability/nginx.test.ts runs docs/nginx.conf in front of the stack.
need_apt nginx nginx

# Production bundles: the pm2 tests (publish, faults) run dist/ as production does.
node scripts/bundle.mjs

# One snapshot of the real corpora for the whole run; rebuilt only when the corpora or the build changed.
mkdir -p .tmp
export TEST_SNAPSHOT="$PWD/.tmp/test-snapshot.sqlite"
node --import tsx build/main.ts --out "$TEST_SNAPSHOT" --if-changed

files=$(find test -name '*.test.ts' -not -path 'test/long/*' | sort)
if [ "${1:-}" = "--long" ]; then
  # The stalled-log-reader run loads the stack with wrk.
  need_apt wrk wrk
  files=$(find test/long -name '*.test.ts' | sort)
fi
# Two files at a time: the machine has two cores and integration files start their own servers.
exec node --import tsx --test --test-concurrency=2 --test-reporter=spec $files
