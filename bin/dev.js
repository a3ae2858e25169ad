#!/usr/bin/env node
// Development entry: rebuilds dist/ from src/ (esbuild, a few seconds), then runs the CLI.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build.mjs', import.meta.url)), '--quiet'], {
  stdio: 'inherit',
})
const { run } = await import('../dist/entries/cli.js')
await run(process.argv.slice(2), 'npm')
