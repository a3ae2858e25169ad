/**
 * `tnv fleet status` (issue 36): N validators simulated on one devnet, read by one fleet status
 * (one process, bounded parallel checks) against N sequential `tnv node check` processes, as a
 * cron loop over the hosts would run them. Each validator is its own data directory (its own
 * node-info.yaml and address, so every registry read is its own); all point at one reference
 * node (--node-rpc-url / tnv_node_rpc_url), since N nodes on a shared machine would measure the
 * machine. Figures: wall time, round trips (from the --json results), the time per validator.
 * Env: BENCH_VALIDATORS (default 50), BENCH_CONCURRENCY (default "8,50"), BENCH_SEQUENTIAL (how many of
 * the sequential checks to run, default all; fewer: the rest is extrapolated from them, and says so).
 * Run: npm run bench fleet (builds first).
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { privateKeyToAddress } from 'viem/accounts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin', 'run.js')
const N = Number(process.env.BENCH_VALIDATORS ?? 50)
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '8,50').split(',').map(Number)
const dir = mkdtempSync(join(tmpdir(), 'tnv-bench-fleet-'))
const env = { ...process.env, TNV_DEVNET_DIR: join(dir, 'devnet'), TNV_STATE_DIR: join(dir, 'state') }

function tnv(args: string[]): { code: number; stdout: string; ms: number } {
  const t0 = performance.now()
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' })
  if (r.status !== 0 && process.env.BENCH_DEBUG) process.stderr.write(r.stderr)
  return { code: r.status ?? -1, stdout: r.stdout, ms: performance.now() - t0 }
}
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0))
    })
  })
}

const node = join(dir, 'node')
try {
  const start = tnv(['devnet', 'start', '--detach', '--json', '--datadir', join(dir, 'devnet')])
  if (start.code !== 0) throw new Error('devnet did not start')
  const devnet = JSON.parse(start.stdout) as { accounts: { address: string }[] }
  tnv([
    'keytool',
    'generate',
    'validator',
    '--datadir',
    node,
    '--address',
    devnet.accounts[0]?.address as string,
    '--bls-passphrase-source',
    'no-passphrase',
  ])
  const port = await freePort()
  const started = tnv([
    'node',
    'start',
    '--detach',
    '--datadir',
    node,
    '--',
    '--chain',
    'devnet',
    '--http',
    '--http.port',
    String(port),
    '--ipcdisable',
  ])
  if (started.code !== 0) throw new Error(`node did not start: ${started.stdout}`)
  const url = `http://127.0.0.1:${port}`
  // N data directories: a copy of the keys with its own execution address (its own registry reads)
  const names: string[] = []
  const text = readFileSync(join(node, 'node-info.yaml'), 'utf8')
  for (let i = 0; i < N; i++) {
    const name = `v${String(i + 1).padStart(3, '0')}`
    const d = join(dir, name)
    cpSync(node, d, { recursive: true, filter: (src) => !src.includes('tnv-node') && !src.includes('/logs') })
    const address = privateKeyToAddress(`0x${(i + 1).toString(16).padStart(64, '0')}`).toLowerCase()
    writeFileSync(
      join(d, 'node-info.yaml'),
      text.replace(/^execution_address: .*$/m, `execution_address: "${address}"`),
    )
    names.push(name)
  }
  const inventory = join(dir, 'hosts.ini')
  writeFileSync(
    inventory,
    `[validators]\n${names.map((n) => `${n} tnv_datadir=${join(dir, n)} tnv_node_rpc_url=${url}`).join('\n')}\n\n[validators:vars]\ntnv_chain=devnet\n`,
  )

  // the baseline: N sequential node check processes (what a loop over the hosts does)
  let seqTrips = 0
  const sample = Math.min(N, Number(process.env.BENCH_SEQUENTIAL ?? N))
  const t0 = performance.now()
  for (const n of names.slice(0, sample)) {
    const r = tnv([
      'node',
      'check',
      '--datadir',
      join(dir, n),
      '--node-rpc-url',
      url,
      '--chain',
      'devnet',
      '--no-exposure',
      '--json',
    ])
    seqTrips += (JSON.parse(r.stdout) as { roundTrips: { total: number } }).roundTrips.total
  }
  const seqMs = ((performance.now() - t0) * N) / sample
  seqTrips = (seqTrips * N) / sample
  console.log(
    `${N} sequential node check processes${sample < N ? ` (extrapolated from ${sample})` : ''}: ${(seqMs / 1000).toFixed(1)} s, ${seqTrips} round trips, ${(seqMs / N).toFixed(0)} ms per validator`,
  )
  for (const c of CONCURRENCY) {
    const r = tnv(['fleet', 'status', '--inventory', inventory, '--concurrency', String(c), '--json'])
    const f = JSON.parse(r.stdout) as { rows: unknown[]; roundTrips: number; wallMs: number }
    if (f.rows.length !== N) throw new Error(`fleet status read ${f.rows.length} rows, not ${N}`)
    console.log(
      `fleet status, concurrency ${String(c).padStart(3)}: ${(r.ms / 1000).toFixed(1)} s process (${(f.wallMs / 1000).toFixed(1)} s reading), ${f.roundTrips} round trips, ${(r.ms / N).toFixed(0)} ms per validator, ${(seqMs / r.ms).toFixed(1)}x faster`,
    )
  }
} finally {
  tnv(['node', 'stop', '--datadir', node])
  tnv(['devnet', 'stop', '--datadir', join(dir, 'devnet')])
  rmSync(dir, { recursive: true, force: true })
}
