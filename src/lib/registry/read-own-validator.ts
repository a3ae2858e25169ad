/**
 * The first batch of reads of the steps a validator takes on its own record (activate,
 * beginExit): chain id (checked), NFT balance, validator record, current epoch and the
 * signer's account state (balance, nonce, fees), in one JSON-RPC batch.
 */
import type { Address } from 'viem'
import { type ChainInfo, checkChainId } from '../chain/check-chain-id.js'
import { type AccountState, readAccountState } from '../chain/read-account-state.js'
import { registryAbi, statusName, type ValidatorStatusName } from './abi.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import type { RegistryContext } from './types.js'

export type OwnValidatorState = {
  chain: ChainInfo
  /** ConsensusNFT balance: 1 when whitelisted. */
  nft: bigint
  /** The validator record, null when the registry has none. */
  record: {
    activationEpoch: number
    currentStatus: number
    isRetired: boolean
  } | null
  status: ValidatorStatusName
  epoch: number
  account: AccountState
}

/** @example const { chain, status, epoch, account } = await readOwnValidator(ctx, signer.address) */
export async function readOwnValidator(ctx: RegistryContext, validator: Address): Promise<OwnValidatorState> {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: registryAbi } as const
  const [chainId, nft, record, epoch, account] = await withRpcErrors(target, () =>
    Promise.all([
      client.getChainId(),
      client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
      client.readContract({ ...registry, functionName: 'getCurrentEpoch' }),
      readAccountState(client, validator),
    ]),
  )
  const chain = checkChainId(target, chainId)
  return { chain, nft, record, status: statusName(record?.currentStatus ?? 0), epoch, account }
}
