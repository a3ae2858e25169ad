/**
 * Delegation on the REAL registry code of both generations: the offline digest equals the
 * registry's own delegationDigest (zero-hash domain, validatorVersion, the generation's key
 * hash; adiri without a deadline), online signing signs exactly the registry's digest, a
 * delegator stakes with it, and every way a signature stops working is refused before
 * anything is sent. Revocation per generation (next: increaseNonce, nonce from the event;
 * adiri: explained, nothing sent), refunds (next: a rejected payout credited, then claimed;
 * adiri: the unstake reverts in Issuance, decoded), governance delegation, and who may unstake.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import {
  type Address,
  concatHex,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  keccak256,
  numberToHex,
  parseEther,
} from 'viem'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { ExitCode } from '../../src/lib/errors.js'
import { claimRefund } from '../../src/lib/registry/claim-refund.js'
import { delegateStake } from '../../src/lib/registry/delegate-stake.js'
import { computeOfflineDelegationDigest, readDelegationDigest } from '../../src/lib/registry/delegation-digest.js'
import type { DelegationSignatureFile } from '../../src/lib/registry/delegation-file.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { increaseNonce } from '../../src/lib/registry/increase-nonce.js'
import { readValidatorStatus } from '../../src/lib/registry/read-validator-status.js'
import { signDelegation } from '../../src/lib/registry/sign-delegation.js'
import { unstake } from '../../src/lib/registry/unstake.js'
import {
  GENERATIONS,
  localSigner,
  newValidatorKeys,
  setBalance,
  startTestChain,
  type TestChain,
  type ValidatorKeys,
} from './devnet-fixture.js'
import { refused } from './refused.js'

for (const generation of GENERATIONS) {
  describe(`delegation on the real ${generation} code`, { timeout: 300_000 }, () => {
    let t: TestChain
    const abi = registryAbis[generation]
    const read = <T>(functionName: string, args: readonly unknown[] = []) =>
      t.engine.client.readContract({ address: REGISTRY_ADDRESS, abi, functionName, args } as never) as Promise<T>
    const acct = (i: number) => localSigner((t.accounts[i] as { privateKey: Hex }).privateKey)
    const nonceOf = (a: Address) => t.engine.client.getTransactionCount({ address: a })
    const inAnHour = () => BigInt(Math.floor(Date.now() / 1000) + 3600)
    const deadline = generation === 'next' ? inAnHour() : null
    const registryDigest = (keys: ValidatorKeys, v: Address, d: Address, dl: bigint | null) =>
      read<Hex>('delegationDigest', generation === 'next' ? [keys.blsPubkey, v, d, dl ?? 0n] : [keys.blsPubkey, v, d])
    const sign = async (v: number, d: number, keys: ValidatorKeys, dl = deadline) =>
      signDelegation({
        source: { mode: 'online', ctx: t.ctx() },
        signer: { kind: 'key', account: acct(v).account },
        delegator: acct(d).address,
        deadline: dl,
        blsPubkey: keys.blsPubkey,
        proofOfPossession: keys.popFor(acct(v).address),
        signAdiriProof: keys.signAdiriProof,
      })

    before(async () => {
      t = await startTestChain(generation, { accounts: 12 })
      for (const i of [0, 2, 4, 6, 8, 10]) await t.mint(acct(i).address)
    })
    after(async () => {
      await t?.stop()
    })

    it("the offline digest equals the registry's delegationDigest, before and after the nonce moves", async () => {
      const keys = newValidatorKeys()
      const v = acct(0).address
      const d = acct(1).address
      const offline = (nonce: bigint) =>
        computeOfflineDelegationDigest({
          generation,
          chainId: t.engine.chainId,
          registry: REGISTRY_ADDRESS,
          stakeVersion: 0,
          nonce,
          blsPubkey: keys.blsPubkey,
          validator: v,
          delegator: d,
          deadline,
        }).digest
      assert.equal(offline(0n), await registryDigest(keys, v, d, deadline))
      const online = await readDelegationDigest(t.ctx(), {
        blsPubkey: keys.blsPubkey,
        validator: v,
        delegator: d,
        deadline,
      })
      assert.equal(online.digest, await registryDigest(keys, v, d, deadline))
      assert.equal(online.inputs.nonce, 0n)
      assert.equal(online.inputs.deadline, deadline)
      if (generation === 'next') {
        // the nonce moves with increaseNonce: the registry's digest follows, and so does tnv's
        await increaseNonce(t.ctx(), { signer: acct(0) })
        assert.equal(offline(1n), await registryDigest(keys, v, d, deadline))
        assert.notEqual(offline(0n), await registryDigest(keys, v, d, deadline))
        assert.equal((await readValidatorStatus(t.ctx(), { address: v })).delegationNonce, '1')
      }
    })

    it('signs the registry digest as a raw hash; the delegator stakes with it; the validator is delegated', async () => {
      const keys = newValidatorKeys()
      const { file, registry } = await sign(2, 3, keys)
      assert.equal(registry?.generation, generation)
      assert.equal(file.generation, generation)
      assert.equal(file.digest, await registryDigest(keys, acct(2).address, acct(3).address, deadline))
      const r = await delegateStake(t.ctx(), { signer: acct(3), authority: { kind: 'signature', file } })
      assert.equal(r.outcome, 'sent')
      assert.equal(await read('isDelegated', [acct(2).address]), true)
      assert.equal(await read('getBlsPubkey', [acct(2).address]), keys.blsPubkey)
      const s = await readValidatorStatus(t.ctx(), { address: acct(2).address })
      assert.equal(s.status, 'Staked')
      assert.equal(s.delegated, true)
      // the digest's nonce moved on with the delegation: read through the digest, never invented
      assert.equal(s.delegationNonce, '1')
      // the same file again: the validator has staked with this key, nothing is sent
      const again = await delegateStake(t.ctx(), { signer: acct(3), authority: { kind: 'signature', file } })
      assert.equal(again.outcome, 'already-done')
    })

    it('a hardware signer: the digest’s two EIP-712 halves signed elsewhere make the same file; a typed-data signature is refused', async () => {
      const keys = newValidatorKeys()
      const v = acct(6)
      const d = acct(7)
      const online = await readDelegationDigest(t.ctx(), {
        blsPubkey: keys.blsPubkey,
        validator: v.address,
        delegator: d.address,
        deadline,
      })
      // what a device's "EIP-712 hashed message" signing computes from the two halves
      const deviceHash = keccak256(concatHex(['0x1901', online.domainSeparator, online.structHash]))
      assert.equal(deviceHash, online.digest)
      const device = v.account
      assert.ok(device.sign)
      const external = await device.sign({ hash: deviceHash })
      const material = {
        blsPubkey: keys.blsPubkey,
        proofOfPossession: keys.popFor(v.address),
        signAdiriProof: keys.signAdiriProof,
      }
      const { file } = await signDelegation({
        source: { mode: 'online', ctx: t.ctx() },
        signer: { kind: 'external', validator: v.address, signature: external },
        delegator: d.address,
        deadline,
        ...material,
      })
      assert.equal(file.signature, external)
      // a wallet's typed-data signing uses the domain eip712Domain() reports: another digest, refused
      const typed = await device.signTypedData({
        domain: {
          name: 'Telcoin StakeManager',
          version: '1',
          chainId: t.engine.chainId,
          verifyingContract: REGISTRY_ADDRESS,
        },
        types: { Delegation: [{ name: 'blsPubkeyHash', type: 'bytes32' }] },
        primaryType: 'Delegation',
        message: { blsPubkeyHash: keccak256(keys.blsPubkey) },
      })
      await refused(
        signDelegation({
          source: { mode: 'online', ctx: t.ctx() },
          signer: { kind: 'external', validator: v.address, signature: typed },
          delegator: d.address,
          deadline,
          ...material,
        }),
        'InvalidDelegationSignature',
        ExitCode.Reverted,
      )
    })

    it('refuses a file for another delegator, by another key, or altered, before anything is sent', async () => {
      const keys = newValidatorKeys()
      const { file } = await sign(4, 5, keys)
      const before = await nonceOf(acct(7).address)
      await refused(
        delegateStake(t.ctx(), { signer: acct(7), authority: { kind: 'signature', file } }),
        'InvalidDelegationSignature',
        ExitCode.Reverted,
      )
      const other = await sign(6, 5, newValidatorKeys())
      const forged: DelegationSignatureFile = { ...file, signature: other.file.signature }
      const e1 = await refused(
        delegateStake(t.ctx(), { signer: acct(5), authority: { kind: 'signature', file: forged } }),
        'InvalidDelegationSignature',
        ExitCode.Reverted,
      )
      assert.match(e1.message, /recovers to/)
      const altered: DelegationSignatureFile = { ...file, nonce: '5' }
      const e2 = await refused(
        delegateStake(t.ctx(), { signer: acct(5), authority: { kind: 'signature', file: altered } }),
        'InvalidDelegationSignature',
        ExitCode.Reverted,
      )
      assert.match(e2.message, /not the digest of its own inputs/)
      assert.equal(await nonceOf(acct(7).address), before)
      assert.equal(await nonceOf(acct(5).address), 0)
    })

    if (generation === 'next') {
      it('next: an expired deadline is refused with the DelegationExpired remedy', async () => {
        const keys = newValidatorKeys()
        const expires = BigInt(Math.floor(Date.now() / 1000) + 120)
        const { file } = await sign(4, 5, keys, expires)
        // the chain's clock moves past the deadline (it may run behind the wall clock: genesis time)
        const now = (await t.engine.client.getBlock()).timestamp
        await t.anvil('evm_setNextBlockTimestamp', [numberToHex((now > expires ? now : expires) + 10n)])
        await t.anvil('evm_mine', [])
        const err = await refused(
          delegateStake(t.ctx(), { signer: acct(5), authority: { kind: 'signature', file } }),
          'DelegationExpired',
          ExitCode.Reverted,
        )
        assert.match(err.render(), /tnv delegation sign --delegator YOUR_ADDRESS --deadline 7d/)
      })

      it('next: revoke raises the nonce (read from the event); the signature is then refused as revoked', async () => {
        const keys = newValidatorKeys()
        const { file } = await sign(4, 5, keys, inAnHour() + 7200n)
        const r = await increaseNonce(t.ctx(), { signer: acct(4) })
        assert.equal(r.outcome, 'sent')
        assert.equal(r.newNonce, (BigInt(r.previousNonce) + 1n).toString())
        assert.equal(r.previousNonce, file.nonce)
        const err = await refused(
          delegateStake(t.ctx(), { signer: acct(5), authority: { kind: 'signature', file } }),
          'DelegationRevoked',
          ExitCode.Reverted,
        )
        assert.match(err.message, new RegExp(`nonce ${file.nonce}, but validator .* now has nonce ${r.newNonce}`))
      })
    } else {
      it('adiri: revoke is not possible; the error says what can and cannot invalidate a signature; nothing sent', async () => {
        const before = await nonceOf(acct(4).address)
        const err = await refused(increaseNonce(t.ctx(), { signer: acct(4) }), 'NotInThisGeneration', ExitCode.Usage)
        assert.match(err.message, /no increaseNonce\(\)/)
        assert.match(err.message, /no deadline/)
        assert.match(err.message, /stake version/)
        assert.equal(await nonceOf(acct(4).address), before)
      })
    }

    it('a stake version change invalidates a signature: refused before sending', async () => {
      const keys = newValidatorKeys()
      const { file } = await sign(8, 9, keys, deadline === null ? null : inAnHour() + 7200n)
      await t.engine.asOwner({
        data: encodeFunctionData({
          abi,
          functionName: 'upgradeStakeVersion',
          args: [
            {
              stakeAmount: parseEther('1000000'),
              minWithdrawAmount: parseEther('1000'),
              epochIssuance: parseEther('25806'),
              epochDuration: 86400,
            },
          ],
        } as never),
      })
      await t.engine.closeEpoch()
      await refused(
        delegateStake(t.ctx(), { signer: acct(9), authority: { kind: 'signature', file } }),
        'DelegationStakeVersion',
        ExitCode.Reverted,
      )
      // signed again in the new epoch, it works
      const again = await sign(8, 9, keys, deadline === null ? null : inAnHour() + 7200n)
      assert.equal(again.file.stakeVersion, 1)
      assert.equal(
        (await delegateStake(t.ctx(), { signer: acct(9), authority: { kind: 'signature', file: again.file } })).outcome,
        'sent',
      )
    })

    it('governance delegates without a signature (owner only); others may not', async () => {
      const keys = newValidatorKeys()
      const v = acct(10).address
      const material =
        generation === 'next'
          ? { blsPubkey: keys.blsPubkey, proofOfPossession: keys.popFor(v) }
          : { blsPubkey: keys.blsPubkey, adiriSignature: keys.adiriProofFor(v).uncompressedSignature }
      const authority = { kind: 'owner' as const, validator: v, deadline: inAnHour(), ...material }
      await refused(delegateStake(t.ctx(), { signer: acct(11), authority }), 'NotRegistryOwner', ExitCode.BadKeys)
      await setBalance(t, t.engine.owner, parseEther('2000000'))
      const r = await delegateStake(t.ctx(), { signer: { type: 'unsigned', address: t.engine.owner }, authority })
      assert.equal(r.outcome, 'unsigned')
      if (r.outcome !== 'unsigned') return
      const call = decodeFunctionData({ abi, data: r.unsigned.data })
      assert.equal(call.functionName, 'delegateStake')
      assert.equal(call.args?.[3], '0x', 'no validator signature')
      await t.engine.asOwner({ data: r.unsigned.data, value: BigInt(r.unsigned.value) })
      assert.equal(await read('isDelegated', [v]), true)
    })

    it(
      generation === 'next'
        ? 'next: a payout the delegator rejects is credited as a refund, then claimed'
        : 'adiri: a payout the delegator rejects makes the unstake revert in Issuance, decoded before sending',
      async () => {
        // validator 2 is delegated by 3 (above); 3 becomes a contract that rejects TEL (PUSH0 PUSH0 REVERT)
        const delegator = acct(3)
        await t.anvil('anvil_setCode', [delegator.address, '0x5f5ffd'])
        if (generation === 'adiri') {
          const before = await nonceOf(acct(2).address)
          const err = await refused(unstake(t.ctx(), { signer: acct(2) }), 'RegistryReverted', ExitCode.Reverted)
          assert.match(err.message, /rejected the TEL/)
          assert.ok(err.details.some((d) => d.startsWith('revert: RewardDistributionFailure(')))
          assert.equal(await nonceOf(acct(2).address), before)
          await t.anvil('anvil_setCode', [delegator.address, '0x'])
          return
        }
        const r = await unstake(t.ctx(), { signer: acct(2) })
        assert.equal(r.outcome, 'sent')
        assert.equal(r.recipient, null, 'the validator signed: the delegator is not named by any view')
        await t.anvil('anvil_setCode', [delegator.address, '0x'])
        const credited = await read<bigint>('claimableRefunds', [delegator.address])
        assert.ok(credited > 0n)
        assert.equal((await readValidatorStatus(t.ctx(), { address: delegator.address })).refund, credited.toString())
        const before = await t.engine.client.getBalance({ address: delegator.address })
        const claim = await claimRefund(t.ctx(), { signer: delegator })
        assert.equal(claim.outcome, 'sent')
        assert.equal(claim.amount, credited.toString())
        assert.ok(
          (await t.engine.client.getBalance({ address: delegator.address })) > before + credited - parseEther('1'),
        )
        assert.equal((await claimRefund(t.ctx(), { signer: delegator })).outcome, 'nothing-to-do')
      },
    )

    it('a delegator unstakes for its validator and is paid; a stranger may not', async () => {
      const v = generation === 'next' ? acct(8) : acct(2)
      const d = generation === 'next' ? acct(9) : acct(3)
      await refused(unstake(t.ctx(), { signer: acct(11), validator: v.address }), 'NotRecipient', ExitCode.Reverted)
      const r = await unstake(t.ctx(), { signer: d, validator: v.address })
      assert.equal(r.outcome, 'sent')
      assert.equal(r.recipient, d.address)
      assert.equal(await read('isRetired', [v.address]), true)
    })
  })
}
