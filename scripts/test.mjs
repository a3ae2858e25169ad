#!/usr/bin/env node
// Runs the tests with node's own test runner (TypeScript through tsx), in two suites:
//   --unit  pure tests: no process, chain or CLI is started (seconds)
//   --e2e   everything that starts something: the built CLI, anvil, the reference node, a PTY
// Without either, both (unit first). A file is e2e when it starts a process (see E2E below).
// Usage: node scripts/test.mjs [--unit|--e2e] [filter ...]   (a filter keeps files whose path contains it)
// Files run in parallel, as many at a time as the machine has cores (os.availableParallelism()).
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const filters = args.filter((a) => !a.startsWith('--'))
const only = args.includes('--unit') ? 'unit' : args.includes('--e2e') ? 'e2e' : null
/** What makes a test file end-to-end: it starts the CLI, a chain, a node, a server or a PTY, or reads dist/. */
const E2E =
  /\b(runCli|spawnCli|spawn|execFile|startTestChain|startTestDevnet|startGenesisEngine|startDevnetChain|killPointSuite|createServer|startFakeRpc|startRpcServer|startNodeProxy|withPty|ptySpawn|startNode|startAnvil|startTestGateway|startFakeEngine)\(|['"]dist['"]|\/pty\.js/

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else if (p.endsWith('.test.ts')) out.push(relative(root, p))
  }
  return out
}
const all = walk(join(root, 'test'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
const kind = (f) => (E2E.test(readFileSync(join(root, f), 'utf8')) ? 'e2e' : 'unit')
const suites = only ? [only] : ['unit', 'e2e']
let status = 0
let ran = 0
for (const suite of suites) {
  const files = all.filter((f) => kind(f) === suite)
  if (files.length === 0) continue
  ran += files.length
  if (!process.argv.includes('--quiet')) console.error(`tnv tests: ${suite}, ${files.length} files`)
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      `--test-concurrency=${Math.max(1, availableParallelism())}`,
      '--test-reporter=spec',
      ...files,
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TNV_TEST: '1' } },
  )
  if ((r.status ?? 1) !== 0) status = r.status ?? 1
}
if (ran === 0) {
  console.error('no test files matched')
  process.exit(1)
}
process.exit(status)
