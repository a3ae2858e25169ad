/**
 * `<datadir>/chain.json`: written once a devnet is made. Together with anvil's state file it
 * marks a devnet that can be resumed, and says what it was made from (the genesis or the fork),
 * its chain id, registry generation and code hash, and its rehearsal settings. A directory of
 * the old devnet (format 1: tnv's own registry contract, retired) is refused by the reader.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { writeFileAtomic } from '../../lib/fs/atomic.js'
import type { RegistryGeneration } from '../../lib/registry/generations/detect.js'
import { DevnetStateMismatchError } from './errors.js'
import type { DevnetSourceInfo } from './types.js'

export const CHAIN_RECORD_FILE = 'chain.json'
export const ANVIL_STATE_FILE = 'anvil-state.json'

export type ChainRecord = {
  format: 2
  createdAt: string
  /** The rehearsal's chain id. */
  chainId: number
  source: DevnetSourceInfo
  generation: RegistryGeneration
  registryCodeHash: Hex
  /** Rehearsal epoch length (seconds), null for the registry's. */
  epochSeconds: number | null
  /** anvil's hardfork (from the genesis; prague for a fork). */
  hardfork?: string
}

/**
 * The record, or null when there is none (or it cannot be read).
 * @throws DevnetStateMismatchError for a directory of the old devnet
 */
export async function readChainRecord(datadir: string): Promise<ChainRecord | null> {
  let parsed: { format?: unknown }
  try {
    parsed = JSON.parse(await fs.readFile(join(datadir, CHAIN_RECORD_FILE), 'utf8'))
  } catch {
    return null
  }
  if (parsed.format === 1)
    throw new DevnetStateMismatchError(
      `${datadir} holds a devnet made by an older tnv, which ran tnv's own registry contract; that contract is retired (the devnet now runs the real registry code), so its chain cannot be carried over.`,
      datadir,
    )
  return parsed.format === 2 ? (parsed as ChainRecord) : null
}

export async function writeChainRecord(datadir: string, record: ChainRecord): Promise<void> {
  await writeFileAtomic(join(datadir, CHAIN_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 })
}
