/**
 * REHEARSAL-ONLY governance: the registry owner's operations (registry.md §3 "Governance"),
 * sent by impersonating the registry's current `owner()` on the local engine (a Safe on adiri,
 * an EOA placeholder on the next generation). Nothing like this is possible on a real network,
 * where only the owner's own keys (the governance Safe's signers) can do it.
 *
 * Each operation is simulated first (a call that would revert sends nothing and names the
 * registry's error) and is idempotent where the registry state says it is done already.
 */
import { type Abi, type Address, encodeFunctionData, type Hex, isAddress, type PublicClient } from 'viem'
import { REGISTRY_ADDRESS } from '../../lib/chain/addresses.js'
import { BadInputError } from '../../lib/errors.js'
import { type RegistryGeneration, registryAbis } from '../../lib/registry/generations/detect.js'
import type { RehearsalEngine } from './genesis-engine.js'

export const REHEARSAL_GOVERNANCE_NOTICE =
  'REHEARSAL-ONLY: sent by impersonating the registry owner on the local devnet; no real network allows this.'

/** next generation: `(bytes signature)`, the 48-byte compressed signature over the 119-byte message. */
export type NextProofOfPossession = { signature: Hex }
/** adiri: `(bytes uncompressedPubkey, bytes uncompressedSignature)` over the 218-byte message (registry.md §6). */
export type AdiriProofOfPossession = { uncompressedPubkey: Hex; uncompressedSignature: Hex }

export type GovernanceRequest =
  | { action: 'mint'; validator: Address }
  | { action: 'burn'; validator: Address }
  | { action: 'pause' }
  | { action: 'unpause' }
  | { action: 'fund'; amountWei: bigint }
  | {
      action: 'delegate'
      validator: Address
      blsPubkey: Hex
      proofOfPossession: NextProofOfPossession | AdiriProofOfPossession
      /** Default: the current stake config's stake amount. */
      valueWei?: bigint | undefined
    }

export type GovernanceAction = GovernanceRequest['action']

export type GovernanceResult = {
  action: GovernanceAction
  rehearsalOnly: true
  notice: string
  /** The owner that was impersonated. */
  owner: Address
  outcome: 'sent' | 'already-done'
  message: string
  txHash: Hex | null
  blockNumber: number | null
  validator?: Address
  /** TEL sent with the call, wei (decimal string). */
  valueWei?: string
  /** Issuance pool balance after the call, wei (decimal string). */
  issuancePoolWei?: string
}

type EngineLike = Pick<RehearsalEngine, 'client' | 'generation' | 'asOwner'>

/**
 * @example await rehearsalGovernance(engine, { action: 'mint', validator: '0x…' })
 */
export async function rehearsalGovernance(engine: EngineLike, req: GovernanceRequest): Promise<GovernanceResult> {
  const { client, generation } = engine
  const abi = registryAbis[generation] as Abi
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: REGISTRY_ADDRESS, abi, functionName, args }) as Promise<T>
  const owner = await read<Address>('owner')
  const base = { action: req.action, rehearsalOnly: true as const, notice: REHEARSAL_GOVERNANCE_NOTICE, owner }
  const done = (message: string, extra: Partial<GovernanceResult> = {}): GovernanceResult => ({
    ...base,
    outcome: 'already-done',
    message,
    txHash: null,
    blockNumber: null,
    ...extra,
  })
  const send = async (
    what: string,
    data: Hex,
    message: string,
    extra: Partial<GovernanceResult> = {},
    value = 0n,
  ): Promise<GovernanceResult> => {
    const receipt = await engine.asOwner({ data, value, what })
    return {
      ...base,
      outcome: 'sent',
      message,
      txHash: receipt.transactionHash,
      blockNumber: Number(receipt.blockNumber),
      ...extra,
    }
  }

  switch (req.action) {
    case 'mint': {
      const validator = checkAddress(req.validator)
      if ((await read<bigint>('balanceOf', [validator])) > 0n)
        return done(`${validator} already holds its ConsensusNFT (whitelisted); nothing was sent.`, { validator })
      return send(
        `mint(${validator})`,
        encodeFunctionData({ abi, functionName: 'mint', args: [validator] }),
        `Whitelisted ${validator}: ConsensusNFT minted.`,
        { validator },
      )
    }
    case 'burn': {
      const validator = checkAddress(req.validator)
      return send(
        `burn(${validator})`,
        encodeFunctionData({ abi, functionName: 'burn', args: [validator] }),
        `Burned ${validator}'s ConsensusNFT: ejected, stake confiscated to the Issuance pool when staked, and retired for good.`,
        { validator },
      )
    }
    case 'pause':
    case 'unpause': {
      const paused = await read<boolean>('paused')
      if (paused === (req.action === 'pause'))
        return done(`The registry is already ${paused ? 'paused' : 'unpaused'}; nothing was sent.`)
      return send(
        `${req.action}()`,
        encodeFunctionData({ abi, functionName: req.action }),
        req.action === 'pause'
          ? 'Registry paused: stake, delegateStake, activate, beginExit, unstake and claims revert with EnforcedPause until unpaused.'
          : 'Registry unpaused.',
      )
    }
    case 'fund': {
      if (req.amountWei <= 0n) throw new BadInputError('The amount to fund must be more than 0 TEL.')
      const issuance = await read<Address>('issuance')
      const r = await send(
        'allocateIssuance()',
        encodeFunctionData({ abi, functionName: 'allocateIssuance' }),
        'Funded the Issuance pool (allocateIssuance): reward claims can now be paid up to its balance.',
        { valueWei: req.amountWei.toString() },
        req.amountWei,
      )
      return { ...r, issuancePoolWei: (await client.getBalance({ address: issuance })).toString() }
    }
    case 'delegate': {
      const validator = checkAddress(req.validator)
      const value = req.valueWei ?? (await read<{ stakeAmount: bigint }>('getCurrentStakeConfig')).stakeAmount
      const data = await delegateCalldata(client, generation, { ...req, validator })
      return send(
        `delegateStake for ${validator}`,
        data,
        `Owner-delegated stake for ${validator} (no validator signature: the owner needs none); the owner is its delegator and receives the stake back on unstake.`,
        { validator, valueWei: value.toString() },
        value,
      )
    }
  }
}

async function delegateCalldata(
  client: PublicClient,
  generation: RegistryGeneration,
  req: Extract<GovernanceRequest, { action: 'delegate' }>,
): Promise<Hex> {
  const pop = req.proofOfPossession
  if (generation === 'next') {
    if (!('signature' in pop))
      throw new BadInputError('The next-generation registry takes the 48-byte compressed proof of possession.', {
        fix: 'Pass the proof of possession from node-info.yaml (`tnv devnet governance delegate --node-info <dir>`).',
      })
    // the owner's call needs no signature; the deadline still applies to everyone
    const latest = await client.getBlock({ blockTag: 'latest' })
    return encodeFunctionData({
      abi: registryAbis.next,
      functionName: 'delegateStake',
      args: [req.blsPubkey, { signature: pop.signature }, req.validator, '0x', latest.timestamp + 3600n],
    })
  }
  if (!('uncompressedPubkey' in pop))
    throw new BadInputError(
      'The adiri registry takes the uncompressed proof of possession (192-byte key and 96-byte signature over its 218-byte message), not the one in node-info.yaml.',
      {
        fix: "Give the validator's data directory with its BLS key (`--node-info <datadir>` and the passphrase source) so the adiri proof can be signed.",
      },
    )
  return encodeFunctionData({
    abi: registryAbis.adiri,
    functionName: 'delegateStake',
    args: [req.blsPubkey, pop, req.validator, '0x'],
  })
}

function checkAddress(value: string): Address {
  if (!isAddress(value, { strict: false }))
    throw new BadInputError(`${JSON.stringify(value)} is not an address.`, { fix: 'Pass a 20-byte 0x address.' })
  return value as Address
}
