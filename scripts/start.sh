#!/usr/bin/env bash
# npm start: brings the whole service up in the foreground under pm2-runtime; Ctrl-C or SIGTERM stops it cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

need_node
need_node_modules
if [ -z "${NATS_URL:-}" ]; then need_apt nats-server nats-server; fi

# Validate every variable once, with a message naming any bad value, before anything starts.
node --import tsx scripts/check-config.ts

export DATA_DIR="${DATA_DIR:-./var}"
# 0700 whatever the caller's umask: DATA_DIR holds metering.db (names, emails, client addresses).
(umask 077 && mkdir -p "$DATA_DIR/snapshots")
# One pm2 home per copy, so that two copies (different PORT, NATS_PORT, DATA_DIR) run side by side.
export PM2_HOME="${PM2_HOME:-$(cd "$DATA_DIR" && pwd)/pm2}"

echo "==> bundling services into dist/"
node scripts/bundle.mjs

echo "==> snapshot"
node --import tsx scripts/publish-snapshot.ts --if-changed --no-reload

port="${PORT:-8080}"
host="${HOST:-0.0.0.0}"
shown_host="$host"; [ "$host" = "0.0.0.0" ] && shown_host="localhost"
(
  for _ in $(seq 1 120); do
    if node -e "fetch('http://127.0.0.1:$port/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" 2>/dev/null; then
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

echo "==> starting nats, metering and api under pm2-runtime (PM2_HOME=$PM2_HOME)"
exec npx --no-install pm2-runtime start ecosystem.config.cjs
