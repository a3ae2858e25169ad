/**
 * Simulates a batch as the Safe executes it: every call from the Safe, in order, each seeing the
 * state the ones before it left (eth_simulateV1, one round trip; reth, which the node runs, and
 * anvil serve it). So `activate` is checked after the `stake` in front of it, which a plain
 * eth_call of activate alone cannot do (the validator is not Staked yet). The Safe is given the
 * batch's value in a state override when it holds less, so the calls themselves are checked; the
 * balance is reported separately. An endpoint without eth_simulateV1 gives `simulated: false`
 * with the reason, never a pass.
 */
import { type Abi, type Address, decodeErrorResult, type Hex, numberToHex } from 'viem'
import type { ChainClient } from '../chain/client.js'
import type { SafeCall } from './batch-file.js'

export type SimulateBatchParameters = { from: Address; calls: readonly SafeCall[]; errorAbi?: Abi; fund?: bigint }

/** gasUsed in decimal (JSON-safe). */
export type SimulatedCall = { ok: true; gasUsed: string } | { ok: false; error: string }

export type SimulateBatchReturnType = { simulated: true; calls: SimulatedCall[] } | { simulated: false; reason: string }

type SimCallResult = { status?: Hex; gasUsed?: Hex; returnData?: Hex; error?: { message?: string; data?: Hex } }

export async function simulateBatch(
  client: ChainClient,
  { from, calls, errorAbi, fund }: SimulateBatchParameters,
): Promise<SimulateBatchReturnType> {
  const request = client.request as unknown as (args: { method: string; params: unknown[] }) => Promise<unknown>
  let result: unknown
  try {
    result = await request({
      method: 'eth_simulateV1',
      params: [
        {
          blockStateCalls: [
            {
              calls: calls.map((c) => ({ from, to: c.to, data: c.data, value: numberToHex(c.value) })),
              ...(fund !== undefined ? { stateOverrides: { [from]: { balance: numberToHex(fund) } } } : {}),
            },
          ],
          validation: false,
        },
        'latest',
      ],
    })
  } catch (err) {
    const e = err as { code?: number; details?: string; shortMessage?: string; message?: string }
    const said = e.details ?? e.shortMessage ?? e.message ?? 'error'
    return {
      simulated: false,
      reason:
        e.code === -32601
          ? `the endpoint does not serve eth_simulateV1 (${said})`
          : `eth_simulateV1 failed on the endpoint (${said})`,
    }
  }
  const block = Array.isArray(result) ? (result[0] as { calls?: SimCallResult[] } | undefined) : undefined
  if (!block?.calls || block.calls.length !== calls.length)
    return { simulated: false, reason: 'eth_simulateV1 answered something other than one result per call' }
  return {
    simulated: true,
    calls: block.calls.map((c): SimulatedCall => {
      if (c.status === '0x1') return { ok: true, gasUsed: BigInt(c.gasUsed ?? '0x0').toString() }
      const data = c.error?.data ?? c.returnData
      let reason = c.error?.message ?? 'reverted'
      if (errorAbi && data && data.length >= 10) {
        try {
          const d = decodeErrorResult({ abi: errorAbi, data })
          reason = `${d.errorName}(${(d.args ?? []).map(String).join(', ')})`
        } catch {
          // not one of the registry's errors: keep the node's message
        }
      }
      return { ok: false, error: reason }
    }),
  }
}
