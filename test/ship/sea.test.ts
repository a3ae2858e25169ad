/**
 * The single executable (issue 19): run with an EMPTY environment (only the variables a step
 * names: HOME for its cache, tnv's own TN_* inputs) and no PATH, so no Node.js and no
 * node_modules can be reached. What matters for an operator's host: keys (generate, verify,
 * export-staking-args with the proof of possession checked), `rpc plan`, and a stake on the
 * devnet (devnet start + governance mint + stake), each compared with the npm build.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { KNOWN_REGISTRY_CODE } from '../../src/lib/registry/generations/detect.js'
import { generateKeysArgs, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { distinctColumns, listSections } from '../helpers/help-columns.js'
import { freePort } from '../helpers/ports.js'
import { ensureSea, removeDir, runBare, SEA_NAME } from './sea.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const PASSPHRASE = 'correct horse battery staple'

describe('the single executable, with an empty environment and no Node.js on PATH', { timeout: 600_000 }, () => {
  const tmp = tempDir('tnv-sea-')
  const home = join(tmp.dir, 'home')
  let exe: string
  const tnv = (args: string[], opts: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {}) =>
    runBare(exe, args, { ...opts, env: { HOME: home, ...opts.env } })
  const cacheRoot = () => join(home, '.cache', 'tnv', 'sea')

  before(async () => {
    exe = await ensureSea()
  })
  after(() => removeDir(tmp.dir))

  it('sits beside its SHA-256 checksum file, in sha256sum format, and matches it', () => {
    const line = readFileSync(`${exe}.sha256`, 'utf8')
    const digest = createHash('sha256').update(readFileSync(exe)).digest('hex')
    assert.equal(line, `${digest}  ${SEA_NAME}\n`)
    assert.ok(statSync(exe).mode & 0o100, 'executable')
  })

  it('--version with nothing in the environment but HOME: the registry generations and node releases', async () => {
    const r = await tnv(['--version', '--json'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stderr, '')
    const v = JSON.parse(r.stdout) as {
      distribution: string
      registryGenerations: { generation: string; codeHash: string }[]
      nodeReleases: { release: string }[]
    }
    assert.equal(v.distribution, 'single-executable')
    assert.deepEqual(
      v.registryGenerations.map((g) => [g.generation, g.codeHash]),
      Object.entries(KNOWN_REGISTRY_CODE).map(([hash, k]) => [k.generation, hash]),
    )
    assert.ok(v.nodeReleases.some((n) => n.release === 'v0.14.0-adiri'))
    const text = await tnv(['--version'])
    assert.match(text.stdout, /^tnv\/\d+\.\d+\.\d+ linux-x64 node-v26\.\d+\.\d+ \(single executable\)\n/)
  })

  it('keytool generate, verify and export-staking-args --calldata: the same bytes as the npm build', async () => {
    const datadir = join(tmp.dir, 'keys')
    const gen = await tnv([...generateKeysArgs(datadir, ADDRESS, 'stdin'), '--json'], { input: PASSPHRASE })
    assert.equal(gen.code, 0, gen.stderr)
    assert.equal(parseJson<{ encrypted: boolean }>(gen).encrypted, true)
    assert.equal(statSync(join(datadir, 'node-keys', 'bls.kw')).mode & 0o777, 0o600)
    assert.equal(statSync(join(datadir, 'node-keys')).mode & 0o777, 0o700)

    const verify = await tnv(
      ['keytool', 'verify', '--datadir', datadir, '--bls-passphrase-source', 'stdin', '--json'],
      {
        input: PASSPHRASE,
      },
    )
    assert.equal(verify.code, 0, verify.stderr)
    const checks = parseJson<{ checks: { field: string; ok: boolean }[] }>(verify).checks
    assert.ok(checks.length >= 3 && checks.every((c) => c.ok), JSON.stringify(checks))

    const exportArgs = [
      'keytool',
      'export-staking-args',
      '--node-info',
      datadir,
      '--calldata',
      '--bls-passphrase-source',
      'no-passphrase',
    ]
    const sea = await tnv(exportArgs)
    assert.equal(sea.code, 0, sea.stderr)
    assert.match(sea.stdout.trim(), /^0x[0-9a-f]+$/)
    const npm = await runCli(exportArgs)
    assert.equal(npm.code, 0, npm.stderr)
    assert.equal(sea.stdout, npm.stdout)

    // a wrong passphrase: exit 4 (bad keys), one paragraph, no file changed
    const before = readFileSync(join(datadir, 'node-keys', 'bls.kw'))
    const wrong = await tnv(['keytool', 'verify', '--datadir', datadir, '--bls-passphrase-source', 'stdin'], {
      input: 'not the passphrase',
    })
    assert.equal(wrong.code, 4, wrong.stderr)
    assert.deepEqual(readFileSync(join(datadir, 'node-keys', 'bls.kw')), before)
  })

  it('keytool generate with TN_BLS_PASSPHRASE, then verify', async () => {
    const datadir = join(tmp.dir, 'keys-env')
    const env = { TN_BLS_PASSPHRASE: PASSPHRASE }
    const gen = await tnv(['keytool', 'generate', 'validator', '--datadir', datadir, '--address', ADDRESS, '--json'], {
      env,
    })
    assert.equal(gen.code, 0, gen.stderr)
    assert.equal(parseJson<{ encrypted: boolean }>(gen).encrypted, true)
    const verify = await tnv(['keytool', 'verify', '--datadir', datadir, '--json'], { env })
    assert.equal(verify.code, 0, verify.stderr)
  })

  it('rpc plan: the same plan as the npm build', async () => {
    const args = [
      'rpc',
      'plan',
      '--json',
      '--',
      '--http',
      '--http.api',
      'eth,net,web3,rpc,tn',
      '--ws',
      '--workers',
      '2',
    ]
    const sea = await tnv(args)
    const npm = await runCli(args)
    assert.equal(sea.code, npm.code, sea.stderr)
    assert.deepEqual(JSON.parse(sea.stdout), JSON.parse(npm.stdout))
  })

  it('help: the same pages as the npm build, every list of a page at one column (tnv help class in the executable)', async () => {
    for (const args of [
      ['--help'],
      ['devnet', '--help'],
      ['devnet'],
      ['help', 'keytool', 'backup'],
      ['keytool', '--help'],
      ['validator', '--help'],
      ['stake', '--help'],
      ['keytool', 'backup', '-h'],
    ]) {
      const where = `tnv ${args.join(' ')}`
      const sea = await tnv(args)
      const npm = await runCli(args)
      assert.equal(sea.code, 0, `${where}: ${sea.stderr}`)
      assert.equal(sea.stdout, npm.stdout, where)
      assert.ok(listSections(sea.stdout).length > (args[0] === 'validator' ? 0 : 1), `${where}: ${sea.stdout}`)
      assert.deepEqual(distinctColumns(sea.stdout).length, 1, `${where}:\n${sea.stdout}`)
    }
    const typo = await tnv(['help', 'devnet', 'strat'])
    assert.equal(typo.code, 2)
    assert.match(typo.stderr, /Did you mean `tnv devnet start`\?/)
  })

  it('a stake on the devnet: devnet start, governance mint, stake, all through the executable', async () => {
    const devnet = join(tmp.dir, 'devnet')
    const keys = join(tmp.dir, 'validator')
    const start = await tnv(
      [
        'devnet',
        'start',
        '--detach',
        '--json',
        '--datadir',
        devnet,
        '--block-time',
        '0',
        '--',
        '--http',
        '--http.port',
        String(await freePort()),
        '--ipcdisable',
      ],
      {
        timeoutMs: 120_000,
      },
    )
    assert.equal(start.code, 0, start.stderr)
    try {
      const info = parseJson<{ pid: number; accounts: { address: string; privateKey: string }[] }>(start)
      const account = info.accounts[0] as { address: string; privateKey: string }
      // the reference node is the executable itself (its hidden node mode), anvil the one it carries
      const cmdline = readFileSync(`/proc/${info.pid}/cmdline`, 'utf8').split('\0')
      assert.equal(cmdline[0], exe)
      assert.match(cmdline[1] as string, /\.cache\/tnv\/sea\/[^/]+\/bin\/tnv-node\.js$/)
      const env = { TNV_DEVNET_DIR: devnet, TN_DEVNET_RELAXED: '1' }
      const gen = await tnv(generateKeysArgs(keys, account.address, 'stdin'), { input: PASSPHRASE })
      assert.equal(gen.code, 0, gen.stderr)
      const mint = await tnv(['devnet', 'governance', 'mint', account.address, '--datadir', devnet, '--json'], { env })
      assert.equal(mint.code, 0, mint.stderr)
      const stake = await tnv(
        [
          'stake',
          '--chain',
          'devnet',
          '--datadir',
          keys,
          '--through',
          'staked',
          '--yes',
          '--non-interactive',
          '--json',
          '--bls-passphrase-source',
          'stdin',
        ],
        { env: { ...env, TN_PRIVATE_KEY: account.privateKey }, input: PASSPHRASE, timeoutMs: 120_000 },
      )
      assert.equal(stake.code, 0, `${stake.stdout}\n${stake.stderr}`)
      const status = await tnv(['validator', 'status', '--chain', 'devnet', '--address', account.address, '--json'], {
        env,
      })
      assert.equal(status.code, 0, status.stderr)
      assert.equal(parseJson<{ status: string }>(status).status, 'Staked')
    } finally {
      const stop = await tnv(['devnet', 'stop', '--datadir', devnet, '--json'])
      assert.equal(stop.code, 0, stop.stderr)
    }
  })

  it('its files: extracted once into a private cache, each checked; a damaged cache is extracted again', async () => {
    const [key] = readdirSync(cacheRoot()).filter((n) => !n.startsWith('.'))
    assert.ok(key, 'one cache directory for this build')
    const dir = join(cacheRoot(), key)
    assert.equal(statSync(dir).mode & 0o777, 0o700)
    assert.equal(statSync(join(dir, 'bin', 'anvil')).mode & 0o777, 0o700)
    assert.ok(existsSync(join(dir, 'networks', 'next', 'genesis.yaml')))
    const genesis = readFileSync(join(dir, 'networks', 'next', 'genesis.yaml'))
    // damage: the marker gone and a file truncated → the next run replaces the directory
    rmSync(join(dir, '.complete'))
    writeFileSync(join(dir, 'networks', 'next', 'genesis.yaml'), 'damaged')
    const r = await tnv(['rpc', 'plan', '--json', '--', '--http'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(readFileSync(join(dir, 'networks', 'next', 'genesis.yaml')), genesis)
    assert.ok(existsSync(join(dir, '.complete')))
    assert.deepEqual(
      readdirSync(cacheRoot()).filter((n) => n.startsWith('.')),
      [],
      'no temporary directory left behind',
    )
  })

  it('a cache location it cannot write: one paragraph naming what to set, exit 3', async () => {
    const file = join(tmp.dir, 'a-file')
    writeFileSync(file, '')
    const r = await runBare(exe, ['rpc', 'plan', '--', '--http'], { env: { XDG_CACHE_HOME: join(file, 'cache') } })
    assert.equal(r.code, 3)
    assert.equal(r.stdout, '')
    assert.match(r.stderr, /XDG_CACHE_HOME/)
    assert.equal(r.stderr.trim().split('\n').length, 1)
  })
})
