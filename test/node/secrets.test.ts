/** What tnv hands the node binary: no signer secret in its environment, no JWT secret in printed or stored flags. */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { childEnv } from '../../src/lib/child-env.js'
import { resolveNodeBinary } from '../../src/lib/node/binary.js'
import { nodeChildEnv, nodePassphraseSource } from '../../src/lib/node/node-env.js'
import { startNode } from '../../src/lib/node/start.js'
import { stopNode } from '../../src/lib/node/stop.js'
import { redactNodeFlags } from '../../src/lib/rpc/format-plan.js'
import { resolveRpcPlan } from '../../src/lib/rpc/resolve.js'
import { parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const FAKE = join(ROOT, 'test/node/fixtures/fake-node.mjs')
const HEX = 'ab'.repeat(32)
const SECRETS = {
  TN_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
  TN_KEYSTORE_PASSWORD: 'keystore-pw-do-not-leak',
  TN_BLS_PASSPHRASE: 'bls-pass-for-the-node',
  TN_NEW_BLS_PASSPHRASE: 'new-bls-pass-do-not-leak',
  TNV_JWT_SECRET: 'cd'.repeat(32),
}

describe('childEnv', () => {
  it('drops every secret tnv reads, except the ones kept', () => {
    const env = { PATH: '/bin', ...SECRETS }
    assert.deepEqual(childEnv(env), { PATH: '/bin' })
    assert.deepEqual(childEnv(env, { keep: ['TN_BLS_PASSPHRASE'] }), {
      PATH: '/bin',
      TN_BLS_PASSPHRASE: SECRETS.TN_BLS_PASSPHRASE,
    })
    assert.equal(env.TN_PRIVATE_KEY, SECRETS.TN_PRIVATE_KEY) // the given object is left alone
  })
})

describe('redactNodeFlags', () => {
  it('hides a hex --rpc.jwtsecret in both spellings and keeps a file path', () => {
    const spaced = ['--http', '--rpc.jwtsecret', HEX]
    assert.deepEqual(redactNodeFlags(spaced, resolveRpcPlan(spaced)), ['--http', '--rpc.jwtsecret', '<redacted>'])
    const joined = ['--http', `--rpc.jwtsecret=${HEX}`]
    assert.deepEqual(redactNodeFlags(joined, resolveRpcPlan(joined)), ['--http', '--rpc.jwtsecret=<redacted>'])
    const file = ['--http', '--rpc.jwtsecret', '/etc/tn/jwt.hex']
    assert.deepEqual(redactNodeFlags(file, resolveRpcPlan(file)), file)
  })
})

const stderrOf = (r: { stderr: string }) => r.stderr.replace(/\s+/g, ' ')

describe('tnv node start hands on no secret', () => {
  const { dir, cleanup } = tempDir('tnv-node-secrets-')
  after(async () => {
    await runCli(['node', 'stop', '--datadir', dir])
    cleanup()
  })

  it('strips signer secrets from the node env; reads the JWT secret from a file and hands it over as hex, redacted in output and state', async () => {
    const port = await freePort()
    const file = join(dir, 'jwt.hex')
    writeFileSync(file, `0x${HEX}\n`)
    const r = await runCli(
      [
        'node',
        'start',
        '--detach',
        '--json',
        '--datadir',
        dir,
        '--node-binary',
        FAKE,
        '--jwt-secret-file',
        file,
        '--',
        '--http',
        '--http.port',
        String(port),
        '--ipcdisable',
      ],
      { env: SECRETS },
    )
    assert.equal(r.code, 0, r.stderr)
    const state = parseJson<{ args: string[]; logFile: string }>(r)
    assert.deepEqual(state.args.slice(-2), ['--rpc.jwtsecret', '<redacted>'])
    const stored = readFileSync(join(dir, 'tnv-node.json'), 'utf8')
    for (const text of [r.stdout, r.stderr, stored]) assert.equal(text.includes(HEX), false)
    const log = readFileSync(state.logFile, 'utf8')
    // no node-keys/bls.kw here: the node reads no encrypted key, so it gets no passphrase either
    assert.match(log, /fake node secret env: -$/m)
    assert.match(stderrOf(r), /any local user can read it from the process list/)
    // the node got the secret in the only form it takes: --rpc.jwtsecret <64 hex digits>
    assert.match(
      log,
      new RegExp(
        `^fake node starting: node --datadir \\S+ --http --http\\.port ${port} --ipcdisable --rpc\\.jwtsecret ${HEX}$`,
        'm',
      ),
    )
    await runCli(['node', 'stop', '--datadir', dir])
  })

  it('a JWT secret typed among the node flags is refused (it would land in shell history), and never echoed', async () => {
    const r = await runCli([
      'node',
      'start',
      '--datadir',
      dir,
      '--node-binary',
      FAKE,
      '--',
      '--http',
      '--rpc.jwtsecret',
      HEX,
    ])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /not taken as a node flag on tnv's command line.*--jwt-secret-file <file>.*TNV_JWT_SECRET/)
    assert.equal(r.stderr.includes(HEX), false)
    assert.equal(existsSync(join(dir, 'tnv-node.json')), false)
  })

  it('TNV_JWT_SECRET (hex or @file) works too', async () => {
    const port = await freePort()
    const r = await runCli(
      [
        'node',
        'start',
        '--detach',
        '--json',
        '--datadir',
        dir,
        '--node-binary',
        FAKE,
        '--',
        '--http',
        '--http.port',
        String(port),
        '--ipcdisable',
      ],
      { env: { TNV_JWT_SECRET: HEX } },
    )
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stdout.includes(HEX), false)
    assert.deepEqual(parseJson<{ args: string[] }>(r).args.slice(-2), ['--rpc.jwtsecret', '<redacted>'])
    await runCli(['node', 'stop', '--datadir', dir])
  })

  it('hands the node the passphrase of keys tnv created in this run (tnv removed TN_BLS_PASSPHRASE from its own environment)', async () => {
    const { dir: d2, cleanup: c2 } = tempDir('tnv-node-pass-')
    const saved = process.env.TN_BLS_PASSPHRASE
    delete process.env.TN_BLS_PASSPHRASE
    try {
      // the keys tnv just created: an encrypted bls.kw (the fake node does not read it)
      mkdirSync(join(d2, 'node-keys'), { recursive: true })
      writeFileSync(join(d2, 'node-keys', 'bls.kw'), 'x')
      const port = await freePort()
      const nodeFlags = ['--http', '--http.port', String(port), '--ipcdisable']
      const started = await startNode({
        binary: resolveNodeBinary({ flag: FAKE, env: process.env }),
        datadir: d2,
        nodeFlags,
        plan: resolveRpcPlan(nodeFlags),
        detach: true,
        passphrase: 'created-in-this-run',
        env: process.env,
      })
      const log = readFileSync(started.state.logFile as string, 'utf8')
      assert.match(log, /fake node secret env: TN_BLS_PASSPHRASE$/m)
      assert.equal(JSON.stringify(started.state).includes('created-in-this-run'), false)
      await stopNode({ datadir: d2 })
    } finally {
      if (saved !== undefined) process.env.TN_BLS_PASSPHRASE = saved
      c2()
    }
  })
})

describe('the BLS passphrase reaches the real node only where it needs it (issue 15)', () => {
  const { dir, cleanup } = tempDir('tnv-node-bls-')
  after(async () => {
    await runCli(['node', 'stop', '--datadir', dir])
    cleanup()
  })
  const withKw = () => {
    mkdirSync(join(dir, 'node-keys'), { recursive: true })
    writeFileSync(join(dir, 'node-keys', 'bls.kw'), 'x')
  }

  it('nodeChildEnv: real node + source env + bls.kw → only TN_BLS_PASSPHRASE; reference node, another source, or no bls.kw → none', () => {
    withKw()
    const env = { PATH: '/bin', ...SECRETS }
    const real = nodeChildEnv({ binary: { origin: 'flag' }, datadir: dir, nodeFlags: ['--http'], env })
    assert.deepEqual(real.env, { PATH: '/bin', TN_BLS_PASSPHRASE: SECRETS.TN_BLS_PASSPHRASE })
    assert.equal(real.passphrase, 'given')
    const reference = nodeChildEnv({ binary: { origin: 'reference' }, datadir: dir, nodeFlags: [], env })
    assert.deepEqual(reference.env, { PATH: '/bin' })
    for (const flags of [['--bls-passphrase-source', 'stdin'], ['--bls-passphrase-source=no-passphrase']]) {
      assert.equal(nodePassphraseSource(flags) === 'env', false)
      assert.deepEqual(nodeChildEnv({ binary: { origin: 'env' }, datadir: dir, nodeFlags: flags, env }).env, {
        PATH: '/bin',
      })
    }
    const elsewhere = nodeChildEnv({
      binary: { origin: 'flag' },
      datadir: dir,
      nodeFlags: ['--datadir', join(dir, 'nope')],
      env,
    })
    assert.deepEqual(elsewhere.env, { PATH: '/bin' })
    assert.equal(elsewhere.passphrase, 'not-needed')
    // the passphrase tnv holds wins over the variable; an absent one is reported
    assert.equal(
      nodeChildEnv({ binary: { origin: 'flag' }, datadir: dir, nodeFlags: [], env, passphrase: 'held' }).env
        .TN_BLS_PASSPHRASE,
      'held',
    )
    assert.equal(
      nodeChildEnv({ binary: { origin: 'flag' }, datadir: dir, nodeFlags: [], env: { PATH: '/bin' } }).passphrase,
      'not-available',
    )
  })

  it('tnv node start: the real node with bls.kw gets TN_BLS_PASSPHRASE and no other secret (TN_NEW_BLS_PASSPHRASE included)', async () => {
    withKw()
    const port = await freePort()
    const r = await runCli(
      [
        'node',
        'start',
        '--detach',
        '--json',
        '--datadir',
        dir,
        '--node-binary',
        FAKE,
        '--',
        '--http',
        '--http.port',
        String(port),
        '--ipcdisable',
      ],
      { env: SECRETS },
    )
    assert.equal(r.code, 0, r.stderr)
    const log = readFileSync(parseJson<{ logFile: string }>(r).logFile, 'utf8')
    assert.match(log, /fake node secret env: TN_BLS_PASSPHRASE$/m)
    for (const [name, value] of Object.entries(SECRETS))
      for (const text of [r.stdout, r.stderr]) assert.equal(text.includes(value), false, name)
    await runCli(['node', 'stop', '--datadir', dir])
  })
})
