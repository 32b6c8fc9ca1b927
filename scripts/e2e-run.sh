#!/usr/bin/env bash
# `npm run test:e2e`: install the editors (reusing what is there), build the .vsix, then
# run the real-editor tests (VS Code through code-server + Chromium, Neovim headless).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { local name="$1"; shift; local t=$(date +%s); "$@"; echo "[e2e] $name: $(( $(date +%s) - t )) s"; }
start=$(date +%s)
step "install editors" bash scripts/e2e-install.sh
step "build and package the extension" npm run package --silent
results=test-results/e2e/results.json
mkdir -p "$(dirname "$results")"
status=0
t=$(date +%s)
npx vitest run --config test/e2e/vitest.config.ts \
  --reporter=verbose --reporter=json --outputFile.json="$results" "$@" || status=$?
echo "[e2e] real-editor tests: $(( $(date +%s) - t )) s"
echo "[e2e] total: $(( $(date +%s) - start )) s"
# One plain closing line with the counts (a suite whose setup failed counts as failed).
node -e '
const r = require(process.argv[1]);
const failed = r.numFailedTests || (r.success ? 0 : Math.max(r.numFailedTestSuites, 1));
console.log(`e2e: ${r.numPassedTests} passed, ${failed} failed`);
' "$PWD/$results" || true
exit "$status"
