#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's own test runner (TypeScript through tsx).
// Usage: node scripts/test.mjs [filter ...]   (a filter keeps files whose path contains it)
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'))
function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else if (p.endsWith('.test.ts')) out.push(relative(root, p))
  }
  return out
}
const files = walk(join(root, 'test'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
if (files.length === 0) {
  console.error('no test files matched')
  process.exit(1)
}
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TNV_TEST: '1' } },
)
process.exit(r.status ?? 1)
