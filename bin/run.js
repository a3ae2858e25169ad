#!/usr/bin/env node
// `tnv` (package.json "bin"): Node's compile cache on, then the CLI (src/entries/cli.ts).
import module from 'node:module'

module.enableCompileCache?.()
const { run } = await import('../dist/entries/cli.js')
await run(process.argv.slice(2), 'npm')
