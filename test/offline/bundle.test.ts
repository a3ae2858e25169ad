/**
 * The bundle format without a chain: canonical JSON, the digest over it (the layout does not
 * matter; every value does), tamper detection for every field of a sealed bundle, and the
 * refusals of a truncated file, another format or version.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { ExitCode, type TnvError } from '../../src/lib/errors.js'
import {
  BUNDLE_FORMAT,
  type Bundle,
  canonicalJson,
  digestOf,
  fileText,
  parseBundle,
  sealed,
  signedPathOf,
} from '../../src/lib/offline/bundle.js'

const A = '0x1111111111111111111111111111111111111111'
const R = '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1'

function sample(): Bundle {
  return sealed<Bundle>({
    format: BUNDLE_FORMAT,
    version: 1,
    step: 'activate',
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-02T00:00:00.000Z',
    chain: { chainId: 911329, name: 'custom' },
    registry: { address: R, codeHash: `0x${'ab'.repeat(32)}`, generation: 'next' },
    call: { function: 'activate()', args: [] },
    transaction: {
      chainId: 911329,
      from: A,
      to: R,
      nonce: 3,
      value: '0',
      valueTel: '0 TEL',
      data: '0x0f15f4c0',
      gas: '120000',
      type: 'eip1559',
      maxFeePerGas: '2000000000',
      maxPriorityFeePerGas: '1000000',
    },
    preconditions: {
      validator: A,
      status: 'Staked',
      stakeVersion: 0,
      epoch: 4,
      minEpoch: null,
      maxBaseFeePerGas: '1999000000',
      baseFeePerGas: '1000000000',
    },
    intent: { title: 'Activate', changes: ['x'], irreversible: [] },
    keyBinding: null,
    prepareCommand: 'tnv offline prepare activate --from 0x…',
  })
}

const refusedWith = (fn: () => unknown, code: string) =>
  assert.throws(fn, (err: TnvError) => {
    assert.equal(err.code, code)
    assert.equal(err.exitCode, ExitCode.BadInput)
    return true
  })

/** Every path to a leaf value of an object. */
function leaves(v: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (v !== null && typeof v === 'object')
    return Object.entries(v).flatMap(([k, x]) => leaves(x, [...path, Array.isArray(v) ? Number(k) : k]))
  return [path]
}

describe('offline bundle format', () => {
  it('canonical JSON sorts keys at every level and has no whitespace', () => {
    assert.equal(
      canonicalJson({ b: 1, a: [{ d: 'x', c: null }], e: true }),
      '{"a":[{"c":null,"d":"x"}],"b":1,"e":true}',
    )
  })

  it('the digest is sha256 of the canonical JSON without the digest field; the layout does not matter', () => {
    const b = sample()
    const { digest, ...rest } = b
    assert.equal(digest, `sha256:${bytesToHex(sha256(new TextEncoder().encode(canonicalJson(rest))))}`)
    assert.equal(digestOf(JSON.parse(JSON.stringify(b, null, 7))), digest)
    assert.deepEqual(parseBundle(fileText(b), 'b.json'), b)
    assert.deepEqual(parseBundle(JSON.stringify(b), 'b.json'), b)
  })

  it('a change of any value is refused as a digest mismatch', () => {
    const b = sample()
    for (const path of leaves(b)) {
      if (path[0] === 'digest' || path[0] === 'format' || path[0] === 'version') continue
      const copy = JSON.parse(JSON.stringify(b))
      let at = copy
      for (const k of path.slice(0, -1)) at = at[k]
      const last = path.at(-1) as string
      at[last] = typeof at[last] === 'number' ? at[last] + 1 : typeof at[last] === 'string' ? `${at[last]}0` : 'x'
      refusedWith(() => parseBundle(JSON.stringify(copy), 'b.json'), 'BundleDigestMismatch')
    }
    // a field added
    refusedWith(() => parseBundle(JSON.stringify({ ...b, extra: 1 }), 'b.json'), 'BundleDigestMismatch')
  })

  it('truncated, not a bundle, another version: refused before anything else is read', () => {
    const text = fileText(sample())
    for (let n = 1; n < text.length - 2; n += 97)
      refusedWith(() => parseBundle(text.slice(0, n), 'b.json'), 'InvalidBundle')
    refusedWith(() => parseBundle(JSON.stringify({ ...sample(), format: 'x' }), 'b.json'), 'InvalidBundle')
    const v2 = sealed<Bundle>({ ...sample(), version: 2 as 1 })
    refusedWith(() => parseBundle(JSON.stringify(v2), 'b.json'), 'InvalidBundle')
  })

  it('a sealed bundle with a malformed field is refused by name', () => {
    const bad = sealed<Bundle>({ ...sample(), transaction: { ...sample().transaction, value: '-1' } })
    assert.throws(() => parseBundle(JSON.stringify(bad), 'b.json'), /transaction\.value is missing or malformed/)
  })

  it('the signed file sits beside the bundle', () => {
    assert.equal(signedPathOf('/m/stake.bundle.json'), '/m/stake.bundle.signed.json')
    assert.equal(signedPathOf('/m/stake'), '/m/stake.signed.json')
  })
})
