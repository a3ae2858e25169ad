/**
 * The node's passphrase semantics end to end (real-network/node.md §1 "Passphrase semantics"
 * and §9 points 3 to 5): a stdin line loses ALL trailing whitespace; an empty
 * TN_BLS_PASSPHRASE counts as unset; with only bls.key a given passphrase is not used; with
 * both files a passphrase opens bls.kw and no-passphrase bls.key. Key files are made here
 * directly (node:crypto PBKDF2 and @noble/ciphers, bs58), not with tnv's writer.
 */
import assert from 'node:assert/strict'
import { pbkdf2Sync, randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { gcmsiv } from '@noble/ciphers/aes.js'
import bs58 from 'bs58'
import { generateKeysArgs, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { FIXED, plainDatadir, RELEASED_STYLE, unhex } from './fixtures.js'

/** bls.kw as the node writes it: base58(salt | nonce | AES-256-GCM-SIV(PBKDF2(pass, salt, 1e6), secret)). */
function nodeKw(secret: Uint8Array, passphrase: string): string {
  const salt = randomBytes(12)
  const nonce = randomBytes(12)
  const key = pbkdf2Sync(passphrase, salt, 1_000_000, 32, 'sha256')
  return bs58.encode(Buffer.concat([salt, nonce, gcmsiv(key, nonce).encrypt(secret)]))
}

async function nodeDatadir(datadir: string, files: { kw?: string; key?: string }): Promise<void> {
  await fs.mkdir(join(datadir, 'node-keys'), { recursive: true, mode: 0o700 })
  if (files.kw) await fs.writeFile(join(datadir, 'node-keys', 'bls.kw'), files.kw, { mode: 0o600 })
  if (files.key) await fs.writeFile(join(datadir, 'node-keys', 'bls.key'), files.key, { mode: 0o600 })
  await fs.writeFile(join(datadir, 'node-keys', 'primary.seed'), 'primary network keypair', { mode: 0o600 })
  await fs.writeFile(join(datadir, 'node-keys', 'worker.seed'), 'worker network keypair', { mode: 0o600 })
  await fs.writeFile(join(datadir, 'node-info.yaml'), RELEASED_STYLE)
}

describe('passphrases as the node reads them', () => {
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({ dir, cleanup } = tempDir())
  })
  after(() => cleanup())

  it("a stdin line loses all trailing whitespace: 'abc  ' on stdin makes a key that TN_BLS_PASSPHRASE=abc opens", async () => {
    const datadir = join(dir, 'd3')
    const gen = await runCli([...generateKeysArgs(datadir, '0', 'stdin'), '-q'], { input: 'abc \t \r\n' })
    assert.equal(gen.code, 0, gen.stderr)
    const ok = await runCli(['keytool', 'verify', '--datadir', datadir, '-q'], { env: { TN_BLS_PASSPHRASE: 'abc' } })
    assert.equal(ok.code, 0, ok.stderr)
    const spaced = await runCli(['keytool', 'verify', '--datadir', datadir, '-q'], {
      env: { TN_BLS_PASSPHRASE: 'abc  ' },
    })
    assert.equal(spaced.code, 4)
    // and the node's own key, opened from a stdin line with trailing spaces
    const node = join(dir, 'node-stdin')
    await nodeDatadir(node, { kw: nodeKw(unhex(FIXED.secretHex), 'xyz') })
    const r = await runCli(['keytool', 'verify', '--datadir', node, '--bls-passphrase-source', 'stdin', '-q'], {
      input: 'xyz   \n',
    })
    assert.equal(r.code, 0, r.stderr)
  })

  it('an empty TN_BLS_PASSPHRASE counts as unset: "passphrase is required", nothing changed', async () => {
    const datadir = join(dir, 'empty-env')
    await nodeDatadir(datadir, { kw: nodeKw(unhex(FIXED.secretHex), 'pw') })
    const before = await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8')
    const r = await runCli(
      ['keytool', 'generate', 'pop', '--datadir', datadir, '--address', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
      { env: { TN_BLS_PASSPHRASE: '' } },
    )
    assert.equal(r.code, 2)
    assert.match(
      r.stderr,
      /passphrase is required, see the option --bls-passphrase-source for options: TN_BLS_PASSPHRASE is empty/,
    )
    assert.equal(await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8'), before)
  })

  it('only bls.key and a passphrase: bls.key is read (the passphrase is not used), with a warning', async () => {
    const datadir = join(dir, 'd2')
    await plainDatadir(datadir)
    const r = await runCli(
      [
        'keytool',
        'generate',
        'pop',
        '--datadir',
        datadir,
        '--address',
        '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
        '-q',
      ],
      { env: { TN_BLS_PASSPHRASE: 'whatever' } },
    )
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stderr,
      /bls\.key is stored UNENCRYPTED; the passphrase given was not used \(the node reads bls\.key the same way\)/,
    )
    // tnv extra: with only bls.key, no passphrase source has to give one (the node would demand it)
    const none = await runCli(['keytool', 'verify', '--datadir', datadir, '-q'])
    assert.equal(none.code, 0, none.stderr)
    const stdin = await runCli(['keytool', 'verify', '--datadir', datadir, '--bls-passphrase-source', 'stdin', '-q'], {
      input: 'unused\n',
    })
    assert.equal(stdin.code, 0, stdin.stderr)
    assert.match(stdin.stderr, /passphrase given was not used/)
  })

  it('both files: a passphrase opens bls.kw, no-passphrase opens bls.key', async () => {
    const datadir = join(dir, 'both')
    // bls.kw holds the key of node-info.yaml; bls.key another key, so verify tells which one was opened
    await nodeDatadir(datadir, {
      kw: nodeKw(unhex(FIXED.secretHex), 'pw'),
      key: bs58.encode(new Uint8Array(32).fill(7)),
    })
    const kw = await runCli(['keytool', 'verify', '--datadir', datadir, '--json'], { env: { TN_BLS_PASSPHRASE: 'pw' } })
    assert.equal(kw.code, 0, kw.stderr)
    assert.match(parseJson<{ keyFile: string }>(kw).keyFile, /bls\.kw$/)
    const key = await runCli(['keytool', 'verify', '--datadir', datadir, '--bls-passphrase-source', 'no-passphrase'])
    assert.equal(key.code, 4)
    assert.match(key.stderr, /bls_public_key differs from the public key of the key in node-keys/)
  })
})
