/**
 * The reverse direction: a data directory as the released node writes it (bls.kw made here
 * with node:crypto PBKDF2 and @noble/ciphers directly; node-info.yaml built from the rules of
 * real-network/node.md §3: `---`, the worker: map, `rpc: ~`, the quoted lower-case address) is
 * read, verified, exported, and rewritten by set-rpc and generate pop into a file the node
 * still reads: the same form, byte for byte what the node itself would write. A key file
 * written by a weak build (1 PBKDF2 iteration) opens with the node's own warning.
 */
import assert from 'node:assert/strict'
import { pbkdf2Sync, randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { gcmsiv } from '@noble/ciphers/aes.js'
import bs58 from 'bs58'
import { readNodeInfo } from '../../src/lib/nodeinfo/read.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import {
  FIXED,
  HAND_EDITED,
  nodeWritesText,
  PK58,
  PREVIOUS_TNV_KW,
  PRIMARY_ADDR,
  RELEASED_STYLE,
  unhex,
  WORKER_ADDR,
} from './fixtures.js'

const PASS = 'reference passphrase'

/** bls.kw as the reference writes it: base58(salt | nonce | AES-256-GCM-SIV(PBKDF2(pass, salt, n), secret)). */
function referenceKw(iterations: number): string {
  const salt = randomBytes(12)
  const nonce = randomBytes(12)
  const key = pbkdf2Sync(PASS, salt, iterations, 32, 'sha256')
  return bs58.encode(Buffer.concat([salt, nonce, gcmsiv(key, nonce).encrypt(unhex(FIXED.secretHex))]))
}

async function referenceDatadir(datadir: string, iterations: number, nodeInfo = RELEASED_STYLE): Promise<void> {
  await fs.mkdir(join(datadir, 'node-keys'), { recursive: true, mode: 0o700 })
  await fs.writeFile(join(datadir, 'node-keys', 'bls.kw'), referenceKw(iterations), { mode: 0o600 })
  await fs.writeFile(join(datadir, 'node-keys', 'primary.seed'), 'primary network keypair', { mode: 0o600 })
  await fs.writeFile(join(datadir, 'node-keys', 'worker.seed'), 'worker network keypair', { mode: 0o600 })
  await fs.writeFile(join(datadir, 'node-info.yaml'), nodeInfo)
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
    const show = await runCli(['keytool', 'show', '--datadir', datadir, '--json'])
    const d = parseJson<{
      nodeInfoForm: { form: string; writtenAsNodeWrites: boolean; readBy: { releasedNode: boolean } }
      primary: { peerId: string }
      workers: { peerId: string }[]
      proofOfPossessionValid: boolean
    }>(show)
    assert.equal(d.nodeInfoForm.form, 'worker')
    assert.equal(d.nodeInfoForm.readBy.releasedNode, true)
    assert.equal(d.nodeInfoForm.writtenAsNodeWrites, true)
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

  it("set-rpc and generate pop rewrite the node's file into one the node still reads: same form, as the node writes it", async () => {
    const datadir = join(dir, 'rewrite')
    await referenceDatadir(datadir, 1_000_000)
    const set = await runCli(['keytool', 'set-rpc', '--datadir', datadir, '--http', 'https://rpc.example.org', '-q'])
    assert.equal(set.code, 0, set.stderr)
    const expectWith = (rpc: { http: string } | undefined, address: string, pop58: string) =>
      nodeWritesText({
        name: 'node-reference',
        publicKey58: PK58,
        primary: { address: PRIMARY_ADDR, key: FIXED.primary.networkKey },
        workers: [{ address: WORKER_ADDR, key: FIXED.worker0.networkKey, ...(rpc ? { rpc } : {}) }],
        address,
        pop58,
      })
    const pop58 = (await readNodeInfo(datadir)).text.match(/proof_of_possession: (\w+)/)?.[1] ?? ''
    assert.equal(
      await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8'),
      expectWith({ http: 'https://rpc.example.org/' }, FIXED.address, pop58),
    )
    const clear = await runCli(['keytool', 'set-rpc', '--datadir', datadir, '--clear', '-q'])
    assert.equal(clear.code, 0, clear.stderr)
    assert.equal(await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8'), RELEASED_STYLE)
    const other = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'
    const pop = await runCli(['keytool', 'generate', 'pop', '--address', other, '--datadir', datadir, '-q'], {
      env: { TN_BLS_PASSPHRASE: PASS },
    })
    assert.equal(pop.code, 0, pop.stderr)
    const { info, text } = await readNodeInfo(datadir)
    assert.equal(info.form, 'worker')
    assert.equal(text, expectWith(undefined, other, text.match(/proof_of_possession: (\w+)/)?.[1] ?? ''))
    assert.notEqual(text.match(/proof_of_possession: (\w+)/)?.[1], pop58)
  })

  it('a hand-edited file the node reads (no ---, no rpc, unquoted checksum address) is read, and rewritten as the node writes', async () => {
    const datadir = join(dir, 'hand')
    await referenceDatadir(datadir, 1_000_000, HAND_EDITED)
    const show = await runCli(['keytool', 'show', '--datadir', datadir, '--json'])
    assert.equal(
      parseJson<{ nodeInfoForm: { writtenAsNodeWrites: boolean } }>(show).nodeInfoForm.writtenAsNodeWrites,
      false,
    )
    const convert = await runCli(['keytool', 'convert', '--to', 'worker', '--datadir', datadir, '-q'])
    assert.equal(convert.code, 0, convert.stderr)
    assert.match(convert.stdout, /form: worker \(layout normalised\)/)
    assert.equal(
      await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8'),
      RELEASED_STYLE.replace('node-reference', 'node-reference'),
    )
  })

  it('a bls.kw written by an earlier tnv (fixture) verifies with its passphrase', async () => {
    const datadir = join(dir, 'previous-tnv')
    await referenceDatadir(datadir, 1_000_000)
    await fs.writeFile(join(datadir, 'node-keys', 'bls.kw'), PREVIOUS_TNV_KW.text, { mode: 0o600 })
    const r = await runCli(['keytool', 'verify', '--datadir', datadir], {
      env: { TN_BLS_PASSPHRASE: PREVIOUS_TNV_KW.passphrase },
    })
    assert.equal(r.code, 0, r.stderr)
    assert.doesNotMatch(r.stderr, /Warning/)
  })

  it('a bls.kw that opens at 1 iteration is loudly warned about', async () => {
    const datadir = join(dir, 'weak')
    await referenceDatadir(datadir, 1)
    const r = await runCli(['keytool', 'verify', '--datadir', datadir, '-q'], { env: { TN_BLS_PASSPHRASE: PASS } })
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stderr,
      /Warning: BLS keyfile is protected by a weak KDF \(1 PBKDF2 round\(s\) instead of 1000000\); it was written by an insecure or poisoned build\..*tnv keytool change-passphrase/,
    )
  })
})
