#!/usr/bin/env bash
# npm run bench: runs scripts/bench/main.ts (the sections of scripts/bench/sections.ts) after checking what it
# needs; `npm run bench -- --help` lists the options. Everything it starts runs in a temporary directory and
# is stopped on exit, failure or Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

for arg in "$@"; do
  case "$arg" in
    --help | -h | --render | --render=*) exec node --import tsx scripts/bench/main.ts "$@" ;;
  esac
done

need_node
need_node_modules
need_apt nats-server nats-server
need_apt wrk wrk
need_apt time /usr/bin/time

keep=0
for arg in "$@"; do [ "$arg" = "--keep-tmp" ] && keep=1; done

BENCH_TMP="$(mktemp -d "${TMPDIR:-/tmp}/dict-bench-XXXXXX")"
export BENCH_TMP

# The safety net behind main.ts's own cleanup: if it died without stopping what it started, stop the pm2
# daemons of the bench's own PM2_HOMEs and the process groups it recorded (never anything by name), and
# forget a --compare worktree whose directory is gone.
cleanup() {
  local home pid
  for home in "$BENCH_TMP"/subject-*/pm2; do
    if [ -f "$home/pm2.pid" ]; then PM2_HOME="$home" node_modules/.bin/pm2 kill >/dev/null 2>&1 || true; fi
  done
  if [ -f "$BENCH_TMP/pids" ]; then
    while read -r pid; do
      [ -n "$pid" ] && { kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; }
    done < "$BENCH_TMP/pids"
  fi
  if [ "$keep" = "1" ]; then
    echo "bench: kept $BENCH_TMP"
  else
    rm -rf "$BENCH_TMP"
    git worktree prune 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

node --import tsx scripts/bench/main.ts "$@"
