// @ts-nocheck -- written for the retired devnet registry contract (its governance key and ABI are gone); issue 12 rewrites it for the real registries. Left compiling only by issue 11.
/**
 * Delegated stake against the devnet chain: the local digest equals the registry's, a signed
 * delegation is staked by its delegator, and every way a signature stops working is caught
 * before sending (expired, revoked, another stake version, another delegator, tampered);
 * governance delegates without a signature; a rejected payout becomes a refund to claim.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { consensusRegistryAbi } from '../../src/devnet/chain/abi.js'
import { ExitCode, type TnvError } from '../../src/lib/errors.js'
import { registryAbi } from '../../src/lib/registry/abi.js'
import { claimRefund } from '../../src/lib/registry/claim-refund.js'
import { delegateStake } from '../../src/lib/registry/delegate-stake.js'
import { computeDelegationDigest, readDelegationDigest } from '../../src/lib/registry/delegation-digest.js'
import { increaseNonce } from '../../src/lib/registry/increase-nonce.js'
import { mint } from '../../src/lib/registry/mint.js'
import { readValidatorStatus } from '../../src/lib/registry/read-validator-status.js'
import { signDelegation } from '../../src/lib/registry/sign-delegation.js'
import { unstake } from '../../src/lib/registry/unstake.js'
import {
  anvil,
  localSigner,
  newValidatorKeys,
  startTestChain,
  type TestChain,
  type ValidatorKeys,
} from './devnet-fixture.js'

async function refused(p: Promise<unknown>, code: string, exitCode: number): Promise<TnvError> {
  const err = (await p.then(
    () => assert.fail(`expected ${code}`),
    (e: unknown) => e,
  )) as TnvError
  assert.equal(err.code, code, err.message)
  assert.equal(err.exitCode, exitCode)
  return err
}

describe('delegation (library, devnet chain)', () => {
  let t: TestChain
  const acct = (i: number) => localSigner((t.chain.accounts[i] as { privateKey: `0x${string}` }).privateKey)
  const gov = () => localSigner(t.chain.governance.privateKey)
  const now = async () => (await t.ctx.client.getBlock()).timestamp

  before(async () => {
    t = await startTestChain({ epochBlocks: 100 })
    for (const i of [0, 2, 4, 6, 8]) await mint(t.ctx, { signer: gov(), validator: acct(i).address })
  })
  after(async () => {
    await t?.stop()
  })

  async function sign(validatorIndex: number, delegatorIndex: number, keys: ValidatorKeys, deadlineIn = 3600n) {
    const v = acct(validatorIndex)
    return signDelegation({
      source: { mode: 'online', ctx: t.ctx },
      account: v.account,
      delegator: acct(delegatorIndex).address,
      deadline: (await now()) + deadlineIn,
      nowSeconds: await now(),
      blsPubkey: keys.blsPubkey,
      proofOfPossession: keys.popFor(v.address),
    })
  }

  it("the local EIP-712 digest equals the registry's delegationDigest", async () => {
    const keys = newValidatorKeys()
    const { inputs, digest } = await readDelegationDigest(t.ctx, {
      blsPubkey: keys.blsPubkey,
      validator: acct(0).address,
      delegator: acct(1).address,
      deadline: 1_900_000_000n,
    })
    const onChain = await t.ctx.client.readContract({
      address: t.chain.registry,
      abi: registryAbi,
      functionName: 'delegationDigest',
      args: [keys.blsPubkey, acct(0).address, acct(1).address, 1_900_000_000n],
    })
    assert.equal(digest, onChain)
    assert.equal(computeDelegationDigest(inputs), onChain)
  })

  it("a delegator stakes with the validator's signature; the validator is delegated", async () => {
    const keys = newValidatorKeys()
    const { file, chain } = await sign(0, 1, keys)
    assert.equal(chain?.chainId, 911329)
    const r = await delegateStake(t.ctx, { signer: acct(1), authority: { kind: 'signature', file } })
    assert.equal(r.outcome, 'sent')
    assert.equal(r.stakeAmount, parseEther('1000000').toString())
    const s = await readValidatorStatus(t.ctx, { address: acct(0).address })
    assert.equal(s.status, 'Staked')
    assert.equal(s.delegated, true)
    assert.equal(s.delegationNonce, '1') // a used delegation cannot be replayed
    const again = await delegateStake(t.ctx, { signer: acct(1), authority: { kind: 'signature', file } })
    assert.equal(again.outcome, 'already-done')
  })

  it('refuses a signature made for another delegator, and a tampered one', async () => {
    const keys = newValidatorKeys()
    const { file } = await sign(2, 3, keys)
    const other = await refused(
      delegateStake(t.ctx, { signer: acct(5), authority: { kind: 'signature', file } }),
      'InvalidDelegationSignature',
      ExitCode.Reverted,
    )
    assert.match(other.message, /for delegator 0x/)
    const tampered = { ...file, deadline: (BigInt(file.deadline) + 1n).toString() }
    await refused(
      delegateStake(t.ctx, { signer: acct(3), authority: { kind: 'signature', file: tampered } }),
      'InvalidDelegationSignature',
      ExitCode.Reverted,
    )
  })

  it('refuses an expired signature (DelegationExpired remedy)', async () => {
    const keys = newValidatorKeys()
    const { file } = await sign(2, 3, keys, 60n)
    await anvil(t, 'evm_increaseTime', [120])
    await anvil(t, 'evm_mine', [])
    const err = await refused(
      delegateStake(t.ctx, { signer: acct(3), authority: { kind: 'signature', file } }),
      'DelegationExpired',
      ExitCode.Reverted,
    )
    assert.match(err.render(), /later deadline/)
  })

  it('refuses a signature revoked with increaseNonce', async () => {
    const keys = newValidatorKeys()
    const { file } = await sign(2, 3, keys)
    const revoke = await increaseNonce(t.ctx, { signer: acct(2) })
    assert.equal(revoke.outcome, 'sent')
    assert.equal(BigInt(revoke.newNonce), BigInt(revoke.previousNonce) + 1n)
    const err = await refused(
      delegateStake(t.ctx, { signer: acct(3), authority: { kind: 'signature', file } }),
      'DelegationRevoked',
      ExitCode.Reverted,
    )
    assert.match(err.message, /nonce 0.*now has nonce 1/)
  })

  it('refuses a signature bound to an old stake version', async () => {
    const keys = newValidatorKeys()
    const { file } = await sign(2, 3, keys)
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
          stakeAmount: parseEther('1000000'),
          minWithdrawAmount: parseEther('1000'),
          epochIssuance: parseEther('10000'),
          epochDuration: 100,
        },
      ],
    })
    await t.ctx.client.waitForTransactionReceipt({ hash })
    await t.chain.advanceEpoch()
    const err = await refused(
      delegateStake(t.ctx, { signer: acct(3), authority: { kind: 'signature', file } }),
      'DelegationStakeVersion',
      ExitCode.Reverted,
    )
    assert.match(err.message, /stake version 0, but the current epoch's stake version is 1/)
    // a fresh signature in the new epoch works
    const fresh = await sign(2, 3, keys)
    assert.equal(
      (await delegateStake(t.ctx, { signer: acct(3), authority: { kind: 'signature', file: fresh.file } })).outcome,
      'sent',
    )
  })

  it('governance delegates without a signature; others may not', async () => {
    const keys = newValidatorKeys()
    const v = acct(4)
    const deadline = (await now()) + 600n
    const authority = {
      kind: 'owner' as const,
      validator: v.address,
      blsPubkey: keys.blsPubkey,
      proofOfPossession: keys.popFor(v.address),
      deadline,
    }
    await refused(delegateStake(t.ctx, { signer: acct(5), authority }), 'NotRegistryOwner', ExitCode.BadKeys)
    await anvil(t, 'anvil_setBalance', [gov().address, `0x${parseEther('1').toString(16)}`])
    await refused(delegateStake(t.ctx, { signer: gov(), authority }), 'InsufficientFunds', ExitCode.InsufficientFunds)
    await anvil(t, 'anvil_setBalance', [gov().address, `0x${parseEther('5000000').toString(16)}`])
    const r = await delegateStake(t.ctx, { signer: gov(), authority })
    assert.equal(r.outcome, 'sent')
    assert.equal((await readValidatorStatus(t.ctx, { address: v.address })).delegated, true)
  })

  it('a payout the delegator rejects is credited as a refund, then claimed', async () => {
    const keys = newValidatorKeys()
    const delegator = acct(7)
    const { file } = await sign(6, 7, keys)
    await delegateStake(t.ctx, { signer: delegator, authority: { kind: 'signature', file } })
    // the delegator becomes a contract that rejects TEL (PUSH0 PUSH0 REVERT)
    await anvil(t, 'anvil_setCode', [delegator.address, '0x5f5ffd'])
    const r = await unstake(t.ctx, { signer: acct(6) })
    assert.equal(r.outcome, 'sent')
    assert.equal(r.recipient, delegator.address)
    assert.equal(r.refundCredited, parseEther('1000000').toString())
    assert.equal(
      (await readValidatorStatus(t.ctx, { address: delegator.address })).refund,
      parseEther('1000000').toString(),
    )
    await anvil(t, 'anvil_setCode', [delegator.address, '0x'])
    const before = await t.ctx.client.getBalance({ address: delegator.address })
    const claim = await claimRefund(t.ctx, { signer: delegator })
    assert.equal(claim.outcome, 'sent')
    assert.equal(claim.amount, parseEther('1000000').toString())
    assert.ok((await t.ctx.client.getBalance({ address: delegator.address })) > before + parseEther('999999'))
    assert.equal((await claimRefund(t.ctx, { signer: delegator })).outcome, 'already-done')
  })

  it('a delegator unstakes for its validator; a stranger may not', async () => {
    await refused(unstake(t.ctx, { signer: acct(9), validator: acct(0).address }), 'NotRecipient', ExitCode.Reverted)
    const r = await unstake(t.ctx, { signer: acct(1), validator: acct(0).address })
    assert.equal(r.outcome, 'sent')
    assert.equal(r.recipient, acct(1).address)
  })
})
