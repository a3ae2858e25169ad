/**
 * Money paths of the registry: epoch rewards from the Issuance pool, claimStakeRewards, the
 * refund path for recipients that reject TEL, the reward shortfall both ways, stake versions,
 * and the protocol/governance guards.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import {
  type Address,
  createWalletClient,
  decodeErrorResult,
  decodeEventLog,
  http,
  parseEther,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { consensusRegistryAbi, issuanceAbi } from '../../src/devnet/chain/abi.js'
import { anvilSetBalance, anvilSetCode } from '../../src/devnet/chain/anvil-rpc.js'
import { ISSUANCE_ADDRESS } from '../../src/devnet/chain/types.js'
import {
  balanceOf,
  currentEpoch,
  epochInfo,
  expectRevert,
  feeOf,
  revertData,
  rewardsOf,
  STAKE,
  Status,
  stakeArgs,
  startTestDevnet,
  type TestDevnet,
  validatorOf,
} from './helpers.js'

let dn: TestDevnet
/** Runtime code that reverts on every call, so the account rejects TEL. */
const REJECTING_CODE = '0x5f5ffd'
const ISSUANCE_PER_EPOCH = parseEther('10000')
const MIN_WITHDRAW = parseEther('1000')

type StakeConfig = { stakeAmount: bigint; minWithdrawAmount: bigint; epochIssuance: bigint; epochDuration: number }

function events(receipt: TransactionReceipt) {
  return receipt.logs.flatMap((log) => {
    try {
      return [decodeEventLog({ abi: consensusRegistryAbi, data: log.data, topics: log.topics })]
    } catch {
      return []
    }
  })
}

/** A whitelisted, staked, Active validator that has served `epochs` epochs in committees. */
async function servingValidator(epochs: number) {
  const v = await dn.newWhitelisted()
  await dn.registry(v, 'stake', stakeArgs(v.address), STAKE)
  await dn.registry(v, 'activate', [])
  await dn.chain.advanceEpoch() // Active; committee seat two epochs later
  for (let i = 0; i < 2 + epochs; i++) await dn.chain.advanceEpoch()
  return v
}

/** Exits `v` and moves to the first epoch it may unstake in. */
async function exitFully(address: Address, account: Parameters<TestDevnet['registry']>[0]) {
  await dn.registry(account, 'beginExit', [])
  while ((await validatorOf(dn, address)).currentStatus !== Status.Exited) await dn.chain.advanceEpoch()
  await dn.chain.advanceEpoch()
}

describe('registry rewards, refunds, shortfall and stake versions', () => {
  before(async () => {
    dn = await startTestDevnet({ protocolLoop: false })
  })
  after(async () => {
    await dn?.close()
  })

  it('each epoch splits its issuance equally among its committee', async () => {
    const epoch = await currentEpoch(dn)
    const committee = (await epochInfo(dn)).committee
    const before = await Promise.all(committee.map((a) => rewardsOf(dn, a)))
    const dustBefore = (await dn.read('undistributedIssuance')) as bigint
    const poolBefore = await balanceOf(dn, ISSUANCE_ADDRESS)
    await dn.chain.advanceEpoch()
    const after = await Promise.all(committee.map((a) => rewardsOf(dn, a)))
    const share = (ISSUANCE_PER_EPOCH + dustBefore) / BigInt(committee.length)
    after.forEach((r, i) => {
      assert.equal(r - (before[i] ?? 0n), share, `${committee[i]} in epoch ${epoch}`)
    })
    assert.equal(
      await dn.read('undistributedIssuance'),
      ISSUANCE_PER_EPOCH + dustBefore - share * BigInt(committee.length),
    )
    assert.equal(await balanceOf(dn, ISSUANCE_ADDRESS), poolBefore, 'rewards are paid from the pool only when claimed')
  })

  it('claimStakeRewards pays at least minWithdrawAmount, from the pool, to the validator', async () => {
    const fresh = await dn.newWhitelisted()
    await dn.registry(fresh, 'stake', stakeArgs(fresh.address), STAKE)
    await expectRevert(dn.registry(fresh, 'claimStakeRewards', [fresh.address]), 'RewardsBelowMinimum', [
      0n,
      MIN_WITHDRAW,
    ])
    const v = await servingValidator(1)
    const rewards = await rewardsOf(dn, v.address)
    assert.ok(rewards >= MIN_WITHDRAW)
    const poolBefore = await balanceOf(dn, ISSUANCE_ADDRESS)
    const before = await balanceOf(dn, v.address)
    const receipt = await dn.registry(v, 'claimStakeRewards', [v.address])
    assert.equal(await balanceOf(dn, v.address), before + rewards - feeOf(receipt))
    assert.equal(await balanceOf(dn, ISSUANCE_ADDRESS), poolBefore - rewards)
    assert.equal(await rewardsOf(dn, v.address), 0n)
    const claimed = events(receipt).find((e) => e.eventName === 'RewardsClaimed')
    assert.deepEqual(claimed?.args, { claimant: v.address, rewards })
    await expectRevert(dn.registry(v, 'claimStakeRewards', [v.address]), 'RewardsBelowMinimum', [0n, MIN_WITHDRAW])
  })

  it('a recipient that rejects TEL is credited a refund and withdraws it with claimRefund', async () => {
    const v = await servingValidator(1)
    await exitFully(v.address, v)
    const owed = await rewardsOf(dn, v.address)
    // from now on the validator address rejects every transfer (anvil still lets it send, impersonated)
    await anvilSetCode(dn.client, v.address, REJECTING_CODE)
    const before = await balanceOf(dn, v.address)
    const receipt = await dn.registryAs(v.address, 'unstake', [v.address, false])
    const credited = events(receipt).find((e) => e.eventName === 'RefundCredited')
    assert.deepEqual(credited?.args, { recipient: v.address, amount: STAKE + owed })
    assert.equal(await dn.read('refunds', [v.address]), STAKE + owed)
    assert.equal(await balanceOf(dn, v.address), before - feeOf(receipt), 'nothing arrived')
    assert.equal(await dn.read('isRetired', [v.address]), true, 'retired even though the payment waits')

    await expectRevert(dn.registryAs(v.address, 'claimRefund', []), 'TransferFailed', [v.address, STAKE + owed])
    await anvilSetCode(dn.client, v.address, '0x') // accepts TEL again
    const mid = await balanceOf(dn, v.address)
    const claim = await dn.registry(v, 'claimRefund', [])
    assert.equal(await balanceOf(dn, v.address), mid + STAKE + owed - feeOf(claim))
    assert.equal(await dn.read('refunds', [v.address]), 0n)
    await expectRevert(dn.registry(v, 'claimRefund', []), 'NoRefund', [v.address])
  })

  it('unstake with an underfunded pool: false reverts with InsufficientRewards, true pays what the pool holds and never touches the stake', async () => {
    const v = await servingValidator(2)
    await exitFully(v.address, v)
    const owed = await rewardsOf(dn, v.address)
    assert.ok(owed > 0n)
    const poolBalance = await balanceOf(dn, ISSUANCE_ADDRESS)
    const short = owed / 3n
    await anvilSetBalance(dn.client, ISSUANCE_ADDRESS, short)

    await expectRevert(dn.registry(v, 'claimStakeRewards', [v.address]), 'InsufficientRewards', [owed])
    await expectRevert(dn.registry(v, 'unstake', [v.address, false]), 'InsufficientRewards', [owed])
    assert.equal((await validatorOf(dn, v.address)).isRetired, false, 'the refused unstake changed nothing')

    const before = await balanceOf(dn, v.address)
    const receipt = await dn.registry(v, 'unstake', [v.address, true])
    assert.equal(
      await balanceOf(dn, v.address),
      before + STAKE + short - feeOf(receipt),
      'full stake plus what the pool had',
    )
    assert.equal(await balanceOf(dn, ISSUANCE_ADDRESS), 0n)
    const forfeited = events(receipt).find((e) => e.eventName === 'RewardsForfeited')
    assert.deepEqual(forfeited?.args, { validatorAddress: v.address, shortfall: owed - short })
    assert.equal(await rewardsOf(dn, v.address), 0n)
    await anvilSetBalance(dn.client, ISSUANCE_ADDRESS, poolBalance)
  })

  it('unstake with an empty pool and acceptRewardShortfall pays the stake alone', async () => {
    const v = await servingValidator(1)
    await exitFully(v.address, v)
    const poolBalance = await balanceOf(dn, ISSUANCE_ADDRESS)
    await anvilSetBalance(dn.client, ISSUANCE_ADDRESS, 0n)
    const before = await balanceOf(dn, v.address)
    const receipt = await dn.registry(v, 'unstake', [v.address, true])
    assert.equal(await balanceOf(dn, v.address), before + STAKE - feeOf(receipt))
    await anvilSetBalance(dn.client, ISSUANCE_ADDRESS, poolBalance)
  })

  it('stake versions: a new config applies from the next epoch; stake checks the current one', async () => {
    const v1 = await dn.newWhitelisted(30_000_000n)
    const v2 = await dn.newWhitelisted(30_000_000n)
    const stranger = await dn.newAccount()
    const current = (await dn.read('getCurrentStakeConfig')) as StakeConfig
    const version = (await dn.read('getCurrentStakeVersion')) as number
    const doubled = { ...current, stakeAmount: current.stakeAmount * 2n, epochDuration: current.epochDuration + 2 }
    await expectRevert(dn.registry(stranger, 'setStakeConfig', [doubled]), 'OnlyOwner', [stranger.address])
    await expectRevert(
      dn.registry(dn.chain.governance, 'setStakeConfig', [{ ...doubled, stakeAmount: 0n }]),
      'InvalidStakeConfig',
    )
    await expectRevert(
      dn.registry(dn.chain.governance, 'setStakeConfig', [{ ...doubled, epochDuration: 1 }]),
      'InvalidStakeConfig',
    )
    await dn.registry(dn.chain.governance, 'setStakeConfig', [doubled])

    assert.deepEqual(
      await dn.read('getCurrentStakeConfig'),
      doubled,
      'getCurrentStakeConfig shows the newest config at once',
    )
    assert.equal(await dn.read('getCurrentStakeVersion'), version, 'the version in force is unchanged')
    assert.deepEqual(await dn.read('stakeConfig', [version + 1]), doubled)
    await expectRevert(dn.registry(v1, 'stake', stakeArgs(v1.address), doubled.stakeAmount), 'InvalidStakeAmount', [
      doubled.stakeAmount,
    ])
    await dn.registry(v1, 'stake', stakeArgs(v1.address), current.stakeAmount)
    assert.equal((await validatorOf(dn, v1.address)).stakeVersion, version)

    const epoch = await dn.chain.advanceEpoch()
    assert.equal(await dn.read('getCurrentStakeVersion'), version + 1)
    const info = await epochInfo(dn)
    assert.equal(info.stakeVersion, version + 1)
    assert.equal(info.epochDuration, doubled.epochDuration)
    assert.equal(info.epochId, epoch)
    await expectRevert(dn.registry(v2, 'stake', stakeArgs(v2.address), current.stakeAmount), 'InvalidStakeAmount', [
      current.stakeAmount,
    ])
    await dn.registry(v2, 'stake', stakeArgs(v2.address), doubled.stakeAmount)
    assert.equal((await validatorOf(dn, v2.address)).stakeVersion, version + 1)
    // each gets back what it staked
    const before = await balanceOf(dn, v1.address)
    const receipt = await dn.registry(v1, 'unstake', [v1.address, false])
    assert.equal(await balanceOf(dn, v1.address), before + current.stakeAmount - feeOf(receipt))
    // the epoch lasts the new number of blocks under the protocol loop
    const start = (await epochInfo(dn)).blockHeight
    const next = await dn.chain.advanceEpoch()
    assert.equal((await epochInfo(dn, next)).blockHeight, start + BigInt(doubled.epochDuration))
    await dn.registry(dn.chain.governance, 'setStakeConfig', [current])
    await dn.chain.advanceEpoch()
  })

  it('only the system address concludes, and only the current epoch', async () => {
    const stranger = await dn.newAccount()
    const epoch = await currentEpoch(dn)
    await expectRevert(dn.registry(stranger, 'concludeEpoch', [epoch]), 'OnlySystemCall', [stranger.address])
    await expectRevert(dn.registry(dn.chain.governance, 'concludeEpoch', [epoch]), 'OnlySystemCall', [
      dn.chain.governance.address,
    ])
    await expectRevert(dn.registry(dn.chain.system, 'concludeEpoch', [epoch + 1]), 'InvalidEpoch', [epoch + 1])
    await expectRevert(dn.registry(dn.chain.system, 'concludeEpoch', [epoch - 1]), 'InvalidEpoch', [epoch - 1])
    await dn.registry(dn.chain.system, 'concludeEpoch', [epoch])
    assert.equal(await currentEpoch(dn), epoch + 1)
  })

  it('initialize runs once; the registry accepts TEL only from the pool, the pool pays only the registry', async () => {
    const stranger = await dn.newAccount()
    const config = (await dn.read('getCurrentStakeConfig')) as StakeConfig
    await expectRevert(dn.registry(stranger, 'initialize', [config, stranger.address, []]), 'OnlyOwner', [
      stranger.address,
    ])
    await expectRevert(
      dn.registry(dn.chain.governance, 'initialize', [config, stranger.address, []]),
      'AlreadyInitialized',
    )
    // a plain transfer carries no function, so decode the revert data against the registry's errors
    const revert = decodeErrorResult({
      abi: consensusRegistryAbi,
      data: await revertData(dn.client.call({ account: stranger.address, to: dn.chain.registry, value: 1n })),
    })
    assert.equal(revert.errorName, 'UnexpectedTransfer')
    assert.deepEqual(revert.args, [stranger.address])
    await expectRevert(
      dn.client.simulateContract({
        account: stranger.address,
        address: ISSUANCE_ADDRESS,
        abi: issuanceAbi,
        functionName: 'distributeStakeReward',
        args: [1n],
      }),
      'OnlyRegistry',
      [stranger.address],
    )
    // anyone may fund the pool
    const pool = await balanceOf(dn, ISSUANCE_ADDRESS)
    const wallet = createWalletClient({
      account: privateKeyToAccount(stranger.privateKey),
      transport: http(dn.chain.engineHttpUrl),
    })
    const hash = await wallet.sendTransaction({ chain: null, to: ISSUANCE_ADDRESS, value: parseEther('5') })
    await dn.client.waitForTransactionReceipt({ hash })
    assert.equal(await balanceOf(dn, ISSUANCE_ADDRESS), pool + parseEther('5'))
  })
})
