/** Options that keep a long-running engine's memory flat (decided by measurement; docs/reliability.md). */
export const ENGINE_MEMORY_ARGS: readonly string[] = process.env.SCRATCH_ANVIL_ARGS
  ? process.env.SCRATCH_ANVIL_ARGS.split(' ')
  : []

/** The allocator's settings for anvil's environment. */
export function engineAllocatorEnv(): Record<string, string> {
  return process.env.SCRATCH_RJEM ? { _RJEM_MALLOC_CONF: process.env.SCRATCH_RJEM } : {}
}
