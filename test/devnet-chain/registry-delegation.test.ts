/**
 * Delegated stake: the EIP-712 digest (domain "ConsensusRegistry" v1, Delegation struct), the
 * validator's signature, expiry, revocation with increaseNonce, the stake-version binding, the
 * owner's signature-free path, and who is paid.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import {
  type Address,
  concat,
  type Hex,
  hashTypedData,
  keccak256,
  numberToHex,
  parseSignature,
  serializeSignature,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { DevnetAccount } from '../../src/devnet/chain/types.js'
import {
  balanceOf,
  blsKeyFor,
  currentEpoch,
  expectRevert,
  feeOf,
  STAKE,
  Status,
  startTestDevnet,
  type TestDevnet,
  validatorOf,
} from './helpers.js'

let dn: TestDevnet
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

const DELEGATION_TYPES = {
  Delegation: [
    { name: 'blsPubkeyHash', type: 'bytes32' },
    { name: 'validatorAddress', type: 'address' },
    { name: 'delegator', type: 'address' },
    { name: 'stakeVersion', type: 'uint8' },
    { name: 'nonce', type: 'uint64' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

async function deadlineIn(seconds: number): Promise<bigint> {
  const block = await dn.client.getBlock()
  return block.timestamp + BigInt(seconds)
}

/** The validator signs the delegation as the documented EIP-712 typed data (what a wallet would show). */
async function signDelegation(
  validator: DevnetAccount,
  publicKey: Hex,
  delegator: Address,
  deadline: bigint,
): Promise<Hex> {
  const [stakeVersion, nonce] = await Promise.all([
    dn.read('getCurrentStakeVersion') as Promise<number>,
    dn.read('delegationNonce', [validator.address]) as Promise<bigint>,
  ])
  return privateKeyToAccount(validator.privateKey).signTypedData({
    domain: {
      name: 'ConsensusRegistry',
      version: '1',
      chainId: dn.chain.chainId,
      verifyingContract: dn.chain.registry,
    },
    types: DELEGATION_TYPES,
    primaryType: 'Delegation',
    message: {
      blsPubkeyHash: keccak256(publicKey),
      validatorAddress: validator.address,
      delegator,
      stakeVersion,
      nonce,
      deadline,
    },
  })
}

async function setup() {
  const validator = await dn.newWhitelisted()
  const delegator = await dn.newAccount()
  const key = blsKeyFor(validator.address)
  return { validator, delegator, key }
}

describe('registry delegated stake', () => {
  before(async () => {
    dn = await startTestDevnet({ protocolLoop: false })
  })
  after(async () => {
    await dn?.close()
  })

  it('delegationDigest is the EIP-712 hash of the documented domain and Delegation struct', async () => {
    const { validator, delegator, key } = await setup()
    const deadline = await deadlineIn(3600)
    const digest = await dn.read('delegationDigest', [key.publicKey, validator.address, delegator.address, deadline])
    const expected = hashTypedData({
      domain: {
        name: 'ConsensusRegistry',
        version: '1',
        chainId: dn.chain.chainId,
        verifyingContract: dn.chain.registry,
      },
      types: DELEGATION_TYPES,
      primaryType: 'Delegation',
      message: {
        blsPubkeyHash: keccak256(key.publicKey),
        validatorAddress: validator.address,
        delegator: delegator.address,
        stakeVersion: 0,
        nonce: 0n,
        deadline,
      },
    })
    assert.equal(digest, expected)
    const domain = (await dn.read('eip712Domain')) as readonly unknown[]
    assert.deepEqual(domain.slice(1, 5), ['ConsensusRegistry', '1', BigInt(dn.chain.chainId), dn.chain.registry])
  })

  it('a delegator stakes with the validator’s signature; the delegator is recorded and the nonce moves on', async () => {
    const { validator, delegator, key } = await setup()
    const deadline = await deadlineIn(3600)
    const signature = await signDelegation(validator, key.publicKey, delegator.address, deadline)
    const before = await balanceOf(dn, delegator.address)
    const receipt = await dn.registry(
      delegator,
      'delegateStake',
      [key.publicKey, { signature: key.proofOfPossession }, validator.address, signature, deadline],
      STAKE,
    )
    assert.equal(await balanceOf(dn, delegator.address), before - STAKE - feeOf(receipt))
    assert.equal((await validatorOf(dn, validator.address)).currentStatus, Status.Staked)
    assert.equal(await dn.read('isDelegated', [validator.address]), true)
    assert.equal(await dn.read('getDelegator', [validator.address]), delegator.address)
    assert.equal(await dn.read('delegationNonce', [validator.address]), 1n)
    // the validator (not the delegator) activates
    await expectRevert(dn.registry(delegator, 'activate', []), 'InvalidTokenId', [BigInt(delegator.address)])
    await dn.registry(validator, 'activate', [])
    assert.equal((await validatorOf(dn, validator.address)).currentStatus, Status.PendingActivation)
  })

  it('DelegationExpired after the deadline', async () => {
    const { validator, delegator, key } = await setup()
    const deadline = await deadlineIn(-1)
    const signature = await signDelegation(validator, key.publicKey, delegator.address, deadline)
    await expectRevert(
      dn.registry(
        delegator,
        'delegateStake',
        [key.publicKey, { signature: key.proofOfPossession }, validator.address, signature, deadline],
        STAKE,
      ),
      'DelegationExpired',
      [deadline],
    )
  })

  it('rejects a signature by another key, for another delegator, malformed, or malleable', async () => {
    const { validator, delegator, key } = await setup()
    const other = await dn.newAccount()
    const deadline = await deadlineIn(3600)
    const send = (signature: Hex) =>
      dn.registry(
        delegator,
        'delegateStake',
        [key.publicKey, { signature: key.proofOfPossession }, validator.address, signature, deadline],
        STAKE,
      )
    const byOther = await signDelegation(other, key.publicKey, delegator.address, deadline)
    await expectRevert(send(byOther), 'InvalidDelegationSignature', [validator.address])
    const forOther = await signDelegation(validator, key.publicKey, other.address, deadline)
    await expectRevert(send(forOther), 'InvalidDelegationSignature', [validator.address])
    await expectRevert(send('0x'), 'InvalidDelegationSignature', [validator.address])
    await expectRevert(send('0x1234'), 'InvalidDelegationSignature', [validator.address])
    const good = await signDelegation(validator, key.publicKey, delegator.address, deadline)
    const { r, s, yParity } = parseSignature(good)
    const malleable = serializeSignature({
      r,
      s: numberToHex(SECP256K1_N - BigInt(s), { size: 32 }),
      yParity: yParity === 0 ? 1 : 0,
    })
    await expectRevert(send(malleable), 'InvalidDelegationSignature', [validator.address])
    // v as 0/1 instead of 27/28 is the same signature
    const v01 = concat([r, s, numberToHex(yParity, { size: 1 })])
    await send(v01)
    assert.equal(await dn.read('getDelegator', [validator.address]), delegator.address)
  })

  it('increaseNonce revokes every signature given before', async () => {
    const { validator, delegator, key } = await setup()
    const deadline = await deadlineIn(3600)
    const signature = await signDelegation(validator, key.publicKey, delegator.address, deadline)
    const outsider = await dn.newAccount()
    await expectRevert(dn.registry(outsider, 'increaseNonce', []), 'RequiresConsensusNFT')
    await dn.registry(validator, 'increaseNonce', [])
    assert.equal(await dn.read('delegationNonce', [validator.address]), 1n)
    const args = [key.publicKey, { signature: key.proofOfPossession }, validator.address, signature, deadline] as const
    await expectRevert(dn.registry(delegator, 'delegateStake', args, STAKE), 'InvalidDelegationSignature', [
      validator.address,
    ])
    const fresh = await signDelegation(validator, key.publicKey, delegator.address, deadline)
    await dn.registry(
      delegator,
      'delegateStake',
      [key.publicKey, { signature: key.proofOfPossession }, validator.address, fresh, deadline],
      STAKE,
    )
    assert.equal(await dn.read('delegationNonce', [validator.address]), 2n)
  })

  it('a signature stops working when the stake version changes at an epoch boundary', async () => {
    const { validator, delegator, key } = await setup()
    const deadline = await deadlineIn(86_400)
    const signature = await signDelegation(validator, key.publicKey, delegator.address, deadline)
    const config = (await dn.read('getCurrentStakeConfig')) as {
      stakeAmount: bigint
      minWithdrawAmount: bigint
      epochIssuance: bigint
      epochDuration: number
    }
    const versionBefore = (await dn.read('getCurrentStakeVersion')) as number
    await dn.registry(dn.chain.governance, 'setStakeConfig', [config])
    // written, but not yet in force: the signature still works in this epoch
    const digestNow = await dn.read('delegationDigest', [key.publicKey, validator.address, delegator.address, deadline])
    assert.equal(await dn.read('getCurrentStakeVersion'), versionBefore)
    await dn.chain.advanceEpoch()
    assert.equal(await dn.read('getCurrentStakeVersion'), versionBefore + 1)
    assert.notEqual(
      await dn.read('delegationDigest', [key.publicKey, validator.address, delegator.address, deadline]),
      digestNow,
    )
    const args = [key.publicKey, { signature: key.proofOfPossession }, validator.address, signature, deadline] as const
    await expectRevert(dn.registry(delegator, 'delegateStake', args, STAKE), 'InvalidDelegationSignature', [
      validator.address,
    ])
    const fresh = await signDelegation(validator, key.publicKey, delegator.address, deadline)
    await dn.registry(
      delegator,
      'delegateStake',
      [key.publicKey, { signature: key.proofOfPossession }, validator.address, fresh, deadline],
      STAKE,
    )
    assert.equal((await validatorOf(dn, validator.address)).stakeVersion, versionBefore + 1)
  })

  it('the owner delegates without a signature; a wrong proof of possession is still refused', async () => {
    const { validator, key } = await setup()
    const deadline = await deadlineIn(3600)
    const gov = dn.chain.governance
    const wrongPop = blsKeyFor(gov.address, key.secretKey).proofOfPossession
    await expectRevert(
      dn.registry(
        gov,
        'delegateStake',
        [key.publicKey, { signature: wrongPop }, validator.address, '0x', deadline],
        STAKE,
      ),
      'InvalidProofOfPossession',
    )
    await dn.registry(
      gov,
      'delegateStake',
      [key.publicKey, { signature: key.proofOfPossession }, validator.address, '0x', deadline],
      STAKE,
    )
    assert.equal(await dn.read('getDelegator', [validator.address]), gov.address)
  })

  it('the delegator is paid: rewards claimed by either party, and the stake on unstake', async () => {
    const { validator, delegator, key } = await setup()
    const deadline = await deadlineIn(86_400)
    const signature = await signDelegation(validator, key.publicKey, delegator.address, deadline)
    await dn.registry(
      delegator,
      'delegateStake',
      [key.publicKey, { signature: key.proofOfPossession }, validator.address, signature, deadline],
      STAKE,
    )
    await dn.registry(validator, 'activate', [])
    for (let i = 0; i < 4; i++) await dn.chain.advanceEpoch()
    const stranger = await dn.newAccount()
    await expectRevert(dn.registry(stranger, 'claimStakeRewards', [validator.address]), 'NotRecipient', [
      stranger.address,
    ])

    const rewards = (await dn.read('getRewards', [validator.address])) as bigint
    assert.ok(rewards > 0n)
    const delegatorBefore = await balanceOf(dn, delegator.address)
    const validatorBefore = await balanceOf(dn, validator.address)
    const claim = await dn.registry(validator, 'claimStakeRewards', [validator.address])
    assert.equal(
      await balanceOf(dn, delegator.address),
      delegatorBefore + rewards,
      'the delegator receives the rewards',
    )
    assert.equal(await balanceOf(dn, validator.address), validatorBefore - feeOf(claim))

    await dn.registry(validator, 'beginExit', [])
    while ((await validatorOf(dn, validator.address)).currentStatus !== Status.Exited) await dn.chain.advanceEpoch()
    await dn.chain.advanceEpoch()
    const owed = (await dn.read('getRewards', [validator.address])) as bigint
    const before = await balanceOf(dn, delegator.address)
    const unstake = await dn.registry(delegator, 'unstake', [validator.address, false])
    assert.equal(await balanceOf(dn, delegator.address), before + STAKE + owed - feeOf(unstake))
    assert.equal(await dn.read('isRetired', [validator.address]), true)
    assert.ok((await currentEpoch(dn)) > 0)
  })
})
