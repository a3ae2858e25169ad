/**
 * `keytool generate`'s key derivation started by the boot or the launcher (src/entries/early-work.ts,
 * src/lib/keys/offered-wrapping-key.ts): used only for the passphrase the command itself reads,
 * never derived twice when it is, never started for another passphrase source.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { decryptBlsKw } from '../../src/lib/keys/bls-kw.js'
import { offerWrappingKey, takeWrappingKey } from '../../src/lib/keys/offered-wrapping-key.js'
import { deriveWrappingKey } from '../../src/lib/keys/wrapping-key.js'
import { runCli, tempDir } from '../helpers/cli.js'

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const GENERATE = ['keytool', 'generate', 'validator']

describe('offered wrapping key (library)', () => {
  it('is taken once, for its own passphrase, and is the derivation of that passphrase and its salt', async () => {
    offerWrappingKey('correct horse')
    const d = takeWrappingKey('correct horse')
    assert.ok(d)
    assert.equal(takeWrappingKey('correct horse'), undefined, 'one use only')
    assert.deepEqual(Buffer.from(await d.key), Buffer.from(await deriveWrappingKey('correct horse', d.salt)))
  })

  it('is refused for another passphrase (or none) and then zeroed', async () => {
    for (const other of ['another one', undefined]) {
      offerWrappingKey('correct horse')
      const slot = (globalThis as Record<symbol, { derivation: { key: Promise<Uint8Array> } }>)[
        Symbol.for('tnv.offeredWrappingKey')
      ]
      assert.ok(slot)
      assert.equal(takeWrappingKey(other), undefined)
      assert.equal(takeWrappingKey('correct horse'), undefined, 'gone after a refusal')
      const key = await slot.derivation.key
      assert.ok(
        key.every((b) => b === 0),
        'the unused key is zeroed',
      )
    }
  })

  it('gives nothing when nothing was offered', () => {
    assert.equal(takeWrappingKey('correct horse'), undefined)
  })
})

describe('keytool generate: the boot starts PBKDF2 for TN_BLS_PASSPHRASE', () => {
  let dir: string
  let cleanup: () => void
  let hook: string
  before(() => {
    ;({ dir, cleanup } = tempDir())
    // every PBKDF2 call of the process, and whether the launcher's bundle made it
    hook = join(dir, 'pbkdf2-hook.cjs')
    writeFileSync(
      hook,
      `const c = require('node:crypto'); const o = c.pbkdf2; const fs = require('node:fs')
c.pbkdf2 = function (...a) {
  const stack = new Error().stack
  fs.appendFileSync(process.env.PBKDF2_LOG, (stack.includes('launch.cjs') ? 'boot' : stack.includes('launcher.cjs') ? 'launcher' : 'command') + '\\n')
  // a derivation that never ends: what keeps a process alive that waits for one
  if (process.env.PBKDF2_STALL) return void setTimeout(() => a[a.length - 1](null, Buffer.alloc(32)), 600000)
  return o.apply(this, a)
}\n`,
    )
  })
  after(() => cleanup())

  const generate = async (name: string, extra: string[], env: Record<string, string>, input?: string) => {
    const datadir = join(dir, name)
    const log = join(dir, `${name}.log`)
    writeFileSync(log, '')
    const r = await runCli([...GENERATE, '--datadir', datadir, '--address', ADDRESS, ...extra], {
      env: { ...env, NODE_OPTIONS: `--require ${hook}`, PBKDF2_LOG: log },
      ...(input !== undefined ? { input } : {}),
    })
    assert.equal(r.code, 0, r.stderr)
    return { datadir, calls: readFileSync(log, 'utf8').split('\n').filter(Boolean) }
  }

  /**
   * The CLI with TN_BLS_PASSPHRASE set and every PBKDF2 call stalled (a derivation that never
   * ends): a process that waited for one would run into the timeout.
   */
  const stalled = async (name: string, args: string[]) => {
    const log = join(dir, `${name}.log`)
    writeFileSync(log, '')
    const r = await runCli(args, {
      env: {
        TN_BLS_PASSPHRASE: 'correct horse',
        NODE_OPTIONS: `--require ${hook}`,
        PBKDF2_LOG: log,
        PBKDF2_STALL: '1',
      },
      timeoutMs: 60_000,
    })
    return { r, calls: readFileSync(log, 'utf8').split('\n').filter(Boolean) }
  }

  it('env (the default): derived once, by the boot, and the key opens with that passphrase', async () => {
    const { datadir, calls } = await generate('env', [], { TN_BLS_PASSPHRASE: 'correct horse battery' })
    assert.deepEqual(calls, ['boot'])
    const kw = readFileSync(join(datadir, 'node-keys', 'bls.kw'), 'utf8')
    assert.equal((await decryptBlsKw(kw, 'correct horse battery')).ok, true)
  })

  it('--bls-passphrase-source=env: the same', async () => {
    const { calls } = await generate('env-flag', ['--bls-passphrase-source=env'], {
      TN_BLS_PASSPHRASE: 'correct horse battery',
    })
    assert.deepEqual(calls, ['boot'])
  })

  it('stdin with TN_BLS_PASSPHRASE also set: nothing started early, the key opens with the stdin passphrase only', async () => {
    const { datadir, calls } = await generate(
      'stdin',
      ['--bls-passphrase-source', 'stdin'],
      { TN_BLS_PASSPHRASE: 'the variable, not used' },
      'the line on stdin\n',
    )
    assert.deepEqual(calls, ['command'])
    const kw = readFileSync(join(datadir, 'node-keys', 'bls.kw'), 'utf8')
    assert.equal((await decryptBlsKw(kw, 'the line on stdin')).ok, true)
    assert.equal((await decryptBlsKw(kw, 'the variable, not used')).ok, false)
  })

  it('a command that stops before it needs the key does not wait for the derivation started for it', async () => {
    // existing keys, no --force: refused after the boot started PBKDF2
    const datadir = join(dir, 'exists')
    mkdirSync(join(datadir, 'node-keys'), { recursive: true })
    writeFileSync(join(datadir, 'node-keys', 'bls.kw'), 'not touched')
    const { r, calls } = await stalled('exists', [...GENERATE, '--datadir', datadir, '--address', ADDRESS])
    assert.equal(r.code, 2, r.stderr)
    assert.match(r.stderr, /cannot overwrite node keys without passing --force/)
    assert.deepEqual(calls, ['boot'])
    assert.equal(readFileSync(join(datadir, 'node-keys', 'bls.kw'), 'utf8'), 'not touched')
  })

  it('keytool:generate:validator (one word): started by the boot as well, and used', async () => {
    const datadir = join(dir, 'colon')
    const log = join(dir, 'colon.log')
    writeFileSync(log, '')
    const r = await runCli(['keytool:generate:validator', '--datadir', datadir, '--address', ADDRESS], {
      env: { TN_BLS_PASSPHRASE: 'correct horse', NODE_OPTIONS: `--require ${hook}`, PBKDF2_LOG: log },
    })
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(readFileSync(log, 'utf8').split('\n').filter(Boolean), ['boot'])
    const kw = readFileSync(join(datadir, 'node-keys', 'bls.kw'), 'utf8')
    assert.equal((await decryptBlsKw(kw, 'correct horse')).ok, true)
  })

  for (const help of ['--help', '-h'])
    it(`${help}: nothing is derived, and the help does not wait for a derivation`, async () => {
      const { r, calls } = await stalled(`help${help}`, [...GENERATE, help])
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stdout, /USAGE/)
      assert.deepEqual(calls, [])
    })

  it('no-passphrase with TN_BLS_PASSPHRASE set: no derivation at all, an unencrypted bls.key', async () => {
    const { datadir, calls } = await generate('plain', ['--bls-passphrase-source', 'no-passphrase'], {
      TN_BLS_PASSPHRASE: 'not used',
    })
    assert.deepEqual(calls, [])
    assert.match(readFileSync(join(datadir, 'node-keys', 'bls.key'), 'utf8'), /\S/)
  })
})
