/**
 * The per-generation adapters against the fact sheets (registry.md, registry-next.md), with no
 * chain: selectors of every call, the shared first-batch ABI, the offline delegation digest's
 * constants (the adiri domain separator for chain 2017 is the one measured on the real code),
 * the adiri proof message, and the delegation file. The on-chain equality of the digests is
 * in delegation.test.ts.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import { type Hex, keccak256, recoverAddress, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { blsKeyGen, blsPublicKey, blsSign } from '../../src/lib/keys/bls.js'
import { signProofOfPossession } from '../../src/lib/keys/pop.js'
import { computeOfflineDelegationDigest } from '../../src/lib/registry/delegation-digest.js'
import { parseDelegationFile } from '../../src/lib/registry/delegation-file.js'
import { registryAdapters } from '../../src/lib/registry/generations/adapters.js'
import {
  adiriPopMessage,
  adiriProofFromSignature,
  signAdiriProof,
  uncompressedPubkey,
  verifyAdiriProof,
} from '../../src/lib/registry/generations/adiri-proof.js'
import {
  computeDelegationDigest,
  findDelegationNonce,
  zeroNameDomainSeparator,
} from '../../src/lib/registry/generations/delegation-hash.js'
import { functionSelectors, registryAbis } from '../../src/lib/registry/generations/detect.js'
import { maskedKeyHash } from '../../src/lib/registry/generations/next.js'
import { SHARED_EVENTS, SHARED_FUNCTIONS, sharedRegistryAbi } from '../../src/lib/registry/generations/shared-abi.js'
import { signDelegation } from '../../src/lib/registry/sign-delegation.js'

const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
const V = '0x0033a370616805b1Fd275B7ffab83FC41D665CCb'
const D = '0x1234567890123456789012345678901234567890'
const REGISTRY = '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1'

describe('registry generations (no chain)', () => {
  it('every call encodes to the selector the fact sheets measured', () => {
    const key = hex(new Uint8Array(96))
    const sel = (data: Hex) => data.slice(0, 10)
    const adiri = registryAdapters.adiri
    const next = registryAdapters.next
    const adiriProof = {
      format: 'uncompressed',
      uncompressedPubkey: hex(new Uint8Array(192)),
      uncompressedSignature: hex(new Uint8Array(96)),
    } as const
    const nextProof = { format: 'compressed', signature: hex(new Uint8Array(48)) } as const
    // registry.md §9
    assert.equal(sel(adiri.stakeData(key, adiriProof)), '0xb5184324')
    assert.equal(
      sel(
        adiri.delegateStakeData({ blsPubkey: key, proof: adiriProof, validator: V, signature: '0x', deadline: null }),
      ),
      '0x8bb43f3a',
    )
    assert.equal(sel(adiri.unstakeData(V, true)), '0xf2888dbb')
    // activate() is the same call in both generations
    assert.equal(adiri.activateData(), '0x0f15f4c0')
    assert.equal(next.activateData(), '0x0f15f4c0')
    // registry-next.md §1
    assert.equal(sel(next.stakeData(key, nextProof)), '0x2fb0d025')
    assert.equal(
      sel(next.delegateStakeData({ blsPubkey: key, proof: nextProof, validator: V, signature: '0x', deadline: 1n })),
      '0x127ce8e8',
    )
    assert.equal(sel(next.unstakeData(V, true)), '0xf66a25a4')
    assert.equal(next.claimRefundData(), '0xb5545a3c')
    assert.equal(next.increaseNonceData(), '0xc53a0292')
    // a generation never encodes the other's proof, nor a call it does not have
    assert.throws(() => adiri.stakeData(key, nextProof), /uncompressed/)
    assert.throws(() => next.stakeData(key, adiriProof), /compressed/)
    assert.throws(() => adiri.claimRefundData(), /no claimRefund/)
    assert.throws(() => adiri.increaseNonceData(), /no increaseNonce/)
    const digestSel = (g: 'adiri' | 'next') =>
      functionSelectors(registryAbis[g]).find((s) => s.name === 'delegationDigest')?.selector
    assert.equal(digestSel('adiri'), '0xe3716d04')
    assert.equal(digestSel('next'), '0xad6cfb86')
  })

  it('the first batch uses only functions both generations have, with the same shape', () => {
    const shape = (g: 'adiri' | 'next', type: 'function' | 'event', name: string) => {
      const e = (registryAbis[g] as readonly { type: string; name?: string }[]).find(
        (x) => x.type === type && x.name === name,
      ) as { inputs: readonly unknown[]; outputs?: readonly unknown[] } | undefined
      assert.ok(e, `${g} has no ${type} ${name}`)
      const strip = (v: unknown): unknown =>
        Array.isArray(v)
          ? v.map(strip)
          : v && typeof v === 'object'
            ? Object.fromEntries(
                Object.entries(v)
                  .filter(([k]) => k === 'type' || k === 'components' || k === 'indexed' || k === 'name')
                  .map(([k, x]) => [k, strip(x)]),
              )
            : v
      return JSON.stringify(strip({ inputs: e?.inputs, outputs: e?.outputs ?? [] }))
    }
    for (const name of SHARED_FUNCTIONS)
      assert.equal(shape('adiri', 'function', name), shape('next', 'function', name), name)
    for (const name of SHARED_EVENTS) assert.equal(shape('adiri', 'event', name), shape('next', 'event', name), name)
    assert.equal(new Set(sharedRegistryAbi.map((e) => e.name)).size, SHARED_FUNCTIONS.length)
  })

  it("the offline digest's constants are the ones measured on the real code", () => {
    // registry.md §7: adiri, chain 2017, zero name/version hashes
    assert.equal(
      zeroNameDomainSeparator(2017, REGISTRY),
      '0xa3d12f5660d471662d282fe866efa9b2988286863986e97a51dba9c571d22879',
    )
    assert.equal(
      keccak256(toHex(registryAdapters.adiri.delegationType.type)),
      '0x9a361e91fa9aa610b5edf1d5c1cc20b9646c4228f3c004354ed2de7635dac994',
    )
    // registry-next.md §4: typehash 0x216bb53e…0b973
    const nextTypehash = keccak256(toHex(registryAdapters.next.delegationType.type))
    assert.ok(nextTypehash.startsWith('0x216bb53e') && nextTypehash.endsWith('0b973'), nextTypehash)
    // next hashes the key with its 3 flag bits cleared; adiri the raw key
    const key = hex(blsPublicKey(blsKeyGen(randomBytes(32))))
    assert.ok((Number.parseInt(key.slice(2, 4), 16) & 0xe0) !== 0, 'a compressed key has flag bits set')
    const masked =
      `0x${(Number.parseInt(key.slice(2, 4), 16) & 0x1f).toString(16).padStart(2, '0')}${key.slice(4)}` as Hex
    assert.equal(maskedKeyHash(key), keccak256(masked))
    assert.notEqual(maskedKeyHash(key), keccak256(key))
    assert.equal(registryAdapters.adiri.delegationType.keyHash(key), keccak256(key))
  })

  it('the nonce is found from a digest, and a digest of another domain is never matched', () => {
    const spec = registryAdapters.next.delegationType
    const inputs = {
      chainId: 487,
      registry: REGISTRY,
      blsPubkey: hex(new Uint8Array(96)),
      validator: V,
      delegator: D,
      validatorVersion: 0,
      deadline: 1_795_576_368n,
    } as const
    const digest = computeDelegationDigest(spec, { ...inputs, nonce: 7n })
    assert.equal(findDelegationNonce(spec, inputs, digest), 7n)
    assert.equal(findDelegationNonce(spec, { ...inputs, chainId: 2017 }, digest), null)
    assert.equal(
      findDelegationNonce(registryAdapters.adiri.delegationType, { ...inputs, deadline: null }, digest),
      null,
    )
  })

  it("the adiri proof: 218-byte message, blst's uncompressed key order, tied to the compressed key", async () => {
    const secret = blsKeyGen(randomBytes(32))
    const key = hex(blsPublicKey(secret))
    const pk = uncompressedPubkey(key)
    assert.equal((pk.length - 2) / 2, 192)
    // the uncompressed point carries no compression flag, and its x.c1 starts as the compressed key's (flags cleared)
    assert.equal(Number.parseInt(pk.slice(2, 4), 16) & 0x80, 0)
    assert.equal(pk.slice(4, 98), key.slice(4, 98))
    const msg = adiriPopMessage(pk, V)
    assert.equal(msg.length, 218)
    assert.deepEqual([...msg.slice(0, 5)], [0, 0, 0, 0xd5, 0x01])
    assert.equal(msg[197], 0x14)
    assert.equal(hex(msg.slice(198)), V.toLowerCase())
    const proof = signAdiriProof(secret, key, V)
    assert.equal((proof.uncompressedSignature.length - 2) / 2, 96)
    assert.ok(verifyAdiriProof(key, proof, V))
    assert.ok(!verifyAdiriProof(key, proof, D), 'the proof binds the address')
    const other = hex(blsPublicKey(blsKeyGen(randomBytes(32))))
    assert.ok(!verifyAdiriProof(other, proof, V), 'the proof binds the key')
    // the compressed 48-byte form of the same signature is accepted; node-info's 119-byte proof is not an adiri proof
    const compressed = hex(blsSign(secret, msg))
    assert.deepEqual(adiriProofFromSignature(key, compressed, V), proof)
    assert.equal(adiriProofFromSignature(key, hex(signProofOfPossession(secret, V)), V), null)
  })

  it('a delegation file round-trips for both generations, and an old or altered file is refused', async () => {
    const account = privateKeyToAccount(hex(randomBytes(32)))
    const secret = blsKeyGen(randomBytes(32))
    const blsPubkey = hex(blsPublicKey(secret))
    for (const generation of ['adiri', 'next'] as const) {
      const { file } = await signDelegation({
        source: { mode: 'offline', generation, chainId: 2017, registry: REGISTRY, stakeVersion: 0, nonce: 3n },
        signer: { kind: 'key', account },
        delegator: D,
        deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
        blsPubkey,
        proofOfPossession: hex(signProofOfPossession(secret, account.address)),
        signAdiriProof: async ({ validator, blsPubkey: k }) => signAdiriProof(secret, k, validator),
      })
      assert.equal(file.generation, generation)
      assert.equal(file.proof.format, generation === 'adiri' ? 'uncompressed' : 'compressed')
      assert.equal(file.deadline === null, generation === 'adiri')
      // the signature is over the digest as a raw hash, and the digest is the offline one
      assert.equal(await recoverAddress({ hash: file.digest, signature: file.signature }), account.address)
      const expected = computeOfflineDelegationDigest({
        generation,
        chainId: 2017,
        registry: REGISTRY,
        stakeVersion: 0,
        nonce: 3n,
        blsPubkey,
        validator: account.address,
        delegator: D,
        deadline: file.deadline === null ? null : BigInt(file.deadline),
      })
      assert.equal(file.digest, expected.digest)
      assert.deepEqual(parseDelegationFile(JSON.parse(JSON.stringify(file)), 'f.json'), file)
      assert.throws(
        () => parseDelegationFile({ ...file, version: 1 }, 'old.json'),
        /version 1 delegation file.*no deployed registry accepts/,
      )
      assert.throws(
        () => parseDelegationFile({ ...file, signature: '0x12' }, 'f.json'),
        /f\.json: signature is not 65 bytes/,
      )
      assert.throws(
        () => parseDelegationFile({ ...file, generation: generation === 'adiri' ? 'next' : 'adiri' }, 'f.json'),
        /proof\.format/,
      )
    }
  })
})
