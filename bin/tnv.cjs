#!/usr/bin/env node
// The installed `tnv` (package.json "bin"). CommonJS, so `tnv --version` is answered without
// starting Node's ES module loader (dist/version.cjs, built from src/entries/version.ts);
// every other command runs the CLI as bin/run.js does.
'use strict'
const { isVersionRequest, printVersion } = require('../dist/version.cjs')

const argv = process.argv.slice(2)
if (isVersionRequest(argv)) printVersion(argv, 'npm')
else import('../dist/entries/cli.js').then(({ run }) => run(argv))
