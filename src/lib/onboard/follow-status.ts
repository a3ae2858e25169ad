/**
 * Follows a validator's on-chain state until a condition holds (Active, Exited, the unstake
 * epoch, a ConsensusNFT), under a spinner whose text shows where the chain is: a progress bar
 * of the blocks to the next epoch boundary when epochs are counted in blocks (the devnet).
 * With --json a `progress` event is emitted whenever the shown state changes.
 */
import type { Address } from 'viem'
import { readValidatorStatus, type ValidatorStatus } from '../registry/read-validator-status.js'
import type { RegistryContext } from '../registry/types.js'
import { progressBar, type WizardIo } from '../wizard/io.js'
import { WaitTimeoutError } from './errors.js'

export type FollowStatusParameters = {
  address: Address
  /** The state being waited for (e.g. "Active"), for messages. */
  what: string
  until: (s: ValidatorStatus) => boolean
  /** One line about where things stand. */
  describe: (s: ValidatorStatus) => string
  timeoutMs: number
  fix: string
  pollMs?: number
}

/** `epoch 3: [#####-----] 30/60 s, epoch 4 due in about 30 s` */
export function epochProgress(s: ValidatorStatus): string {
  if (s.secondsToNextEpoch === null) return `epoch ${s.currentEpoch}; the next epoch boundary is on the network's clock`
  const total = Math.max(s.epochSeconds, s.secondsToNextEpoch)
  const elapsed = total - s.secondsToNextEpoch
  const bar = total <= 3600 ? `${progressBar(elapsed, total)} s, ` : ''
  return `epoch ${s.currentEpoch}: ${bar}epoch ${s.currentEpoch + 1} due in about ${formatSeconds(s.secondsToNextEpoch)} (the network closes it)`
}

function formatSeconds(s: number): string {
  if (s < 120) return `${s} s`
  if (s < 7200) return `${Math.round(s / 60)} min`
  return `${(s / 3600).toFixed(1)} h`
}

export async function followStatus(
  io: WizardIo,
  ctx: RegistryContext,
  { address, what, until, describe, timeoutMs, fix, pollMs = 1000 }: FollowStatusParameters,
): Promise<ValidatorStatus> {
  const first = await readValidatorStatus(ctx, { address })
  if (until(first)) return first
  const deadline = Date.now() + timeoutMs
  return io.wait(
    describe(first),
    async (spinner) => {
      let last = ''
      for (;;) {
        const s = await readValidatorStatus(ctx, { address })
        if (until(s)) return s
        const line = describe(s)
        if (line !== last) {
          spinner.update(line)
          if (io.json)
            io.emit({
              event: 'progress',
              waitingFor: what,
              status: s.status,
              epoch: s.currentEpoch,
              blockNumber: s.blockNumber,
              secondsToNextEpoch: s.secondsToNextEpoch,
              epochSeconds: s.epochSeconds,
            })
          last = line
        }
        if (Date.now() > deadline)
          throw new WaitTimeoutError(`${address} becoming ${what}`, Math.round(timeoutMs / 1000), fix)
        await new Promise((r) => setTimeout(r, pollMs))
      }
    },
    (s) => `${address} is ${s.status} (epoch ${s.currentEpoch})`,
  )
}
