#!/usr/bin/env node
// Development entry: rebuilds dist/ from src/ (esbuild, about a second), then runs the CLI.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build.mjs', import.meta.url)), '--quiet'], {
  stdio: 'inherit',
})
const { run } = await import('../dist/entries/cli.js')
await run()
