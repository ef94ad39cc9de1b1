#!/usr/bin/env node
"use strict";
// Thin launcher: the CLI is compiled TypeScript (npm run build writes dist/).
const path = require("node:path");
const fs = require("node:fs");
const entry = path.join(__dirname, "..", "dist", "src", "cli", "main.js");
if (!fs.existsSync(entry)) {
  process.stderr.write(`drone-harness: ${entry} not found; run "npm run build" first\n`);
  process.exit(2);
}
require(entry).main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`drone-harness: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
