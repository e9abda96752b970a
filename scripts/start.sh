#!/usr/bin/env bash
# npm start: brings the whole service up in the foreground under pm2-runtime; Ctrl-C or SIGTERM stops it cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

need_node
need_node_modules
if [ -z "${NATS_URL:-}" ] || [ -n "${NATS_SERVER_CONF:-}" ]; then need_apt nats-server nats-server; fi

# Validate every variable once, with a message naming any bad value, before anything starts.
node --import tsx scripts/check-config.ts

export DATA_DIR="${DATA_DIR:-./var}"
# 0700 whatever the caller's umask: DATA_DIR holds metering.db (names, emails, client addresses).
(umask 077 && mkdir -p "$DATA_DIR/snapshots")
# One pm2 home per copy, so that two copies (different PORT, NATS_PORT, DATA_DIR) run side by side; always
# $DATA_DIR/pm2, where `npm run publish:snapshot`, `npm run ops` and `npm run pm2` look for this stack.
export PM2_HOME="$(cd "$DATA_DIR" && pwd)/pm2"
if node -e "require('net').connect(process.argv[1]).on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))" "$PM2_HOME/rpc.sock" 2>/dev/null; then
  echo "error: a stack is already running for DATA_DIR=$DATA_DIR (its pm2 answers in $PM2_HOME); stop it first, or use another DATA_DIR" >&2
  exit 1
fi

echo "==> bundling services into dist/"
node scripts/bundle.mjs

echo "==> snapshot"
node --import tsx scripts/publish-snapshot.ts --if-changed --no-reload

port="${PORT:-8080}"
host="${HOST:-0.0.0.0}"
shown_host="$host"; [ "$host" = "0.0.0.0" ] && shown_host="localhost"
# Asked where the workers listen: loopback for a wildcard, the address itself on a cluster's host.
case "$host" in
  0.0.0.0|::) probe_host="127.0.0.1" ;;
  *:*) probe_host="[$host]" ;;
  *) probe_host="$host" ;;
esac
# A metering-only host of a cluster (HOST_ROLE=metering) serves no HTTP: nothing to wait for.
if [ "${HOST_ROLE:-all}" != "metering" ]; then
  (
    for _ in $(seq 1 120); do
      if node -e "fetch('http://$probe_host:$port/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" 2>/dev/null; then
        echo
        echo "==> Dictionary API ready at http://$shown_host:$port/"
        echo "    OpenAPI description: http://$shown_host:$port/api/v1/openapi.json"
        echo "    Get a key: http://$shown_host:$port/developers   (Ctrl-C stops everything)"
        exit 0
      fi
      sleep 0.5
    done
    echo "warning: the service did not answer /healthz within 60 s; see the logs above" >&2
  ) &
fi

echo "==> starting nats, metering, api and logrotate under pm2-runtime (PM2_HOME=$PM2_HOME)"
exec npx --no-install pm2-runtime start ecosystem.config.cjs
