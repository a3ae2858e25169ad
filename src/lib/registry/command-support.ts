/**
 * What the staking commands share between parsing flags and rendering: opening the registry
 * from the chain options, the registry's notes and the result lines. Nothing here writes:
 * output goes through the callbacks the command passes.
 */
import { createChainClient } from '../chain/client.js'
import { resolveChainTarget } from '../chain/resolve-target.js'
import type { ChainFlagValues } from '../options.js'
import type { CheckedTransaction } from '../tx/checked-transaction.js'
import { parseAcceptCodeHash, type RegistryInfo } from './registry-guard.js'
import type { RegistryContext, TxOutcome } from './types.js'

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
    devnetDir: flags['devnet-dir'],
  })
  return {
    target,
    client: createChainClient({
      rpcUrl: target.rpcUrl,
      fetchFn,
      timeoutMs: flags['rpc-timeout'] === undefined ? undefined : flags['rpc-timeout'] * 1000,
    }),
    policy: { generation: flags['registry-generation'], acceptCodeHash },
  }
}

/** The registry's notes (an unknown build read through its interface, an unexpected generation), as stderr lines. */
export function noteRegistry(registry: RegistryInfo | null | undefined, note: (line: string) => void): void {
  for (const line of registry?.notes ?? []) note(`Note: ${line}`)
}

/**
 * Result lines for stdout: the step's own line once sent, the chain's answer when there was
 * nothing to do, the unsigned transaction (JSON, then the `cast send` line), or what --check
 * found would be sent.
 */
export function outcomeLines(
  outcome: TxOutcome,
  sentLine: (sent: Extract<TxOutcome, { outcome: 'sent' }>) => string,
): string[] {
  switch (outcome.outcome) {
    case 'sent':
      return [sentLine(outcome)]
    case 'already-done':
    case 'nothing-to-do':
      return [outcome.message]
    case 'unsigned': {
      const { cast, ...tx } = outcome.unsigned
      return [JSON.stringify(tx, null, 2), cast]
    }
    case 'would-change':
      return checkLines(outcome.transaction)
  }
}

/** --check's human lines: the transaction that would be sent, decoded. */
function checkLines(tx: CheckedTransaction): string[] {
  const args =
    tx.inputs === null
      ? []
      : Object.entries(tx.inputs).map(([k, v]) => `    ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
  return [
    `would send ${tx.function ?? tx.data.slice(0, 10)} (check: nothing was signed or sent)`,
    `  to       ${tx.to} (chain id ${tx.chainId})`,
    `  from     ${tx.from} (nonce ${tx.nonce})`,
    `  value    ${tx.valueTel} (${tx.value} wei)`,
    `  gas      ${tx.gasEstimate} simulated (limit ${tx.gasLimit})`,
    ...(args.length > 0 ? ['  inputs', ...args] : []),
  ]
}
