/**
 * The first batch of reads of the steps a validator takes on its own record (activate,
 * beginExit): chain id (checked), registry code (detected, guarded for signing), NFT balance,
 * validator record, current epoch and the signer's account state (balance, nonce, fees), in
 * one JSON-RPC batch.
 */
import type { Address } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { type AccountState, readAccountState } from '../chain/read-account-state.js'
import { readFirstBatch } from './first-batch.js'
import type { RegistryAdapter } from './generations/adapter.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { RETIRED_STATUS_CODE, statusName, type ValidatorStatusName } from './generations/status.js'
import { orNullOnRevert } from './reads.js'
import type { RegistryInfo } from './registry-guard.js'
import type { RegistryContext, Reporter } from './types.js'

export type OwnValidatorState = {
  chain: ChainInfo
  registry: RegistryInfo
  adapter: RegistryAdapter
  /** ConsensusNFT balance: 1 when whitelisted. */
  nft: bigint
  /** The validator record, null when the registry has none (getValidator reverts for a never-minted address). */
  record: {
    activationEpoch: number
    exitEpoch: number
    currentStatus: number
    isRetired: boolean
  } | null
  /** The status; `Retired` for status 6 (Any) with isRetired. */
  status: Exclude<ValidatorStatusName, 'Any'> | 'Retired'
  epoch: number
  account: AccountState
}

/** @example const { chain, status, epoch, account } = await readOwnValidator(ctx, signer.address, 'activate') */
export async function readOwnValidator(
  ctx: RegistryContext,
  validator: Address,
  action: string,
  report?: Reporter,
): Promise<OwnValidatorState> {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    adapter,
    registry: info,
    values: [nft, record, epoch, account],
  } = await readFirstBatch(ctx, { purpose: 'write', action, report }, () =>
    Promise.all([
      client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
      client.readContract({ ...registry, functionName: 'getCurrentEpoch' }),
      readAccountState(client, validator),
    ]),
  )
  return { chain, registry: info, adapter, nft, record, status: statusOf(record), epoch, account }
}

/** The status name of a record: Undefined without one, Retired for status 6 with isRetired. */
export function statusOf(
  record: { currentStatus: number; isRetired: boolean } | null,
): Exclude<ValidatorStatusName, 'Any'> | 'Retired' {
  if (record === null) return 'Undefined'
  if (record.isRetired || record.currentStatus === RETIRED_STATUS_CODE) return 'Retired'
  return statusName(record.currentStatus) as Exclude<ValidatorStatusName, 'Any'>
}
