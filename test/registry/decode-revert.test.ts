/**
 * Every error either generation can raise (the registry's own, the BlsG1 library's on adiri,
 * the Issuance contract's) decodes to an operator-facing error with a remedy and the right exit
 * code, whether the revert data sits at the top of the error or deep in viem's cause chain; an
 * unknown selector is printed raw with the command that would explain it. The rendered text of
 * the most frequent ones is pinned. (test/registry/real-errors.test.ts provokes them on the real code.)
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { BaseError, encodeErrorResult, type Hex } from 'viem'
import { ExitCode } from '../../src/lib/errors.js'
import {
  DECODED_ERROR_NAMES,
  extractRevertData,
  isRevert,
  registryErrorFromRevert,
} from '../../src/lib/registry/decode-revert.js'
import { registryAdapters } from '../../src/lib/registry/generations/adapters.js'

const V = '0x1111111111111111111111111111111111111111'
const S = '0x2222222222222222222222222222222222222222'

/** A revert as viem reports it: data on an inner error of the cause chain. */
function viemRevert(data: Hex): Error {
  const rpc = Object.assign(new Error('execution reverted'), { data })
  return new BaseError('Execution reverted.', { cause: new BaseError('estimate failed', { cause: rpc }) })
}

type ErrorItem = { type: 'error'; name: string; inputs: readonly { type: string; components?: readonly unknown[] }[] }

function sample(type: string, components?: readonly unknown[]): unknown {
  if (type === 'address') return S
  if (type === 'bool') return false
  if (type === 'bytes') return '0x'
  if (type.startsWith('uint')) return type === 'uint256' || type === 'uint64' ? 1n : 1
  if (type === 'tuple')
    return Object.fromEntries(
      (components as { name: string; type: string; components?: readonly unknown[] }[]).map((c) => [
        c.name,
        sample(c.type, c.components),
      ]),
    )
  throw new Error(`no sample for ${type}`)
}

function revertOf(item: ErrorItem): Error {
  const args = item.inputs.map((i) => sample(i.type, i.components))
  // biome-ignore lint/suspicious/noExplicitAny: the table spans every error's argument shape
  return viemRevert(encodeErrorResult({ abi: [item] as any, errorName: item.name, args: args as any }))
}

/** The class each error name must become (the rest: RegistryReverted with a specific remedy). */
const SPECIFIC: Record<string, { code: string; exit: number }> = {
  InvalidTokenId: { code: 'NotWhitelisted', exit: ExitCode.NotWhitelisted },
  RequiresConsensusNFT: { code: 'NotWhitelisted', exit: ExitCode.NotWhitelisted },
  ERC721NonexistentToken: { code: 'NotWhitelisted', exit: ExitCode.NotWhitelisted },
  InvalidStatus: { code: 'WrongStatus', exit: ExitCode.WrongState },
  AlreadyDefined: { code: 'WrongStatus', exit: ExitCode.WrongState },
  InvalidEpoch: { code: 'WrongStatus', exit: ExitCode.WrongState },
  InvalidCommitteeSize: { code: 'WrongStatus', exit: ExitCode.WrongState },
  IneligibleUnstake: { code: 'UnstakeNotEligible', exit: ExitCode.WrongState },
  InvalidStakeAmount: { code: 'WrongStakeAmount', exit: ExitCode.Reverted },
  DuplicateBLSPubkey: { code: 'BlsKeyAlreadyRegistered', exit: ExitCode.BadKeys },
  InvalidBLSPubkey: { code: 'InvalidBlsPubkey', exit: ExitCode.BadKeys },
  BlsPubkeyNotFound: { code: 'NotStaked', exit: ExitCode.WrongState },
  NotValidator: { code: 'InvalidDelegationSignature', exit: ExitCode.Reverted },
  DelegationExpired: { code: 'DelegationExpired', exit: ExitCode.Reverted },
  InsufficientRewards: { code: 'RewardsBelowMinimum', exit: ExitCode.Reverted },
  InsufficientBalance: { code: 'RewardPoolShort', exit: ExitCode.Reverted },
  NotRecipient: { code: 'NotRecipient', exit: ExitCode.Reverted },
  NoClaimableRefund: { code: 'NoRefund', exit: ExitCode.WrongState },
  OwnableUnauthorizedAccount: { code: 'NotRegistryOwner', exit: ExitCode.BadKeys },
}

describe('registry revert decoding', () => {
  for (const generation of ['adiri', 'next'] as const) {
    const adapter = registryAdapters[generation]
    const errors = adapter.errorAbi.filter((e): e is ErrorItem => e.type === 'error')

    it(`${generation}: every error it can raise has a remedy`, () => {
      const missing = errors.map((e) => e.name).filter((n) => !DECODED_ERROR_NAMES.includes(n))
      assert.deepEqual(missing, [])
      // the Issuance contract's errors are in the table (registry.md §4)
      for (const name of ['InsufficientBalance', 'RewardDistributionFailure', 'OnlyStakeManager'])
        assert.ok(
          errors.some((e) => e.name === name),
          `${generation} lacks ${name}`,
        )
    })

    for (const item of errors) {
      it(`${generation}: ${item.name} decodes with a remedy`, () => {
        const err = registryErrorFromRevert(revertOf(item), {
          action: 'stake',
          validator: V,
          signer: S,
          errorAbi: adapter.errorAbi,
          generation,
        })
        assert.notEqual(err.code, 'UnknownRevert', err.render())
        assert.ok(err.fix && err.fix.length > 10, `${item.name} has no fix`)
        assert.ok(
          err.details.some((d) => d.startsWith(`revert: ${item.name}(`)),
          err.details.join('|'),
        )
        const want =
          item.name === 'InvalidProofOfPossession'
            ? generation === 'adiri'
              ? { code: 'AdiriProofMismatch', exit: ExitCode.BadKeys }
              : { code: 'InvalidProofOfPossession', exit: ExitCode.BadKeys }
            : SPECIFIC[item.name]
        if (want) {
          assert.equal(err.code, want.code, item.name)
          assert.equal(err.exitCode, want.exit, item.name)
        } else {
          assert.equal(err.code, 'RegistryReverted', item.name)
          // the message is the remedy's own sentence, never the bare "Name(args)"
          assert.ok(!err.message.startsWith(`The registry rejects stake: ${item.name}(`), err.message)
        }
      })
    }
  }

  it('adiri: a rejected proof names the 218-byte message; next: keytool generate pop', () => {
    const adiri = registryAdapters.adiri
    const a = adiri.errorAbi.find((e) => e.type === 'error' && e.name === 'InvalidProofOfPossession') as ErrorItem
    const ea = registryErrorFromRevert(revertOf(a), {
      action: 'stake',
      validator: V,
      signer: V,
      errorAbi: adiri.errorAbi,
      generation: 'adiri',
    })
    assert.equal(ea.code, 'AdiriProofMismatch')
    assert.match(ea.message, /218-byte message/)
    const next = registryAdapters.next
    const n = next.errorAbi.find((e) => e.type === 'error' && e.name === 'InvalidProofOfPossession') as ErrorItem
    const en = registryErrorFromRevert(revertOf(n), {
      action: 'stake',
      validator: V,
      signer: V,
      errorAbi: next.errorAbi,
      generation: 'next',
    })
    assert.equal(en.code, 'InvalidProofOfPossession')
    assert.match(en.render(), new RegExp(`keytool generate pop --address ${V}`))
  })

  it('InsufficientRewards on unstake is the shortfall, with the amount to forfeit', () => {
    const next = registryAdapters.next
    const item = next.errorAbi.find((e) => e.type === 'error' && e.name === 'InsufficientRewards') as ErrorItem
    const err = registryErrorFromRevert(revertOf(item), {
      action: 'unstake',
      validator: V,
      signer: V,
      shortfall: { rewards: 3n * 10n ** 18n, pool: 10n ** 18n },
      errorAbi: next.errorAbi,
      generation: 'next',
    })
    assert.equal(err.code, 'RewardShortfall')
    assert.match(err.render(), /--accept-reward-shortfall to forfeit 2 TEL \(2000000000000000000 wei\)/)
  })

  it('an unknown selector is printed raw with the command that explains it; the next code’s unnamed ones say so', () => {
    const unknown = registryErrorFromRevert(
      viemRevert('0xdeadbeef0000000000000000000000000000000000000000000000000000000000000001'),
      {
        action: 'activate',
        validator: V,
        signer: V,
      },
    )
    assert.equal(unknown.code, 'UnknownRevert')
    assert.equal(unknown.exitCode, ExitCode.Reverted)
    assert.match(unknown.message, /error 0xdeadbeef, which tnv does not know/)
    assert.ok(unknown.details.includes('selector: 0xdeadbeef'))
    assert.ok(unknown.details.some((d) => d.startsWith('data: 0xdeadbeef0000')))
    assert.ok(unknown.details.some((d) => d.includes('cast 4byte 0xdeadbeef')))
    for (const selector of ['0x00f714ce', '0x90ea90ae', '0xa65ebb25']) {
      const err = registryErrorFromRevert(viemRevert(selector as Hex), {
        action: 'unstake',
        validator: V,
        signer: V,
        errorAbi: registryAdapters.next.errorAbi,
        generation: 'next',
      })
      assert.equal(err.code, 'UnknownRevert')
      assert.match(err.message, /name is not public/)
    }
    const bare = registryErrorFromRevert(new BaseError('execution reverted'), {
      action: 'activate',
      validator: V,
      signer: V,
    })
    assert.equal(bare.code, 'UnknownRevert')
  })

  it('a receipt revert names the transaction; data is found at any depth; transport faults are not reverts', () => {
    const adiri = registryAdapters.adiri
    const item = adiri.errorAbi.find((e) => e.type === 'error' && e.name === 'InvalidTokenId') as ErrorItem
    const err = registryErrorFromRevert(revertOf(item), {
      action: 'stake',
      validator: V,
      signer: V,
      txHash: `0x${'ee'.repeat(32)}`,
    })
    assert.ok(err.details.includes(`transaction 0x${'ee'.repeat(32)} reverted on chain`))
    assert.equal(extractRevertData({ cause: { cause: { data: { data: '0x12345678' } } } }), '0x12345678')
    assert.equal(extractRevertData(new Error('fetch failed')), undefined)
    assert.equal(isRevert(new Error('fetch failed')), false)
    assert.equal(isRevert(viemRevert('0x12345678')), true)
  })

  it('renders the errors operators see most, exactly', () => {
    const render = (generation: 'adiri' | 'next', name: string, action = 'stake') => {
      const adapter = registryAdapters[generation]
      const item = adapter.errorAbi.find((e) => e.type === 'error' && e.name === name) as ErrorItem
      return registryErrorFromRevert(revertOf(item), {
        action,
        validator: V,
        signer: V,
        errorAbi: adapter.errorAbi,
        generation,
      }).render()
    }
    assert.equal(
      render('adiri', 'InvalidTokenId'),
      `Address ${V} holds no ConsensusNFT: governance has not whitelisted it (or it is retired). Request governance approval for ${V} (governance runs \`tnv governance mint ${V}\`); a retired address cannot be whitelisted again.\n  revert: InvalidTokenId(1)`,
    )
    assert.equal(
      render('next', 'DuplicateBLSPubkey'),
      "This BLS public key is already registered in the registry. If this same address staked with this key, the earlier stake succeeded: check `tnv validator status`. Otherwise a registered key is never released, even after unstaking: generate a new validator's keys in a new data directory (`tnv keytool generate validator --datadir NEW_DIR`).\n  revert: DuplicateBLSPubkey()",
    )
    assert.equal(
      render('adiri', 'InsufficientBalance', 'claimStakeRewards'),
      'The Issuance pool (0x07a0…07a0), which pays rewards, holds 0.000000000000000001 TEL (1 wei). That is less than the 0.000000000000000001 TEL (1 wei) of rewards to claim, so the claim would revert. Claim later, once governance has funded the pool; the rewards stay credited to the validator. Nothing was sent.\n  revert: InsufficientBalance(1, 1)',
    )
    assert.equal(
      render('next', 'LowLevelCallFailure'),
      "The registry could not call the node's BLS verify precompile at 0x…b151 for stake: this chain has no BLS precompile there. Use an endpoint of a Telcoin Network node (a rehearsal chain needs the EVM verifier that `tnv devnet start` installs); nothing was sent.\n  revert: LowLevelCallFailure(0x)",
    )
  })
})
