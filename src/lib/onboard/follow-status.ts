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

/** `PendingActivation, epoch 3: [#####-----] 3/6 blocks to epoch 4` */
export function epochProgress(s: ValidatorStatus): string {
  if (s.blocksToNextEpoch === null)
    return s.secondsToNextEpoch === null
      ? `epoch ${s.currentEpoch}; the next epoch boundary is on the network's clock`
      : `epoch ${s.currentEpoch}; the next epoch is due in about ${formatSeconds(s.secondsToNextEpoch)} (the network closes it)`
  // the boundary block itself may count on top of the epoch's length
  const total = Math.max(s.epochDuration, s.blocksToNextEpoch)
  return `epoch ${s.currentEpoch}: ${progressBar(total - s.blocksToNextEpoch, total)} blocks, ${s.blocksToNextEpoch} to epoch ${s.currentEpoch + 1}`
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
              blocksToNextEpoch: s.blocksToNextEpoch,
              epochDuration: s.epochDuration,
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
