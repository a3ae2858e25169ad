/**
 * The reverse direction: a data directory as the reference node writes it (bls.kw made here
 * with node:crypto PBKDF2 and @noble/ciphers directly, the legacy worker: map, an unquoted
 * address) is read, verified, exported and re-signed by tnv. A key file written by a weak
 * build (1 PBKDF2 iteration) opens with a loud warning.
 */
import assert from 'node:assert/strict'
import { pbkdf2Sync, randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { gcmsiv } from '@noble/ciphers/aes.js'
import bs58 from 'bs58'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { FIXED, REFERENCE_STYLE, unhex } from './fixtures.js'

const PASS = 'reference passphrase'

/** bls.kw as the reference writes it: base58(salt | nonce | AES-256-GCM-SIV(PBKDF2(pass, salt, n), secret)). */
function referenceKw(iterations: number): string {
  const salt = randomBytes(12)
  const nonce = randomBytes(12)
  const key = pbkdf2Sync(PASS, salt, iterations, 32, 'sha256')
  return bs58.encode(Buffer.concat([salt, nonce, gcmsiv(key, nonce).encrypt(unhex(FIXED.secretHex))]))
}

async function referenceDatadir(datadir: string, iterations: number): Promise<void> {
  await fs.mkdir(join(datadir, 'node-keys'), { recursive: true, mode: 0o700 })
  await fs.writeFile(join(datadir, 'node-keys', 'bls.kw'), referenceKw(iterations), { mode: 0o600 })
  await fs.writeFile(join(datadir, 'node-keys', 'primary.seed'), 'primary network keypair', { mode: 0o600 })
  await fs.writeFile(join(datadir, 'node-keys', 'worker.seed'), 'worker network keypair', { mode: 0o600 })
  await fs.writeFile(join(datadir, 'node-info.yaml'), REFERENCE_STYLE)
}

describe('a data directory written by the reference node', () => {
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({ dir, cleanup } = tempDir())
  })
  after(() => cleanup())

  it('verifies, shows and exports', async () => {
    const datadir = join(dir, 'ref')
    await referenceDatadir(datadir, 1_000_000)
    const v = await runCli(['keytool', 'verify', '--datadir', datadir], { env: { TN_BLS_PASSPHRASE: PASS } })
    assert.equal(v.code, 0, v.stderr)
    assert.doesNotMatch(v.stderr, /Warning/)
    const show = await runCli([
      'keytool',
      'show',
      '--datadir',
      datadir,
      '--json',
      '--bls-passphrase-source',
      'no-passphrase',
    ])
    const d = parseJson<{
      legacyWorkerMap: boolean
      primary: { peerId: string }
      workers: { peerId: string }[]
      proofOfPossessionValid: boolean
    }>(show)
    assert.equal(d.legacyWorkerMap, true)
    assert.equal(d.proofOfPossessionValid, true)
    assert.equal(d.primary.peerId, FIXED.primary.peerId)
    assert.equal(d.workers[0]?.peerId, FIXED.worker0.peerId)
    const e = await runCli([
      'keytool',
      'export-staking-args',
      '--node-info',
      datadir,
      '--json',
      '--bls-passphrase-source',
      'no-passphrase',
    ])
    assert.equal(parseJson<{ blsPubkey: string }>(e).blsPubkey, `0x${FIXED.publicKeyHex}`)
  })

  it('a bls.kw that opens at 1 iteration is loudly warned about', async () => {
    const datadir = join(dir, 'weak')
    await referenceDatadir(datadir, 1)
    const r = await runCli(['keytool', 'verify', '--datadir', datadir, '-q'], { env: { TN_BLS_PASSPHRASE: PASS } })
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stderr,
      /Warning: .*bls\.kw opened with 1 PBKDF2 iteration instead of 1,000,000.*tnv keytool change-passphrase/,
    )
  })
})
