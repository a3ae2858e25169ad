/**
 * RPC resolver and command start-up.
 * 1. resolveRpcPlan on a typical argument list; baseline: parseNodeFlags alone (the argv scan).
 * 2. Cold start of `tnv rpc plan` and `tnv rpc check` (3 transports against the test server);
 *    baseline: `tnv --version` (oclif start-up alone), measured in the same run.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseNodeFlags } from '../src/lib/rpc/node-flags.js'
import { resolveRpcPlan } from '../src/lib/rpc/resolve.js'
import { BIN } from '../test/helpers/cli.js'
import { freePort } from '../test/helpers/ports.js'
import { startTestRpcServer } from '../test/rpc/helpers/server.js'

const argv = [
  'node',
  '--datadir',
  '/d',
  '--http',
  '--http.addr',
  '0.0.0.0',
  '--http.api',
  'eth,net,web3,rpc,tn,debug',
  '--ws',
  '--ws.api',
  'all',
  '--rpc.jwtsecret',
  'ab'.repeat(32),
  '--rpc.gascap',
  '30000000',
]

function perSecond(fn: () => void, ms = 1000): number {
  for (let i = 0; i < 1000; i++) fn()
  let n = 0
  const end = performance.now() + ms
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) fn()
    n += 100
  }
  return (n * 1000) / ms
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? Number.NaN
}

/** Median wall time of spawning the CLI (async, so a server in this process keeps answering). */
async function coldStart(args: string[], runs = 7): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { stdio: 'ignore' })
      child.on('error', reject)
      child.on('close', resolve)
    })
    times.push(performance.now() - t)
    if (code !== 0) throw new Error(`tnv ${args.join(' ')} exited ${code}`)
  }
  return median(times)
}

const base = perSecond(() => parseNodeFlags(argv))
const full = perSecond(() => resolveRpcPlan(argv, { cpus: 8 }))
console.log(`parseNodeFlags (baseline): ${Math.round(base).toLocaleString()} ops/s`)
console.log(
  `resolveRpcPlan:            ${Math.round(full).toLocaleString()} ops/s  (${(base / full).toFixed(1)}x the parse cost, ${(1e6 / full).toFixed(1)} µs per plan)`,
)

const version = await coldStart(['--version'])
const plan = await coldStart(['rpc', 'plan', '--json', '--', ...argv])
console.log(`tnv --version (baseline):  ${version.toFixed(0)} ms`)
console.log(`tnv rpc plan --json:       ${plan.toFixed(0)} ms  (${(plan / version).toFixed(2)}x)`)

const dir = mkdtempSync(join(tmpdir(), 'tnv-bench-'))
const httpPort = await freePort()
const wsPort = await freePort()
const ipc = join(dir, 'tn.ipc')
const server = await startTestRpcServer([
  '--http',
  '--http.port',
  String(httpPort),
  '--ws',
  '--ws.port',
  String(wsPort),
  '--ipcpath',
  ipc,
])
try {
  const check = await coldStart([
    'rpc',
    'check',
    '--json',
    '--http',
    `http://127.0.0.1:${httpPort}`,
    '--ws',
    `ws://127.0.0.1:${wsPort}`,
    '--ipc',
    ipc,
  ])
  console.log(`tnv rpc check (3 transports, local): ${check.toFixed(0)} ms  (${(check / version).toFixed(2)}x)`)
} finally {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
}
