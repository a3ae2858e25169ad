/**
 * `mint(validatorAddress)`: governance (the registry owner) issues the ConsensusNFT that
 * whitelists a validator address. Checked first: the signer is the owner, the address is
 * not retired (it can never be whitelisted again). Already whitelisted: success, nothing sent.
 */
import { type Address, encodeFunctionData } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import type { StepRun } from '../tx/run-step.js'
import { AddressRetiredError, NotRegistryOwnerError } from './errors.js'
import { readFirstBatch } from './first-batch.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import type { RegistryInfo } from './registry-guard.js'
import { registryStep, submit } from './submit.js'
import type { OperationOptions, RegistryContext, TxOutcome } from './types.js'

export type MintParameters = OperationOptions & {
  signer: Signer
  validator: Address
}

export type MintReturnType = TxOutcome & {
  chain: ChainInfo
  registry: RegistryInfo
  validator: Address
  owner: Address
}

/**
 * @example await mint(ctx, { signer: governance, validator: '0x…' })
 */
export async function mint(ctx: RegistryContext, params: MintParameters): Promise<MintReturnType> {
  return registryStep(ctx, 'mint', params, (run) => mintStep(ctx, params, run))
}

async function mintStep(
  ctx: RegistryContext,
  { signer, validator, report, confirm }: MintParameters,
  run: StepRun,
): Promise<MintReturnType> {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    adapter,
    registry: info,
    values: [owner, nft, retired, account],
  } = await readFirstBatch(ctx, { purpose: 'write', action: 'mint', report }, () =>
    Promise.all([
      client.readContract({ ...registry, functionName: 'owner' }),
      client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
      client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
      readAccountState(client, signer.address),
    ]),
  )
  const base = { chain, registry: info, validator, owner }
  if (nft > 0n)
    return { ...base, outcome: 'already-done', message: `${validator} is already whitelisted; nothing was sent.` }
  if (retired) throw new AddressRetiredError(validator)
  if (owner.toLowerCase() !== signer.address.toLowerCase())
    throw new NotRegistryOwnerError({ signer: signer.address, owner, action: 'mint a ConsensusNFT' })
  report?.({ type: 'step', message: `${signer.address} is the registry owner; ${validator} is not whitelisted yet` })
  const { outcome } = await submit({
    ctx,
    chain,
    adapter,
    signer,
    account,
    data: encodeFunctionData({ abi: sharedRegistryAbi, functionName: 'mint', args: [validator] }),
    action: 'mint',
    title: `Whitelist ${validator} (mint its ConsensusNFT)`,
    rows: [['validator', validator]],
    revert: { validator },
    report,
    confirm,
    run,
  })
  return { ...base, ...outcome }
}
