/**
 * The registry's validator lifecycle on the devnet: ConsensusNFT, stake, activate, beginExit,
 * the protocol's exit, unstake and retirement, with every error of the spec on the way.
 * The protocol loop is off: each test concludes epochs itself with advanceEpoch().
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Address, decodeEventLog, type Hex, parseEther, type TransactionReceipt } from 'viem'
import { consensusRegistryAbi } from '../../src/devnet/chain/abi.js'
import { GENESIS_VALIDATORS } from '../../src/devnet/chain/genesis-validators.js'
import {
  balanceOf,
  blsKeyFor,
  currentEpoch,
  epochInfo,
  expectRevert,
  feeOf,
  STAKE,
  Status,
  stakeArgs,
  startTestDevnet,
  type TestDevnet,
  validatorOf,
} from './helpers.js'

let dn: TestDevnet
const tokenId = (a: Address) => BigInt(a)

function eventNames(receipt: TransactionReceipt): string[] {
  return receipt.logs.flatMap((log) => {
    try {
      return [decodeEventLog({ abi: consensusRegistryAbi, data: log.data, topics: log.topics }).eventName]
    } catch {
      return []
    }
  })
}

describe('registry lifecycle', () => {
  before(async () => {
    dn = await startTestDevnet({ protocolLoop: false })
  })
  after(async () => {
    await dn?.close()
  })

  it('starts with the genesis validators Active in the committees of epochs 0, 1 and 2', async () => {
    assert.equal(await currentEpoch(dn), 0)
    const genesis = dn.chain.genesisValidators
    assert.deepEqual(
      genesis,
      GENESIS_VALIDATORS.map((g) => g.address),
    )
    const sorted = [...genesis].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
    for (const e of [0, 1, 2]) assert.deepEqual((await epochInfo(dn, e)).committee, sorted, `committee of epoch ${e}`)
    for (const g of genesis) {
      const v = await validatorOf(dn, g)
      assert.equal(v.currentStatus, Status.Active)
      assert.equal(await dn.read('balanceOf', [g]), 1n)
    }
    const info = await epochInfo(dn)
    assert.equal(info.epochDuration, dn.chain.epochBlocks)
    assert.equal(info.stakeVersion, 0)
    assert.equal(await dn.read('getCurrentStakeVersion'), 0)
    const config = (await dn.read('stakeConfig', [0])) as { stakeAmount: bigint }
    assert.equal(config.stakeAmount, STAKE)
    assert.equal(await dn.read('owner'), dn.chain.governance.address)
    assert.equal(await dn.read('systemAddress'), dn.chain.system.address)
  })

  it('ConsensusNFT: only governance mints, once per address, and it cannot be transferred', async () => {
    const v = await dn.newAccount()
    const stranger = await dn.newAccount()
    assert.equal(await dn.read('balanceOf', [v.address]), 0n)
    await expectRevert(dn.registry(stranger, 'mint', [v.address]), 'OnlyOwner', [stranger.address])
    await expectRevert(
      dn.registry(dn.chain.governance, 'mint', ['0x0000000000000000000000000000000000000000']),
      'InvalidTokenId',
      [0n],
    )
    const receipt = await dn.registry(dn.chain.governance, 'mint', [v.address])
    assert.ok(eventNames(receipt).includes('Transfer'))
    assert.equal(await dn.read('balanceOf', [v.address]), 1n)
    assert.equal(await dn.read('ownerOf', [tokenId(v.address)]), v.address)
    await expectRevert(dn.read('ownerOf', [tokenId(stranger.address)]), 'InvalidTokenId', [tokenId(stranger.address)])
    await expectRevert(dn.registry(dn.chain.governance, 'mint', [v.address]), 'AlreadyDefined', [v.address])
    // the transfer functions are `pure` (they only revert), so they are called, not sent
    await expectRevert(dn.read('transferFrom', [v.address, stranger.address, tokenId(v.address)]), 'NotTransferable')
    await expectRevert(
      dn.read('safeTransferFrom', [v.address, stranger.address, tokenId(v.address)]),
      'NotTransferable',
    )
    await expectRevert(
      dn.read('safeTransferFrom', [v.address, stranger.address, tokenId(v.address), '0x']),
      'NotTransferable',
    )
    await expectRevert(dn.read('approve', [stranger.address, tokenId(v.address)]), 'NotTransferable')
    await expectRevert(dn.read('setApprovalForAll', [stranger.address, true]), 'NotTransferable')
    const info = await validatorOf(dn, v.address)
    assert.equal(info.currentStatus, Status.Undefined)
    assert.equal(info.validatorAddress, v.address)
    const undefinedOnes = (await dn.read('getValidators', [Status.Undefined])) as { validatorAddress: Address }[]
    assert.ok(undefinedOnes.some((x) => x.validatorAddress === v.address))
  })

  it('stake: every check with its error, then Staked with the key registered for good', async () => {
    const v = await dn.newWhitelisted()
    const other = await dn.newWhitelisted()
    const outsider = await dn.newAccount()
    const key = blsKeyFor(v.address)
    const args = stakeArgs(v.address, key)
    await expectRevert(dn.registry(outsider, 'stake', stakeArgs(outsider.address), STAKE), 'InvalidTokenId', [
      tokenId(outsider.address),
    ])
    await expectRevert(dn.registry(v, 'stake', [`${key.publicKey}00` as Hex, args[1]], STAKE), 'InvalidBLSPubkey')
    await expectRevert(dn.registry(v, 'stake', [key.publicKey.slice(0, -2) as Hex, args[1]], STAKE), 'InvalidBLSPubkey')
    for (const value of [0n, STAKE - 1n, STAKE + 1n]) {
      await expectRevert(dn.registry(v, 'stake', args, value), 'InvalidStakeAmount', [value])
    }
    // a proof signed for another address (the operator forgot `generate pop --address`)
    const wrongPop = blsKeyFor(other.address, key.secretKey).proofOfPossession
    await expectRevert(
      dn.registry(v, 'stake', [key.publicKey, { signature: wrongPop }], STAKE),
      'InvalidProofOfPossession',
      [{ signature: wrongPop }],
    )
    const strangerKey = blsKeyFor(v.address)
    await expectRevert(
      dn.registry(v, 'stake', [key.publicKey, { signature: strangerKey.proofOfPossession }], STAKE),
      'InvalidProofOfPossession',
    )
    await expectRevert(
      dn.registry(v, 'stake', [key.publicKey, { signature: '0x1234' }], STAKE),
      'InvalidProofOfPossession',
    )
    await expectRevert(
      dn.registry(
        v,
        'stake',
        [GENESIS_VALIDATORS[0]?.blsPublicKey ?? '0x', { signature: key.proofOfPossession }],
        STAKE,
      ),
      'DuplicateBLSPubkey',
    )

    const before = await balanceOf(dn, v.address)
    const receipt = await dn.registry(v, 'stake', args, STAKE)
    assert.equal(await balanceOf(dn, v.address), before - STAKE - feeOf(receipt))
    assert.ok(eventNames(receipt).includes('ValidatorStaked'))
    const info = await validatorOf(dn, v.address)
    assert.equal(info.currentStatus, Status.Staked)
    assert.equal(info.stakeVersion, 0)
    assert.equal(await dn.read('getBlsPubkey', [v.address]), key.publicKey)
    assert.equal(await dn.read('isValidator', [key.publicKey]), true)
    assert.equal(await dn.read('getStakeBalance', [v.address]), STAKE)
    assert.equal(await dn.read('isDelegated', [v.address]), false)

    // the same key again: by the same address or anyone else
    await expectRevert(dn.registry(v, 'stake', args, STAKE), 'DuplicateBLSPubkey')
    await expectRevert(
      dn.registry(other, 'stake', [key.publicKey, { signature: wrongPop }], STAKE),
      'DuplicateBLSPubkey',
    )
    // the same address with a new key
    await expectRevert(dn.registry(v, 'stake', stakeArgs(v.address), STAKE), 'AlreadyDefined', [v.address])
  })

  it('activate: validator only, Staked only; Active from the next epoch boundary, committee from the one after two more', async () => {
    const v = await dn.newWhitelisted()
    const outsider = await dn.newAccount()
    await expectRevert(dn.registry(outsider, 'activate', []), 'InvalidTokenId', [tokenId(outsider.address)])
    await expectRevert(dn.registry(v, 'activate', []), 'InvalidStatus', [Status.Undefined])
    await dn.registry(v, 'stake', stakeArgs(v.address), STAKE)
    await expectRevert(dn.registry(v, 'beginExit', []), 'InvalidStatus', [Status.Staked])
    const epoch = await currentEpoch(dn)
    const receipt = await dn.registry(v, 'activate', [])
    assert.ok(eventNames(receipt).includes('ValidatorPendingActivation'))
    let info = await validatorOf(dn, v.address)
    assert.equal(info.currentStatus, Status.PendingActivation)
    assert.equal(info.activationEpoch, epoch + 1)
    await expectRevert(dn.registry(v, 'activate', []), 'InvalidStatus', [Status.PendingActivation])
    await expectRevert(dn.registry(v, 'beginExit', []), 'InvalidStatus', [Status.PendingActivation])

    const next = await dn.chain.advanceEpoch()
    assert.equal(next, epoch + 1)
    info = await validatorOf(dn, v.address)
    assert.equal(info.currentStatus, Status.Active)
    assert.equal(info.activationEpoch, next)
    assert.ok(
      !(await epochInfo(dn, next)).committee.includes(v.address),
      'not in the committee already set for this epoch',
    )
    assert.ok(!(await epochInfo(dn, next + 1)).committee.includes(v.address))
    assert.ok((await epochInfo(dn, next + 2)).committee.includes(v.address), 'selected for the epoch after two more')
    await expectRevert(dn.read('getEpochInfo', [next + 3]), 'InvalidEpoch', [next + 3])
    const future = await epochInfo(dn, next + 2)
    assert.equal(future.blockHeight, 0n)
    assert.equal(future.epochId, next + 2)
  })

  it('beginExit → PendingExit → Exited once no committee seat is left; unstake from exit epoch + 1 pays stake plus rewards and retires', async () => {
    const v = await dn.newWhitelisted()
    const key = blsKeyFor(v.address)
    await dn.registry(v, 'stake', stakeArgs(v.address, key), STAKE)
    await dn.registry(v, 'activate', [])
    await dn.chain.advanceEpoch()
    // serve in a committee so rewards accrue
    for (let i = 0; i < 3; i++) await dn.chain.advanceEpoch()
    assert.ok((await epochInfo(dn)).committee.includes(v.address))
    const receipt = await dn.registry(v, 'beginExit', [])
    assert.ok(eventNames(receipt).includes('ValidatorPendingExit'))
    assert.equal((await validatorOf(dn, v.address)).currentStatus, Status.PendingExit)
    await expectRevert(dn.registry(v, 'beginExit', []), 'InvalidStatus', [Status.PendingExit])
    await expectRevert(dn.registry(v, 'unstake', [v.address, false]), 'IneligibleUnstake')

    // it stays PendingExit while the current or the next two committees hold it
    let epoch = await currentEpoch(dn)
    for (;;) {
      const seats = await Promise.all(
        [0, 1, 2].map(async (k) => (await epochInfo(dn, epoch + k)).committee.includes(v.address)),
      )
      const info = await validatorOf(dn, v.address)
      if (seats.some(Boolean)) {
        assert.equal(info.currentStatus, Status.PendingExit, `epoch ${epoch}: still seated`)
        epoch = await dn.chain.advanceEpoch()
        continue
      }
      assert.equal(info.currentStatus, Status.Exited, `epoch ${epoch}: no seat left`)
      assert.equal(info.exitEpoch, epoch)
      break
    }
    const exitEpoch = epoch
    assert.ok(
      !((await dn.read('getValidators', [Status.Active])) as { validatorAddress: Address }[]).some(
        (x) => x.validatorAddress === v.address,
      ),
    )
    const stranger = await dn.newAccount()
    await expectRevert(dn.registry(stranger, 'unstake', [v.address, false]), 'NotRecipient', [stranger.address])
    const ineligible = await expectRevert(dn.registry(v, 'unstake', [v.address, false]), 'IneligibleUnstake')
    const shown = (ineligible.data?.args?.[0] ?? {}) as { currentStatus?: number; exitEpoch?: number }
    assert.equal(shown.currentStatus, Status.Exited)
    assert.equal(shown.exitEpoch, exitEpoch)

    assert.equal(await dn.chain.advanceEpoch(), exitEpoch + 1)
    const rewards = (await dn.read('getRewards', [v.address])) as bigint
    assert.ok(rewards > 0n, 'served in committees, so rewards accrued')
    const before = await balanceOf(dn, v.address)
    const unstaked = await dn.registry(v, 'unstake', [v.address, false])
    assert.equal(await balanceOf(dn, v.address), before + STAKE + rewards - feeOf(unstaked))
    assert.ok(eventNames(unstaked).includes('ValidatorRetired'))
    assert.ok(eventNames(unstaked).includes('RewardsClaimed'))
    const info = await validatorOf(dn, v.address)
    assert.equal(info.isRetired, true)
    assert.equal(await dn.read('isRetired', [v.address]), true)
    assert.equal(await dn.read('balanceOf', [v.address]), 0n)
    assert.equal(await dn.read('getRewards', [v.address]), 0n)
    assert.equal(await dn.read('getStakeBalance', [v.address]), 0n)
    assert.equal(await dn.read('isValidator', [key.publicKey]), false)
    assert.ok(
      !((await dn.read('getValidators', [Status.Any])) as { validatorAddress: Address }[]).some(
        (x) => x.validatorAddress === v.address,
      ),
    )
  })

  it('a retired address stays retired, and its BLS key stays taken', async () => {
    const v = await dn.newWhitelisted()
    const key = blsKeyFor(v.address)
    await dn.registry(v, 'stake', stakeArgs(v.address, key), STAKE)
    const before = await balanceOf(dn, v.address)
    const receipt = await dn.registry(v, 'unstake', [v.address, false]) // Staked: allowed at once
    assert.equal(await balanceOf(dn, v.address), before + STAKE - feeOf(receipt))
    assert.equal(await dn.read('isRetired', [v.address]), true)

    await expectRevert(dn.registry(dn.chain.governance, 'mint', [v.address]), 'AddressRetired', [v.address])
    await expectRevert(dn.registry(v, 'stake', stakeArgs(v.address), STAKE), 'InvalidTokenId', [tokenId(v.address)])
    await expectRevert(dn.registry(v, 'activate', []), 'InvalidTokenId', [tokenId(v.address)])
    await expectRevert(dn.registry(v, 'unstake', [v.address, false]), 'InvalidTokenId', [tokenId(v.address)])
    await expectRevert(dn.registry(v, 'claimStakeRewards', [v.address]), 'InvalidTokenId', [tokenId(v.address)])
    const next = await dn.newWhitelisted()
    await expectRevert(
      dn.registry(
        next,
        'stake',
        [key.publicKey, { signature: blsKeyFor(next.address, key.secretKey).proofOfPossession }],
        STAKE,
      ),
      'DuplicateBLSPubkey',
    )
    assert.equal(await dn.read('getBlsPubkey', [v.address]), key.publicKey)
  })

  it('views: unknown addresses, missing keys, stake versions out of range', async () => {
    const nobody = (await dn.newAccount(0n)).address
    const info = await validatorOf(dn, nobody)
    assert.equal(info.currentStatus, Status.Undefined)
    assert.equal(info.validatorAddress, '0x0000000000000000000000000000000000000000')
    assert.equal(await dn.read('isRetired', [nobody]), false)
    assert.equal(await dn.read('isDelegated', [nobody]), false)
    assert.equal(await dn.read('getRewards', [nobody]), 0n)
    assert.equal(await dn.read('isValidator', ['0x1234']), false)
    await expectRevert(dn.read('getBlsPubkey', [nobody]), 'BlsPubkeyNotFound', [nobody])
    await expectRevert(dn.read('stakeConfig', [9]), 'InvalidStakeVersion', [9])
    assert.equal(await dn.read('name'), 'ConsensusNFT')
    const epoch = await currentEpoch(dn)
    const past = await epochInfo(dn, 0)
    assert.equal(past.epochId, 0)
    assert.equal(past.blockHeight, 0n)
    assert.ok(epoch > 0)
    const current = await epochInfo(dn)
    assert.equal(current.epochId, epoch)
    assert.ok(current.committee.length > 0)
    assert.equal(current.epochIssuance, parseEther('10000'))
  })
})
