#!/usr/bin/env node
// Development entry: rebuilds dist/ from src/ (esbuild, a few seconds), then runs the CLI.
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build.mjs', import.meta.url)), '--quiet'], {
  stdio: 'inherit',
})
const { installedHost, launch } = createRequire(import.meta.url)('../dist/launch.cjs')
await launch(process.argv.slice(2), installedHost(fileURLToPath(new URL('..', import.meta.url))))
