/**
 * The delegator's side: `delegateStake(blsPubkey, proofOfPossession, validator, signature,
 * deadline)` paying the stake amount. Before anything is sent: the file's chain and registry,
 * the signature recovers to the validator for this delegator, the proof of possession, the
 * validator's state, and the three things that silently invalidate a signature (spec rule 2):
 * the deadline, the stake version and the validator's nonce. The registry owner may delegate
 * without a signature (governance-initiated delegation). Idempotent like `stake`.
 */
import { type Address, encodeFunctionData, type Hex, recoverTypedDataAddress } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { InsufficientFundsError } from '../chain/errors.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import { UsageError } from '../errors.js'
import { registryAbi, statusName } from './abi.js'
import { deadlineIso } from './deadline.js'
import { delegationTypedData } from './delegation-digest.js'
import { type DelegationSignatureFile, delegationInputsOf } from './delegation-file.js'
import {
  AddressRetiredError,
  BlsKeyAlreadyRegisteredError,
  DelegationExpiredError,
  DelegationRevokedError,
  DelegationStakeVersionError,
  InvalidDelegationSignatureError,
  NotRegistryOwnerError,
  NotWhitelistedError,
  WrongStatusError,
} from './errors.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import { readStakeAmount } from './stake.js'
import { checkStakeKeyMaterial, type StakeKeyMaterial } from './stake-checks.js'
import { submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type DelegationAuthority =
  /** The validator's signature file from `tnv delegation sign`. */
  | { kind: 'signature'; file: DelegationSignatureFile }
  /** Governance-initiated: the signer is the registry owner; no signature. */
  | ({ kind: 'owner'; validator: Address; deadline: bigint } & StakeKeyMaterial)

export type DelegateStakeParameters = OperationOptions & {
  /** The delegator (pays the stake). */
  signer: Signer
  authority: DelegationAuthority
}

export type DelegateStakeReturnType = TxOutcome & {
  chain: ChainInfo
  validator: Address
  delegator: Address
  blsPubkey: Hex
  stakeVersion: number
  /** wei */
  stakeAmount: string
}

/**
 * @example await delegateStake(ctx, { signer: delegator, authority: { kind: 'signature', file } })
 */
export async function delegateStake(
  ctx: RegistryContext,
  { signer, authority, report, confirm }: DelegateStakeParameters,
): Promise<DelegateStakeReturnType> {
  const { client, target } = ctx
  const delegator = signer.address
  const material = authority.kind === 'signature' ? authority.file : authority
  const validator = material.validator
  const { blsPubkey, proofOfPossession } = material
  checkStakeKeyMaterial({ blsPubkey, proofOfPossession, validator })
  let signature: Hex = '0x'
  let deadline: bigint
  if (authority.kind === 'signature') {
    const { file } = authority
    if (file.delegator.toLowerCase() !== delegator.toLowerCase())
      throw new InvalidDelegationSignatureError(
        `The validator signed this delegation for delegator ${file.delegator}, but the signer is ${delegator}.`,
      )
    if (file.registry.toLowerCase() !== target.registry.toLowerCase())
      throw new UsageError(
        `The signature is for the registry ${file.registry}, but this command uses ${target.registry}.`,
        {
          fix: 'Pick the network the validator signed for (--chain, --rpc-url, --registry).',
        },
      )
    const recovered = await recoverTypedDataAddress({
      ...delegationTypedData(delegationInputsOf(file)),
      signature: file.signature,
    })
    if (recovered.toLowerCase() !== validator.toLowerCase())
      throw new InvalidDelegationSignatureError(
        `The signature in the file recovers to ${recovered}, not to the validator ${validator}: it was made by another key or for other inputs.`,
      )
    signature = file.signature
    deadline = BigInt(file.deadline)
  } else deadline = authority.deadline
  report?.({ type: 'step', message: `key material and signature check out for validator ${validator}` })

  const registry = { address: target.registry, abi: registryAbi } as const
  const [chainId, version, nonce, nft, record, retired, keyRegistered, registeredKey, owner, account] =
    await withRpcErrors(target, () =>
      Promise.all([
        client.getChainId(),
        client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
        client.readContract({ ...registry, functionName: 'delegationNonce', args: [validator] }),
        client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
        client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
        client.readContract({ ...registry, functionName: 'isValidator', args: [blsPubkey] }),
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getBlsPubkey', args: [validator] })),
        client.readContract({ ...registry, functionName: 'owner' }),
        readAccountState(client, delegator),
      ]),
    )
  const chain = checkChainId(target, chainId)
  if (authority.kind === 'signature' && authority.file.chainId !== chainId)
    throw new UsageError(
      `The signature is for chain id ${authority.file.chainId}, but the endpoint is chain id ${chainId}.`,
      {
        fix: 'Pick the network the validator signed for (--chain, --rpc-url).',
      },
    )
  const status = statusName(record?.currentStatus ?? 0)
  const base = { chain, validator, delegator, blsPubkey, stakeVersion: version }
  if (status !== 'Undefined' || retired) {
    if (registeredKey?.toLowerCase() === blsPubkey.toLowerCase())
      return {
        ...base,
        stakeAmount: (await readStakeAmount(ctx, record?.stakeVersion ?? version)).toString(),
        outcome: 'already-done',
        message: `${validator} already staked with this BLS key (status ${retired ? 'retired' : status}); nothing was sent.`,
      }
    if (retired) throw new AddressRetiredError(validator)
    throw new WrongStatusError(
      `${validator} already staked with another BLS key; its status is ${status}.`,
      'Check it with `tnv validator status`; a validator address stakes once.',
    )
  }
  if (nft === 0n) throw new NotWhitelistedError(validator)
  if (keyRegistered) throw new BlsKeyAlreadyRegisteredError()
  if (authority.kind === 'owner' && owner.toLowerCase() !== delegator.toLowerCase())
    throw new NotRegistryOwnerError({
      signer: delegator,
      owner,
      action: 'delegate stake without a validator signature',
    })
  const now = account.latestBlock.timestamp
  if (deadline <= now) throw new DelegationExpiredError(deadline)
  if (authority.kind === 'signature') {
    const { file } = authority
    if (file.stakeVersion !== version)
      throw new DelegationStakeVersionError({ signedVersion: file.stakeVersion, currentVersion: version })
    if (BigInt(file.nonce) !== nonce)
      throw new DelegationRevokedError({ signedNonce: BigInt(file.nonce), currentNonce: nonce, validator })
  }
  report?.({
    type: 'step',
    message: `deadline ${deadlineIso(deadline)} is ${deadline - now} s ahead; stake version ${version} and nonce ${nonce} match`,
  })

  const stakeAmount = await readStakeAmount(ctx, version)
  if (account.balance < stakeAmount)
    throw new InsufficientFundsError(
      `${delegator} holds ${formatTelAndWei(account.balance)}, less than the stake amount ${formatTelAndWei(stakeAmount)}.`,
      {
        fix: `Fund ${delegator} with at least ${formatTelAndWei(stakeAmount - account.balance)} more plus gas, then run the command again.`,
      },
    )
  const { outcome } = await submit({
    ctx,
    chain,
    signer,
    account,
    data: encodeFunctionData({
      abi: registryAbi,
      functionName: 'delegateStake',
      args: [blsPubkey, { signature: proofOfPossession }, validator, signature, deadline],
    }),
    value: stakeAmount,
    action: 'delegateStake',
    title: `Stake ${formatTelAndWei(stakeAmount)} for validator ${validator}, paid by delegator ${delegator}`,
    rows: [
      ['validator', validator],
      ['delegator', delegator],
      ['bls public key', blsPubkey],
      ['stake version', String(version)],
      ['deadline', deadlineIso(deadline)],
      ['stake amount', formatTelAndWei(stakeAmount)],
    ],
    revert: { validator, stakeAmount },
    report,
    confirm,
  })
  return { ...base, stakeAmount: stakeAmount.toString(), ...outcome }
}
