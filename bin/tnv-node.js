#!/usr/bin/env node
// The reference node, started like the real binary: `tnv-node node --datadir <dir> --http ...`
// (src/entries/node-main.ts, built into dist/entries/node-main.js by scripts/build.mjs).
import module from 'node:module'

module.enableCompileCache?.()
const { main } = await import('../dist/entries/node-main.js')
await main(process.argv.slice(2))
