/**
 * One key-name scheme in every command's JSON (issue 35 item 10; docs/ci.md "Key names in
 * JSON"): the BLS key is `blsPublicKey` (hex) with `blsPublicKeyBase58`, the proof
 * `proofOfPossession`; the registry commands' older `blsPubkey`/`blsPubkeyBase58` stay one release
 * as deprecated twins of equal value. The commands that print keys (and a broad set of others)
 * are run on a reference devnet and their whole JSON walked; the two documented exceptions are
 * checked as exceptions.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { withSchemeKeyNames } from '../../src/lib/io/json-key-names.js'
import { parseJson } from '../helpers/cli.js'
import { keyNameProblems, keyShapeProblems } from '../helpers/json-keys.js'
import { startTestDevnet, type TestDevnet } from '../wizard/devnet.js'

describe('the scheme itself', () => {
  it('adds the scheme name before a deprecated one, deep, changing nothing else', () => {
    const out = withSchemeKeyNames({ a: [{ blsPubkey: '0xab', blsPubkeyBase58: 'x', n: 1 }], b: null })
    assert.deepEqual(out, {
      a: [{ blsPublicKey: '0xab', blsPubkey: '0xab', blsPublicKeyBase58: 'x', blsPubkeyBase58: 'x', n: 1 }],
      b: null,
    })
    assert.deepEqual(Object.keys((out as { a: Record<string, unknown>[] }).a[0] ?? {}).slice(0, 2), [
      'blsPublicKey',
      'blsPubkey',
    ])
    // a contract call's arguments (a Safe batch, covered by its checksum) are left as they are
    const batch = { transactions: [{ contractInputsValues: { blsPubkey: '0xab' } }] }
    assert.deepEqual(withSchemeKeyNames({ safe: { batch } }), { safe: { batch } })
  })
  it('the name check: off-scheme names and lone deprecated names are caught', () => {
    assert.deepEqual(
      keyNameProblems({ blsPublicKey: '0xab', proofOfPossession: '0xcd', proofOfPossessionValid: true }),
      [],
    )
    assert.equal(keyNameProblems({ blsPubkey: '0xab' }).length, 1)
    assert.equal(keyNameProblems({ x: { blsKey: '0xab' } }).length, 1)
    assert.equal(keyNameProblems({ pop: '0xab' }).length, 1)
  })
})

describe("every command's JSON on a devnet: one key-name scheme", { timeout: 300_000 }, () => {
  let t: TestDevnet
  const outputs = new Map<string, unknown>()
  const run = async (label: string, args: string[], env: Record<string, string | undefined> = {}) => {
    const r = await t.tnv([...args, '--json'], env)
    assert.equal(r.code, 0, `${label}: ${r.stdout}\n${r.stderr}`)
    // one document, or JSON lines (the flows): every line is walked
    const docs = args.includes('--through')
      ? r.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as unknown)
      : [parseJson(r)]
    outputs.set(label, docs)
    return docs.at(-1)
  }
  before(async () => {
    t = await startTestDevnet('tnv-json-scheme-')
    const dd = join(t.dir, 'v1')
    const dd2 = join(t.dir, 'v2')
    const pass = { TN_BLS_PASSPHRASE: 'scheme passphrase' }
    await run(
      'keytool generate validator',
      ['keytool', 'generate', 'validator', '--address', t.address(1), '--datadir', dd],
      pass,
    )
    await run('keytool show', ['keytool', 'show', '--datadir', dd])
    await run('devnet status', ['devnet', 'status', '--datadir', t.devnetDir])
    await run('validator status (not staked)', ['validator', 'status', '--chain', 'devnet', '--address', t.address(1)])
    await run('governance mint', ['governance', 'mint', t.address(1), '--chain', 'devnet', '--yes'])
    await run('stake', ['stake', '--chain', 'devnet', '--datadir', dd, '--yes'], {
      TN_PRIVATE_KEY: t.key(1),
      TN_DEVNET_RELAXED: '1',
    })
    await run('validator status (staked)', ['validator', 'status', '--chain', 'devnet', '--address', t.address(1)])
    await run(
      'stake --through staked (JSON lines)',
      ['stake', '--chain', 'devnet', '--datadir', dd2, '--create-keys', '--mint', '--through', 'staked', '--yes'],
      { TN_BLS_PASSPHRASE: 'weak', TN_PRIVATE_KEY: t.key(2), TN_DEVNET_RELAXED: '1' },
    )
    await run('rewards claim', ['rewards', 'claim', '--chain', 'devnet', '--yes'], { TN_PRIVATE_KEY: t.key(1) })
  })
  after(async () => {
    await t.stop()
  })

  it('keys are named by the scheme, in hex with base58 beside, everywhere', () => {
    assert.ok(outputs.size >= 9)
    for (const [label, docs] of outputs) {
      assert.deepEqual(keyNameProblems(docs), [], `tnv ${label} --json: names`)
      assert.deepEqual(keyShapeProblems(docs), [], `tnv ${label} --json: shapes`)
    }
  })

  it('validator status and stake carry blsPublicKey (and the deprecated blsPubkey twin for one release)', () => {
    const status = (outputs.get('validator status (staked)') as Record<string, string>[])[0] ?? {}
    const shown = (outputs.get('keytool show') as Record<string, string>[])[0] ?? {}
    assert.equal(status.blsPublicKey, shown.blsPublicKey)
    assert.equal(status.blsPubkey, status.blsPublicKey)
    assert.equal(status.blsPublicKeyBase58, shown.blsPublicKeyBase58)
    const staked = (outputs.get('stake') as Record<string, string>[])[0] ?? {}
    assert.equal(staked.blsPublicKey, shown.blsPublicKey)
  })

  it('a weak passphrase is warned about before the keys are written (the flow made keys with "weak")', () => {
    const events = outputs.get('stake --through staked (JSON lines)') as { event?: string; message?: string }[]
    const warned = events.findIndex((e) => e.event === 'warning' && /passphrase is weak/.test(e.message ?? ''))
    const created = events.findIndex((e) => e.event === 'keys-created')
    assert.ok(warned !== -1 && created !== -1 && warned < created, JSON.stringify(events.map((e) => e.event)))
  })

  it("the exception: export-staking-args prints the node keytool's exact stake() arguments", async () => {
    const r = await t.tnv(['keytool', 'export-staking-args', '--datadir', join(t.dir, 'v1'), '--json'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(Object.keys(parseJson<Record<string, string>>(r)), ['blsPubkey', 'signature'])
  })
})
