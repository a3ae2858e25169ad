/**
 * One JSON shape for keys (issue 16 item 10; docs/decisions.md "One JSON shape for keys"): in
 * every JSON tnv's keytool prints, a field named like a key (…Key, …Pubkey, …PublicKey,
 * …Signature, proofOfPossession) holds 0x hex, and a `<name>Base58` field holds base58 of the
 * same bytes as its `<name>` beside it. Every JSON-emitting keytool command is run and its whole
 * output walked.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import bs58 from 'bs58'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { keyShapeProblems } from '../helpers/json-keys.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const OTHER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const PASS = 'correct horse battery staple'

describe('keytool JSON: keys in 0x hex, base58 under …Base58', { timeout: 300_000 }, () => {
  const tmp = tempDir('tnv-json-keys-')
  const dd = join(tmp.dir, 'validator')
  const phrase = join(tmp.dir, 'phrase.txt')
  const env = { TN_BLS_PASSPHRASE: PASS, TN_NEW_BLS_PASSPHRASE: `${PASS} 2` }
  const outputs = new Map<string, unknown>()
  const run = async (label: string, args: string[], extraEnv: Record<string, string> = {}) => {
    const r = await runCli([...args, '--json'], { env: { ...env, ...extraEnv } })
    assert.equal(r.code, 0, `${label}: ${r.stderr}\n${r.stdout}`)
    outputs.set(label, parseJson(r))
    return outputs.get(label)
  }
  after(() => tmp.cleanup())

  before(async () => {
    const common = ['--address', ADDRESS, '--mnemonic', '--mnemonic-out', phrase, '--datadir', dd]
    await run('generate validator', ['keytool', 'generate', 'validator', ...common])
    await run('generate observer', [
      'keytool',
      'generate',
      'observer',
      '--address',
      '0',
      '--datadir',
      join(tmp.dir, 'observer'),
      '--bls-passphrase-source',
      'no-passphrase',
    ])
    await run('show', ['keytool', 'show', '--datadir', dd])
    await run('verify', ['keytool', 'verify', '--datadir', dd])
    await run('export-staking-args', ['keytool', 'export-staking-args', '--datadir', dd])
    await run('export-staking-args --details', ['keytool', 'export-staking-args', '--datadir', dd, '--details'])
    await run('set-rpc', ['keytool', 'set-rpc', '--datadir', dd, '--http', 'https://rpc.example.org'])
    await run('convert', ['keytool', 'convert', '--datadir', dd, '--to', 'workers'])
    const backup = join(tmp.dir, 'backup.json')
    await run('backup', ['keytool', 'backup', '--datadir', dd, '--out', backup])
    await run('backup verify', ['keytool', 'backup', 'verify', backup, '--datadir', dd])
    await run('backup verify --mnemonic-file', [
      'keytool',
      'backup',
      'verify',
      '--datadir',
      dd,
      '--mnemonic-file',
      phrase,
    ])
    await run('backup restore', ['keytool', 'backup', 'restore', backup, '--datadir', join(tmp.dir, 'restored')])
    await run('recover', [
      'keytool',
      'recover',
      '--address',
      ADDRESS,
      '--mnemonic-file',
      phrase,
      '--datadir',
      join(tmp.dir, 'recovered'),
    ])
    await run('generate pop', ['keytool', 'generate', 'pop', '--address', OTHER, '--datadir', dd])
    await run('change-passphrase', ['keytool', 'change-passphrase', '--datadir', dd, '--new-passphrase-source', 'env'])
  })

  it('the rule itself: catches base58 under a key name, hex under …Base58, two encodings of different bytes', () => {
    assert.deepEqual(
      keyShapeProblems({ blsPublicKey: '0xab', blsPublicKeyBase58: bs58.encode(Buffer.from('ab', 'hex')) }),
      [],
    )
    assert.equal(keyShapeProblems({ blsPublicKey: bs58.encode(Buffer.from('ab', 'hex')) }).length, 1)
    assert.equal(keyShapeProblems({ a: [{ networkKey: 'xyz' }] }).length, 1)
    assert.equal(keyShapeProblems({ proofOfPossessionBase58: '0xab' }).length, 1)
    assert.equal(
      keyShapeProblems({ networkKey: '0xab', networkKeyBase58: bs58.encode(Buffer.from('cd', 'hex')) }).length,
      1,
    )
    // names that are not keys
    assert.deepEqual(
      keyShapeProblems({ key: 'p2p_info.worker', keyFile: { path: '/x' }, proofOfPossessionValid: true }),
      [],
    )
  })

  it('every JSON-emitting keytool command follows it', () => {
    assert.equal(outputs.size, 15)
    for (const [label, out] of outputs) assert.deepEqual(keyShapeProblems(out), [], `tnv keytool ${label} --json`)
  })

  it('the identity carries every key in both forms, the same key across commands', () => {
    type Identity = {
      blsPublicKey: string
      blsPublicKeyBase58: string
      proofOfPossession: string
      proofOfPossessionBase58: string
      primary: { networkKey: string; networkKeyBase58: string; peerId: string }
    }
    const generated = outputs.get('generate validator') as Identity
    const shown = outputs.get('show') as Identity
    const recovered = outputs.get('recover') as Identity
    assert.match(generated.blsPublicKey, /^0x[0-9a-f]{192}$/)
    assert.match(generated.proofOfPossession, /^0x[0-9a-f]{96}$/)
    // the libp2p protobuf public key: 08 01 12 20 then the ed25519 key
    assert.match(generated.primary.networkKey, /^0x08011220[0-9a-f]{64}$/)
    assert.match(generated.primary.networkKeyBase58, /^4XTTM/)
    assert.match(generated.primary.peerId, /^12D3KooW/)
    assert.equal(shown.blsPublicKey, generated.blsPublicKey)
    assert.equal(shown.blsPublicKeyBase58, generated.blsPublicKeyBase58)
    assert.equal(recovered.blsPublicKey, generated.blsPublicKey)
    const args = outputs.get('export-staking-args') as { blsPubkey: string; signature: string }
    // export-staking-args keeps the released keytool's two keys (both hex already)
    assert.deepEqual(Object.keys(args), ['blsPubkey', 'signature'])
    assert.equal(args.blsPubkey, generated.blsPublicKey)
    assert.equal(args.signature, generated.proofOfPossession)
  })
})

describe('keytool JSON base58 forms are node-info.yaml’s text', { timeout: 120_000 }, () => {
  const tmp = tempDir('tnv-json-keys-yaml-')
  after(() => tmp.cleanup())
  it('blsPublicKeyBase58, proofOfPossessionBase58 and networkKeyBase58 appear verbatim in node-info.yaml', async () => {
    const dd = join(tmp.dir, 'dd')
    const r = await runCli([
      'keytool',
      'generate',
      'validator',
      '--address',
      ADDRESS,
      '--datadir',
      dd,
      '--bls-passphrase-source',
      'no-passphrase',
      '--json',
    ])
    assert.equal(r.code, 0, r.stderr)
    const out = parseJson<{
      blsPublicKeyBase58: string
      proofOfPossessionBase58: string
      primary: { networkKeyBase58: string }
      workers: { networkKeyBase58: string }[]
    }>(r)
    const yaml = readFileSync(join(dd, 'node-info.yaml'), 'utf8')
    assert.ok(yaml.includes(`bls_public_key: ${out.blsPublicKeyBase58}\n`), yaml)
    assert.ok(yaml.includes(`proof_of_possession: ${out.proofOfPossessionBase58}\n`), yaml)
    assert.ok(yaml.includes(`network_key: ${out.primary.networkKeyBase58}\n`), yaml)
    assert.ok(yaml.includes(`network_key: ${out.workers[0]?.networkKeyBase58}\n`), yaml)
  })
})
