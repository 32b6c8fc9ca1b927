#!/usr/bin/env bash
# `npm run test:e2e`: install the editors (reusing what is there), build the .vsix, then
# run the real-editor tests (VS Code through code-server + Chromium, Neovim headless).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { local name="$1"; shift; local t=$(date +%s); "$@"; echo "[e2e] $name: $(( $(date +%s) - t )) s"; }
start=$(date +%s)
step "install editors" bash scripts/e2e-install.sh
step "build and package the extension" npm run package --silent
step "real-editor tests" npx vitest run --config test/e2e/vitest.config.ts "$@"
echo "[e2e] total: $(( $(date +%s) - start )) s"
