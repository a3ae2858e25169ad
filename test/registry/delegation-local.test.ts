/**
 * Delegation pieces that need no chain: the EIP-712 digest against an encoding written out
 * by hand (a second implementation), offline signing and recovery, the signature file, and
 * deadline parsing.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { type Hex, recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { blsPublicKey } from '../../src/lib/keys/bls.js'
import { signProofOfPossession } from '../../src/lib/keys/pop.js'
import { parseDeadline } from '../../src/lib/registry/deadline.js'
import { computeDelegationDigest, delegationTypedData } from '../../src/lib/registry/delegation-digest.js'
import { parseDelegationFile, readDelegationFile, writeDelegationFile } from '../../src/lib/registry/delegation-file.js'
import { signDelegation } from '../../src/lib/registry/sign-delegation.js'
import { tempDir } from '../helpers/cli.js'

const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
const k = (s: string) => Buffer.from(keccak_256(new TextEncoder().encode(s)))
const word = (v: bigint | string) =>
  typeof v === 'bigint'
    ? Buffer.from(v.toString(16).padStart(64, '0'), 'hex')
    : Buffer.from(v.slice(2).padStart(64, '0'), 'hex')

/** EIP-712 written out: keccak(0x1901 || domainSeparator || hashStruct(Delegation)). */
function manualDigest(p: {
  chainId: number
  registry: string
  blsPubkey: Hex
  validator: string
  delegator: string
  stakeVersion: number
  nonce: bigint
  deadline: bigint
}): Hex {
  const domainType = k('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)')
  const domain = keccak_256(
    Buffer.concat([domainType, k('ConsensusRegistry'), k('1'), word(BigInt(p.chainId)), word(p.registry)]),
  )
  const type = k(
    'Delegation(bytes32 blsPubkeyHash,address validatorAddress,address delegator,uint8 stakeVersion,uint64 nonce,uint256 deadline)',
  )
  const struct = keccak_256(
    Buffer.concat([
      type,
      Buffer.from(keccak_256(Buffer.from(p.blsPubkey.slice(2), 'hex'))),
      word(p.validator),
      word(p.delegator),
      word(BigInt(p.stakeVersion)),
      word(p.nonce),
      word(p.deadline),
    ]),
  )
  return hex(keccak_256(Buffer.concat([Buffer.from([0x19, 0x01]), domain, struct])))
}

const validator = privateKeyToAccount(`0x${'0d'.repeat(32)}`)
const delegator = privateKeyToAccount(`0x${'0e'.repeat(32)}`).address
const blsSecret = Uint8Array.from(Buffer.from('1f'.repeat(32), 'hex'))
const blsPubkey = hex(blsPublicKey(blsSecret))
const pop = hex(signProofOfPossession(blsSecret, validator.address))
const registry = '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1' as const

describe('delegation (local)', () => {
  const { dir, cleanup } = tempDir('tnv-delegation-')
  after(cleanup)

  it('the digest equals a hand-written EIP-712 encoding', () => {
    const inputs = {
      chainId: 911329,
      registry,
      blsPubkey,
      validator: validator.address,
      delegator,
      stakeVersion: 3,
      nonce: 2n,
      deadline: 1_800_000_000n,
    }
    assert.equal(computeDelegationDigest(inputs), manualDigest(inputs))
    assert.notEqual(computeDelegationDigest({ ...inputs, nonce: 3n }), manualDigest(inputs))
  })

  it('signs offline; the signature recovers to the validator; the file round-trips', async () => {
    const { chain, file } = await signDelegation({
      source: { mode: 'offline', chainId: 2017, registry, stakeVersion: 1, nonce: 0n },
      account: validator,
      delegator,
      deadline: 1_900_000_000n,
      blsPubkey,
      proofOfPossession: pop,
      nowSeconds: 1_800_000_000n,
    })
    assert.equal(chain, null)
    assert.equal(
      file.digest,
      manualDigest({
        chainId: 2017,
        registry,
        blsPubkey,
        validator: validator.address,
        delegator,
        stakeVersion: 1,
        nonce: 0n,
        deadline: 1_900_000_000n,
      }),
    )
    const recovered = await recoverTypedDataAddress({
      ...delegationTypedData({
        chainId: 2017,
        registry,
        blsPubkey,
        validator: validator.address,
        delegator,
        stakeVersion: 1,
        nonce: 0n,
        deadline: 1_900_000_000n,
      }),
      signature: file.signature,
    })
    assert.equal(recovered, validator.address)
    const path = join(dir, 'delegation.json')
    await writeDelegationFile(path, file)
    assert.deepEqual(await readDelegationFile(path), file)
    await assert.rejects(writeDelegationFile(path, file), /exists already/)
    const { backup } = await writeDelegationFile(path, file, { force: true })
    assert.ok(backup && JSON.parse(readFileSync(backup, 'utf8')).signature === file.signature)

    // a second --force within the same second keeps both backups
    const { backup: second } = await writeDelegationFile(path, file, { force: true })
    assert.ok(second && second !== backup && readFileSync(backup, 'utf8') === readFileSync(second, 'utf8'))

    // a failure after the backup leaves the directory as it was: same file, no extra backup
    const before = readdirSync(dir).sort()
    const text = readFileSync(path, 'utf8')
    process.env.TNV_INJECT_FAULT = 'delegation:write'
    try {
      await assert.rejects(
        writeDelegationFile(path, { ...file, deadline: '1900000001' }, { force: true }),
        /injected fault at delegation:write/,
      )
    } finally {
      delete process.env.TNV_INJECT_FAULT
    }
    assert.deepEqual(readdirSync(dir).sort(), before)
    assert.equal(readFileSync(path, 'utf8'), text)
  })

  it('refuses a PoP made for another address, a past deadline, and self-delegation', async () => {
    const base = {
      source: { mode: 'offline' as const, chainId: 2017, registry, stakeVersion: 1, nonce: 0n },
      account: validator,
      delegator,
      deadline: 1_900_000_000n,
      blsPubkey,
      proofOfPossession: pop,
      nowSeconds: 1_800_000_000n,
    }
    await assert.rejects(
      signDelegation({ ...base, proofOfPossession: hex(signProofOfPossession(blsSecret, delegator)) }),
      /does not verify for address/,
    )
    await assert.rejects(signDelegation({ ...base, nowSeconds: 1_950_000_000n }), /is in the past/)
    await assert.rejects(signDelegation({ ...base, delegator: validator.address }), /is the validator itself/)
  })

  it('refuses a tampered or incomplete file with a labeled message', () => {
    const good = {
      type: 'tnv-delegation-signature',
      version: 1,
      chainId: 2017,
      registry,
      validator: validator.address,
      delegator,
      blsPubkey,
      proofOfPossession: pop,
      stakeVersion: 1,
      nonce: '0',
      deadline: '1900000000',
      deadlineIso: 'x',
      digest: `0x${'11'.repeat(32)}`,
      signature: `0x${'22'.repeat(65)}`,
    }
    assert.equal(parseDelegationFile(good, 'f.json').deadlineIso, '2030-03-17T17:46:40.000Z')
    assert.throws(
      () => parseDelegationFile({ ...good, signature: '0x1234' }, 'f.json'),
      /f\.json: signature is not 65 bytes/,
    )
    assert.throws(() => parseDelegationFile({ ...good, nonce: 1 }, 'f.json'), /nonce is not a decimal string/)
    assert.throws(() => parseDelegationFile({ ...good, type: 'x' }, 'f.json'), /type is not/)
    assert.throws(() => parseDelegationFile({ ...good, validator: '0x12' }, 'f.json'), /validator is not a 20-byte/)
  })

  it('parses deadlines: durations, Unix seconds, ISO dates', () => {
    const now = 1_700_000_000n
    assert.equal(parseDeadline('90m', now), now + 5400n)
    assert.equal(parseDeadline('24h', now), now + 86_400n)
    assert.equal(parseDeadline('7d', now), now + 604_800n)
    assert.equal(parseDeadline('1767225600', now), 1_767_225_600n)
    assert.equal(parseDeadline('2026-01-01T00:00:00Z', now), 1_767_225_600n)
    assert.throws(() => parseDeadline('3600', now), /duration without a unit/)
    assert.throws(() => parseDeadline('tomorrow', now), /not a deadline tnv understands/)
  })
})
