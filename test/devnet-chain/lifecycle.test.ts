/**
 * The whole validator lifecycle on BOTH shipped genesis files, judged by chain state: whitelist
 * (rehearsal governance: owner impersonated), stake, activate, epoch boundary (by time, the
 * node's system calls), Active, rewards credited by applyIncentives, claims (reverting with the
 * Issuance pool's InsufficientBalance until governance funds it), exit, PendingExit → Exited
 * over the node's rule, unstake (stake paid back, address retired), and delegated stake (owner
 * delegation, and validator-signed: the contract's delegationDigest signed as a raw hash).
 *
 * Calls are built from the fact sheets (registry.md, registry-next.md) with the generation's
 * ABI, not through tnv's registry client; expectations come from the genesis files and the
 * fact sheets (owners, stake amount, epoch durations, the reward rule).
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Abi, type Address, encodeFunctionData, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { AdvanceEpochResult } from '../../src/devnet/chain/epoch-clock.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import {
  INSUFFICIENT_BALANCE_SELECTOR,
  newValidatorKeys,
  proofFor,
  revertDataOf,
  STAKE,
  STATUS,
  stakeCalldata,
  startTestDevnet,
  type TestDevnet,
  UNSET_EPOCH,
  unstakeCalldata,
  type ValidatorInfo,
} from './helpers.js'

/** From the fact sheets: registry.md §1, registry-next.md §2. */
const FACTS = {
  adiri: { owner: '0x00000000000000000000000000000000000007a0', epochDuration: 21600, committee: 5 },
  next: { owner: '0x3DCc9a6f3A71F0A6C8C659c65558321c374E917a', epochDuration: 86400, committee: 4 },
} as const
const EPOCH_ISSUANCE = 25_806n * 10n ** 18n
const MIN_WITHDRAW = 1_000n * 10n ** 18n

for (const generation of ['next', 'adiri'] as const) {
  describe(`the validator lifecycle on the ${generation} genesis (chain state)`, { timeout: 240_000 }, () => {
    let t: TestDevnet
    const abi = registryAbis[generation] as Abi
    const call = (functionName: string, args: readonly unknown[] = []) =>
      encodeFunctionData({ abi, functionName, args })
    const info = (a: Address) => t.read<ValidatorInfo>('getValidator', [a])
    const epoch = () => t.read<number>('getCurrentEpoch')
    const committee = async () => (await t.read<{ committee: Address[] }>('getCurrentEpochInfo')).committee

    /** One epoch boundary after every committee member led a block (so all are credited). */
    async function epochWithEveryLeader(): Promise<AdvanceEpochResult> {
      await t.chain.mine((await committee()).length)
      return t.chain.advanceEpoch()
    }

    before(async () => {
      t = await startTestDevnet({ source: { kind: 'genesis', genesis: generation } })
    })
    after(async () => {
      await t?.close()
    })

    it('runs the genesis code under the rehearsal chain id, with its owner, committee and epoch length', async () => {
      assert.equal(await t.client.getChainId(), 911329)
      assert.equal(t.generation, generation)
      assert.equal((await t.chain.owner()).toLowerCase(), FACTS[generation].owner.toLowerCase())
      assert.equal((await committee()).length, FACTS[generation].committee)
      const config = await t.read<{ stakeAmount: bigint; epochDuration: number }>('stakeConfig', [0])
      assert.equal(config.stakeAmount, STAKE)
      assert.equal(config.epochDuration, FACTS[generation].epochDuration)
      const p = await t.chain.position()
      assert.equal(p.duration, FACTS[generation].epochDuration)
      assert.equal(p.durationSource, 'registry')
    })

    const keys = newValidatorKeys()
    let validator: Awaited<ReturnType<TestDevnet['newAccount']>>

    it('whitelist by impersonated governance, stake, activate; Active at the boundary, which comes by time', async () => {
      validator = await t.newAccount(3_000_000n)
      const minted = await t.chain.governance({ action: 'mint', validator: validator.address })
      assert.equal(minted.outcome, 'sent')
      assert.equal(minted.rehearsalOnly, true)
      assert.equal(await t.read<bigint>('balanceOf', [validator.address]), 1n)
      assert.equal((await t.chain.governance({ action: 'mint', validator: validator.address })).outcome, 'already-done')

      const registryBefore = await t.client.getBalance({ address: t.chain.registry })
      await t.send(validator, stakeCalldata(generation, keys, validator.address), STAKE)
      let v = await info(validator.address)
      assert.equal(v.currentStatus, STATUS.Staked)
      assert.equal(v.activationEpoch, UNSET_EPOCH)
      assert.equal(await t.read<Hex>('getBlsPubkey', [validator.address]), keys.blsPubkey)
      assert.equal(await t.client.getBalance({ address: t.chain.registry }), registryBefore + STAKE)

      const e0 = await epoch()
      await t.send(validator, call('activate'))
      v = await info(validator.address)
      assert.equal(v.currentStatus, STATUS.PendingActivation)
      assert.equal(v.activationEpoch, e0 + 1)

      const before = await t.chain.position()
      const r = await t.chain.advanceEpoch()
      assert.equal(r.concluded, e0)
      assert.equal(await epoch(), e0 + 1)
      // the node's rule: the closing block is at or after epoch start + stakeConfig.epochDuration
      assert.ok(r.timestamp >= before.startTimestamp + BigInt(FACTS[generation].epochDuration))
      assert.equal((await info(validator.address)).currentStatus, STATUS.Active)
      // the next committee: the registry's size, sorted ascending (concludeEpoch requires it)
      assert.equal(r.newCommittee.length, await t.read<number>('getNextCommitteeSize'))
      assert.deepEqual(
        r.newCommittee,
        [...r.newCommittee].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
      )
    })

    it('applyIncentives credits the epoch issuance pro rata to stake × headers led', async () => {
      const members = await committee()
      const before = await Promise.all(members.map((a) => t.read<bigint>('getRewards', [a])))
      const undistributed = await t.read<bigint>('undistributedIssuance')
      const r = await epochWithEveryLeader()
      const counts = new Map(r.incentives.map((i) => [i.validatorAddress.toLowerCase(), i.consensusHeaderCount]))
      // registry.md §3: weight = stakeAmount × headerCount; (epochIssuance + undistributed) shared by weight
      const total = members.reduce((s, a) => s + STAKE * (counts.get(a.toLowerCase()) ?? 0n), 0n)
      assert.ok(total > 0n)
      const pool = EPOCH_ISSUANCE + undistributed
      let credited = 0n
      for (const [i, a] of members.entries()) {
        const gained = (await t.read<bigint>('getRewards', [a])) - (before[i] as bigint)
        const expected = (pool * STAKE * (counts.get(a.toLowerCase()) ?? 0n)) / total
        assert.ok(gained >= expected - 1n && gained <= expected + 1n, `${a}: credited ${gained}, expected ${expected}`)
        credited += gained
      }
      assert.equal(credited + (await t.read<bigint>('undistributedIssuance')), pool)
    })

    it('the new validator joins a committee and is credited; claims revert until governance funds the pool', async () => {
      for (let i = 0; i < 25 && !(await committee()).includes(validator.address); i++) await epochWithEveryLeader()
      assert.ok((await committee()).includes(validator.address), 'never chosen for a committee in 25 epochs')
      await epochWithEveryLeader()
      const rewards = await t.read<bigint>('getRewards', [validator.address])
      assert.ok(rewards >= MIN_WITHDRAW, `rewards ${rewards}`)

      const issuance = await t.read<Address>('issuance')
      assert.equal(await t.client.getBalance({ address: issuance }), 0n, 'the genesis pool is empty')
      const claim = call('claimStakeRewards', [validator.address])
      const err = await t.send(validator, claim).catch((e: unknown) => e)
      assert.equal(revertDataOf(err)?.slice(0, 10), INSUFFICIENT_BALANCE_SELECTOR)

      const funded = await t.chain.governance({ action: 'fund', amountWei: 200_000n * 10n ** 18n })
      assert.equal(funded.issuancePoolWei, (200_000n * 10n ** 18n).toString())
      const balance = await t.client.getBalance({ address: validator.address })
      const receipt = await t.send(validator, claim)
      const gas = receipt.gasUsed * receipt.effectiveGasPrice
      assert.equal(await t.client.getBalance({ address: validator.address }), balance - gas + rewards)
      assert.equal(await t.read<bigint>('getRewards', [validator.address]), 0n)
    })

    it('exit: PendingExit, then Exited by the node rule; unstake pays the stake back and retires the address', async () => {
      await t.send(validator, call('beginExit'))
      let v = await info(validator.address)
      assert.equal(v.currentStatus, STATUS.PendingExit)
      assert.equal(v.exitEpoch, UNSET_EPOCH)
      // Exited at the first boundary where it holds no seat in the current and the next two committees
      for (let i = 0; i < 6 && v.currentStatus === STATUS.PendingExit; i++) {
        await epochWithEveryLeader()
        v = await info(validator.address)
      }
      assert.equal(v.currentStatus, STATUS.Exited)
      const exitEpoch = await epoch()
      assert.equal(v.exitEpoch, exitEpoch)
      for (const e of [exitEpoch, exitEpoch + 1, exitEpoch + 2]) {
        const seats = await t.read<{ committee: Address[] }>('getEpochInfo', [e])
        assert.ok(!seats.committee.includes(validator.address), `still in the committee of epoch ${e}`)
      }

      // unstake becomes possible from exitEpoch + 1
      const unstake = unstakeCalldata(generation, validator.address)
      await assert.rejects(t.send(validator, unstake))
      await t.chain.advanceEpoch()
      const rewards = await t.read<bigint>('getRewards', [validator.address])
      const balance = await t.client.getBalance({ address: validator.address })
      const receipt = await t.send(validator, unstake)
      const gas = receipt.gasUsed * receipt.effectiveGasPrice
      assert.equal(await t.client.getBalance({ address: validator.address }), balance - gas + STAKE + rewards)
      v = await info(validator.address)
      assert.equal(v.currentStatus, STATUS.Any, 'retired = status 6')
      assert.equal(v.isRetired, true)
      assert.equal(await t.read<boolean>('isRetired', [validator.address]), true)
      // a retired address can never be whitelisted again: the simulation refuses, nothing is sent
      const blockBefore = await t.client.getBlockNumber()
      await assert.rejects(
        t.chain.governance({ action: 'mint', validator: validator.address }),
        /would revert with AlreadyDefined/,
      )
      assert.equal(await t.client.getBlockNumber(), blockBefore)
    })

    it('delegated stake: by the owner without a signature, and signed by the validator (raw digest)', async () => {
      // owner delegation (registry.md §3: delegateStake sent by owner() needs no validator signature)
      const owned = await t.newAccount(10n)
      const ownedKeys = newValidatorKeys()
      await t.chain.governance({ action: 'mint', validator: owned.address })
      const r = await t.chain.governance({
        action: 'delegate',
        validator: owned.address,
        blsPubkey: ownedKeys.blsPubkey,
        proofOfPossession: proofFor(generation, ownedKeys, owned.address),
      })
      assert.equal(r.outcome, 'sent')
      assert.equal(r.valueWei, STAKE.toString())
      assert.equal((await info(owned.address)).currentStatus, STATUS.Staked)
      assert.equal(await t.read<boolean>('isDelegated', [owned.address]), true)

      // validator-signed: the validator signs the contract's delegationDigest as a raw hash
      // (registry.md §7, registry-next.md §4: a textbook EIP-712 signature does not verify)
      const v = await t.newAccount(10n)
      const delegator = await t.newAccount(2_000_000n)
      const vKeys = newValidatorKeys()
      await t.chain.governance({ action: 'mint', validator: v.address })
      const deadline = (await t.client.getBlock()).timestamp + 3600n
      const digestArgs =
        generation === 'next'
          ? [vKeys.blsPubkey, v.address, delegator.address, deadline]
          : [vKeys.blsPubkey, v.address, delegator.address]
      const digest = await t.read<Hex>('delegationDigest', digestArgs)
      const signature = await privateKeyToAccount(v.privateKey).sign({ hash: digest })
      const pop = proofFor(generation, vKeys, v.address)
      const args =
        generation === 'next'
          ? [vKeys.blsPubkey, pop, v.address, signature, deadline]
          : [vKeys.blsPubkey, pop, v.address, signature]
      await t.send(delegator, call('delegateStake', args), STAKE)
      assert.equal((await info(v.address)).currentStatus, STATUS.Staked)
      assert.equal(await t.read<boolean>('isDelegated', [v.address]), true)
      assert.notEqual(await t.read<Hex>('delegationDigest', digestArgs), digest, 'the nonce moved on')
    })
  })
}
