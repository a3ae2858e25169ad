// @ts-nocheck -- written for the retired devnet registry contract (its governance key and ABI are gone); issue 12 rewrites it for the real registries. Left compiling only by issue 11.
/**
 * The validator lifecycle through the library against the devnet chain: mint → stake →
 * activate → Active → exit → Exited → unstake, with every refusal on the way (each one sends
 * nothing), idempotent repeats, the reward shortfall both ways, rewards, stake versions
 * (rule 1), the chain-id check, and the round trips a stake and a status read make.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Address, createWalletClient, encodeFunctionData, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { consensusRegistryAbi } from '../../src/devnet/chain/abi.js'
import { createChainClient } from '../../src/lib/chain/client.js'
import { WrongChainError } from '../../src/lib/chain/errors.js'
import { readAccountState } from '../../src/lib/chain/read-account-state.js'
import { createRpcCounter } from '../../src/lib/chain/rpc-counter.js'
import { AbortedError, ExitCode, type TnvError } from '../../src/lib/errors.js'
import { registryAbi } from '../../src/lib/registry/abi.js'
import { activate } from '../../src/lib/registry/activate.js'
import { beginExit } from '../../src/lib/registry/begin-exit.js'
import { claimStakeRewards } from '../../src/lib/registry/claim-stake-rewards.js'
import { isBlsKeyRegistered } from '../../src/lib/registry/is-bls-key-registered.js'
import { mint } from '../../src/lib/registry/mint.js'
import { readValidatorStatus } from '../../src/lib/registry/read-validator-status.js'
import { stake } from '../../src/lib/registry/stake.js'
import { submit } from '../../src/lib/registry/submit.js'
import type { RegistryEvent, TransactionPlan } from '../../src/lib/registry/types.js'
import { unstake } from '../../src/lib/registry/unstake.js'
import { anvil, localSigner, newValidatorKeys, startTestChain, type TestChain } from './devnet-fixture.js'

/** Asserts the promise fails with a TnvError of this code and exit code, and returns it. */
async function refused(p: Promise<unknown>, code: string, exitCode: number): Promise<TnvError> {
  let caught: unknown
  await p.then(
    (v) => assert.fail(`expected ${code}, got ${JSON.stringify(v)}`),
    (e: unknown) => {
      caught = e
    },
  )
  const err = caught as TnvError
  assert.equal(err.code, code, err.message)
  assert.equal(err.exitCode, exitCode)
  return err
}

describe('registry lifecycle (library, devnet chain)', () => {
  let t: TestChain
  let nonceOf: (a: Address) => Promise<number>
  before(async () => {
    t = await startTestChain({ epochBlocks: 100 })
    nonceOf = (address) => t.ctx.client.getTransactionCount({ address })
  })
  after(async () => {
    await t?.stop()
  })
  const gov = () => localSigner(t.chain.governance.privateKey)
  const acct = (i: number) => localSigner((t.chain.accounts[i] as { privateKey: `0x${string}` }).privateKey)
  const keysA = newValidatorKeys()

  it('reads an unknown address: not whitelisted, Undefined, nothing to unstake', async () => {
    const s = await readValidatorStatus(t.ctx, { address: acct(0).address })
    assert.equal(s.whitelisted, false)
    assert.equal(s.status, 'Undefined')
    assert.equal(s.unstakeEpoch, null)
    assert.equal(s.canUnstake, false)
    assert.equal(s.stakeAmount, parseEther('1000000').toString())
    assert.equal(s.chain.chainId, 911329)
  })

  it('stake refuses an address without a ConsensusNFT and sends nothing', async () => {
    const a = acct(0)
    const before = await nonceOf(a.address)
    await refused(
      stake(t.ctx, { signer: a, blsPubkey: keysA.blsPubkey, proofOfPossession: keysA.popFor(a.address) }),
      'NotWhitelisted',
      ExitCode.NotWhitelisted,
    )
    assert.equal(await nonceOf(a.address), before)
  })

  it('mint: only the owner; repeating it is reported and sends nothing', async () => {
    await refused(mint(t.ctx, { signer: acct(1), validator: acct(0).address }), 'NotRegistryOwner', ExitCode.BadKeys)
    const first = await mint(t.ctx, { signer: gov(), validator: acct(0).address })
    assert.equal(first.outcome, 'sent')
    const again = await mint(t.ctx, { signer: gov(), validator: acct(0).address })
    assert.equal(again.outcome, 'already-done')
    for (const i of [2, 3, 4]) await mint(t.ctx, { signer: gov(), validator: acct(i).address })
  })

  it("stake refuses a signer that is not node-info's execution address, and a PoP for another address", async () => {
    const a = acct(0)
    await refused(
      stake(t.ctx, {
        signer: a,
        blsPubkey: keysA.blsPubkey,
        proofOfPossession: keysA.popFor(a.address),
        executionAddress: acct(1).address,
      }),
      'SignerMismatch',
      ExitCode.BadKeys,
    )
    const err = await refused(
      stake(t.ctx, { signer: a, blsPubkey: keysA.blsPubkey, proofOfPossession: keysA.popFor(acct(1).address) }),
      'InvalidProofOfPossession',
      ExitCode.BadKeys,
    )
    assert.match(err.render(), new RegExp(`keytool generate pop --address ${a.address}`))
  })

  it('the registry itself rejects the wrong amount (the getCurrentStakeConfig trap of rule 1)', async () => {
    // governance writes version 1 with a new amount: it applies from the next epoch only
    const wallet = createWalletClient({
      account: privateKeyToAccount(t.chain.governance.privateKey),
      transport: http(t.chain.engineHttpUrl),
    })
    const hash = await wallet.writeContract({
      chain: null,
      address: t.chain.registry,
      abi: consensusRegistryAbi,
      functionName: 'setStakeConfig',
      args: [
        {
          stakeAmount: parseEther('2000000'),
          minWithdrawAmount: parseEther('1000'),
          epochIssuance: parseEther('10000'),
          epochDuration: 100,
        },
      ],
    })
    await t.ctx.client.waitForTransactionReceipt({ hash })
    const newest = await t.ctx.client.readContract({
      address: t.chain.registry,
      abi: registryAbi,
      functionName: 'getCurrentStakeConfig',
    })
    assert.equal(newest.stakeAmount, parseEther('2000000'))
    const a = acct(0)
    const account = await readAccountState(t.ctx.client, a.address)
    const chain = { name: 'devnet' as const, chainId: 911329, rpcUrl: t.target.rpcUrl, registry: t.target.registry }
    const err = await refused(
      submit({
        ctx: t.ctx,
        chain,
        signer: a,
        account,
        data: encodeFunctionData({
          abi: registryAbi,
          functionName: 'stake',
          args: [keysA.blsPubkey, { signature: keysA.popFor(a.address) }],
        }),
        value: newest.stakeAmount,
        action: 'stake',
        title: 'stake',
        revert: { validator: a.address, stakeAmount: parseEther('1000000') },
      }),
      'WrongStakeAmount',
      ExitCode.Reverted,
    )
    assert.match(err.render(), /2,000,000 TEL.*1,000,000 TEL.*never `getCurrentStakeConfig\(\)`/)
  })

  it('a declined confirmation sends nothing', async () => {
    const a = acct(0)
    const before = await nonceOf(a.address)
    await assert.rejects(
      stake(t.ctx, {
        signer: a,
        blsPubkey: keysA.blsPubkey,
        proofOfPossession: keysA.popFor(a.address),
        confirm: async () => false,
      }),
      AbortedError,
    )
    assert.equal(await nonceOf(a.address), before)
  })

  it("stakes with the current version's amount, shows it in TEL and wei, and reports progress", async () => {
    const a = acct(0)
    const events: RegistryEvent[] = []
    let plan: TransactionPlan | undefined
    const r = await stake(t.ctx, {
      signer: a,
      blsPubkey: keysA.blsPubkey,
      proofOfPossession: keysA.popFor(a.address),
      executionAddress: a.address,
      report: (e) => events.push(e),
      confirm: async (p) => {
        plan = p
        return true
      },
    })
    assert.equal(r.outcome, 'sent')
    assert.equal(r.stakeVersion, 0)
    assert.equal(r.stakeAmount, parseEther('1000000').toString())
    assert.ok(
      plan?.rows.some(
        ([label, value]) => label === 'value' && value === '1,000,000 TEL (1000000000000000000000000 wei)',
      ),
    )
    assert.equal(plan?.irreversible, false)
    assert.deepEqual(events.map((e) => e.type).slice(-2), ['sent', 'confirmed'])
    const s = await readValidatorStatus(t.ctx, { address: a.address })
    assert.equal(s.status, 'Staked')
    assert.equal(s.blsPubkey, keysA.blsPubkey)
    assert.equal(
      await isBlsKeyRegistered({ client: t.ctx.client, registry: t.chain.registry, blsPubkey: keysA.blsPubkey }),
      true,
    )
  })

  it('staking again with the same key succeeds without sending', async () => {
    const a = acct(0)
    const before = await nonceOf(a.address)
    const r = await stake(t.ctx, { signer: a, blsPubkey: keysA.blsPubkey, proofOfPossession: keysA.popFor(a.address) })
    assert.equal(r.outcome, 'already-done')
    assert.equal(await nonceOf(a.address), before)
  })

  it('refuses a key registered by another validator (DuplicateBLSPubkey remedy)', async () => {
    const b = acct(2)
    const err = await refused(
      stake(t.ctx, { signer: b, blsPubkey: keysA.blsPubkey, proofOfPossession: keysA.popFor(b.address) }),
      'BlsKeyAlreadyRegistered',
      ExitCode.BadKeys,
    )
    assert.match(err.render(), /new data directory/)
  })

  it('activate: refused before staking and without an NFT; then PendingActivation, Active at the boundary', async () => {
    await refused(activate(t.ctx, { signer: acct(2) }), 'WrongStatus', ExitCode.WrongState)
    await refused(activate(t.ctx, { signer: acct(5) }), 'NotWhitelisted', ExitCode.NotWhitelisted)
    const a = acct(0)
    const r = await activate(t.ctx, { signer: a })
    assert.equal(r.outcome, 'sent')
    assert.equal(r.activeFromEpoch, 1)
    assert.equal((await activate(t.ctx, { signer: a })).outcome, 'already-done')
    assert.equal((await readValidatorStatus(t.ctx, { address: a.address })).status, 'PendingActivation')
    await t.chain.advanceEpoch()
    const s = await readValidatorStatus(t.ctx, { address: a.address })
    assert.equal(s.status, 'Active')
    assert.equal(s.activationEpoch, 1)
    assert.equal(s.currentStakeVersion, 1) // the config written above applies from this epoch
    assert.equal(s.stakeAmount, parseEther('1000000').toString()) // the validator's own version
  })

  it("a stake in the new epoch uses the new version's amount (rule 1)", async () => {
    const c = acct(3)
    const keys = newValidatorKeys()
    const r = await stake(t.ctx, { signer: c, blsPubkey: keys.blsPubkey, proofOfPossession: keys.popFor(c.address) })
    assert.equal(r.outcome, 'sent')
    assert.equal(r.stakeVersion, 1)
    assert.equal(r.stakeAmount, parseEther('2000000').toString())
  })

  it('a Staked validator that never activated unstakes directly and is retired', async () => {
    const c = acct(3)
    const before = await t.ctx.client.getBalance({ address: c.address })
    const r = await unstake(t.ctx, { signer: c, confirm: async (p) => p.irreversible })
    assert.equal(r.outcome, 'sent')
    assert.equal(r.recipient, c.address)
    assert.ok((await t.ctx.client.getBalance({ address: c.address })) > before + parseEther('1999999'))
    assert.equal((await unstake(t.ctx, { signer: c })).outcome, 'already-done')
    await refused(mint(t.ctx, { signer: gov(), validator: c.address }), 'AddressRetired', ExitCode.NotWhitelisted)
    const s = await readValidatorStatus(t.ctx, { address: c.address })
    assert.equal(s.retired, true)
    assert.equal(s.whitelisted, false)
  })

  it('rewards accrue in committee and are claimed without exiting', async () => {
    const a = acct(0)
    await t.chain.advanceEpoch() // epoch 2: a joins the committee of epoch 4 (selected two ahead)
    await t.chain.advanceEpoch()
    await t.chain.advanceEpoch()
    await t.chain.advanceEpoch()
    const s = await readValidatorStatus(t.ctx, { address: a.address })
    assert.ok(BigInt(s.rewards) > 0n, `rewards ${s.rewards}`)
    const r = await claimStakeRewards(t.ctx, { signer: a })
    assert.equal(r.outcome, 'sent')
    assert.equal(r.rewards, s.rewards)
    assert.equal((await readValidatorStatus(t.ctx, { address: a.address })).rewards, '0')
    assert.equal((await claimStakeRewards(t.ctx, { signer: a })).outcome, 'already-done')
  })

  it('unstake while Active says to exit first; exit is irreversible and idempotent', async () => {
    const a = acct(0)
    const early = await refused(unstake(t.ctx, { signer: a }), 'UnstakeNotEligible', ExitCode.WrongState)
    assert.match(early.render(), /tnv exit/)
    await refused(beginExit(t.ctx, { signer: acct(2) }), 'WrongStatus', ExitCode.WrongState)
    let plan: TransactionPlan | undefined
    const r = await beginExit(t.ctx, {
      signer: a,
      confirm: async (p) => {
        plan = p
        return true
      },
    })
    assert.equal(r.outcome, 'sent')
    assert.equal(plan?.irreversible, true)
    assert.equal((await beginExit(t.ctx, { signer: a })).outcome, 'already-done')
    const pending = await refused(unstake(t.ctx, { signer: a }), 'UnstakeNotEligible', ExitCode.WrongState)
    assert.match(pending.message, /PendingExit/)
  })

  it('Exited: unstake waits for exit epoch + 1, explained with the epochs', async () => {
    const a = acct(0)
    let s = await readValidatorStatus(t.ctx, { address: a.address })
    for (let i = 0; i < 6 && s.status !== 'Exited'; i++) {
      await t.chain.advanceEpoch()
      s = await readValidatorStatus(t.ctx, { address: a.address })
    }
    assert.equal(s.status, 'Exited')
    assert.equal(s.unstakeEpoch, s.exitEpoch + 1)
    assert.equal(s.canUnstake, false)
    const err = await refused(unstake(t.ctx, { signer: a }), 'UnstakeNotEligible', ExitCode.WrongState)
    assert.match(
      err.message,
      new RegExp(`exited in epoch ${s.exitEpoch}; unstake is accepted from epoch ${s.exitEpoch + 1}`),
    )
    await t.chain.advanceEpoch()
    assert.equal((await readValidatorStatus(t.ctx, { address: a.address })).canUnstake, true)
  })

  it('reward shortfall: refused and explained without the flag; paid up to the pool with it', async () => {
    const a = acct(0)
    const s = await readValidatorStatus(t.ctx, { address: a.address })
    const rewards = BigInt(s.rewards)
    assert.ok(rewards > 1n)
    const pool = rewards / 2n
    await anvil(t, 'anvil_setBalance', [t.chain.issuance, `0x${pool.toString(16)}`])
    const before = await nonceOf(a.address)
    const err = await refused(unstake(t.ctx, { signer: a }), 'RewardShortfall', ExitCode.Reverted)
    assert.match(err.render(), /--accept-reward-shortfall to forfeit/)
    assert.equal(await nonceOf(a.address), before)
    const balance = await t.ctx.client.getBalance({ address: a.address })
    const warnings: string[] = []
    const r = await unstake(t.ctx, {
      signer: a,
      acceptRewardShortfall: true,
      report: (e) => {
        if (e.type === 'warning') warnings.push(e.message)
      },
    })
    assert.equal(r.outcome, 'sent')
    assert.equal(r.rewardsForfeited, (rewards - pool).toString())
    assert.match(warnings.join(), /forfeited/)
    const gained = (await t.ctx.client.getBalance({ address: a.address })) - balance
    assert.ok(gained > parseEther('1000000') + pool - parseEther('1'), `gained ${gained}`) // stake in full + the pool, minus gas
    assert.equal((await readValidatorStatus(t.ctx, { address: a.address })).retired, true)
  })

  it('checks the chain id before anything else', async () => {
    const wrong = { ...t.ctx, target: { ...t.target, expectedChainId: 2017, name: 'testnet' as const } }
    await assert.rejects(readValidatorStatus(wrong, { address: acct(0).address }), WrongChainError)
    await assert.rejects(
      activate(wrong, { signer: acct(0) }),
      (e: unknown) => e instanceof WrongChainError && e.exitCode === ExitCode.WrongChain,
    )
  })

  it('round trips: status = 2 batches; stake = 2 read batches + 1 simulation + 1 send + receipt polls', async () => {
    const counter = createRpcCounter()
    const ctx = {
      ...t.ctx,
      client: createChainClient({ rpcUrl: t.target.rpcUrl, fetchFn: counter.fetch, retryCount: 0 }),
    }
    await readValidatorStatus(ctx, { address: acct(4).address })
    assert.equal(counter.roundTrips, 2, JSON.stringify(counter.trips))
    counter.reset()
    const d = acct(4)
    const keys = newValidatorKeys()
    const r = await stake(ctx, { signer: d, blsPubkey: keys.blsPubkey, proofOfPossession: keys.popFor(d.address) })
    assert.equal(r.outcome, 'sent')
    const trips = counter.trips.map((m) => m.join('+'))
    // then one receipt poll or more: the count depends on when the block lands, not on tnv
    assert.deepEqual(
      trips.slice(1, 4),
      ['eth_call', 'eth_estimateGas', 'eth_sendRawTransaction'],
      JSON.stringify(counter.trips),
    )
    assert.ok(
      trips.length >= 5 && trips.slice(4).every((m) => m === 'eth_getTransactionReceipt'),
      JSON.stringify(counter.trips),
    )
    assert.equal(counter.methods.eth_chainId, 1)
  })
})
