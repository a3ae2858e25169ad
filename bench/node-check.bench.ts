/**
 * `tnv node check` (issue 17): round trips and wall time of one check against the reference
 * devnet node, as an operator runs it (the built CLI, a new process each time): with the RPC
 * exposure probes (the default) and without (--no-exposure). The node holds a genesis committee
 * member's public key, so every validator read has something to read (in the committee, scores).
 * Figures: the check's own wall time (wallMs in --json), the process's, and the round trips per
 * party. Env: BENCH_RUNS (default 7). Run: npm run bench node-check (builds first).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import bs58 from 'bs58'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_RUNS ?? 7)
const dir = mkdtempSync(join(tmpdir(), 'tnv-bench-check-'))
const env = { ...process.env, TNV_DEVNET_DIR: join(dir, 'devnet'), TNV_STATE_DIR: join(dir, 'state') }

function tnv(args: string[]): { code: number; stdout: string; ms: number } {
  const t0 = performance.now()
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' })
  if (r.status !== 0 && process.env.BENCH_DEBUG) process.stderr.write(r.stderr)
  return { code: r.status ?? -1, stdout: r.stdout, ms: performance.now() - t0 }
}
async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await res.json()) as { result: unknown }).result
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
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

const seat = join(dir, 'seat')
try {
  const start = tnv(['devnet', 'start', '--detach', '--json', '--datadir', join(dir, 'devnet')])
  if (start.code !== 0) throw new Error('devnet did not start')
  const devnet = JSON.parse(start.stdout) as { rpcUrl: string; accounts: { address: string }[] }
  const v = join(dir, 'v')
  tnv([
    'keytool',
    'generate',
    'validator',
    '--datadir',
    v,
    '--address',
    devnet.accounts[0]?.address as string,
    '--bls-passphrase-source',
    'no-passphrase',
  ])
  const { committee } = (await rpc(devnet.rpcUrl, 'tn_getCurrentEpochInfo')) as { committee: string[] }
  const key = (await rpc(devnet.rpcUrl, 'tn_getBlsPubkey', [committee[0]])) as string
  mkdirSync(seat)
  writeFileSync(
    join(seat, 'node-info.yaml'),
    readFileSync(join(v, 'node-info.yaml'), 'utf8')
      .replace(/^bls_public_key: .*$/m, `bls_public_key: ${bs58.encode(Buffer.from(key.slice(2), 'hex'))}`)
      .replace(/^execution_address: .*$/m, `execution_address: "${(committee[0] as string).toLowerCase()}"`),
  )
  const node = tnv([
    'node',
    'start',
    '--detach',
    '--datadir',
    seat,
    '--',
    '--chain',
    'devnet',
    '--http',
    '--http.port',
    String(await freePort()),
    '--ipcdisable',
  ])
  if (node.code !== 0) throw new Error(`node did not start: ${node.stdout}`)
  for (const [label, extra] of [
    ['with exposure probes', []],
    ['--no-exposure', ['--no-exposure']],
  ] as const) {
    const wall: number[] = []
    const own: number[] = []
    let trips = ''
    let exit = -1
    for (let i = 0; i < RUNS; i++) {
      const r = tnv([
        'node',
        'check',
        '--datadir',
        seat,
        '--chain',
        'devnet',
        '--min-free-gib',
        '0',
        '--json',
        ...extra,
      ])
      const report = JSON.parse(r.stdout) as { wallMs: number; exitCode: number; roundTrips: Record<string, number> }
      wall.push(r.ms)
      own.push(report.wallMs)
      exit = report.exitCode
      const t = report.roundTrips
      trips = `${t.total} round trips (local ${t.local}, network ${t.network}, registry ${t.registry}) + ${t.exposureProbes} exposure probes`
    }
    console.log(
      `${label.padEnd(22)} exit ${exit}; ${trips}; check ${median(own).toFixed(0)} ms (median of ${RUNS}), process ${median(wall).toFixed(0)} ms`,
    )
  }
} finally {
  tnv(['node', 'stop', '--datadir', seat])
  tnv(['devnet', 'stop', '--datadir', join(dir, 'devnet')])
  rmSync(dir, { recursive: true, force: true })
}
