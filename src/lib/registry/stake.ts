/**
 * `stake` from the whitelisted validator address, on the generation found at the registry.
 * Local checks (signer = execution_address, node-info's proof verifies) → one batch (chain id,
 * registry code, NFT, validator record, retired, key registered, stake version, newest stake
 * config, balance, nonce, fees) → the generation's proof (next: node-info's; adiri: signed with
 * the BLS key over the 218-byte message, only now) → one request holding the stake amount of
 * the current version and the simulation → confirm → send → receipt: four round trips.
 *
 * Rule 1 (validator-staking.md "Rules" 1): the value sent is `stakeAmount` of
 * `stakeConfig(getCurrentStakeVersion())`, read in the simulation's request. The newest config
 * (`getCurrentStakeConfig()`) only predicts it, so that the simulation can travel in that same
 * request; the two differ only in an epoch in which governance wrote a new config, and then the
 * call is simulated again with the amount read. Idempotent: if this address already staked with
 * this key, it reports success and sends nothing.
 */
import type { Address, Hex } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import { InsufficientFundsError } from '../chain/errors.js'
import { readAccountState } from '../chain/read-account-state.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import type { StepRun } from '../tx/run-step.js'
import { AddressRetiredError, BlsKeyAlreadyRegisteredError, NotWhitelistedError, WrongStatusError } from './errors.js'
import { readFirstBatch } from './first-batch.js'
import { sharedRegistryAbi } from './generations/shared-abi.js'
import { statusName } from './generations/status.js'
import { orNullOnRevert, withRpcErrors } from './reads.js'
import type { RegistryInfo } from './registry-guard.js'
import { checkStakeKeyMaterial, resolveStakeProof, type SignAdiriProof, type StakeKeyMaterial } from './stake-checks.js'
import { registryStep, type SimulateStepParameters, simulateStep, submit } from './submit.js'
import type { OperationOptions, RegistryContext, Reporter, TxOutcome } from './types.js'

export type StakeParameters = OperationOptions &
  StakeKeyMaterial & {
    signer: Signer
    /** node-info's execution_address, when the key material came from node-info.yaml. */
    executionAddress?: Address | undefined
    /** adiri: signs the 218-byte proof with the BLS key (asks for the passphrase); called only when needed. */
    signAdiriProof?: SignAdiriProof | undefined
  }

export type StakeReturnType = TxOutcome & {
  chain: ChainInfo
  registry: RegistryInfo
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
export async function stake(ctx: RegistryContext, params: StakeParameters): Promise<StakeReturnType> {
  return registryStep(ctx, 'stake', params, (run) => stakeStep(ctx, params, run))
}

async function stakeStep(ctx: RegistryContext, params: StakeParameters, run: StepRun): Promise<StakeReturnType> {
  const { signer, blsPubkey, report, confirm } = params
  const validator = signer.address
  checkStakeKeyMaterial({ ...params, validator })
  if (params.proofOfPossession !== undefined)
    report?.({ type: 'step', message: `node-info's proof of possession verifies for ${validator}` })

  const state = await readStakeState(ctx, { validator, blsPubkey, report })
  const { chain, adapter, version, account } = state
  report?.({ type: 'step', message: `registry: ${adapter.label}` })
  const base = { chain, registry: state.info, validator, blsPubkey, stakeVersion: version }
  const alreadyDone = await alreadyStakedOutcome(ctx, state, base)
  if (alreadyDone) return alreadyDone
  report?.({ type: 'step', message: `${validator} is whitelisted (holds a ConsensusNFT) and has not staked` })
  if (state.keyRegistered) throw new BlsKeyAlreadyRegisteredError()

  const proof = await resolveStakeProof({ ...params, adapter, validator })
  report?.({
    type: 'step',
    message:
      proof.format === 'uncompressed'
        ? `adiri proof of possession (218-byte message, uncompressed key) verifies for this key and ${validator}`
        : `proof of possession verifies for ${validator}`,
  })
  const data = adapter.stakeData(blsPubkey, proof)
  const call = { ctx, adapter, signer, account, data, action: 'stake', revert: { validator } }
  const { stakeAmount, simulated } = await readAmountAndSimulate(call, state, report)
  const { outcome } = await submit({
    ...call,
    chain,
    value: stakeAmount,
    simulated,
    title: `Stake ${formatTelAndWei(stakeAmount)} for validator ${validator}`,
    rows: [
      ['validator', validator],
      ['bls public key', blsPubkey],
      // not 'registry': the plan's own row names the registry's address (one key per row in the JSON plan)
      ['function', `${adapter.signatures.stake} (the ${adapter.generation} registry)`],
      ['stake version', String(version)],
      ['stake amount', formatTelAndWei(stakeAmount)],
    ],
    revert: { validator, stakeAmount },
    report,
    confirm,
    run,
  })
  return { ...base, stakeAmount: stakeAmount.toString(), ...outcome }
}

type StakeState = Awaited<ReturnType<typeof readStakeState>>

/** The first batch: chain, generation, the validator's and the key's state, the stake version and newest config, the signer. */
async function readStakeState(
  ctx: RegistryContext,
  { validator, blsPubkey, report }: { validator: Address; blsPubkey: Hex; report: Reporter | undefined },
) {
  const { client, target } = ctx
  const registry = { address: target.registry, abi: sharedRegistryAbi } as const
  const {
    chain,
    adapter,
    registry: info,
    values: [nft, record, retired, keyRegistered, registeredKey, version, newestConfig, account],
  } = await readFirstBatch(ctx, { purpose: 'write', action: 'stake', report }, () =>
    Promise.all([
      client.readContract({ ...registry, functionName: 'balanceOf', args: [validator] }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getValidator', args: [validator] })),
      client.readContract({ ...registry, functionName: 'isRetired', args: [validator] }),
      client.readContract({ ...registry, functionName: 'isValidator', args: [blsPubkey] }),
      orNullOnRevert(client.readContract({ ...registry, functionName: 'getBlsPubkey', args: [validator] })),
      client.readContract({ ...registry, functionName: 'getCurrentStakeVersion' }),
      client.readContract({ ...registry, functionName: 'getCurrentStakeConfig' }),
      readAccountState(client, validator),
    ]),
  )
  return { chain, adapter, info, nft, record, retired, keyRegistered, registeredKey, version, newestConfig, account }
}

/**
 * `already-done` when this address staked with this key; null when it has not staked and is
 * whitelisted. Throws when it staked another key or retired, or holds no ConsensusNFT.
 */
async function alreadyStakedOutcome(
  ctx: RegistryContext,
  { record, retired, registeredKey, version, nft }: StakeState,
  base: Omit<StakeReturnType, keyof TxOutcome | 'stakeAmount'>,
): Promise<StakeReturnType | null> {
  const { validator, blsPubkey } = base
  const status = statusName(record?.currentStatus ?? 0)
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
  return null
}

/**
 * Rule 1: the amount of the current stake version, read in one request with the simulation at
 * the newest config's amount; the signer holds it (unless unsigned). The simulation counts (its
 * revert thrown, its gas kept) only when the two amounts agree; else submit simulates again.
 */
async function readAmountAndSimulate(
  call: SimulateStepParameters & { revert: { validator: Address } },
  { version, newestConfig, account }: StakeState,
  report: Reporter | undefined,
): Promise<{ stakeAmount: bigint; simulated: bigint | undefined }> {
  const { ctx, signer } = call
  const { validator } = call.revert
  const predicted = newestConfig.stakeAmount
  // one request: the amount to send (rule 1) and the simulation with its prediction
  const [stakeAmount, simulation] = await Promise.all([
    readStakeAmount(ctx, version),
    simulateStep({ ...call, value: predicted, revert: { validator, stakeAmount: predicted } }).then(
      (gas) => ({ gas }),
      (error: unknown) => ({ error }),
    ),
  ])
  report?.({ type: 'step', message: `stake amount of stake version ${version}: ${formatTelAndWei(stakeAmount)}` })
  if (account.balance < stakeAmount && signer.type !== 'unsigned')
    throw new InsufficientFundsError(
      `${validator} holds ${formatTelAndWei(account.balance)}, less than the stake amount ${formatTelAndWei(stakeAmount)}.`,
      {
        fix: `Fund ${validator} with at least ${formatTelAndWei(stakeAmount - account.balance)} more plus gas, then run \`tnv stake\` again.`,
      },
    )
  if (stakeAmount !== predicted) return { stakeAmount, simulated: undefined }
  if ('error' in simulation) throw simulation.error
  return { stakeAmount, simulated: simulation.gas }
}

/** stakeAmount of `stakeConfig(version)`: the amount `stake` checks against (spec rule 1). */
export async function readStakeAmount({ client, target }: RegistryContext, version: number): Promise<bigint> {
  const config = await withRpcErrors(target, () =>
    client.readContract({
      address: target.registry,
      abi: sharedRegistryAbi,
      functionName: 'stakeConfig',
      args: [version],
    }),
  )
  return config.stakeAmount
}
