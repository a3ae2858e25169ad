/**
 * `stake(blsPubkey, proofOfPossession)` from the whitelisted validator address.
 * Local checks (signer = execution_address, PoP verifies) → one batch of reads (chain id,
 * NFT, validator record, retired, key registered, stake version, balance, nonce, fees) →
 * the stake config of that version (rule 1: never `getCurrentStakeConfig()`) → simulate →
 * confirm → send → receipt. Idempotent: if this address already staked with this key, it
 * reports success and sends nothing.
 */
import type { Address, Hex } from 'viem'
import { encodeFunctionData } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { InsufficientFundsError } from '../chain/errors.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import { registryAbi, statusName } from './abi.js'
import { AddressRetiredError, BlsKeyAlreadyRegisteredError, NotWhitelistedError, WrongStatusError } from './errors.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import { checkStakeKeyMaterial, type StakeKeyMaterial } from './stake-checks.js'
import { submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type StakeParameters = OperationOptions &
  StakeKeyMaterial & {
    signer: Signer
    /** node-info's execution_address, when the key material came from node-info.yaml. */
    executionAddress?: Address | undefined
  }

export type StakeReturnType = TxOutcome & {
  chain: ChainInfo
  validator: Address
  blsPubkey: Hex
  stakeVersion: number
  /** wei */
  stakeAmount: string
}

/**
 * @example
 * const r = await stake(ctx, { signer, blsPubkey, proofOfPossession, confirm: async () => true })
 * r.outcome // 'sent' | 'already-done' | 'unsigned'
 */
export async function stake(
  ctx: RegistryContext,
  { signer, blsPubkey, proofOfPossession, executionAddress, report, confirm }: StakeParameters,
): Promise<StakeReturnType> {
  const validator = signer.address
  checkStakeKeyMaterial({ blsPubkey, proofOfPossession, validator, executionAddress })
  report?.({ type: 'step', message: `proof of possession verifies for ${validator}` })

  const { client, target } = ctx
  const registry = { address: target.registry, abi: registryAbi } as const
  const [chainId, nft, record, retired, keyRegistered, registeredKey, version, account] = await withRpcErrors(
    target,
    () =>
      Promise.all([
        client.getChainId(),
        client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
        client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
        client.readContract({ ...registry, functionName: 'isValidator', args: [blsPubkey] }),
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getBlsPubkey', args: [validator] })),
        client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
        readAccountState(client, validator),
      ]),
  )
  const chain = checkChainId(target, chainId)
  const status = statusName(record?.currentStatus ?? 0)
  const base = { chain, validator, blsPubkey, stakeVersion: version }

  if (status !== 'Undefined' || retired) {
    if (registeredKey?.toLowerCase() === blsPubkey.toLowerCase())
      return {
        ...base,
        stakeVersion: record?.stakeVersion ?? version,
        stakeAmount: (await readStakeAmount(ctx, record?.stakeVersion ?? version)).toString(),
        outcome: 'already-done',
        message: `${validator} already staked with this BLS key (status ${retired ? 'retired' : status}); nothing was sent.`,
      }
    if (retired) throw new AddressRetiredError(validator)
    throw new WrongStatusError(
      `${validator} already staked with another BLS key (${registeredKey ?? 'unknown'}); its status is ${status}. A validator address stakes once.`,
      'Check it with `tnv validator status`; to stake this key, use a new validator address with its own ConsensusNFT.',
    )
  }
  if (nft === 0n) throw new NotWhitelistedError(validator)
  report?.({ type: 'step', message: `${validator} is whitelisted (holds a ConsensusNFT) and has not staked` })
  if (keyRegistered) throw new BlsKeyAlreadyRegisteredError()

  const stakeAmount = await readStakeAmount(ctx, version)
  report?.({ type: 'step', message: `stake amount of stake version ${version}: ${formatTelAndWei(stakeAmount)}` })
  if (account.balance < stakeAmount)
    throw new InsufficientFundsError(
      `${validator} holds ${formatTelAndWei(account.balance)}, less than the stake amount ${formatTelAndWei(stakeAmount)}.`,
      {
        fix: `Fund ${validator} with at least ${formatTelAndWei(stakeAmount - account.balance)} more plus gas, then run \`tnv stake\` again.`,
      },
    )

  const { outcome } = await submit({
    ctx,
    chain,
    signer,
    account,
    data: encodeFunctionData({
      abi: registryAbi,
      functionName: 'stake',
      args: [blsPubkey, { signature: proofOfPossession }],
    }),
    value: stakeAmount,
    action: 'stake',
    title: `Stake ${formatTelAndWei(stakeAmount)} for validator ${validator}`,
    rows: [
      ['validator', validator],
      ['bls public key', blsPubkey],
      ['stake version', String(version)],
      ['stake amount', formatTelAndWei(stakeAmount)],
    ],
    revert: { validator, stakeAmount },
    report,
    confirm,
  })
  return { ...base, stakeAmount: stakeAmount.toString(), ...outcome }
}

/** stakeAmount of `stakeConfig(version)`: the amount `stake` checks against (spec rule 1). */
export async function readStakeAmount({ client, target }: RegistryContext, version: number): Promise<bigint> {
  const config = await withRpcErrors(target, () =>
    client.readContract({ address: target.registry, abi: registryAbi, functionName: 'stakeConfig', args: [version] }),
  )
  return config.stakeAmount
}
