/**
 * What the staking commands share between parsing flags and rendering: opening the registry
 * from the chain flags, the signer from the signer flags, progress lines and the
 * confirmation policy. Output goes through the callbacks the command passes (its `note`),
 * so nothing here writes to stdout.
 */
import type { Address } from 'viem'
import { createChainClient } from '../chain/client.js'
import type { ChainFlagValues, SignerFlagValues } from '../chain/flags.js'
import { askConfirm, isInteractive } from '../chain/prompt.js'
import { resolveChainTarget } from '../chain/resolve-target.js'
import { resolveSigner, type Signer } from '../chain/signer.js'
import { ConfirmationRequiredError } from './errors.js'
import { parseAcceptCodeHash, type RegistryInfo } from './registry-guard.js'
import type { ConfirmFn, RegistryContext, Reporter, TxOutcome } from './types.js'

/**
 * The registry a command talks to, from the chain flags: the endpoint, and what the operator
 * said about the code there (--registry-generation, --accept-registry-code). The code itself is
 * read by the command's first batch.
 */
export async function openRegistryContext(
  flags: ChainFlagValues,
  { fetchFn }: { fetchFn?: typeof fetch } = {},
): Promise<RegistryContext> {
  const acceptCodeHash = parseAcceptCodeHash(flags['accept-registry-code'])
  const target = await resolveChainTarget({
    chain: flags.chain,
    rpcUrl: flags['rpc-url'],
    registry: flags.registry,
    chainId: flags['chain-id'],
  })
  return {
    target,
    client: createChainClient({ rpcUrl: target.rpcUrl, fetchFn }),
    policy: { generation: flags['registry-generation'], acceptCodeHash },
  }
}

/** The registry's notes (an unknown build read through its interface, an unexpected generation), as stderr lines. */
export function noteRegistry(registry: RegistryInfo | null | undefined, note: (line: string) => void): void {
  for (const line of registry?.notes ?? []) note(`Note: ${line}`)
}

export type SignerFromFlagsOptions = {
  action: string
  defaultFrom?: Address | undefined
}

export async function signerFromFlags(
  flags: SignerFlagValues,
  { action, defaultFrom }: SignerFromFlagsOptions,
  note: (line: string) => void,
): Promise<Signer> {
  const { signer, warnings } = await resolveSigner({
    action,
    privateKey: flags['private-key'],
    keystore: flags.keystore,
    keystorePasswordSource: flags['keystore-password-source'],
    unsigned: flags.unsigned,
    from: flags.from,
    defaultFrom,
  })
  for (const w of warnings) note(w)
  return signer
}

/** Progress events as stderr lines. */
export function createReporter(note: (line: string) => void): Reporter {
  return (event) => {
    switch (event.type) {
      case 'step':
        note(`- ${event.message}`)
        break
      case 'warning':
        note(`Warning: ${event.message}`)
        break
      case 'sent':
        note(`- sent ${event.hash}; waiting for the receipt…`)
        break
      case 'confirmed':
        note(`- confirmed in block ${event.blockNumber}`)
        break
    }
  }
}

/**
 * Shows the plan (amounts in TEL and wei) and applies the policy: --yes sends; an
 * irreversible step asks on a TTY with default No and needs --yes without one; any other
 * step asks on a TTY with default Yes and proceeds without one.
 */
export function createConfirm({ yes, note }: { yes: boolean; note: (line: string) => void }): ConfirmFn {
  return async (plan) => {
    note(plan.title)
    const width = Math.max(...plan.rows.map(([label]) => label.length))
    for (const [label, value] of plan.rows) note(`  ${label.padEnd(width)}  ${value}`)
    if (yes) return true
    if (isInteractive())
      return askConfirm(plan.irreversible ? 'This cannot be undone. Send it?' : 'Send it?', !plan.irreversible)
    if (plan.irreversible) throw new ConfirmationRequiredError(plan.action)
    return true
  }
}

/**
 * Result lines for stdout: the step's own line once sent, the chain's answer when there was
 * nothing to do, or the unsigned transaction (JSON, then the `cast send` line).
 */
export function outcomeLines(
  outcome: TxOutcome,
  sentLine: (sent: Extract<TxOutcome, { outcome: 'sent' }>) => string,
): string[] {
  switch (outcome.outcome) {
    case 'sent':
      return [sentLine(outcome)]
    case 'already-done':
      return [outcome.message]
    case 'unsigned': {
      const { cast, ...tx } = outcome.unsigned
      return [JSON.stringify(tx, null, 2), cast]
    }
  }
}

/** What a one-transaction registry step receives from its command. */
export type StepOptions = { signer: Signer; report: Reporter; confirm: ConfirmFn }

export type RunRegistryStepParameters<R extends TxOutcome> = {
  /** The command's stderr progress and stdout result writers. */
  io: { note: (line: string) => void; out: (line: string) => void }
  flags: ChainFlagValues & SignerFlagValues & { yes: boolean }
  action: string
  /** Sender when --unsigned has no --from (e.g. the validator named by a flag). */
  defaultFrom?: Address | undefined
  step: (ctx: RegistryContext, options: StepOptions) => Promise<R>
  /** The stdout line once the transaction is confirmed. */
  sentLine: (result: R, sent: Extract<TxOutcome, { outcome: 'sent' }>) => string
}

/**
 * The body every one-transaction registry command shares: open the registry from the chain
 * flags, resolve the signer, run the step with progress lines and the confirmation policy,
 * and print the outcome.
 * @example return runRegistryStep({ io, flags, action: 'activate', step: activate, sentLine: (r, s) => `Activated … ${s.txHash}` })
 */
export async function runRegistryStep<R extends TxOutcome>({
  io,
  flags,
  action,
  defaultFrom,
  step,
  sentLine,
}: RunRegistryStepParameters<R>): Promise<R> {
  const ctx = await openRegistryContext(flags)
  const signer = await signerFromFlags(flags, { action, defaultFrom }, io.note)
  const result = await step(ctx, {
    signer,
    report: createReporter(io.note),
    confirm: createConfirm({ yes: flags.yes, note: io.note }),
  })
  for (const line of outcomeLines(result, (sent) => sentLine(result, sent))) io.out(line)
  return result
}
