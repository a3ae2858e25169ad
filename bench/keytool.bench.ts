/**
 * Keytool performance targets (issue 2), measured against baselines in the same run:
 * - `keytool generate validator` wall time <= 1.5 x a bare node process running only
 *   PBKDF2-HMAC-SHA256 with 1,000,000 iterations (the KDF must dominate);
 * - `keytool export-staking-args --calldata` (PoP check included) cold start <= 4 x `node -e 0`.
 * Each command is spawned N times (env BENCH_RUNS, default 21), round-robin with its baseline
 * so that machine noise hits both alike; the median is compared. Also reported: a fresh
 * process's first PoP verification, tnv's pairing check against noble's shortSignatures.verify.
 * Run: npm run bench keytool (builds first).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin', 'run.js')
const RUNS = Number(process.env.BENCH_RUNS ?? 21)
const work = mkdtempSync(join(tmpdir(), 'tnv-bench-keytool-'))
const env = { ...process.env, TN_BLS_PASSPHRASE: 'bench passphrase' }

type Case = { name: string; argv: () => string[]; env?: NodeJS.ProcessEnv; cwd?: string }

function timeOnce(c: Case): number {
  const t0 = process.hrtime.bigint()
  const r = spawnSync(process.execPath, c.argv(), { env: c.env ?? process.env, cwd: c.cwd ?? ROOT, encoding: 'utf8' })
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  if (r.status !== 0) throw new Error(`${c.name} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`)
  return ms
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}

/** Runs the cases round-robin RUNS times (after one warm-up each) and returns the medians. */
function measure(cases: Case[]): Map<string, { median: number; min: number }> {
  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]))
  for (const c of cases) timeOnce(c) // warm the file cache
  for (let i = 0; i < RUNS; i++) for (const c of cases) times.get(c.name)?.push(timeOnce(c))
  return new Map([...times].map(([k, v]) => [k, { median: median(v), min: Math.min(...v) }]))
}

function row(name: string, r: { median: number; min: number }, ratio?: number): string {
  return `${name.padEnd(58)} median ${r.median.toFixed(0).padStart(5)} ms  min ${r.min.toFixed(0).padStart(5)} ms${ratio === undefined ? '' : `  ratio ${ratio.toFixed(2)}`}`
}

try {
  // A data directory for the export case (generated once).
  const datadir = join(work, 'export')
  timeOnce({
    name: 'setup',
    argv: () => [BIN, 'keytool', 'generate', 'validator', '--address', '0', '--datadir', datadir, '-q'],
    env,
  })

  let gen = 0
  const cases: Case[] = [
    { name: 'node -e 0', argv: () => ['-e', '0'] },
    {
      name: 'node: PBKDF2-HMAC-SHA256 1,000,000 iterations only',
      argv: () => [
        '-e',
        "require('node:crypto').pbkdf2Sync('bench passphrase', 'saltsaltsalt', 1000000, 32, 'sha256')",
      ],
    },
    {
      name: 'tnv keytool generate validator',
      argv: () => [
        BIN,
        'keytool',
        'generate',
        'validator',
        '--address',
        '0',
        '--datadir',
        join(work, `gen-${gen++}`),
        '-q',
      ],
      env,
    },
    {
      name: 'tnv keytool export-staking-args --calldata',
      argv: () => [
        BIN,
        'keytool',
        'export-staking-args',
        '--node-info',
        datadir,
        '--calldata',
        '--bls-passphrase-source',
        'no-passphrase',
      ],
    },
    {
      name: 'fresh process: first PoP verify, tnv blsVerify (pairing)',
      argv: () => ['--import', 'tsx', join(ROOT, 'bench', 'keytool-verify-once.ts'), datadir, 'tnv'],
    },
    {
      name: 'fresh process: first PoP verify, noble shortSignatures.verify',
      argv: () => ['--import', 'tsx', join(ROOT, 'bench', 'keytool-verify-once.ts'), datadir, 'noble'],
    },
    {
      name: 'fresh process: tsx loader, no verify',
      argv: () => ['--import', 'tsx', join(ROOT, 'bench', 'keytool-verify-once.ts'), datadir, 'none'],
    },
  ]
  console.log(`keytool: ${RUNS} runs each, round-robin, medians (2-core machine; other work on it adds noise)\n`)
  const m = measure(cases)
  const get = (name: string) => m.get(name) ?? { median: Number.NaN, min: Number.NaN }
  const node0 = get('node -e 0')
  const kdf = get('node: PBKDF2-HMAC-SHA256 1,000,000 iterations only')
  const generate = get('tnv keytool generate validator')
  const exportCd = get('tnv keytool export-staking-args --calldata')
  const none = get('fresh process: tsx loader, no verify')
  console.log(row('node -e 0', node0))
  console.log(row('node: PBKDF2-HMAC-SHA256 1,000,000 iterations only', kdf))
  console.log(row('tnv keytool generate validator', generate, generate.median / kdf.median))
  console.log(row('tnv keytool export-staking-args --calldata', exportCd, exportCd.median / node0.median))
  for (const name of [
    'fresh process: first PoP verify, tnv blsVerify (pairing)',
    'fresh process: first PoP verify, noble shortSignatures.verify',
  ]) {
    const r = get(name)
    console.log(`${row(name, r)}  (+${(r.median - none.median).toFixed(0)} ms over loading)`)
  }
  const genRatio = generate.median / kdf.median
  const expRatio = exportCd.median / node0.median
  console.log('')
  console.log(
    `generate validator / bare PBKDF2     = ${genRatio.toFixed(2)}  (target <= 1.5: ${genRatio <= 1.5 ? 'met' : 'MISSED'})`,
  )
  console.log(
    `export-staking-args --calldata / node -e 0 = ${expRatio.toFixed(2)}  (target <= 4: ${expRatio <= 4 ? 'met' : 'MISSED'})`,
  )
} finally {
  rmSync(work, { recursive: true, force: true })
}
