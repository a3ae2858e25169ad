/**
 * The body every one-transaction registry command shares (activate, unstake, rewards claim,
 * refund claim, governance mint, delegation stake and revoke): open the registry from the chain
 * flags, resolve the signer through the session (its prompts and its one stdin reader), run the
 * step through the step runner with the sender's journal, the session's reporter and its
 * confirmation policy, and print the outcome.
 */
import type { Address } from 'viem'
import { resolveSigner, type Signer } from '../lib/chain/signer.js'
import { type ChainFlagValues, type PassphraseSource, type SignerFlagValues, signerOptionsOf } from '../lib/options.js'
import { openRegistryContext, outcomeLines } from '../lib/registry/command-support.js'
import type { ConfirmFn, RegistryContext, Reporter, TxOutcome } from '../lib/registry/types.js'
import type { StepJournal } from '../lib/tx/journal.js'
import { journalsFor } from '../lib/tx/journal.js'
import type { Session } from './session.js'

/**
 * The signer the flags and the environment name. When they name none: on a terminal the
 * wizard's signer question (remembered per data directory), without one SignerRequired naming
 * the flags and variables.
 */
export async function signerFromFlags(
  session: Session,
  flags: SignerFlagValues & { check?: boolean | undefined },
  { action, defaultFrom, datadir }: { action: string; defaultFrom?: Address | undefined; datadir?: string | undefined },
): Promise<Signer> {
  // --format safe without --unsigned is refused before any signer is opened
  ;(await import('./safe-output.js')).assertSafeFormat(flags)
  if (flags.check) return checkSigner(session, flags, { action, defaultFrom })
  try {
    const { signer } = await resolveSigner({
      action,
      ...signerOptionsOf(flags),
      defaultFrom,
      prompter: session.prompter,
      env: session.signerEnv(),
    })
    return signer
  } catch (err) {
    const { SignerRequiredError } = await import('../lib/chain/errors.js')
    if (!(err instanceof SignerRequiredError) || !session.prompter.interactive) throw err
    const [{ pickSigner }, { createWizardIo }] = await Promise.all([
      import('../lib/onboard/pick-signer.js'),
      import('./wizard-io.js'),
    ])
    return pickSigner(createWizardIo({ prompter: session.prompter, events: 'human' }), {
      action,
      flags,
      defaultFrom,
      datadir,
      env: session.signerEnv(),
    })
  }
}

/**
 * --check's sender: the address the signer flags name (a keystore's address is read in clear, a
 * key's derived; nothing is decrypted for a signature), else --from, else the command's default.
 */
async function checkSigner(
  session: Session,
  flags: SignerFlagValues,
  { action, defaultFrom }: { action: string; defaultFrom?: Address | undefined },
): Promise<Signer> {
  const options = signerOptionsOf(flags)
  const named =
    options.keystore !== undefined ||
    options.from !== undefined ||
    options.hardware !== undefined ||
    Boolean(session.env.TN_PRIVATE_KEY)
  if (!named && defaultFrom === undefined) {
    const { UsageError } = await import('../lib/errors.js')
    throw new UsageError(
      `--check needs the sender's address to check ${action} (its state, nonce, balance, simulation).`,
      {
        fix: 'Pass the signer flags (or TN_PRIVATE_KEY) you would send with, or --from ADDRESS.',
      },
    )
  }
  const { signer } = await resolveSigner({
    action,
    ...options,
    // the address is all a check needs: like --unsigned, a keystore is not decrypted
    unsigned: options.hardware === undefined,
    defaultFrom,
    prompter: session.prompter,
    env: session.env,
  })
  return { type: 'check', address: signer.address }
}

/**
 * The step's confirmation: the session's policy, or for --check none (nothing is sent, so nothing
 * is asked; the checks a command runs inside its confirmation still run).
 */
export function stepConfirm(session: Session, flags: { yes: boolean; check?: boolean | undefined }): ConfirmFn {
  return flags.check ? async () => true : session.confirm({ yes: flags.yes })
}

/** The journal of a sender's transactions (and of the data directory, when the command has one). */
export function stepJournal(
  session: Session,
  { from, datadir = null, timeoutSeconds }: { from: Address; datadir?: string | null; timeoutSeconds?: number },
): StepJournal {
  return {
    journals: journalsFor({ datadir, from, env: session.env }),
    command: session.command,
    ...(timeoutSeconds !== undefined ? { timeoutMs: timeoutSeconds * 1000 } : {}),
  }
}

/** What a one-transaction registry step receives from its command. */
export type StepOptions = { signer: Signer; report: Reporter; confirm: ConfirmFn; journal: StepJournal }

export type RunRegistryCommandParameters<R extends TxOutcome> = {
  session: Session
  /** The command's stdout result writer (silenced by --json). */
  out: (line: string) => void
  flags: ChainFlagValues & SignerFlagValues & { yes: boolean; check?: boolean | undefined }
  action: string
  /** Sender when --unsigned has no --from (e.g. the validator named by a flag). */
  defaultFrom?: Address | undefined
  step: (ctx: RegistryContext, options: StepOptions) => Promise<R>
  /** The stdout line once the transaction is confirmed. */
  sentLine: (result: R, sent: Extract<TxOutcome, { outcome: 'sent' }>) => string
  /** --datadir: its journal (<datadir>/tnv-journal.json) is kept too when the directory exists. */
  datadir?: string | undefined
}

/**
 * @example return runRegistryCommand({ session: this.session, out, flags, action: 'activate', step: activate, sentLine })
 */
export async function runRegistryCommand<R extends TxOutcome>({
  session,
  out,
  flags,
  action,
  defaultFrom,
  step,
  sentLine,
  datadir,
}: RunRegistryCommandParameters<R>): Promise<R> {
  const { assertSafeFormat, safeBatchOfStep } = await import('./safe-output.js')
  assertSafeFormat(flags)
  const { pathExists } = await import('../lib/fs/atomic.js')
  const journalDir = datadir !== undefined && (await pathExists(datadir)) ? datadir : null
  const ctx = await openRegistryContext(flags)
  const signer = await signerFromFlags(session, flags, { action, defaultFrom, datadir })
  const result = await step(ctx, {
    signer,
    report: session.reporter(),
    confirm: stepConfirm(session, flags),
    journal: stepJournal(session, { from: signer.address, datadir: journalDir }),
  })
  const batch = await safeBatchOfStep(ctx, flags, result, {
    name: `tnv ${action}`,
    out,
    note: (line) => process.stderr.write(`${line}\n`),
  })
  if (batch) return { ...result, safe: batch }
  const { success } = await import('./color.js')
  for (const line of outcomeLines(result, (sent) => success(sentLine(result, sent)))) out(line)
  return result
}

/**
 * Key material read from node-info.yaml: when its data directory also holds the BLS key, that
 * key must be the one node-info.yaml records (refused with how to repair, or, when only the
 * passphrase could tell and none is at hand, with how to record it). The data directory is
 * locked for the rest of the run (not for --check).
 */
export async function assertKeyMaterialOnDisk(
  session: Session,
  keys: { nodeInfoPath: string | undefined; keyDir: string; blsPubkey: `0x${string}` },
  source: PassphraseSource = 'no-passphrase',
  { check = false }: { check?: boolean | undefined } = {},
): Promise<void> {
  if (!keys.nodeInfoPath) return
  // --check only reads: no lock is taken (and no interrupted key commit repaired)
  if (!check) await session.openDatadir(keys.keyDir)
  const { assertKeyOnDisk } = await import('../lib/keys/key-binding.js')
  await assertKeyOnDisk({
    datadir: keys.keyDir,
    nodeInfoKey: Buffer.from(keys.blsPubkey.slice(2), 'hex'),
    source,
    stdin: session.stdin(),
    io: session.passphraseIo(),
    env: session.passphraseEnv(source),
  })
}
