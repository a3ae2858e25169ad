#!/usr/bin/env node
// The installed `tnv` (package.json "bin"): CommonJS, so no ES module loader starts on the way
// to a command. dist/launch.cjs (src/entries/launch.ts) answers --version, runs a command from
// its own bundle in dist/run/, and hands help, completion and unknown commands to oclif.
'use strict'
const { join } = require('node:path')
const { installedHost, launch } = require('../dist/launch.cjs')

launch(process.argv.slice(2), installedHost(join(__dirname, '..')))
