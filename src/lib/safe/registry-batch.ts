/**
 * The registry transactions of a step (or of the whole onboarding: stake, then activate) as a
 * Safe Transaction Builder batch, simulated in order from the Safe, and written atomically.
 * The calldata is the one tnv's own steps built and checked (`--unsigned`); this adds the file
 * the Safe app imports, with each call decoded with the registry generation's ABI.
 */
import { type Abi, type Address, decodeErrorResult, type Hex } from 'viem'
import type { ChainClient } from '../chain/client.js'
import { formatTelAndWei } from '../chain/units.js'
import { writeOutputFile } from '../fs/output-file.js'
import { registryAbis } from '../registry/generations/detect.js'
import { buildSafeBatch, type SafeBatchFile, type SafeCall } from './batch-file.js'
import { SafeBatchRevertsError } from './errors.js'
import { type SimulateBatchReturnType, simulateBatch } from './simulate-batch.js'

export type RegistrySafeBatchParameters = {
  client: ChainClient
  chainId: number
  safe: Address
  /** The transactions, in the order the Safe is to execute them. */
  transactions: readonly { to: Address; value: string | bigint; data: Hex }[]
  name: string
  /** Where to write the file (atomically, 0644); null: the caller prints it. */
  out: string | null
  /** The Safe's balance, when known (the simulation funds it when short, and this reports it). */
  balance?: bigint | undefined
  createdAt?: number
}

export type RegistrySafeBatchReturnType = {
  format: 'safe-transaction-builder'
  file: string | null
  batch: SafeBatchFile
  simulation: SimulateBatchReturnType
  /** Total value the Safe sends, wei. */
  value: string
  warnings: string[]
}

/** Both generations' functions, the next first: a selector names its function in either. */
const REGISTRY_ABI = [...registryAbis.next, ...registryAbis.adiri] as Abi

export async function registrySafeBatch({
  client,
  chainId,
  safe,
  transactions,
  name,
  out,
  balance,
  createdAt,
}: RegistrySafeBatchParameters): Promise<RegistrySafeBatchReturnType> {
  const calls: SafeCall[] = transactions.map((t) => ({ to: t.to, value: BigInt(t.value), data: t.data }))
  const total = calls.reduce((s, c) => s + c.value, 0n)
  const warnings: string[] = []
  const short = balance !== undefined && balance < total
  if (short)
    warnings.push(
      `The Safe ${safe} holds ${formatTelAndWei(balance)}, less than the ${formatTelAndWei(total)} the batch sends: fund it before the owners execute the batch.`,
    )
  const fund = short || balance === undefined ? total + 10n ** 24n : undefined
  const simulation = await simulateBatch(client, {
    from: safe,
    calls,
    errorAbi: REGISTRY_ABI,
    ...(fund !== undefined ? { fund } : {}),
  })
  // without eth_simulateV1 the first call at least is checked here, from the Safe (eth_call); the
  // ones after it depend on the state it leaves, which eth_call cannot carry over
  const firstCallError = simulation.simulated ? null : await callFails(client, safe, calls[0], fund)
  const batch = buildSafeBatch({
    chainId,
    safe,
    name,
    description: `tnv: ${calls.length === 1 ? 'one registry transaction' : `${calls.length} registry transactions, executed in this order`} from ${safe} on chain ${chainId}; ${formatTelAndWei(total)} in all. ${simulation.simulated ? 'Simulated by tnv in order from the Safe before the file was written.' : 'NOT simulated as a batch (the endpoint has no eth_simulateV1): simulate it in the Safe app before executing.'}`,
    calls,
    abi: REGISTRY_ABI,
    ...(createdAt !== undefined ? { createdAt } : {}),
  })
  if (simulation.simulated) {
    const i = simulation.calls.findIndex((c) => !c.ok)
    const failed = simulation.calls[i]
    if (failed && !failed.ok)
      throw new SafeBatchRevertsError(i + 1, batch.transactions[i]?.contractMethod.name ?? '?', failed.error)
  } else {
    if (firstCallError !== null)
      throw new SafeBatchRevertsError(1, batch.transactions[0]?.contractMethod.name ?? '?', firstCallError)
    const first = batch.transactions[0]?.contractMethod.name ?? 'the first call'
    warnings.push(
      calls.length === 1
        ? `The batch was not simulated as the Safe executes it: ${simulation.reason}. Its call (${first}) was checked alone from the Safe (eth_call); the owners should simulate the batch in the Safe app before executing it.`
        : `The batch was not simulated as a whole: ${simulation.reason}. Only its first call (${first}) was checked, alone, from the Safe (eth_call); the ${calls.length - 1} after it were NOT checked. The owners should simulate the batch in the Safe app before executing it.`,
    )
  }
  if (out !== null) await writeOutputFile(out, `${JSON.stringify(batch, null, 2)}\n`, { flag: '--out', mode: 0o644 })
  return { format: 'safe-transaction-builder', file: out, batch, simulation, value: total.toString(), warnings }
}

/** The revert reason of one call from the Safe (eth_call, funded when `fund` is given), or null when it passes. */
async function callFails(
  client: ChainClient,
  from: Address,
  call: SafeCall | undefined,
  fund: bigint | undefined,
): Promise<string | null> {
  if (!call) return null
  try {
    await client.call({
      account: from,
      to: call.to,
      data: call.data,
      value: call.value,
      ...(fund !== undefined ? { stateOverride: [{ address: from, balance: fund }] } : {}),
    })
    return null
  } catch (err) {
    const data = (err as { walk?: (f: (e: unknown) => boolean) => unknown }).walk?.(
      (e) => typeof (e as { data?: unknown }).data === 'string',
    ) as { data?: Hex } | undefined
    if (data?.data && data.data.length >= 10) {
      try {
        const d = decodeErrorResult({ abi: REGISTRY_ABI, data: data.data })
        return `${d.errorName}(${(d.args ?? []).map(String).join(', ')})`
      } catch {
        // not one of the registry's errors
      }
    }
    const e = err as { shortMessage?: string; message?: string }
    return e.shortMessage ?? e.message ?? String(err)
  }
}
