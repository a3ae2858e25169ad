/**
 * Keytool start-up budgets (the same as bench/startup.bench.ts's), measured against baselines in
 * the same run:
 * - `keytool generate validator` wall time <= 1.3 x a bare node process running only
 *   PBKDF2-HMAC-SHA256 with 1,000,000 iterations (the KDF must dominate);
 * - `keytool export-staking-args --calldata` (PoP check included) cold start <= 2.5 x `node -e 0`.
 * Each command is spawned N times (env BENCH_RUNS, default 21), round-robin with its baseline.
 * The verdict uses the median of the per-round ratios (command / its baseline run right next
 * to it), which cancels most of the load other work puts on this shared 2-core machine; the
 * medians and minimums of the raw times are printed too. Also reported: a fresh process's
 * first PoP verification, tnv's check (blst in WebAssembly) against noble's shortSignatures.verify.
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

/** Runs the cases round-robin RUNS times (each command right after its baseline) (after one warm-up each) and returns every time per case. */
function measure(cases: Case[]): Map<string, number[]> {
  const times = new Map<string, number[]>(cases.map((c) => [c.name, []]))
  for (const c of cases) timeOnce(c) // warm the file cache
  for (let i = 0; i < RUNS; i++) for (const c of cases) times.get(c.name)?.push(timeOnce(c))
  return times
}

const summary = (xs: number[]) => ({ median: median(xs), min: Math.min(...xs) })
/** Median over rounds of command[i] / baseline[i]. */
const pairedRatio = (xs: number[], base: number[]) => median(xs.map((x, i) => x / (base[i] ?? Number.NaN)))

function row(name: string, r: { median: number; min: number }, ratio?: number): string {
  return `${name.padEnd(62)} median ${r.median.toFixed(0).padStart(5)} ms  min ${r.min.toFixed(0).padStart(5)} ms${ratio === undefined ? '' : `  paired ratio ${ratio.toFixed(2)}`}`
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
    { name: 'node -e 0', argv: () => ['-e', '0'] },
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
      name: 'fresh process: first PoP verify, tnv blsVerify (blst, WebAssembly)',
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
  const raw = (name: string) => m.get(name) ?? []
  const node0 = raw('node -e 0')
  const kdf = raw('node: PBKDF2-HMAC-SHA256 1,000,000 iterations only')
  const generate = raw('tnv keytool generate validator')
  const exportCd = raw('tnv keytool export-staking-args --calldata')
  const genRatio = pairedRatio(generate, kdf)
  const expRatio = pairedRatio(exportCd, node0)
  console.log(row('node -e 0', summary(node0)))
  console.log(row('node: PBKDF2-HMAC-SHA256 1,000,000 iterations only', summary(kdf)))
  console.log(row('tnv keytool generate validator', summary(generate), genRatio))
  console.log(row('tnv keytool export-staking-args --calldata', summary(exportCd), expRatio))
  const loading = summary(raw('fresh process: tsx loader, no verify'))
  for (const name of [
    'fresh process: first PoP verify, tnv blsVerify (blst, WebAssembly)',
    'fresh process: first PoP verify, noble shortSignatures.verify',
  ]) {
    const r = summary(raw(name))
    console.log(`${row(name, r)}  (min +${(r.min - loading.min).toFixed(0)} ms over loading only)`)
  }
  const minRatio = (xs: number[], base: number[]) => (Math.min(...xs) / Math.min(...base)).toFixed(2)
  console.log('')
  console.log(
    `generate validator / bare PBKDF2 process: ${genRatio.toFixed(2)} (median of paired ratios; ratio of minimums ${minRatio(generate, kdf)}). Target <= 1.3: ${genRatio <= 1.3 ? 'met' : 'MISSED'}`,
  )
  console.log(
    `export-staking-args --calldata / node -e 0: ${expRatio.toFixed(2)} (median of paired ratios; ratio of minimums ${minRatio(exportCd, node0)}). Target <= 2.5: ${expRatio <= 2.5 ? 'met' : 'MISSED'}`,
  )
} finally {
  rmSync(work, { recursive: true, force: true })
}
