/**
 * `--unsigned --format safe`: the unsigned transactions of a step (or of the onboarding) as a
 * Safe Transaction Builder batch, with what tnv knows about the Safe (a contract? a Safe of which
 * version and threshold? its balance) on stderr, and the file (or, without --out, the batch) as
 * the result.
 */
import type { Address } from 'viem'
import type { UnsignedTransaction } from '../lib/chain/transaction.js'
import type { SignerFlagValues } from '../lib/options.js'
import type { RegistryContext } from '../lib/registry/types.js'
import { SafeFormatNeedsUnsignedError } from '../lib/safe/errors.js'
import type { RegistrySafeBatchParameters, RegistrySafeBatchReturnType } from '../lib/safe/registry-batch.js'

/** Refuses --format safe without --unsigned before anything is read or signed. */
export function assertSafeFormat(flags: SignerFlagValues): boolean {
  if (flags.format !== 'safe') return false
  if (!flags.unsigned) throw new SafeFormatNeedsUnsignedError()
  return true
}

export async function writeSafeBatch({
  ctx,
  flags,
  chainId,
  safe,
  calls,
  name,
  out,
  note,
}: {
  ctx: RegistryContext
  flags: SignerFlagValues
  chainId: number
  safe: Address
  /** The calls, in the order the Safe executes them. */
  calls: RegistrySafeBatchParameters['transactions']
  name: string
  out: (line: string) => void
  note: (line: string) => void
}): Promise<RegistrySafeBatchReturnType> {
  // the place of the batch file is checked before the chain is read
  if (flags.out) await (await import('../lib/fs/output-file.js')).assertOutputPath(flags.out, '--out')
  const [{ readAccountKind }, { registrySafeBatch }, { formatTelAndWei }] = await Promise.all([
    import('../lib/safe/account-kind.js'),
    import('../lib/safe/registry-batch.js'),
    import('../lib/chain/units.js'),
  ])
  const [kind, balance] = await Promise.all([
    readAccountKind(ctx.client, safe),
    ctx.client.getBalance({ address: safe }),
  ])
  if (kind.kind === 'account')
    note(
      `Warning: ${safe} has no code: it is not a Safe, so no Safe can execute this batch. For a plain account, sign with --keystore, TN_PRIVATE_KEY or a hardware wallet instead.`,
    )
  else if (kind.safe)
    note(`${safe} is a Safe ${kind.safe.version}: ${kind.safe.threshold} of ${kind.safe.owners.length} owners confirm.`)
  else note(`${safe} is a contract that does not answer as a Safe (VERSION, getThreshold, getOwners).`)
  const r = await registrySafeBatch({
    client: ctx.client,
    chainId,
    safe,
    transactions: calls,
    name,
    out: flags.out ?? null,
    balance,
  })
  for (const w of r.warnings) note(`Warning: ${w}`)
  const methods = r.batch.transactions.map((t) => t.contractMethod.name).join(' → ')
  if (r.file)
    out(
      `Safe Transaction Builder batch written to ${r.file}: ${methods}, ${formatTelAndWei(BigInt(r.value))} from ${safe} on chain ${chainId}${r.simulation.simulated ? ', simulated in order' : ', NOT simulated as a batch (see the warning)'}. Import it in the Safe app (Apps → Transaction Builder → drag the file), then the owners confirm and execute it.`,
    )
  else out(JSON.stringify(r.batch, null, 2))
  return r
}

/**
 * After a one-transaction step: with `--unsigned --format safe`, its transaction as a Safe batch
 * (written or printed here), else null and the command prints its usual lines.
 */
export async function safeBatchOfStep(
  ctx: RegistryContext,
  flags: SignerFlagValues,
  result: { outcome: string; unsigned?: UnsignedTransaction },
  { name, out, note }: { name: string; out: (line: string) => void; note: (line: string) => void },
): Promise<RegistrySafeBatchReturnType | null> {
  if (flags.format !== 'safe' || result.outcome !== 'unsigned' || !result.unsigned) return null
  return writeSafeBatch({
    ctx,
    flags,
    chainId: result.unsigned.chainId,
    safe: result.unsigned.from,
    calls: [{ to: result.unsigned.to, value: result.unsigned.value, data: result.unsigned.data }],
    name,
    out,
    note,
  })
}
