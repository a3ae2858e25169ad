/**
 * `tnv exit` as the mirror of onboarding, resumable like it: beginExit → PendingExit followed
 * to Exited (the protocol decides: no committee seat left in this epoch and the 2 next, which
 * can take several epochs) → exit epoch + 1 → unstake (the reward shortfall asked about on a
 * terminal, --accept-reward-shortfall without one) → what was paid and to whom.
 * beginExit and unstake are irreversible: confirmed on a terminal (default No), --yes otherwise.
 */
import type { Address, Hex } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import type { Signer } from '../chain/signer.js'
import { formatTelAndWei } from '../chain/units.js'
import { AbortedError } from '../errors.js'
import type { ChainFlagValues, SignerFlagValues } from '../options.js'
import { RewardShortfallError } from '../registry/errors.js'
import type { ValidatorStatus } from '../registry/read-validator-status.js'
import type { RegistryContext } from '../registry/types.js'
import type { UnstakeReturnType } from '../registry/unstake.js'
import type { StepJournal } from '../tx/journal.js'
import { journalsFor } from '../tx/journal.js'
import { settleJournal } from '../tx/run-step.js'
import type { WizardIo } from '../wizard/io.js'
import { wizardReporter } from '../wizard/reporter.js'
import { wizardConfirm } from './confirm.js'
import { epochProgress, followStatus } from './follow-status.js'
import { pickSigner } from './pick-signer.js'
import { resumedOf, type StepRecord, stepRecord } from './steps.js'

export const EXIT_THROUGH = ['exited', 'unstaked'] as const
export type ExitThrough = (typeof EXIT_THROUGH)[number] | 'pending-exit'

export type ExitFlowParameters = {
  /** Journal directory; null: no journal. */
  datadir: string | null
  through?: ExitThrough | undefined
  chain: ChainFlagValues
  signer: SignerFlagValues
  /** The environment the session hands over, for the signer's variables. */
  env: NodeJS.ProcessEnv
  yes: boolean
  acceptRewardShortfall: boolean
  timeoutSeconds: number
}

export type PaidOut = {
  recipient: Address | null
  /** wei */
  stake: string
  rewards: string
  rewardsForfeited: string
  refundCredited: string
}

export type ExitFlowReturnType = {
  validator: Address
  chain: ChainInfo
  through: ExitThrough
  status: ValidatorStatus['status'] | 'Retired'
  epoch: number
  /** null while not set (before the exit, and while PendingExit). */
  exitEpoch: number | null
  steps: StepRecord[]
  paid: PaidOut | null
}

/** What the steps of one exit run share. */
type ExitRun = {
  io: WizardIo
  p: ExitFlowParameters
  ctx: RegistryContext
  signer: Signer
  validator: Address
  journal: StepJournal
  /** Transactions earlier runs left open, settled by this one, by step. */
  resumed: Map<string, Hex>
  steps: StepRecord[]
  timeoutMs: number
}

export async function runExitFlow(io: WizardIo, p: ExitFlowParameters): Promise<ExitFlowReturnType> {
  const run = await openExit(io, p)
  const { validator, steps } = run
  let status = await readExitState(run)
  const chain = status.chain
  const through = await chooseExitThrough(io, p.through)
  const result = (paid: PaidOut | null): ExitFlowReturnType => ({
    validator,
    chain,
    through,
    status: status.retired ? 'Retired' : status.status,
    epoch: status.currentEpoch,
    exitEpoch: status.exitEpoch,
    steps,
    paid,
  })
  if (status.retired) {
    steps.push({ step: 'unstake', outcome: 'already-done', message: `${validator} has already unstaked (retired).` })
    return result(null)
  }
  // beginExit, unless exiting already or Staked-and-unstaking (unstake is accepted from Staked)
  const skipExit = status.status === 'Staked' && through === 'unstaked'
  if (!skipExit && status.status !== 'PendingExit' && status.status !== 'Exited') {
    const begun = await beginExitStep(run)
    if (!begun) return result(null)
    status = begun
  }
  if (through === 'pending-exit') return result(null)
  if (!skipExit) {
    status = await followToExited(run)
    if (through === 'exited') return result(null)
    status = await followToUnstakeable(run, status)
  }
  const unstaked = await unstakeStep(run)
  if (unstaked.status) status = unstaked.status
  return result(unstaked.paid)
}

/** The signer, the journals, and what earlier runs of this sender left open, settled. */
async function openExit(io: WizardIo, p: ExitFlowParameters): Promise<ExitRun> {
  const { openRegistryContext } = await import('../registry/command-support.js')
  const timeoutMs = p.timeoutSeconds * 1000
  const ctx: RegistryContext = await openRegistryContext(p.chain)
  const signer = await pickSigner(io, {
    action: 'beginExit',
    flags: p.signer,
    datadir: p.datadir ?? undefined,
    env: p.env,
  })
  const validator = signer.address
  const journal: StepJournal = {
    journals: journalsFor({ env: p.env, datadir: p.datadir, from: validator }),
    command: 'tnv exit',
    timeoutMs,
  }
  const resumed = new Map<string, Hex>()
  if (signer.type === 'local')
    await settleJournal({
      client: ctx.client,
      rpcUrl: ctx.target.rpcUrl,
      from: validator,
      journal,
      report: wizardReporter(io, 'journal', resumed),
    })
  return { io, p, ctx, signer, validator, journal, resumed, steps: [], timeoutMs }
}

async function readExitState({ io, ctx, validator }: ExitRun): Promise<ValidatorStatus> {
  const { readValidatorStatus } = await import('../registry/read-validator-status.js')
  const status = await readValidatorStatus(ctx, { address: validator })
  const { chain } = status
  io.emit(
    {
      event: 'state',
      validator,
      chain,
      status: status.retired ? 'Retired' : status.status,
      epoch: status.currentEpoch,
      exitEpoch: status.exitEpoch,
    },
    `${validator} on ${chain.name} (chain id ${chain.chainId}), epoch ${status.currentEpoch}: ${status.retired ? 'retired (unstaked)' : status.status}.`,
  )
  return status
}

/** --through, else asked on a terminal (default unstaked), else pending-exit. */
async function chooseExitThrough(io: WizardIo, through: ExitThrough | undefined): Promise<ExitThrough> {
  if (through !== undefined) return through
  if (!io.interactive) return 'pending-exit'
  return io.select<ExitThrough>(
    'How far should tnv take the exit now?',
    [
      {
        value: 'unstaked',
        name: 'through unstake: exit, wait for Exited and exit epoch + 1, unstake (retires the address)',
      },
      { value: 'exited', name: 'until Exited: begin the exit and wait for the protocol to complete it' },
      { value: 'pending-exit', name: 'begin the exit only (PendingExit)' },
    ],
    'unstaked',
  )
}

/** beginExit: the state after it, or null when it was printed unsigned (the flow stops there). */
async function beginExitStep(run: ExitRun): Promise<ValidatorStatus | null> {
  const { io, p, ctx, signer, validator } = run
  const [{ beginExit }, { readValidatorStatus }] = await Promise.all([
    import('../registry/begin-exit.js'),
    import('../registry/read-validator-status.js'),
  ])
  const r = await beginExit(ctx, {
    signer,
    report: wizardReporter(io, 'beginExit', run.resumed),
    confirm: wizardConfirm(io, { yes: p.yes }),
    journal: run.journal,
  })
  run.steps.push(stepRecord('beginExit', r, resumedOf(run.resumed, 'beginExit')))
  if (r.outcome === 'unsigned') {
    io.emit(
      { event: 'unsigned', step: 'beginExit', transaction: r.unsigned },
      'Sign and send this beginExit transaction with your wallet, then run this command again.',
    )
    return null
  }
  const status = await readValidatorStatus(ctx, { address: validator })
  io.emit(
    { event: 'pending-exit', validator, epoch: status.currentEpoch },
    `${validator} is PendingExit from epoch ${status.currentEpoch}. The protocol marks it Exited once it has no committee seat in the current epoch and the 2 next: this can take several epochs.`,
  )
  return status
}

/** PendingExit followed until the protocol marks it Exited. */
async function followToExited(run: ExitRun): Promise<ValidatorStatus> {
  const { io, validator } = run
  const status = await followStatus(io, run.ctx, {
    address: validator,
    what: 'Exited',
    until: (s) => s.status === 'Exited' || s.retired,
    describe: (s) =>
      `PendingExit${s.inCommittee ? ' (still in the current committee)' : ''}: Exited once no committee seat is left in this epoch and the 2 next; ${epochProgress(s)}`,
    timeoutMs: run.timeoutMs,
    fix: 'Exits can take several epochs. Nothing is lost: run the same command again to keep following it.',
  })
  io.emit(
    { event: 'exited', validator, exitEpoch: status.exitEpoch },
    `${validator} is Exited (exit epoch ${status.exitEpoch ?? 'not set'}); unstake is accepted from epoch ${status.unstakeEpoch ?? 'exit epoch + 1'}.`,
  )
  run.steps.push({ step: 'exited', outcome: 'done' })
  return status
}

/** Exited, followed to the epoch from which unstake is accepted (exit epoch + 1). */
function followToUnstakeable(run: ExitRun, status: ValidatorStatus): Promise<ValidatorStatus> {
  return followStatus(run.io, run.ctx, {
    address: run.validator,
    what: `unstakeable (epoch ${status.unstakeEpoch ?? 'exit epoch + 1'})`,
    until: (s) => s.canUnstake || s.retired,
    describe: (s) =>
      `Exited in epoch ${s.exitEpoch ?? 'not set'}; unstake from epoch ${s.unstakeEpoch ?? 'exit epoch + 1'}; ${epochProgress(s)}`,
    timeoutMs: run.timeoutMs,
    fix: 'Nothing is lost: run the same command again to keep waiting.',
  })
}

/**
 * unstake, asking about the reward shortfall on a terminal when it applies: what was paid and
 * the state after it (null for both when it was printed unsigned).
 */
async function unstakeStep(run: ExitRun): Promise<{ status: ValidatorStatus | null; paid: PaidOut | null }> {
  const { io, p, ctx, signer, validator } = run
  const [{ unstake }, { readValidatorStatus }] = await Promise.all([
    import('../registry/unstake.js'),
    import('../registry/read-validator-status.js'),
  ])
  const runUnstake = async (accept: boolean) => ({
    result: await unstake(ctx, {
      signer,
      acceptRewardShortfall: accept,
      report: wizardReporter(io, 'unstake', run.resumed),
      confirm: wizardConfirm(io, { yes: p.yes }),
      journal: run.journal,
    }),
    resumed: resumedOf(run.resumed, 'unstake'),
  })
  let unstaked: { result: UnstakeReturnType; resumed: { hash: Hex } | null }
  try {
    unstaked = await runUnstake(p.acceptRewardShortfall)
  } catch (err) {
    if (!(err instanceof RewardShortfallError) || !err.canForfeit || !io.interactive) throw err
    io.emit({ event: 'warning', message: err.message }, err.message)
    // the way to be paid in full is said before the question, not after a No
    const fill = err.devnetFund
      ? `${err.devnetFund} Then run \`tnv exit --through unstaked\` again: nothing is forfeited.`
      : 'Or answer No and run `tnv exit --through unstaked` again once governance has funded the pool: nothing is forfeited.'
    io.emit({ event: 'note', message: fill }, fill)
    if (!(await io.confirm('Forfeit the rewards the pool cannot cover (the stake itself is paid in full)?', false)))
      throw new AbortedError(`Declined: ${err.message} Nothing was sent.`, { fix: err.fix })
    unstaked = await runUnstake(true)
  }
  const u = unstaked.result
  run.steps.push(stepRecord('unstake', u, unstaked.resumed))
  if (u.outcome === 'unsigned') {
    io.emit(
      { event: 'unsigned', step: 'unstake', transaction: u.unsigned },
      'Sign and send this unstake transaction with your wallet.',
    )
    return { status: null, paid: null }
  }
  const status = await readValidatorStatus(ctx, { address: validator })
  const paid: PaidOut = {
    recipient: u.recipient,
    stake: u.stakeAmount,
    rewards: u.rewards,
    rewardsForfeited: u.rewardsForfeited,
    refundCredited: u.refundCredited,
  }
  if (u.outcome === 'sent') io.emit({ event: 'paid', ...paid }, paidLines(validator, u))
  return { status, paid: u.outcome === 'sent' ? paid : null }
}

function paidLines(validator: Address, u: UnstakeReturnType & { outcome: 'sent' }): string[] {
  return [
    `Unstaked ${validator}; the address is retired for good. Paid to ${u.recipient ?? 'the delegator'}:`,
    `  stake              ${formatTelAndWei(BigInt(u.stakeAmount))}`,
    `  rewards            ${formatTelAndWei(BigInt(u.rewards) - BigInt(u.rewardsForfeited))}`,
    ...(u.rewardsForfeited !== '0' ? [`  rewards forfeited  ${formatTelAndWei(BigInt(u.rewardsForfeited))}`] : []),
    ...(u.refundCredited !== '0'
      ? [`  credited as refund ${formatTelAndWei(BigInt(u.refundCredited))} (withdraw with \`tnv refund claim\`)`]
      : []),
  ]
}
