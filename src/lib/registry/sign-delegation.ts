/**
 * The validator's side of a delegation: an EIP-712 signature over the delegation digest,
 * made with the validator's key only. Online, the stake version and the nonce are read and
 * the digest cross-checked with the registry; offline (both given), nothing is contacted.
 * The result is the signature file's content (./delegation-file.ts).
 */
import type { Address, Hex, LocalAccount } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { BadInputError } from '../errors.js'
import { registryAbi, statusName } from './abi.js'
import { deadlineIso } from './deadline.js'
import {
  computeDelegationDigest,
  type DelegationInputs,
  delegationTypedData,
  readDelegationDigest,
} from './delegation-digest.js'
import { type DelegationSignatureFile, toDelegationFile } from './delegation-file.js'
import { AddressRetiredError, BlsKeyAlreadyRegisteredError, WrongStatusError } from './errors.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import { checkStakeKeyMaterial, type StakeKeyMaterial } from './stake-checks.js'
import type { RegistryContext, Reporter } from './types.js'

export type SignDelegationSource =
  /** Read stake version and nonce from the registry and cross-check the digest there. */
  | { mode: 'online'; ctx: RegistryContext }
  /** Sign with values the operator states; no endpoint is contacted. */
  | { mode: 'offline'; chainId: number; registry: Address; stakeVersion: number; nonce: bigint }

export type SignDelegationParameters = StakeKeyMaterial & {
  source: SignDelegationSource
  /** The validator's key (the address whitelisted for the stake). */
  account: LocalAccount
  delegator: Address
  /** Unix seconds. */
  deadline: bigint
  /** For the past-deadline check; default: the clock. */
  nowSeconds?: bigint | undefined
  report?: Reporter | undefined
}

export type SignDelegationReturnType = {
  /** null offline */
  chain: ChainInfo | null
  file: DelegationSignatureFile
}

/**
 * @example const { file } = await signDelegation({ source: { mode: 'online', ctx }, account, delegator, deadline, blsPubkey, proofOfPossession })
 */
export async function signDelegation({
  source,
  account,
  delegator,
  deadline,
  blsPubkey,
  proofOfPossession,
  nowSeconds = BigInt(Math.floor(Date.now() / 1000)),
  report,
}: SignDelegationParameters): Promise<SignDelegationReturnType> {
  const validator = account.address
  checkStakeKeyMaterial({ blsPubkey, proofOfPossession, validator })
  if (deadline <= nowSeconds)
    throw new BadInputError(`The deadline ${deadline} (${deadlineIso(deadline)}) is in the past.`, {
      fix: 'Pass a later --deadline, such as 24h or 7d.',
    })
  if (delegator.toLowerCase() === validator.toLowerCase())
    throw new BadInputError(`The delegator ${delegator} is the validator itself.`, {
      fix: 'A validator stakes for itself with `tnv stake`; pass --delegator with the address that will pay the stake.',
    })

  let chain: ChainInfo | null = null
  let inputs: DelegationInputs
  if (source.mode === 'online') {
    const { client, target } = source.ctx
    const registry = { address: target.registry, abi: registryAbi } as const
    const [read, record, retired, keyRegistered, nft] = await withRpcErrors(target, () =>
      Promise.all([
        readDelegationDigest(source.ctx, { blsPubkey, validator, delegator, deadline }),
        orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
        client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
        client.readContract({ ...registry, functionName: 'isValidator', args: [blsPubkey] }),
        client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
      ]),
    )
    if (retired) throw new AddressRetiredError(validator)
    const status = statusName(record?.currentStatus ?? 0)
    if (status !== 'Undefined')
      throw new WrongStatusError(
        `${validator} is ${status}: it has staked already, so a delegation for it can never be used.`,
        'Check it with `tnv validator status`.',
      )
    if (keyRegistered) throw new BlsKeyAlreadyRegisteredError()
    if (nft === 0n)
      report?.({
        type: 'warning',
        message: `${validator} is not whitelisted yet: the delegator's stake will fail until governance mints its ConsensusNFT`,
      })
    chain = read.chain
    inputs = read.inputs
    report?.({ type: 'step', message: `digest ${read.digest} matches the registry's delegationDigest` })
  } else {
    const { chainId, registry, stakeVersion, nonce } = source
    inputs = { chainId, registry, stakeVersion, nonce, blsPubkey, validator, delegator, deadline }
  }
  const digest = computeDelegationDigest(inputs)
  const signature: Hex = await account.signTypedData(delegationTypedData(inputs))
  return { chain, file: toDelegationFile(inputs, { proofOfPossession, digest, signature }) }
}
