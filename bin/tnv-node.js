#!/usr/bin/env node
// The reference node, started like the real binary: `tnv-node node --datadir <dir> --http ...`
// (src/entries/node.ts, built into dist/entries/node.js by scripts/build.mjs).
await import('../dist/entries/node.js')
