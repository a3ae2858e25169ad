#!/usr/bin/env node
// Runs every bench/*.bench.ts (or those matching the arguments) in turn. Each benchmark
// measures its own baseline in the same run and prints ratios; see docs/benchmarks.md.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const filters = process.argv.slice(2)
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
let failed = 0
for (const f of files) {
  console.log(`\n== ${f}`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', join('bench', f)], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
