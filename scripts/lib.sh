# Shared shell helpers for start.sh, test.sh and .ci/run: install what is missing, say what to do otherwise.

# need_apt PACKAGE COMMAND: make COMMAND available, installing PACKAGE with apt-get when running as root.
need_apt() {
  local pkg="$1" cmd="$2"
  command -v "$cmd" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing $pkg (apt-get)"
    if [ -z "${APT_UPDATED:-}" ]; then
      DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
      APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
    command -v "$cmd" >/dev/null 2>&1 && return 0
  fi
  echo "error: '$cmd' is required. Install it with: sudo apt-get install -y $pkg" >&2
  exit 1
}

# need_node_modules: npm ci on a fresh clone (node_modules absent or older than the lock file).
need_node_modules() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "==> npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

need_node() {
  local major
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$major" -lt 20 ]; then
    echo "error: Node.js 20 or newer is required (found $(node --version 2>/dev/null || echo none))" >&2
    exit 1
  fi
}
