#!/usr/bin/env node
const { run } = await import('../dist/entries/cli.js')
await run()
