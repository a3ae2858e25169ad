/**
 * Start-up of the commands an operator runs most, as ratios to baselines measured in the SAME
 * run on the same Node.js (the pinned one), for the npm build (bin/run.js, the installed `tnv`)
 * and the single executable (release/tnv-<version>-linux-<arch>, built first when missing):
 * - `tnv --version` and `tnv rpc plan` against `node -e 0` (budget ≤ 1.5×);
 * - `keytool export-staking-args --calldata` (the proof of possession is checked) against
 *   `node -e 0` (budget ≤ 2.5×), for an unencrypted bls.key and for the usual encrypted bls.kw;
 * - `keytool generate validator` (PBKDF2, 1,000,000 iterations) against a process that does only
 *   that key derivation (budget ≤ 1.3×);
 * - and, as a floor for the first two, a CLI of one command that only prints a line, on the same
 *   @oclif/core (its own `execute`, the compile cache on): what oclif's loading costs by itself.
 * Runs are interleaved (each round runs every command once, in a rotating order) so load from
 * other work on the machine falls on all of them alike; medians, and the median and interquartile
 * range of each round's ratio to the same round's baseline.
 * Usage: node --import tsx bench/startup.bench.ts [--runs N] (21 by default)
 */
import { execFileSync, spawnSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BIN, ROOT } from '../test/helpers/cli.js'
import { SEA } from '../test/ship/sea.js'

const runsArg = process.argv.indexOf('--runs')
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 21
const work = mkdtempSync(join(tmpdir(), 'tnv-startup-'))
const home = join(work, 'home')
const PASS = 'bench passphrase'
const ADDRESS = '0x4444444444444444444444444444444444444444'
let seq = 0

if (!existsSync(SEA))
  execFileSync(process.execPath, [join(ROOT, 'scripts/package.mjs'), '--no-build'], { stdio: 'inherit' })
// run from a fresh copy of its bytes, as `node -e 0` runs a binary the page cache already holds
const sea = join(work, 'tnv-sea')
copyFileSync(SEA, sea)
chmodSync(sea, 0o755)

type Cmd = { label: string; argv: () => string[]; env?: Record<string, string> }
const env = { PATH: process.env.PATH ?? '', HOME: home, TN_BLS_PASSPHRASE: PASS }

// the key pairs for export-staking-args, made once: bls.key (unencrypted) and bls.kw
const fixture = join(work, 'fixture')
const fixtureKw = join(work, 'fixture-kw')
const gen = (datadir: string, extra: string[]) =>
  execFileSync(
    process.execPath,
    [BIN, 'keytool', 'generate', 'validator', '--datadir', datadir, '--address', ADDRESS, ...extra],
    {
      env,
      stdio: 'ignore',
    },
  )
gen(fixture, ['--bls-passphrase-source', 'no-passphrase'])
gen(fixtureKw, [])

// the floor: a one-command oclif CLI on the @oclif/core tnv ships (node_modules shared with tnv)
const hello = join(work, 'oclif-hello')
mkdirSync(join(hello, 'commands'), { recursive: true })
symlinkSync(join(ROOT, 'node_modules'), join(hello, 'node_modules'))
writeFileSync(
  join(hello, 'package.json'),
  JSON.stringify({
    name: 'hello',
    version: '1.0.0',
    type: 'module',
    oclif: { bin: 'hello', dirname: 'hello', commands: './commands', topicSeparator: ' ' },
  }),
)
writeFileSync(
  join(hello, 'commands', 'hi.js'),
  "import { Command } from '@oclif/core'\nexport default class Hi extends Command { static summary = 'hi'; async run() { this.log('hi') } }\n",
)
writeFileSync(
  join(hello, 'run.js'),
  "import module from 'node:module'\nmodule.enableCompileCache?.()\nconst { execute } = await import('@oclif/core')\nawait execute({ dir: import.meta.url })\n",
)

const KDF = `require('node:crypto').pbkdf2(Buffer.from(${JSON.stringify(PASS)}), require('node:crypto').randomBytes(12), 1000000, 32, 'sha256', (e) => { if (e) throw e })`

const forms = (name: string, run: string[]): Cmd[] => [
  { label: `${name} --version`, argv: () => [...run, '--version'] },
  {
    label: `${name} rpc plan`,
    argv: () => [...run, 'rpc', 'plan', '--', '--http', '--http.api', 'eth,net,web3,rpc,tn'],
  },
  {
    label: `${name} export-staking-args --calldata`,
    argv: () => [
      ...run,
      'keytool',
      'export-staking-args',
      '--node-info',
      fixture,
      '--calldata',
      '--bls-passphrase-source',
      'no-passphrase',
    ],
  },
  {
    label: `${name} export-staking-args --calldata (bls.kw)`,
    argv: () => [...run, 'keytool', 'export-staking-args', '--node-info', fixtureKw, '--calldata'],
  },
  {
    label: `${name} keytool generate validator`,
    argv: () => [
      ...run,
      'keytool',
      'generate',
      'validator',
      '--datadir',
      join(work, `gen-${seq++}`),
      '--address',
      ADDRESS,
    ],
  },
]

const commands: Cmd[] = [
  { label: 'node -e 0', argv: () => [process.execPath, '-e', '0'] },
  { label: 'KDF-only process', argv: () => [process.execPath, '-e', KDF] },
  { label: 'oclif hello', argv: () => [process.execPath, join(hello, 'run.js'), 'hi'] },
  // the installed CLI's entry (package.json "bin")
  ...forms('npm', [process.execPath, join(ROOT, 'bin', 'run.js')]),
  ...forms('sea', [sea]),
]

function once(c: Cmd): number {
  const [cmd, ...args] = c.argv()
  const t = performance.now()
  const r = spawnSync(cmd as string, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
  const ms = performance.now() - t
  if (r.status !== 0) throw new Error(`${c.label} exited ${r.status}: ${r.stderr}`)
  return ms
}

const loadBefore = (await import('node:os')).loadavg()[0] ?? 0
const times = new Map<string, number[]>(commands.map((c) => [c.label, []]))
for (const c of commands) once(c) // warm the page cache (and extract the executable's files once)
for (let round = 0; round < RUNS; round++) {
  for (let i = 0; i < commands.length; i++) {
    const c = commands[(i + round) % commands.length] as Cmd
    times.get(c.label)?.push(once(c))
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const m = (label: string) => median(times.get(label) ?? [])
const node0 = m('node -e 0')
const kdf = m('KDF-only process')
const { loadavg } = await import('node:os')
console.log(
  `medians of ${RUNS} interleaved runs; node ${process.version}; load average ${loadBefore.toFixed(2)} before, ${loadavg()[0]?.toFixed(2)} after`,
)
console.log(`node -e 0 (baseline)          ${node0.toFixed(0)} ms`)
console.log(`KDF-only process (baseline)   ${kdf.toFixed(0)} ms`)
console.log('')
console.log('| Command | target | npm build | single executable |')
console.log('|---|---|---|---|')
/**
 * The ratio of the medians, and the ratios of each round's run to that round's baseline run (the
 * two ran seconds apart): their median and interquartile range show how much the machine moved.
 */
const quartiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))] as number
  return [at(0.25), at(0.5), at(0.75)] as const
}
const row = (what: string, baseLabel: string, baseName: string, target: string) => {
  const cell = (form: string) => {
    const label = `${form} ${what}`
    const v = m(label)
    const base = times.get(baseLabel) ?? []
    const paired = (times.get(label) ?? []).map((t, i) => t / (base[i] as number))
    const [q1, q2, q3] = quartiles(paired)
    return `${v.toFixed(0)} ms = ${(v / m(baseLabel)).toFixed(2)}× ${baseName} (paired ${q2.toFixed(2)}×, IQR ${q1.toFixed(2)}–${q3.toFixed(2)})`
  }
  console.log(`| \`tnv ${what}\` | ≤ ${target} | ${cell('npm')} | ${cell('sea')} |`)
}
row('--version', 'node -e 0', '`node -e 0`', '1.5×')
row('rpc plan', 'node -e 0', '`node -e 0`', '1.5×')
row('rpc plan', 'oclif hello', 'oclif hello', '(floor)')
row('export-staking-args --calldata', 'node -e 0', '`node -e 0`', '2.5×')
row('export-staking-args --calldata (bls.kw)', 'node -e 0', '`node -e 0`', '2.5×')
row('keytool generate validator', 'KDF-only process', 'KDF', '1.3×')
console.log('')
{
  const base = times.get('node -e 0') ?? []
  const paired = (times.get('oclif hello') ?? []).map((t, i) => t / (base[i] as number))
  console.log(
    `oclif hello (floor)           ${m('oclif hello').toFixed(0)} ms = ${(m('oclif hello') / node0).toFixed(2)}× node -e 0 (paired ${quartiles(paired)[1].toFixed(2)}×)`,
  )
}
rmSync(work, { recursive: true, force: true })
