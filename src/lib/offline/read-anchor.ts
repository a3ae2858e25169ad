/**
 * The state a bundle is anchored to, read in one JSON-RPC batch: chain id, the code at the
 * registry (hash and generation), the validator's record, the current stake version and epoch,
 * the sender's mined nonce, balance, and the latest block's base fee. `prepareBundle` records
 * it; `broadcastBundle` reads it again and compares.
 */
import { type Address, type Hex, keccak256 } from 'viem'
import type { ChainClient } from '../chain/client.js'
import { explainRpcError } from '../chain/rpc-errors.js'
import { detectRegistryGeneration, type RegistryGeneration } from '../registry/generations/detect.js'
import { sharedRegistryAbi } from '../registry/generations/shared-abi.js'
import { UNSET_EPOCH } from '../registry/generations/status.js'
import { statusOf } from '../registry/read-own-validator.js'
import { orNullOnRevert } from '../registry/reads.js'

export type ReadAnchorParameters = {
  rpcUrl: string
  registry: Address
  validator: Address
  /** The sender whose nonce and balance are read. */
  from: Address
}

export type ReadAnchorReturnType = {
  chainId: number
  /** keccak256 of the code at the registry address; null: no code there. */
  codeHash: Hex | null
  generation: RegistryGeneration | null
  status: string
  /** The validator's exit epoch, when set. */
  exitEpoch: number | null
  stakeVersion: number
  epoch: number
  /** The sender's nonce in the latest block: transactions with a lower nonce are mined. */
  minedNonce: number
  balance: bigint
  baseFeePerGas: bigint | null
  blockNumber: bigint
}

/**
 * @example const anchor = await readAnchor(client, { rpcUrl, registry, validator, from })
 */
export async function readAnchor(
  client: ChainClient,
  { rpcUrl, registry, validator, from }: ReadAnchorParameters,
): Promise<ReadAnchorReturnType> {
  const contract = { address: registry, abi: sharedRegistryAbi } as const
  try {
    const [chainId, code, block, minedNonce, balance] = await Promise.all([
      client.getChainId(),
      client.getCode({ address: registry }),
      client.getBlock({ blockTag: 'latest' }),
      client.getTransactionCount({ address: from, blockTag: 'latest' }),
      client.getBalance({ address: from }),
    ])
    const report = detectRegistryGeneration(code)
    const codeHash = code && code !== '0x' ? keccak256(code) : null
    // the registry's views only where its code is one tnv knows (else they may mean anything)
    const views =
      report.generation === null
        ? null
        : await Promise.all([
            orNullOnRevert(client.readContract({ ...contract, functionName: 'getValidator', args: [validator] })),
            client.readContract({ ...contract, functionName: 'getCurrentStakeVersion' }),
            client.readContract({ ...contract, functionName: 'getCurrentEpoch' }),
          ])
    const record = views?.[0] ?? null
    const exitEpoch = record && record.exitEpoch !== 0 && record.exitEpoch !== UNSET_EPOCH ? record.exitEpoch : null
    return {
      chainId,
      codeHash,
      generation: report.generation,
      status: views ? statusOf(record) : 'unreadable (unknown registry code)',
      exitEpoch,
      stakeVersion: views ? views[1] : -1,
      epoch: views ? views[2] : -1,
      minedNonce,
      balance,
      baseFeePerGas: block.baseFeePerGas ?? null,
      blockNumber: block.number,
    }
  } catch (err) {
    throw explainRpcError(err, rpcUrl) ?? err
  }
}
