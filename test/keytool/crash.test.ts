/**
 * Key writes that survive a kill at any point: `keytool generate --force`, `change-passphrase`
 * and `set-rpc` killed (SIGKILL, TNV_KILL_AT) while staging and at every step of the commit
 * (intent written, backup complete, each rename, done); the next command that opens the data
 * directory rolls the commit forward or back. Judged by state: node-keys/ exists, the key in it
 * is the key node-info.yaml records, the pair is all old or all new, nothing staged is left.
 * And two writers at once: the data directory's lock serialises them; no change is lost silently.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { blsPublicKey } from '../../src/lib/keys/bls.js'
import { parseBlsKey } from '../../src/lib/keys/bls-key.js'
import { openBlsKey } from '../../src/lib/keys/open-key.js'
import { readNodeInfo } from '../../src/lib/nodeinfo/read.js'
import { generateKeysArgs, runCli, tempDir } from '../helpers/cli.js'
import { spawnCli } from '../tx/helpers.js'

const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'

/** The public key of node-keys/bls.key (an unencrypted key), and node-info.yaml's. */
async function pair(datadir: string) {
  const parsed = parseBlsKey(readFileSync(join(datadir, 'node-keys', 'bls.key'), 'utf8'))
  assert.ok(parsed.ok, 'node-keys/bls.key reads')
  const onDisk = Buffer.from(blsPublicKey(parsed.secret)).toString('hex')
  const { info } = await readNodeInfo(datadir)
  return { onDisk, nodeInfo: Buffer.from(info.blsPublicKey).toString('hex'), address: info.executionAddress }
}

/** Nothing of a half-finished commit is left: no staged entry, no intent record. */
function clean(datadir: string): void {
  const leftovers = [...readdirSync(datadir), ...readdirSync(join(datadir, 'node-keys'))].filter(
    (n) => n.includes('.tnv-stage-') || n === 'tnv-commit.json',
  )
  assert.deepEqual(leftovers, [])
}

const generate = (datadir: string, address: string, extra: string[] = []) => [
  ...generateKeysArgs(datadir, address),
  '-q',
  ...extra,
]

describe('key writes killed at every step', { timeout: 300_000 }, () => {
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({ dir, cleanup } = tempDir('tnv-crash-'))
  })
  after(() => cleanup())

  // before the swap phase the old pair stays; from it on, the new pair is completed
  const GENERATE_POINTS: [string, 'old' | 'new'][] = [
    ['commit:prepared', 'old'],
    ['generate:staged', 'old'],
    ['commit:intent', 'old'],
    ['commit:backup', 'new'],
    ['commit:node-keys:kept', 'new'],
    ['commit:node-keys', 'new'],
    ['commit:node-info.yaml', 'new'],
    ['commit:tnv-keys.json', 'new'],
    ['commit:done', 'new'],
  ]
  for (const [point, expected] of GENERATE_POINTS)
    it(`generate --force killed at ${point}: the next command finds the ${expected} pair, whole`, async () => {
      const datadir = join(dir, `gen-${point.replace(/\W+/g, '-')}`)
      assert.equal((await runCli(generate(datadir, A))).code, 0)
      const old = await pair(datadir)
      const killed = await spawnCli(generate(datadir, B, ['--force', '--skip-registry-check']), { TNV_KILL_AT: point })
        .result
      assert.equal(killed.signal, 'SIGKILL', killed.stderr)
      // the next command that opens the data directory repairs it
      const show = await runCli(['keytool', 'show', '--datadir', datadir, '--json'])
      assert.equal(show.code, 0, show.stderr)
      clean(datadir)
      const now = await pair(datadir)
      assert.equal(now.onDisk, now.nodeInfo, 'the key in node-keys/ is the key node-info.yaml records')
      if (expected === 'old') assert.deepEqual(now, old)
      else {
        assert.equal(now.address, B)
        assert.notEqual(now.onDisk, old.onDisk)
      }
      // stake's check agrees (the record of the key file matches too): verify passes
      const verify = await runCli([
        'keytool',
        'verify',
        '--datadir',
        datadir,
        '--bls-passphrase-source',
        'no-passphrase',
      ])
      assert.equal(verify.code, 0, verify.stderr)
    })

  // a first generate, whose commit is prepared while PBKDF2 runs (nothing to back up): before the
  // record is in place nothing is left; from it on, the new keys are completed
  const FIRST_POINTS: [string, 'nothing' | 'new'][] = [
    ['commit:prepared', 'nothing'],
    ['generate:staged', 'nothing'],
    ['commit:intent', 'new'],
    ['commit:node-keys', 'new'],
    ['commit:done', 'new'],
  ]
  for (const [point, expected] of FIRST_POINTS)
    it(`a first generate (bls.kw) killed at ${point}: the next command finds ${expected === 'new' ? 'the new keys, whole' : 'nothing left'}`, async () => {
      const datadir = join(dir, `first-${point.replace(/\W+/g, '-')}`)
      const env = { TN_BLS_PASSPHRASE: 'first one' }
      const args = ['keytool', 'generate', 'validator', '--datadir', datadir, '--address', A, '-q']
      const killed = await spawnCli(args, { ...env, TNV_KILL_AT: point }).result
      assert.equal(killed.signal, 'SIGKILL', killed.stderr)
      const verify = await runCli(['keytool', 'verify', '--datadir', datadir], { env })
      if (expected === 'nothing') {
        assert.notEqual(verify.code, 0)
        assert.deepEqual(
          readdirSync(datadir).filter((n) => n !== 'tnv.lock'),
          [],
          'no staged entry, record or temporary file is left',
        )
        // and a new run makes the keys
        const again = await runCli(args, { env })
        assert.equal(again.code, 0, again.stderr)
      } else {
        assert.equal(verify.code, 0, verify.stderr)
        clean(datadir)
        assert.deepEqual(readdirSync(join(datadir, 'node-keys')).sort(), ['bls.kw', 'primary.seed', 'worker.seed'])
        assert.ok(!readdirSync(datadir).some((n) => n.includes('.tmp-')), 'no temporary file is left')
      }
    })

  const PASS_POINTS: [string, 'old' | 'new'][] = [
    ['commit:intent', 'old'],
    ['commit:backup', 'new'],
    ['commit:bls.kw', 'new'],
    ['commit:tnv-keys.json', 'new'],
    ['commit:done', 'new'],
  ]
  for (const [point, expected] of PASS_POINTS)
    it(`change-passphrase killed at ${point}: the key opens with the ${expected} passphrase`, async () => {
      const datadir = join(dir, `pass-${point.replace(/\W+/g, '-')}`)
      const made = await runCli(['keytool', 'generate', 'validator', '--datadir', datadir, '--address', A, '-q'], {
        env: { TN_BLS_PASSPHRASE: 'old one' },
      })
      assert.equal(made.code, 0, made.stderr)
      const killed = await spawnCli(
        ['keytool', 'change-passphrase', '--datadir', datadir, '--new-passphrase-source', 'env'],
        {
          TN_BLS_PASSPHRASE: 'old one',
          TN_NEW_BLS_PASSPHRASE: 'new one',
          TNV_KILL_AT: point,
        },
      ).result
      assert.equal(killed.signal, 'SIGKILL', killed.stderr)
      const show = await runCli(['keytool', 'show', '--datadir', datadir])
      assert.equal(show.code, 0, show.stderr)
      clean(datadir)
      const key = await openBlsKey({
        datadir,
        source: 'env',
        env: { TN_BLS_PASSPHRASE: expected === 'old' ? 'old one' : 'new one' },
      })
      const { info } = await readNodeInfo(datadir)
      assert.deepEqual(Buffer.from(blsPublicKey(key.secret)), Buffer.from(info.blsPublicKey))
      // and tnv's record of the key file says the same (stake checks it without a passphrase)
      const { checkKeyOnDisk } = await import('../../src/lib/keys/key-binding.js')
      assert.equal((await checkKeyOnDisk(datadir, info.blsPublicKey)).status, 'match')
    })

  for (const point of ['commit:intent', 'commit:backup', 'commit:node-info.yaml', 'commit:done'])
    it(`set-rpc killed at ${point}: node-info.yaml reads, old or new, never half`, async () => {
      const datadir = join(dir, `rpc-${point.replace(/\W+/g, '-')}`)
      assert.equal((await runCli(generate(datadir, A))).code, 0)
      const killed = await spawnCli(['keytool', 'set-rpc', '--datadir', datadir, '--http', 'https://rpc.example.org'], {
        TNV_KILL_AT: point,
      }).result
      assert.equal(killed.signal, 'SIGKILL', killed.stderr)
      const show = await runCli(['keytool', 'show', '--datadir', datadir, '--json'])
      assert.equal(show.code, 0, show.stderr)
      clean(datadir)
      const { info } = await readNodeInfo(datadir)
      const rpc = info.workers[0]?.rpc?.http
      if (point === 'commit:intent') assert.equal(rpc, undefined)
      else assert.equal(rpc, 'https://rpc.example.org/')
    })
})

describe('two writers on one data directory', { timeout: 120_000 }, () => {
  it('two change-passphrase at once: one wins, the other is refused, no change is lost silently', async () => {
    const { dir: datadir, cleanup } = tempDir('tnv-two-writers-')
    try {
      const made = await runCli(['keytool', 'generate', 'validator', '--datadir', datadir, '--address', A, '-q'], {
        env: { TN_BLS_PASSPHRASE: 'start' },
      })
      assert.equal(made.code, 0, made.stderr)
      const change = (to: string) =>
        spawnCli(['keytool', 'change-passphrase', '--datadir', datadir, '--new-passphrase-source', 'env', '--json'], {
          TN_BLS_PASSPHRASE: 'start',
          TN_NEW_BLS_PASSPHRASE: to,
        }).result
      const [one, two] = await Promise.all([change('first'), change('second')])
      const codes = [one.code, two.code].sort()
      // the loser waited for the lock, then found the passphrase changed under it (wrong
      // passphrase, 4) or gave up waiting (locked, 27): either way it changed nothing
      assert.equal(codes[0], 0, `${one.stderr}\n${two.stderr}`)
      assert.ok([4, 27].includes(codes[1] as number), `${one.stderr}\n${two.stderr}`)
      const winner = one.code === 0 ? 'first' : 'second'
      const loser = one.code === 0 ? two : one
      assert.match(JSON.parse(loser.stdout).error.code, /^(WrongPassphrase|Locked)$/)
      const key = await openBlsKey({ datadir, source: 'env', env: { TN_BLS_PASSPHRASE: winner } })
      key.secret.fill(0)
      assert.ok(!existsSync(join(datadir, 'tnv.lock')), 'the lock is released')
    } finally {
      cleanup()
    }
  })
})
