/**
 * Every custom error of the registry ABI decodes to an operator-facing error with the spec's
 * remedy and the right exit code, whether the revert data sits at the top of the error or
 * deep in viem's cause chain. The rendered text of the most frequent ones is pinned.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { BaseError, encodeErrorResult, type Hex } from 'viem'
import { ExitCode } from '../../src/lib/errors.js'
import { registryAbi } from '../../src/lib/registry/abi.js'
import { extractRevertData, isRevert, registryErrorFromRevert } from '../../src/lib/registry/decode-revert.js'

const V = '0x1111111111111111111111111111111111111111'
const S = '0x2222222222222222222222222222222222222222'
const info = {
  validatorAddress: V,
  activationEpoch: 1,
  exitEpoch: 4,
  currentStatus: 4,
  isRetired: false,
  stakeVersion: 0,
  region: 0,
} as const

/** A revert as viem reports it: data on an inner error of the cause chain. */
function viemRevert(data: Hex): Error {
  const rpc = Object.assign(new Error('execution reverted'), { data })
  return new BaseError('Execution reverted.', { cause: new BaseError('estimate failed', { cause: rpc }) })
}

const cases: { name: string; args: readonly unknown[]; code: string; exit: number; match: RegExp }[] = [
  {
    name: 'InvalidTokenId',
    args: [0n],
    code: 'NotWhitelisted',
    exit: ExitCode.NotWhitelisted,
    match: /Request governance approval/,
  },
  {
    name: 'RequiresConsensusNFT',
    args: [],
    code: 'NotWhitelisted',
    exit: ExitCode.NotWhitelisted,
    match: /governance/,
  },
  { name: 'InvalidStatus', args: [3], code: 'WrongStatus', exit: ExitCode.WrongState, match: /status \(Active\)/ },
  {
    name: 'InvalidStakeAmount',
    args: [5n],
    code: 'WrongStakeAmount',
    exit: ExitCode.Reverted,
    match: /stakeConfig\(getCurrentStakeVersion\(\)\)/,
  },
  {
    name: 'InvalidProofOfPossession',
    args: [{ signature: `0x${'ab'.repeat(48)}` }],
    code: 'InvalidProofOfPossession',
    exit: ExitCode.BadKeys,
    match: /keytool generate pop --address 0x1111/,
  },
  {
    name: 'DuplicateBLSPubkey',
    args: [],
    code: 'BlsKeyAlreadyRegistered',
    exit: ExitCode.BadKeys,
    match: /never released/,
  },
  { name: 'InvalidBLSPubkey', args: [], code: 'InvalidBlsPubkey', exit: ExitCode.BadKeys, match: /96-byte/ },
  {
    name: 'IneligibleUnstake',
    args: [info],
    code: 'UnstakeNotEligible',
    exit: ExitCode.WrongState,
    match: /exit epoch \+ 1/,
  },
  {
    name: 'NotRecipient',
    args: [S],
    code: 'NotRecipient',
    exit: ExitCode.Reverted,
    match: /validator 0x1111.* or its delegator/,
  },
  {
    name: 'InsufficientRewards',
    args: [7n],
    code: 'RewardPoolShort',
    exit: ExitCode.Reverted,
    match: /issuance pool cannot pay/,
  },
  { name: 'AlreadyDefined', args: [V], code: 'WrongStatus', exit: ExitCode.WrongState, match: /already defined/ },
  { name: 'BlsPubkeyNotFound', args: [V], code: 'NotStaked', exit: ExitCode.WrongState, match: /tnv stake/ },
  {
    name: 'DelegationExpired',
    args: [1_700_000_000n],
    code: 'DelegationExpired',
    exit: ExitCode.Reverted,
    match: /2023-11-14T22:13:20.000Z.*later deadline/,
  },
  {
    name: 'InvalidDelegationSignature',
    args: [V],
    code: 'InvalidDelegationSignature',
    exit: ExitCode.Reverted,
    match: /tnv delegation sign/,
  },
  {
    name: 'AddressRetired',
    args: [V],
    code: 'AddressRetired',
    exit: ExitCode.NotWhitelisted,
    match: /never whitelist it again/,
  },
  { name: 'OnlyOwner', args: [S], code: 'NotRegistryOwner', exit: ExitCode.BadKeys, match: /governance key/ },
  {
    name: 'RewardsBelowMinimum',
    args: [1n, 10n],
    code: 'RewardsBelowMinimum',
    exit: ExitCode.Reverted,
    match: /below the minimum withdrawal/,
  },
  {
    name: 'NoRefund',
    args: [S],
    code: 'NoRefund',
    exit: ExitCode.WrongState,
    match: /No refund is credited to 0x2222/,
  },
]
const generic = [
  'NotTransferable',
  'OnlySystemCall',
  'InvalidEpoch',
  'InvalidStakeVersion',
  'InvalidStakeConfig',
  'TransferFailed',
  'UnexpectedTransfer',
  'AlreadyInitialized',
  'GenesisValidatorsRequired',
  'Reentrancy',
]

function sampleArgs(name: string): readonly unknown[] {
  const item = registryAbi.find((i) => i.type === 'error' && i.name === name)
  assert.ok(item && item.type === 'error')
  return item.inputs.map((input) => (input.type === 'address' ? S : input.type.startsWith('uint') ? 1n : '0x'))
}

describe('registry revert decoding', () => {
  it('has a case for every custom error of the ABI', () => {
    const names = registryAbi.filter((i) => i.type === 'error').map((i) => i.name)
    assert.deepEqual([...names].sort(), [...cases.map((c) => c.name), ...generic].sort())
  })

  for (const c of cases) {
    it(`${c.name} → ${c.code} (exit ${c.exit})`, () => {
      // biome-ignore lint/suspicious/noExplicitAny: test table spans every error's argument shape
      const data = encodeErrorResult({ abi: registryAbi, errorName: c.name as any, args: c.args as any })
      const err = registryErrorFromRevert(viemRevert(data), { action: 'stake', validator: V, signer: S })
      assert.equal(err.code, c.code)
      assert.equal(err.exitCode, c.exit)
      assert.match(err.render(), c.match)
      assert.ok(err.details.some((d) => d.startsWith(`revert: ${c.name}(`)))
    })
  }

  for (const name of generic) {
    it(`${name} is reported by name`, () => {
      const int = name === 'InvalidEpoch' || name === 'InvalidStakeVersion'
      const args = int ? [1] : sampleArgs(name)
      // biome-ignore lint/suspicious/noExplicitAny: as above
      const data = encodeErrorResult({ abi: registryAbi, errorName: name as any, args: args as any })
      const err = registryErrorFromRevert(viemRevert(data), { action: 'stake', validator: V, signer: S })
      assert.equal(err.code, 'RegistryReverted')
      assert.equal(err.exitCode, ExitCode.Reverted)
      assert.match(err.message, new RegExp(`${name}\\(`))
    })
  }

  it('InsufficientRewards on unstake is the shortfall, with the amount to forfeit', () => {
    const data = encodeErrorResult({ abi: registryAbi, errorName: 'InsufficientRewards', args: [10n ** 18n] })
    const err = registryErrorFromRevert(viemRevert(data), {
      action: 'unstake',
      validator: V,
      signer: V,
      shortfall: { rewards: 3n * 10n ** 18n, pool: 10n ** 18n },
    })
    assert.equal(err.code, 'RewardShortfall')
    assert.match(err.render(), /--accept-reward-shortfall to forfeit 2 TEL \(2000000000000000000 wei\)/)
  })

  it('a receipt revert names the transaction', () => {
    const data = encodeErrorResult({ abi: registryAbi, errorName: 'InvalidTokenId', args: [0n] })
    const err = registryErrorFromRevert(viemRevert(data), {
      action: 'stake',
      validator: V,
      signer: V,
      txHash: `0x${'ee'.repeat(32)}`,
    })
    assert.ok(err.details.includes(`transaction 0x${'ee'.repeat(32)} reverted on chain`))
  })

  it('undecodable data and missing data are reported, never dropped', () => {
    const unknown = registryErrorFromRevert(viemRevert('0xdeadbeef'), { action: 'activate', validator: V, signer: V })
    assert.equal(unknown.code, 'UnknownRevert')
    assert.match(unknown.message, /undecodable revert data 0xdeadbeef/)
    const bare = registryErrorFromRevert(new BaseError('execution reverted'), {
      action: 'activate',
      validator: V,
      signer: V,
    })
    assert.equal(bare.code, 'UnknownRevert')
    assert.equal(bare.exitCode, ExitCode.Reverted)
  })

  it('finds data at any depth, and tells reverts from transport faults', () => {
    assert.equal(extractRevertData({ cause: { cause: { data: { data: '0x12345678' } } } }), '0x12345678')
    assert.equal(extractRevertData(new Error('fetch failed')), undefined)
    assert.equal(isRevert(new Error('fetch failed')), false)
    assert.equal(isRevert(viemRevert('0x12345678')), true)
  })

  it('renders the errors operators see most, exactly', () => {
    const render = (
      name: 'InvalidTokenId' | 'DuplicateBLSPubkey' | 'InvalidProofOfPossession',
      args: readonly unknown[],
    ) =>
      registryErrorFromRevert(
        // biome-ignore lint/suspicious/noExplicitAny: as above
        viemRevert(encodeErrorResult({ abi: registryAbi, errorName: name, args: args as any })),
        { action: 'stake', validator: V, signer: V },
      ).render()
    assert.equal(
      render('InvalidTokenId', [0n]),
      `Address ${V} holds no ConsensusNFT: governance has not whitelisted it (or it is retired). Request governance approval for ${V} (governance runs \`tnv governance mint ${V}\`); a retired address cannot be whitelisted again.\n  revert: InvalidTokenId(0)`,
    )
    assert.equal(
      render('DuplicateBLSPubkey', []),
      "This BLS public key is already registered in the registry. If this same address staked with this key, the earlier stake succeeded: check `tnv validator status`. Otherwise a registered key is never released, even after unstaking: generate a new validator's keys in a new data directory (`tnv keytool generate validator --datadir NEW_DIR`).\n  revert: DuplicateBLSPubkey()",
    )
    assert.equal(
      render('InvalidProofOfPossession', [{ signature: '0x' }]),
      `The proof of possession does not verify for address ${V}: it was signed for a different address (or is corrupt). Re-sign it with \`tnv keytool generate pop --address ${V}\`, then export the staking args again (\`tnv keytool export-staking-args\`).\n  revert: InvalidProofOfPossession({signature: 0x})`,
    )
  })
})
