/** `tnv keytool export-staking-args`: reads only node-info.yaml, checks the PoP, prints args or calldata. */
import assert from 'node:assert/strict'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { encodeFunctionData, parseAbi } from 'viem'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { FIXED, plainDatadir, snapshotTree } from './fixtures.js'

const NO_PASS = ['--bls-passphrase-source', 'no-passphrase']
const PK = `0x${FIXED.publicKeyHex}` as const
const POP = `0x${FIXED.popHex}` as const

describe('keytool export-staking-args', () => {
  let dir: string
  let cleanup: () => void
  let datadir: string
  before(async () => {
    ;({ dir, cleanup } = tempDir())
    datadir = join(dir, 'node')
    await plainDatadir(datadir)
    await fs.rm(join(datadir, 'node-keys'), { recursive: true }) // it must never need the key
  })
  after(() => cleanup())

  it('prints the two stake() arguments in 0x hex, from the directory or the file', async () => {
    for (const target of [datadir, join(datadir, 'node-info.yaml')]) {
      const r = await runCli(['keytool', 'export-staking-args', '--node-info', target, ...NO_PASS, '-q'])
      assert.equal(r.code, 0, r.stderr)
      assert.equal(r.stdout, `blsPubkey: ${PK}\nproofOfPossession: ${POP}\n`)
    }
    const loud = await runCli(['keytool', 'export-staking-args', '--datadir', datadir, ...NO_PASS])
    assert.match(
      loud.stdout,
      /^Staking arguments for ConsensusRegistry\.stake\(bytes,\(bytes\)\) .* verifies for 0x1111111111111111111111111111111111111111:\nblsPubkey: /,
    )
  })

  it('--calldata prints exactly the stake(bytes,(bytes)) calldata (checked against viem)', async () => {
    const r = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '--calldata', ...NO_PASS])
    assert.equal(r.code, 0, r.stderr)
    const abi = parseAbi(['function stake(bytes blsPubkey, (bytes signature) proofOfPossession) payable'])
    assert.equal(r.stdout, `${encodeFunctionData({ abi, functionName: 'stake', args: [PK, { signature: POP }] })}\n`)
  })

  it('--json prints the fields; --json and --calldata exclude each other', async () => {
    const r = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '--json', ...NO_PASS])
    assert.equal(r.code, 0, r.stderr)
    const out = parseJson<Record<string, string>>(r)
    assert.equal(out.blsPubkey, PK)
    assert.equal(out.proofOfPossession, POP)
    assert.equal(out.executionAddress, FIXED.address)
    assert.match(out.calldata ?? '', /^0x[0-9a-f]{648}$/)
    const both = await runCli([
      'keytool',
      'export-staking-args',
      '--node-info',
      datadir,
      '--json',
      '--calldata',
      ...NO_PASS,
    ])
    assert.equal(both.code, 2)
    assert.match(both.stdout, /cannot be used together/)
  })

  it('a PoP that does not verify is an error naming keytool generate pop', async () => {
    const other = join(dir, 'wrong-address')
    await fs.mkdir(other)
    const text = await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8')
    await fs.writeFile(
      join(other, 'node-info.yaml'),
      text.replace(FIXED.address, '0x2222222222222222222222222222222222222222'),
    )
    const before = await snapshotTree(other)
    const r = await runCli(['keytool', 'export-staking-args', '--node-info', other, '--calldata', ...NO_PASS])
    assert.equal(r.code, 4)
    assert.equal(r.stdout, '')
    assert.match(r.stderr, /does not verify/)
    assert.match(r.stderr, /tnv keytool generate pop --address 0x2222222222222222222222222222222222222222/)
    assert.deepEqual(await snapshotTree(other), before)
  })

  it('follows the spec on the passphrase source: env needs TN_BLS_PASSPHRASE (unused), no-passphrase works', async () => {
    const missing = await runCli(['keytool', 'export-staking-args', '--node-info', datadir])
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /passphrase is required/)
    const env = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '-q'], {
      env: { TN_BLS_PASSPHRASE: 'unused' },
    })
    assert.equal(env.code, 0, env.stderr)
  })

  it('bad files: missing path, truncated YAML', async () => {
    const missing = await runCli(['keytool', 'export-staking-args', '--node-info', join(dir, 'nope'), ...NO_PASS])
    assert.equal(missing.code, 3)
    assert.match(missing.stderr, /nope does not exist/)
    const cut = join(dir, 'cut.yaml')
    const text = await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8')
    await fs.writeFile(cut, text.slice(0, text.indexOf('proof_of_possession') + 30))
    const r = await runCli(['keytool', 'export-staking-args', '--node-info', cut, ...NO_PASS])
    assert.equal(r.code, 3)
    assert.match(r.stderr, /cut\.yaml: proof_of_possession: expected 48 bytes/)
  })
})
