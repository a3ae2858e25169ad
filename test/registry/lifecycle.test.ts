/**
 * The validator lifecycle through the library on the REAL registry code of both generations
 * (the shipped genesis files on the rehearsal engine): whitelist → stake → activate → Active →
 * rewards → exit → PendingExit → Exited → unstake → retired, with every refusal on the way
 * (each one sends nothing), idempotent repeats, the reward shortfall (next: a choice; adiri:
 * none), the stake-version rule, the chain-id check, --unsigned without funds, and the round
 * trips of a stake and a status read. Expectations come from the fact sheets and from reading
 * the chain directly with the generation's ABI, never from tnv's own reading.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Address, decodeFunctionData, encodeFunctionData, parseEther } from 'viem'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { ISSUANCE_ADDRESS, REGISTRY_ADDRESS, SYSTEM_ADDRESS } from '../../src/lib/chain/addresses.js'
import { createChainClient } from '../../src/lib/chain/client.js'
import { WrongChainError } from '../../src/lib/chain/errors.js'
import { createRpcCounter } from '../../src/lib/chain/rpc-counter.js'
import { AbortedError, ExitCode } from '../../src/lib/errors.js'
import { activate } from '../../src/lib/registry/activate.js'
import { beginExit } from '../../src/lib/registry/begin-exit.js'
import { claimRefund } from '../../src/lib/registry/claim-refund.js'
import { claimStakeRewards } from '../../src/lib/registry/claim-stake-rewards.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { mint } from '../../src/lib/registry/mint.js'
import { readValidatorStatus } from '../../src/lib/registry/read-validator-status.js'
import { stake } from '../../src/lib/registry/stake.js'
import type { RegistryEvent } from '../../src/lib/registry/types.js'
import { unstake } from '../../src/lib/registry/unstake.js'
import {
  GENERATIONS,
  localSigner,
  newValidatorKeys,
  setBalance,
  stakeMaterial,
  startTestChain,
  type TestChain,
} from './devnet-fixture.js'
import { refused } from './refused.js'

/** A genesis validator of each shipped genesis (registry.md §1, registry-next.md §2). */
const GENESIS_VALIDATOR: Record<'adiri' | 'next', Address> = {
  adiri: '0x0033a370616805b1Fd275B7ffab83FC41D665CCb',
  next: '0x2222222222222222222222222222222222222222',
}
const STAKE = parseEther('1000000')
const UINT32_MAX = 4294967295

for (const generation of GENERATIONS) {
  describe(`registry lifecycle on the real ${generation} code (library)`, { timeout: 300_000 }, () => {
    let t: TestChain
    const abi = registryAbis[generation]
    const read = <T>(functionName: string, args: readonly unknown[] = []) =>
      t.engine.client.readContract({ address: REGISTRY_ADDRESS, abi, functionName, args } as never) as Promise<T>
    const onChain = (a: Address) =>
      read<{ currentStatus: number; activationEpoch: number; exitEpoch: number; isRetired: boolean }>('getValidator', [
        a,
      ])
    const nonceOf = (a: Address) => t.engine.client.getTransactionCount({ address: a })
    const acct = (i: number) => localSigner((t.accounts[i] as { privateKey: `0x${string}` }).privateKey)
    const keysA = newValidatorKeys()

    before(async () => {
      t = await startTestChain(generation)
    })
    after(async () => {
      await t?.stop()
    })

    it('an address that never held a ConsensusNFT: not whitelisted, Undefined, no nonce, generation detected', async () => {
      const s = await readValidatorStatus(t.ctx(), { address: acct(0).address })
      assert.equal(s.registry.generation, generation)
      assert.equal(s.registry.match, 'exact')
      assert.equal(s.whitelisted, false)
      assert.equal(s.status, 'Undefined')
      assert.equal(s.activationEpoch, null)
      assert.equal(s.exitEpoch, null)
      assert.equal(s.unstakeEpoch, null)
      assert.equal(s.canUnstake, false)
      assert.equal(s.delegationNonce, null)
      assert.equal(s.stakeAmount, STAKE.toString())
      assert.equal(s.refund, generation === 'next' ? '0' : null)
      assert.equal(s.claimableRewards, generation === 'next' ? '0' : null)
      assert.equal(s.rewardPool, '0')
      assert.equal(s.chain.chainId, 911329)
    })

    it('a genesis validator reads as the genesis says: Active since epoch 0, in the committee, nonce 0', async () => {
      const s = await readValidatorStatus(t.ctx(), { address: GENESIS_VALIDATOR[generation] })
      assert.equal(s.status, 'Active')
      assert.equal(s.whitelisted, true)
      assert.equal(s.activationEpoch, 0)
      assert.equal(s.exitEpoch, null)
      assert.equal(s.inCommittee, true)
      assert.equal(s.delegationNonce, '0')
      assert.equal(s.blsPubkey, await read('getBlsPubkey', [GENESIS_VALIDATOR[generation]]))
      assert.equal(s.epochDuration, generation === 'next' ? 86400 : 21600)
    })

    it('stake refuses an address without a ConsensusNFT and sends nothing', async () => {
      const a = acct(0)
      const before = await nonceOf(a.address)
      await refused(
        stake(t.ctx(), { signer: a, ...stakeMaterial(t, keysA, a.address) }),
        'NotWhitelisted',
        ExitCode.NotWhitelisted,
      )
      assert.equal(await nonceOf(a.address), before)
    })

    it('mint: a non-owner is refused before anything is sent; the owner’s transaction is built for it', async () => {
      const owner = await read<Address>('owner')
      assert.equal(owner, t.engine.owner)
      await refused(
        mint(t.ctx(), { signer: acct(1), validator: acct(0).address }),
        'NotRegistryOwner',
        ExitCode.BadKeys,
      )
      const r = await mint(t.ctx(), { signer: { type: 'unsigned', address: owner }, validator: acct(0).address })
      assert.equal(r.outcome, 'unsigned')
      if (r.outcome !== 'unsigned') return
      assert.deepEqual(decodeFunctionData({ abi, data: r.unsigned.data }), {
        functionName: 'mint',
        args: [acct(0).address],
      })
      // governance sends it (the owner impersonated on the rehearsal chain)
      await t.engine.asOwner({ data: r.unsigned.data })
      assert.equal(await read<bigint>('balanceOf', [acct(0).address]), 1n)
      const again = await mint(t.ctx(), { signer: { type: 'unsigned', address: owner }, validator: acct(0).address })
      assert.equal(again.outcome, 'already-done')
      for (const i of [1, 2, 3, 4]) await t.mint(acct(i).address)
    })

    it("stake refuses a signer that is not node-info's execution address, and a proof for another address", async () => {
      const a = acct(0)
      await refused(
        stake(t.ctx(), { signer: a, ...stakeMaterial(t, keysA, a.address), executionAddress: acct(1).address }),
        'SignerMismatch',
        ExitCode.BadKeys,
      )
      const err = await refused(
        stake(t.ctx(), { signer: a, blsPubkey: keysA.blsPubkey, proofOfPossession: keysA.popFor(acct(1).address) }),
        'InvalidProofOfPossession',
        ExitCode.BadKeys,
      )
      assert.match(err.render(), new RegExp(`keytool generate pop --address ${a.address}`))
    })

    it('a proof that verifies for another key is refused before anything is sent', async () => {
      const a = acct(0)
      const other = newValidatorKeys()
      const before = await nonceOf(a.address)
      if (generation === 'adiri') {
        // the BLS key opened is not the key registered: the contract would not notice (registry.md §6)
        const err = await refused(
          stake(t.ctx(), {
            signer: a,
            blsPubkey: keysA.blsPubkey,
            proofOfPossession: keysA.popFor(a.address),
            signAdiriProof: other.signAdiriProof,
          }),
          'AdiriProofMismatch',
          ExitCode.BadKeys,
        )
        assert.match(err.message, /verifies for another key/)
        // and a given adiri proof made by another key
        await refused(
          stake(t.ctx(), {
            signer: a,
            blsPubkey: keysA.blsPubkey,
            adiriSignature: other.adiriProofFor(a.address).uncompressedSignature,
          }),
          'AdiriProofMismatch',
          ExitCode.BadKeys,
        )
        // no key and no proof: what is missing, said before anything is sent
        await refused(stake(t.ctx(), { signer: a, blsPubkey: keysA.blsPubkey }), 'Usage', ExitCode.Usage)
      } else {
        await refused(
          stake(t.ctx(), { signer: a, blsPubkey: keysA.blsPubkey, proofOfPossession: other.popFor(a.address) }),
          'InvalidProofOfPossession',
          ExitCode.BadKeys,
        )
      }
      assert.equal(await nonceOf(a.address), before)
    })

    it('a declined confirmation sends nothing', async () => {
      const a = acct(0)
      const before = await nonceOf(a.address)
      await assert.rejects(
        stake(t.ctx(), { signer: a, ...stakeMaterial(t, keysA, a.address), confirm: async () => false }),
        (e: unknown) => e instanceof AbortedError,
      )
      assert.equal(await nonceOf(a.address), before)
    })

    it("stakes the current version's amount in the generation's form; the registry holds the key", async () => {
      const a = acct(0)
      const events: RegistryEvent[] = []
      let plan: [string, string][] = []
      const balanceBefore = await t.engine.client.getBalance({ address: a.address })
      const r = await stake(t.ctx(), {
        signer: a,
        ...stakeMaterial(t, keysA, a.address),
        report: (e) => events.push(e),
        confirm: async (p) => {
          plan = p.rows
          return true
        },
      })
      assert.equal(r.outcome, 'sent')
      assert.equal(r.registry.generation, generation)
      assert.equal(r.stakeAmount, STAKE.toString())
      assert.ok(plan.some(([k, v]) => k === 'stake amount' && v === '1,000,000 TEL (1000000000000000000000000 wei)'))
      assert.ok(
        plan.some(
          ([k, v]) =>
            k === 'function' &&
            v.includes(generation === 'adiri' ? 'stake(bytes,(bytes,bytes))' : 'stake(bytes,(bytes))'),
        ),
      )
      assert.ok(events.some((e) => e.type === 'sent'))
      const info = await onChain(a.address)
      assert.equal(info.currentStatus, 1) // Staked
      assert.equal(info.activationEpoch, UINT32_MAX)
      assert.equal(await read('getBlsPubkey', [a.address]), keysA.blsPubkey)
      assert.ok((await t.engine.client.getBalance({ address: a.address })) <= balanceBefore - STAKE)
      const s = await readValidatorStatus(t.ctx(), { address: a.address })
      assert.equal(s.status, 'Staked')
      assert.equal(s.activationEpoch, null, 'uint32 max is "not set"')
      assert.equal(s.unstakeEpoch, s.currentEpoch)
      assert.equal(s.canUnstake, true)
    })

    it('staking again with the same key succeeds without sending', async () => {
      const a = acct(0)
      const before = await nonceOf(a.address)
      const r = await stake(t.ctx(), { signer: a, ...stakeMaterial(t, keysA, a.address) })
      assert.equal(r.outcome, 'already-done')
      assert.equal(await nonceOf(a.address), before)
    })

    it('another validator with a registered key is refused (DuplicateBLSPubkey remedy), nothing sent', async () => {
      const b = acct(1)
      const before = await nonceOf(b.address)
      await refused(
        stake(t.ctx(), { signer: b, ...stakeMaterial(t, keysA, b.address) }),
        'BlsKeyAlreadyRegistered',
        ExitCode.BadKeys,
      )
      assert.equal(await nonceOf(b.address), before)
    })

    it('activate: refused before staking; then PendingActivation, and Active at the epoch boundary', async () => {
      await refused(activate(t.ctx(), { signer: acct(1) }), 'WrongStatus', ExitCode.WrongState)
      await refused(activate(t.ctx(), { signer: acct(5) }), 'NotWhitelisted', ExitCode.NotWhitelisted)
      const a = acct(0)
      const r = await activate(t.ctx(), { signer: a })
      assert.equal(r.outcome, 'sent')
      assert.equal(r.activeFromEpoch, 1)
      assert.equal((await onChain(a.address)).currentStatus, 2)
      assert.equal((await onChain(a.address)).activationEpoch, 1)
      assert.equal((await activate(t.ctx(), { signer: a })).outcome, 'already-done')
      await t.engine.closeEpoch()
      const s = await readValidatorStatus(t.ctx(), { address: a.address })
      assert.equal(s.status, 'Active')
      assert.equal(s.activationEpoch, 1)
      assert.equal(s.currentEpoch, 1)
    })

    it('rewards: credited at a boundary; an empty Issuance pool is explained before a claim; funded, it pays', async () => {
      const a = acct(0)
      await t.engine.closeEpoch({ headerCounts: [{ validatorAddress: a.address, consensusHeaderCount: 10n }] })
      const rewards = await read<bigint>('getRewards', [a.address])
      assert.ok(rewards >= parseEther('1000'), `rewards ${rewards}`)
      const s = await readValidatorStatus(t.ctx(), { address: a.address })
      assert.equal(s.rewards, rewards.toString())
      // next's claimableRewards(address) is reported as the registry's own view, whatever it means
      if (generation === 'next') assert.equal(s.claimableRewards, String(await read('claimableRewards', [a.address])))
      const before = await nonceOf(a.address)
      const err = await refused(claimStakeRewards(t.ctx(), { signer: a }), 'RewardPoolShort', ExitCode.Reverted)
      assert.match(err.message, /Issuance pool .* is empty/)
      assert.equal(await nonceOf(a.address), before)
      await t.fundPool(parseEther('100000'))
      const paidBefore = await t.engine.client.getBalance({ address: a.address })
      const r = await claimStakeRewards(t.ctx(), { signer: a })
      assert.equal(r.outcome, 'sent')
      assert.equal(r.rewards, rewards.toString())
      assert.ok((await t.engine.client.getBalance({ address: a.address })) > paidBefore + rewards - parseEther('1'))
      assert.equal(await read<bigint>('getRewards', [a.address]), 0n)
      assert.equal((await claimStakeRewards(t.ctx(), { signer: a })).outcome, 'nothing-to-do')
    })

    it('unstake while Active says to exit first; exit is irreversible and idempotent; PendingExit has no exit epoch yet', async () => {
      const a = acct(0)
      await refused(unstake(t.ctx(), { signer: a }), 'UnstakeNotEligible', ExitCode.WrongState)
      // rewards owed at the exit, with the pool then emptied: the shortfall case below
      await t.engine.closeEpoch({ headerCounts: [{ validatorAddress: a.address, consensusHeaderCount: 10n }] })
      let irreversible = false
      const r = await beginExit(t.ctx(), {
        signer: a,
        confirm: async (p) => {
          irreversible = p.irreversible
          return true
        },
      })
      assert.equal(r.outcome, 'sent')
      assert.equal(irreversible, true)
      assert.equal((await beginExit(t.ctx(), { signer: a })).outcome, 'already-done')
      const info = await onChain(a.address)
      assert.equal(info.currentStatus, 4)
      assert.equal(info.exitEpoch, UINT32_MAX)
      const s = await readValidatorStatus(t.ctx(), { address: a.address })
      assert.equal(s.status, 'PendingExit')
      assert.equal(s.exitEpoch, null, 'uint32 max while PendingExit is "not set", never 4294967296')
      assert.equal(s.unstakeEpoch, null)
      const err = await refused(unstake(t.ctx(), { signer: a }), 'UnstakeNotEligible', ExitCode.WrongState)
      assert.match(err.message, /not set yet/)
    })

    it('Exited once no committee is left; unstake waits for exit epoch + 1', async () => {
      const a = acct(0)
      for (let i = 0; i < 6 && (await onChain(a.address)).currentStatus !== 5; i++) await t.engine.closeEpoch()
      const s = await readValidatorStatus(t.ctx(), { address: a.address })
      assert.equal(s.status, 'Exited')
      assert.equal(s.exitEpoch, (await onChain(a.address)).exitEpoch)
      assert.equal(s.unstakeEpoch, (s.exitEpoch as number) + 1)
      assert.equal(s.canUnstake, s.currentEpoch >= (s.exitEpoch as number) + 1)
      if (!s.canUnstake) {
        const err = await refused(unstake(t.ctx(), { signer: a }), 'UnstakeNotEligible', ExitCode.WrongState)
        assert.match(err.message, new RegExp(`accepted from epoch ${(s.exitEpoch as number) + 1}`))
        await t.engine.closeEpoch()
      }
      assert.equal((await readValidatorStatus(t.ctx(), { address: a.address })).canUnstake, true)
    })

    it(
      generation === 'next'
        ? 'reward shortfall: refused without --accept-reward-shortfall; accepted, the stake is paid and the rest forfeited'
        : 'reward shortfall: adiri’s unstake(address) has no choice, so it is refused either way until the pool is funded',
      async () => {
        const a = acct(0)
        const rewards = await read<bigint>('getRewards', [a.address])
        assert.ok(rewards > 0n)
        await setBalance(t, ISSUANCE_ADDRESS, 0n) // drain the pool (rehearsal only)
        const before = await nonceOf(a.address)
        const err = await refused(unstake(t.ctx(), { signer: a }), 'RewardShortfall', ExitCode.Reverted)
        assert.match(err.message, /is empty/)
        if (generation === 'adiri') {
          await refused(
            unstake(t.ctx(), { signer: a, acceptRewardShortfall: true }),
            'RewardShortfall',
            ExitCode.Reverted,
          )
          assert.equal(await nonceOf(a.address), before)
          await t.fundPool(parseEther('100000'))
        } else assert.equal(await nonceOf(a.address), before)
        const paidBefore = await t.engine.client.getBalance({ address: a.address })
        const r = await unstake(t.ctx(), { signer: a, acceptRewardShortfall: generation === 'next' })
        assert.equal(r.outcome, 'sent')
        assert.equal(r.recipient, a.address)
        assert.equal(r.stakeAmount, STAKE.toString())
        assert.equal(r.rewardsForfeited, generation === 'next' ? rewards.toString() : '0')
        const received = (await t.engine.client.getBalance({ address: a.address })) - paidBefore
        const expected = generation === 'next' ? STAKE : STAKE + rewards
        assert.ok(received > expected - parseEther('1') && received <= expected, `received ${received}`)
      },
    )

    it('retired: status 6 with isRetired reads as Retired; unstake again sends nothing; stake is refused as retired', async () => {
      const a = acct(0)
      const info = await onChain(a.address)
      assert.equal(info.currentStatus, 6)
      assert.equal(info.isRetired, true)
      const s = await readValidatorStatus(t.ctx(), { address: a.address })
      assert.equal(s.status, 'Retired')
      assert.equal(s.retired, true)
      assert.equal(s.whitelisted, false)
      assert.equal(s.delegationNonce, null)
      assert.equal((await unstake(t.ctx(), { signer: a })).outcome, 'already-done')
      const other = newValidatorKeys()
      await refused(
        stake(t.ctx(), { signer: a, ...stakeMaterial(t, other, a.address) }),
        'AddressRetired',
        ExitCode.NotWhitelisted,
      )
      await refused(activate(t.ctx(), { signer: a }), 'AddressRetired', ExitCode.NotWhitelisted)
    })

    it('a Staked validator that never activated unstakes directly and is retired', async () => {
      const b = acct(1)
      const keysB = newValidatorKeys()
      assert.equal((await stake(t.ctx(), { signer: b, ...stakeMaterial(t, keysB, b.address) })).outcome, 'sent')
      const r = await unstake(t.ctx(), { signer: b, confirm: async (p) => p.irreversible })
      assert.equal(r.outcome, 'sent')
      assert.equal(r.status, 'Staked')
      assert.equal((await onChain(b.address)).isRetired, true)
      if (generation === 'next') assert.equal((await claimRefund(t.ctx(), { signer: b })).outcome, 'nothing-to-do')
      else {
        const c = await claimRefund(t.ctx(), { signer: b })
        assert.equal(c.outcome, 'nothing-to-do')
        assert.equal(c.amount, null)
        if (c.outcome === 'nothing-to-do') assert.match(c.message, /keeps no refunds/)
      }
    })

    it('--unsigned: a sender without funds gets the transaction and a warning, not an error', async () => {
      const c = acct(2)
      const keysC = newValidatorKeys()
      await setBalance(t, c.address, 0n)
      const warnings: string[] = []
      const r = await stake(t.ctx(), {
        signer: { type: 'unsigned', address: c.address },
        ...stakeMaterial(t, keysC, c.address),
        report: (e) => {
          if (e.type === 'warning') warnings.push(e.message)
        },
      })
      assert.equal(r.outcome, 'unsigned')
      if (r.outcome !== 'unsigned') return
      assert.equal(r.unsigned.value, STAKE.toString())
      assert.equal(r.unsigned.data.slice(0, 10), generation === 'adiri' ? '0xb5184324' : '0x2fb0d025')
      assert.ok(
        warnings.some((w) => /holds 0 TEL/.test(w)),
        warnings.join('|'),
      )
      // funded and sent by another wallet, exactly as printed, it stakes
      await setBalance(t, c.address, parseEther('2000000'))
      const { privateKeyToAccount } = await import('viem/accounts')
      const { createWalletClient, http } = await import('viem')
      const wallet = createWalletClient({
        account: privateKeyToAccount((t.accounts[2] as { privateKey: `0x${string}` }).privateKey),
        transport: http(t.url),
      })
      const hash = await wallet.sendTransaction({
        chain: null,
        to: r.unsigned.to,
        data: r.unsigned.data,
        value: BigInt(r.unsigned.value),
        gas: BigInt(r.unsigned.gas),
      })
      assert.equal((await engineReceipt(t.engine.client, hash)).status, 'success')
      assert.equal((await onChain(c.address)).currentStatus, 1)
    })

    it('checks the chain id before anything else', async () => {
      const ctx = { ...t.ctx(), target: { ...t.target, expectedChainId: 2017 } }
      await assert.rejects(
        readValidatorStatus(ctx, { address: acct(3).address }),
        (e: unknown) => e instanceof WrongChainError && e.exitCode === ExitCode.WrongChain,
      )
      await assert.rejects(
        stake(ctx, { signer: acct(3), ...stakeMaterial(t, newValidatorKeys(), acct(3).address) }),
        (e: unknown) => e instanceof WrongChainError,
      )
    })

    it('round trips: status = 2 batches; stake = first batch, stake config with the simulation, send, receipt', async () => {
      const counter = createRpcCounter()
      const ctx = {
        ...t.ctx(),
        client: createChainClient({ rpcUrl: t.url, fetchFn: counter.fetch, retryCount: 0 }),
      }
      await readValidatorStatus(ctx, { address: acct(3).address })
      assert.equal(counter.roundTrips, 2, JSON.stringify(counter.trips))
      assert.ok(counter.trips[0]?.includes('eth_getCode') && counter.trips[0]?.includes('eth_chainId'))
      counter.reset()
      const d = acct(3)
      const r = await stake(ctx, { signer: d, ...stakeMaterial(t, newValidatorKeys(), d.address) })
      assert.equal(r.outcome, 'sent')
      const trips = counter.trips.map((m) => m.join('+'))
      // the code is read once per command: the context already holds it
      assert.ok(!trips[0]?.includes('eth_getCode'), trips[0] ?? '')
      assert.deepEqual(
        trips.slice(1, 3).map((t) => t.split('+').sort().join('+')),
        ['eth_call+eth_estimateGas', 'eth_sendRawTransaction'],
        JSON.stringify(trips),
      )
      assert.ok(
        trips.slice(3).every((m) => m === 'eth_getTransactionReceipt'),
        JSON.stringify(trips),
      )
    })

    it("rule 1: a new stake config applies from the next epoch; until then a stake pays the current version's amount", async () => {
      const upgrade = encodeFunctionData({
        abi,
        functionName: 'upgradeStakeVersion',
        args: [
          {
            stakeAmount: parseEther('2000000'),
            minWithdrawAmount: parseEther('1000'),
            epochIssuance: parseEther('25806'),
            epochDuration: generation === 'next' ? 86400 : 21600,
          },
        ],
      } as never)
      await t.engine.asOwner({ data: upgrade })
      const e = acct(4)
      const r = await stake(t.ctx(), { signer: e, ...stakeMaterial(t, newValidatorKeys(), e.address) })
      assert.equal(r.outcome, 'sent')
      assert.equal(r.stakeAmount, STAKE.toString())
      await t.engine.closeEpoch()
      const f = acct(5)
      await t.mint(f.address)
      const r2 = await stake(t.ctx(), { signer: f, ...stakeMaterial(t, newValidatorKeys(), f.address) })
      assert.equal(r2.stakeVersion, 1)
      assert.equal(r2.stakeAmount, parseEther('2000000').toString())
      assert.equal(SYSTEM_ADDRESS.length, 42)
    })
  })
}
