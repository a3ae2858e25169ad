/**
 * The errors the REAL code of each generation raises, provoked by calling it (eth_call from the
 * right sender with the right state, as the fact sheets measured them), decoded by tnv with the
 * generation's error table into the remedy the operator sees. Nothing here is encoded by tnv
 * itself: the revert data comes from the deployed bytecode.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { type Address, encodeFunctionData, type Hex, type LocalAccount, parseEther } from 'viem'
import { BLS_PRECOMPILE_ADDRESS, REGISTRY_ADDRESS, SYSTEM_ADDRESS } from '../../src/lib/chain/addresses.js'
import { registryErrorFromRevert } from '../../src/lib/registry/decode-revert.js'
import { registryAdapters } from '../../src/lib/registry/generations/adapters.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { stake } from '../../src/lib/registry/stake.js'
import {
  GENERATIONS,
  localSigner,
  newValidatorKeys,
  stakeMaterial,
  startTestChain,
  type TestChain,
} from './devnet-fixture.js'

const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
/** A raw-hash ECDSA signature by a key (not the validator's). */
const signHash = (account: LocalAccount, hash: Hex): Promise<Hex> => {
  assert.ok(account.sign)
  return account.sign({ hash })
}

for (const generation of GENERATIONS) {
  describe(`errors of the real ${generation} code, decoded`, { timeout: 300_000 }, () => {
    let t: TestChain
    const abi = registryAbis[generation]
    const adapter = registryAdapters[generation]
    const acct = (i: number) => localSigner((t.accounts[i] as { privateKey: Hex }).privateKey)
    const keys = newValidatorKeys()

    /** eth_call of `data` from `from`; the revert, decoded by tnv. */
    async function decoded(from: Address, data: Hex, value = 0n, action = 'the call') {
      let caught: unknown
      try {
        await t.engine.client.call({ account: from, to: REGISTRY_ADDRESS, data, value })
      } catch (err) {
        caught = err
      }
      assert.ok(caught, 'the call was expected to revert')
      return registryErrorFromRevert(caught, {
        action,
        validator: from,
        signer: from,
        errorAbi: adapter.errorAbi,
        generation,
      })
    }
    const call = (functionName: string, args: readonly unknown[] = []) =>
      encodeFunctionData({ abi, functionName, args } as never)
    const expect = (err: { details: string[]; code: string }, name: string, code: string) => {
      assert.ok(
        err.details.some((d) => d.startsWith(`revert: ${name}(`)),
        `${name} expected, got ${err.details.join(' | ')}`,
      )
      assert.equal(err.code, code, name)
    }

    before(async () => {
      t = await startTestChain(generation, { accounts: 6 })
      await t.mint(acct(0).address)
      await t.mint(acct(1).address)
      // validator 0 staked with `keys`: Staked, no rewards
      assert.equal(
        (await stake(t.ctx(), { signer: acct(0), ...stakeMaterial(t, keys, acct(0).address) })).outcome,
        'sent',
      )
    })
    after(async () => {
      await t?.stop()
    })

    it('views: InvalidTokenId, BlsPubkeyNotFound, InvalidStatus, InvalidEpoch', async () => {
      const stranger = acct(5).address
      expect(await decoded(stranger, call('getValidator', [stranger])), 'InvalidTokenId', 'NotWhitelisted')
      expect(await decoded(stranger, call('getBlsPubkey', [stranger])), 'BlsPubkeyNotFound', 'NotStaked')
      expect(await decoded(stranger, call('getValidators', [0])), 'InvalidStatus', 'WrongStatus')
      expect(await decoded(stranger, call('getEpochInfo', [3])), 'InvalidEpoch', 'WrongStatus')
    })

    it('governance and system calls: OwnableUnauthorizedAccount, OnlySystemCall, CommitteeRequirement, AlreadyDefined', async () => {
      const stranger = acct(5).address
      expect(
        await decoded(stranger, call('mint', [stranger]), 0n, 'mint'),
        'OwnableUnauthorizedAccount',
        'NotRegistryOwner',
      )
      const err = await decoded(stranger, call('concludeEpoch', [[stranger]]))
      expect(err, 'OnlySystemCall', 'RegistryReverted')
      assert.match(err.message, /only the node's system calls/)
      // from the system address, an unsorted committee
      const committee = ['0x2222222222222222222222222222222222222222', '0x1111111111111111111111111111111111111111']
      const unsorted = await decoded(SYSTEM_ADDRESS, call('concludeEpoch', [committee]))
      assert.ok(
        unsorted.details.some((d) => /revert: (CommitteeRequirement|InvalidCommitteeSize)\(/.test(d)),
        unsorted.details.join('|'),
      )
      expect(
        await decoded(t.engine.owner, call('mint', [acct(0).address]), 0n, 'mint'),
        'AlreadyDefined',
        'WrongStatus',
      )
      expect(await decoded(t.engine.owner, call('unpause')), 'ExpectedPause', 'RegistryReverted')
    })

    it('stake: InvalidStakeAmount, a bad proof, DuplicateBLSPubkey, InvalidBLSPubkey', async () => {
      const v = acct(1).address
      const other = newValidatorKeys()
      const proof = (k: typeof other) =>
        generation === 'adiri'
          ? ({ format: 'uncompressed', ...k.adiriProofFor(v) } as const)
          : ({ format: 'compressed', signature: k.popFor(v) } as const)
      expect(
        await decoded(v, adapter.stakeData(other.blsPubkey, proof(other)), parseEther('1'), 'stake'),
        'InvalidStakeAmount',
        'WrongStakeAmount',
      )
      // a proof made by another key than the one it claims
      const wrong =
        generation === 'adiri'
          ? ({ format: 'uncompressed', ...other.adiriProofFor(acct(2).address) } as const)
          : ({ format: 'compressed', signature: keys.popFor(v) } as const)
      expect(
        await decoded(v, adapter.stakeData(other.blsPubkey, wrong), parseEther('1000000'), 'stake'),
        'InvalidProofOfPossession',
        generation === 'adiri' ? 'AdiriProofMismatch' : 'InvalidProofOfPossession',
      )
      // the key validator 0 registered, with a valid proof for v (adiri checks only the proof's key)
      const dup =
        generation === 'adiri'
          ? ({ format: 'uncompressed', ...keys.adiriProofFor(v) } as const)
          : ({ format: 'compressed', signature: keys.popFor(v) } as const)
      expect(
        await decoded(v, adapter.stakeData(keys.blsPubkey, dup), parseEther('1000000'), 'stake'),
        'DuplicateBLSPubkey',
        'BlsKeyAlreadyRegistered',
      )
      // 95 bytes are not a key
      const short = hex(randomBytes(95))
      const err = await decoded(v, adapter.stakeData(short, proof(other)), parseEther('1000000'), 'stake')
      assert.ok(
        err.details.some((d) => /revert: (InvalidBLSPubkey|InvalidProofOfPossession)\(/.test(d)),
        err.details.join('|'),
      )
    })

    it('unstake, rewards, transfers: IneligibleUnstake, NotRecipient, InsufficientRewards, NotTransferable', async () => {
      const v = acct(0).address
      const stranger = acct(5).address
      expect(await decoded(stranger, adapter.unstakeData(v, false), 0n, 'unstake'), 'NotRecipient', 'NotRecipient')
      expect(
        await decoded(v, call('claimStakeRewards', [v]), 0n, 'claimStakeRewards'),
        'InsufficientRewards',
        'RewardsBelowMinimum',
      )
      expect(await decoded(v, call('transferFrom', [v, stranger, BigInt(v)])), 'NotTransferable', 'RegistryReverted')
      // an Active validator (a genesis one) cannot unstake
      const genesis =
        generation === 'adiri'
          ? '0x0033a370616805b1Fd275B7ffab83FC41D665CCb'
          : '0x2222222222222222222222222222222222222222'
      expect(
        await decoded(genesis, adapter.unstakeData(genesis, false), 0n, 'unstake'),
        'IneligibleUnstake',
        'UnstakeNotEligible',
      )
    })

    it('an empty Issuance pool: the claim reverts in Issuance with InsufficientBalance, decoded as the pool', async () => {
      const v = acct(0).address
      await t.engine.closeEpoch({ headerCounts: [{ validatorAddress: v, consensusHeaderCount: 10n }] })
      const err = await decoded(v, call('claimStakeRewards', [v]), 0n, 'claimStakeRewards')
      expect(err, 'InsufficientBalance', 'RewardPoolShort')
      assert.match(err.message, /empty/)
    })

    it('pause: EnforcedPause on a stake while governance has paused the registry', async () => {
      await t.engine.asOwner({ data: call('pause') })
      try {
        const other = newValidatorKeys()
        const v = acct(1).address
        const proof =
          generation === 'adiri'
            ? ({ format: 'uncompressed', ...other.adiriProofFor(v) } as const)
            : ({ format: 'compressed', signature: other.popFor(v) } as const)
        const err = await decoded(v, adapter.stakeData(other.blsPubkey, proof), parseEther('1000000'), 'stake')
        expect(err, 'EnforcedPause', 'RegistryReverted')
        assert.match(err.message, /paused by governance/)
      } finally {
        await t.engine.asOwner({ data: call('unpause') })
      }
    })

    if (generation === 'next') {
      it('next: NoClaimableRefund, DelegationExpired, NotValidator, and LowLevelCallFailure without the precompile', async () => {
        const v = acct(1).address
        expect(await decoded(v, adapter.claimRefundData(), 0n, 'claimRefund'), 'NoClaimableRefund', 'NoRefund')
        const other = newValidatorKeys()
        const proof = { format: 'compressed', signature: other.popFor(v) } as const
        const late = adapter.delegateStakeData({
          blsPubkey: other.blsPubkey,
          proof,
          validator: v,
          signature: `0x${'11'.repeat(65)}`,
          deadline: 1n,
        })
        expect(
          await decoded(acct(4).address, late, parseEther('1000000'), 'delegateStake'),
          'DelegationExpired',
          'DelegationExpired',
        )
        const bad = adapter.delegateStakeData({
          blsPubkey: other.blsPubkey,
          proof,
          validator: v,
          signature: await signHash(acct(5).account, `0x${'22'.repeat(32)}`),
          deadline: BigInt(Math.floor(Date.now() / 1000) + 86_400 * 365),
        })
        expect(
          await decoded(acct(4).address, bad, parseEther('1000000'), 'delegateStake'),
          'NotValidator',
          'InvalidDelegationSignature',
        )
        // the chain without the node's BLS precompile (genesis puts 0xfe there)
        const verifier = (await t.engine.client.getCode({ address: BLS_PRECOMPILE_ADDRESS })) as Hex
        await t.anvil('anvil_setCode', [BLS_PRECOMPILE_ADDRESS, '0xfe'])
        try {
          const err = await decoded(v, adapter.stakeData(other.blsPubkey, proof), parseEther('1000000'), 'stake')
          expect(err, 'LowLevelCallFailure', 'RegistryReverted')
          assert.match(err.message, /BLS verify precompile at 0x…b151/)
        } finally {
          await t.anvil('anvil_setCode', [BLS_PRECOMPILE_ADDRESS, verifier])
        }
      })
    } else {
      it('adiri: NotValidator for a bad delegation signature', async () => {
        const v = acct(1).address
        const other = newValidatorKeys()
        const proof = { format: 'uncompressed', ...other.adiriProofFor(v) } as const
        const bad = adapter.delegateStakeData({
          blsPubkey: other.blsPubkey,
          proof,
          validator: v,
          signature: await signHash(acct(5).account, `0x${'22'.repeat(32)}`),
          deadline: null,
        })
        expect(
          await decoded(acct(4).address, bad, parseEther('1000000'), 'delegateStake'),
          'NotValidator',
          'InvalidDelegationSignature',
        )
      })
    }
  })
}
