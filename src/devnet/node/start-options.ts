/**
 * `tnv devnet start`'s own values, checked before anything starts: the node flags given after `--`
 * (the ones tnv sets itself are refused there), --chain-id (a number or `genesis`), --fork-block,
 * and --epoch-seconds (or the deprecated --epoch-blocks, converted with --block-time).
 */
import { BadInputError, UsageError } from '../../lib/errors.js'

export type DevnetStartOptionsParameters = {
  /** The node flags given after `--`. */
  givenNodeFlags: readonly string[]
  chainId?: string | undefined
  forkBlock?: string | undefined
  epochSeconds?: number | undefined
  /** Deprecated: epochs end by time, as on the node. */
  epochBlocks?: number | undefined
  blockTime?: number | undefined
}

export type DevnetStartOptionsReturnType = {
  chainId: number | 'genesis' | undefined
  forkBlock: bigint | undefined
  epochSeconds: number | undefined
}

/**
 * @example const values = devnetStartOptions({ givenNodeFlags: ['--http'], chainId: 'genesis' }, warn)
 * @throws UsageError for a flag tnv sets itself given after `--`, or --epoch-blocks with --epoch-seconds;
 *   BadInputError for a --chain-id or --fork-block that is not one
 */
export function devnetStartOptions(
  {
    givenNodeFlags,
    chainId: chainIdFlag,
    forkBlock: forkBlockFlag,
    epochSeconds,
    epochBlocks,
    blockTime,
  }: DevnetStartOptionsParameters,
  warn: (warning: string) => void,
): DevnetStartOptionsReturnType {
  assertGivenNodeFlags(givenNodeFlags)
  let chainId: number | 'genesis' | undefined
  if (chainIdFlag !== undefined) {
    const v = chainIdFlag.trim()
    if (v === 'genesis') chainId = 'genesis'
    else if (/^[0-9]{1,15}$/.test(v) && Number(v) > 0) chainId = Number(v)
    else
      throw new BadInputError(`--chain-id ${JSON.stringify(chainIdFlag)} is not a chain id.`, {
        fix: "Pass a positive whole number, or `genesis` for the genesis file's (or the forked chain's) own.",
      })
  }
  let forkBlock: bigint | undefined
  if (forkBlockFlag !== undefined) {
    if (!/^[0-9]{1,20}$/.test(forkBlockFlag.trim()))
      throw new BadInputError(`--fork-block ${JSON.stringify(forkBlockFlag)} is not a block number.`, {
        fix: 'Pass a block number (decimal), or leave it out for the latest block.',
      })
    forkBlock = BigInt(forkBlockFlag.trim())
  }
  if (epochBlocks !== undefined) {
    if (epochSeconds !== undefined)
      throw new UsageError('--epoch-blocks is deprecated and cannot be combined with --epoch-seconds.', {
        fix: 'Use --epoch-seconds only.',
      })
    epochSeconds = epochBlocks * Math.max(blockTime ?? 1, 1)
    warn(`--epoch-blocks is deprecated (epochs end by time, as on the node): using --epoch-seconds ${epochSeconds}.`)
  }
  return { chainId, forkBlock, epochSeconds }
}

/** --datadir, --chain and --devnet.* are tnv's own: given after `--`, they are refused with the flag to use. */
function assertGivenNodeFlags(given: readonly string[]): void {
  const named = given.map((f) => f.split('=')[0])
  for (const own of ['--datadir', '--chain']) {
    if (named.includes(own)) {
      throw new UsageError(`${own} is set by \`tnv devnet start\` itself and cannot be given after \`--\`.`, {
        fix:
          own === '--datadir'
            ? 'Give the devnet directory as --datadir before `--`.'
            : 'Remove it: the devnet is always --chain dev.',
      })
    }
  }
  if (named.some((n) => n?.startsWith('--devnet.')))
    throw new UsageError('The --devnet.* node flags are set by `tnv devnet start` from its own flags.', {
      fix: 'Use --genesis, --fork-url, --fork-block, --chain-id, --epoch-seconds, --block-time and --history-blocks before `--`.',
    })
}
