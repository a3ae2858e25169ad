/**
 * `tnv offline prepare`: runs the registry step exactly as its command does (every check, the
 * registry code guard, the simulation) for a sender whose key is elsewhere, and records the
 * prepared transaction with the state it was prepared against, sealed with a digest
 * (./bundle.ts). Nothing is signed or sent.
 */
import type { Address, Hex } from 'viem'
import type { Signer } from '../chain/signer.js'
import type { UnsignedTransaction } from '../chain/transaction.js'
import { formatTel, formatTelAndWei } from '../chain/units.js'
import type { DelegationSignatureFile } from '../registry/delegation-file.js'
import type { RegistryGeneration } from '../registry/generations/detect.js'
import type { SignAdiriProof } from '../registry/stake-checks.js'
import type { RegistryContext, Reporter, TxOutcome } from '../registry/types.js'
import { BUNDLE_FORMAT, BUNDLE_VERSION, type Bundle, sealed } from './bundle.js'
import { type DecodedCall, decodeRegistryCall, describeIntent } from './intent.js'
import { type ReadAnchorReturnType, readAnchor } from './read-anchor.js'

export type StakeBundleMaterial = {
  blsPubkey: Hex
  proofOfPossession?: Hex | undefined
  adiriSignature?: Hex | undefined
  executionAddress?: Address | undefined
  signAdiriProof?: SignAdiriProof | undefined
  /** node-info.yaml read, if any. */
  nodeInfo: string | null
  /** The result of the key-on-disk check the caller ran (src/lib/keys/key-binding.ts). */
  keyOnDisk: 'match' | 'absent' | 'not-checked'
}

export type PrepareBundleParameters = {
  /** The account that will sign offline (its nonce, balance and fees are used). */
  from: Address
  /** Seconds until the bundle expires. */
  expiresInSeconds: number
  /** The command line that prepares a fresh bundle, recorded for the refusal of a stale one. */
  prepareCommand: string
  report?: Reporter | undefined
  now?: Date | undefined
} & (
  | { step: 'stake'; stake: StakeBundleMaterial }
  | { step: 'activate' | 'beginExit' }
  | { step: 'unstake'; validator?: Address | undefined; acceptRewardShortfall?: boolean | undefined }
  | { step: 'claimStakeRewards'; validator?: Address | undefined }
  /** The delegator's key is offline; the validator's signature file authorises the stake. */
  | { step: 'delegateStake'; delegation: DelegationSignatureFile }
)

export type PrepareBundleReturnType =
  | { outcome: 'prepared'; bundle: Bundle }
  /** The chain shows the step done, or there is nothing to do: no bundle. */
  | { outcome: 'already-done' | 'nothing-to-do'; message: string }

/**
 * @example
 * const r = await prepareBundle(ctx, { step: 'activate', from, expiresInSeconds: 86400, prepareCommand: 'tnv offline prepare activate …' })
 * if (r.outcome === 'prepared') await writeFileAtomic(out, fileText(r.bundle))
 */
export async function prepareBundle(
  ctx: RegistryContext,
  params: PrepareBundleParameters,
): Promise<PrepareBundleReturnType> {
  const { from } = params
  const signer: Signer = { type: 'unsigned', address: from }
  const validator =
    params.step === 'unstake' || params.step === 'claimStakeRewards'
      ? (params.validator ?? from)
      : params.step === 'delegateStake'
        ? params.delegation.validator
        : from
  const result = await runUnsigned(ctx, params, signer)
  if (result.outcome === 'already-done' || result.outcome === 'nothing-to-do')
    return { outcome: result.outcome, message: result.message }
  if (result.outcome !== 'unsigned') throw new Error(`offline prepare: the step returned ${result.outcome}`) // a bug
  const tx = result.unsigned
  const { anchor, call, codeHash, generation } = await readCheckedAnchor(ctx, params, validator, tx)

  const value = BigInt(tx.value)
  const maxFee = BigInt(tx.maxFeePerGas ?? tx.gasPrice ?? '0')
  const tip = BigInt(tx.maxPriorityFeePerGas ?? '0')
  warnIfUnderfunded(params, anchor.balance, value + BigInt(tx.gas) * maxFee)
  const now = params.now ?? new Date()
  const minEpoch =
    params.step === 'unstake' && anchor.status === 'Exited' && anchor.exitEpoch !== null ? anchor.exitEpoch + 1 : null
  const keyBinding = keyBindingOf(params)
  const bundle = sealed<Bundle>({
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    step: params.step,
    createdAt: now.toISOString(),
    expiresAt: expiresAtOf(params, now),
    chain: { chainId: anchor.chainId, name: result.chain.name },
    registry: { address: ctx.target.registry, codeHash, generation },
    call: { function: call.function, args: call.args },
    transaction: bundleTransaction(tx),
    preconditions: {
      validator,
      status: anchor.status,
      stakeVersion: anchor.stakeVersion,
      epoch: anchor.epoch,
      minEpoch,
      maxBaseFeePerGas: (maxFee - tip).toString(),
      baseFeePerGas: anchor.baseFeePerGas?.toString() ?? null,
    },
    intent: describeIntent({
      step: params.step,
      validator,
      from,
      value,
      status: anchor.status,
      epoch: anchor.epoch,
      blsPubkey: keyBinding?.blsPubkey,
    }),
    keyBinding,
    prepareCommand: params.prepareCommand,
  })
  return { outcome: 'prepared', bundle }
}

/**
 * The state the bundle is prepared against (./read-anchor.ts): the registry code is still the one
 * the step's guard passed, and the calldata decodes as the step prepared (both else a bug).
 */
async function readCheckedAnchor(
  ctx: RegistryContext,
  { from, step }: PrepareBundleParameters,
  validator: Address,
  tx: UnsignedTransaction,
): Promise<{ anchor: ReadAnchorReturnType; call: DecodedCall; codeHash: Hex; generation: RegistryGeneration }> {
  const anchor = await readAnchor(ctx.client, {
    rpcUrl: ctx.target.rpcUrl,
    registry: ctx.target.registry,
    validator,
    from,
  })
  if (anchor.codeHash === null || anchor.generation === null)
    throw new Error('offline prepare: the registry code changed during the prepare') // the step's guard passed moments ago
  const call = decodeRegistryCall(anchor.generation, tx.data)
  if (!call || call.step !== step) throw new Error('offline prepare: the calldata is not the step prepared') // a bug
  return { anchor, call, codeHash: anchor.codeHash, generation: anchor.generation }
}

/** A sender that cannot pay the most the transaction may cost is warned (the broadcast checks it again). */
function warnIfUnderfunded({ from, report }: PrepareBundleParameters, balance: bigint, maxCost: bigint): void {
  if (balance < maxCost)
    report?.({
      type: 'warning',
      message: `${from} holds ${formatTelAndWei(balance)}, less than the ${formatTelAndWei(maxCost)} this transaction may cost; fund it before the broadcast, which checks it again.`,
    })
}

/** The key material a stake or delegated stake binds, recorded for the offline machine's check. */
function keyBindingOf(params: PrepareBundleParameters): Bundle['keyBinding'] {
  if (params.step === 'stake')
    return {
      blsPubkey: params.stake.blsPubkey,
      proofOfPossession: params.stake.proofOfPossession ?? null,
      executionAddress: params.stake.executionAddress ?? null,
      nodeInfo: params.stake.nodeInfo,
      keyOnDisk: params.stake.keyOnDisk,
    }
  if (params.step === 'delegateStake')
    return {
      blsPubkey: params.delegation.blsPubkey,
      proofOfPossession: params.delegation.proof.format === 'compressed' ? params.delegation.proof.signature : null,
      executionAddress: params.delegation.validator,
      nodeInfo: null,
      keyOnDisk: 'not-checked',
    }
  return null
}

/** `expiresInSeconds` from now; a bundle never outlives the validator's signature it carries. */
function expiresAtOf(params: PrepareBundleParameters, now: Date): string {
  const deadline =
    params.step === 'delegateStake' && params.delegation.deadline !== null
      ? Number(params.delegation.deadline) * 1000
      : Number.POSITIVE_INFINITY
  return new Date(Math.min(now.getTime() + params.expiresInSeconds * 1000, deadline)).toISOString()
}

type StepResult = TxOutcome & { chain: { name: string } }

/** The step's own operation with an unsigned signer: its checks and simulation, nothing sent. */
async function runUnsigned(ctx: RegistryContext, params: PrepareBundleParameters, signer: Signer): Promise<StepResult> {
  const { report } = params
  switch (params.step) {
    case 'stake': {
      const { stake } = await import('../registry/stake.js')
      const m = params.stake
      return stake(ctx, {
        signer,
        report,
        blsPubkey: m.blsPubkey,
        proofOfPossession: m.proofOfPossession,
        adiriSignature: m.adiriSignature,
        executionAddress: m.executionAddress,
        signAdiriProof: m.signAdiriProof,
      })
    }
    case 'activate':
      return (await import('../registry/activate.js')).activate(ctx, { signer, report })
    case 'beginExit':
      return (await import('../registry/begin-exit.js')).beginExit(ctx, { signer, report })
    case 'unstake':
      return (await import('../registry/unstake.js')).unstake(ctx, {
        signer,
        report,
        validator: params.validator,
        acceptRewardShortfall: params.acceptRewardShortfall,
      })
    case 'delegateStake':
      return (await import('../registry/delegate-stake.js')).delegateStake(ctx, {
        signer,
        report,
        authority: { kind: 'signature', file: params.delegation },
      })
    case 'claimStakeRewards':
      return (await import('../registry/claim-stake-rewards.js')).claimStakeRewards(ctx, {
        signer,
        report,
        validator: params.validator,
      })
  }
}

function bundleTransaction(tx: UnsignedTransaction): Bundle['transaction'] {
  return {
    chainId: tx.chainId,
    from: tx.from,
    to: tx.to,
    nonce: tx.nonce,
    value: tx.value,
    valueTel: formatTel(BigInt(tx.value)),
    data: tx.data,
    gas: tx.gas,
    type: tx.type,
    ...(tx.type === 'eip1559'
      ? { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas }
      : { gasPrice: tx.gasPrice }),
  }
}
