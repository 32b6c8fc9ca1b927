#!/usr/bin/env node
// Starts the Retry Safety language server; pass `--stdio` (or `--node-ipc`, `--socket=<port>`).
require('../dist/server.cjs');
