/**
 * `<datadir>/chain.json`: written once a fresh devnet is bootstrapped. Together with anvil's
 * state file it marks a devnet that can be resumed; it also keeps the registry's storage layout
 * hash so that changed contract code can be installed in place when the layout is unchanged.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { Address } from 'viem'
import { writeFileAtomic } from '../../lib/fs/atomic.js'

export const CHAIN_RECORD_FILE = 'chain.json'
export const ANVIL_STATE_FILE = 'anvil-state.json'

export type ChainRecord = {
  format: 1
  chainId: number
  createdAt: string
  /** sha256 of the registry's storage layout (compiler output) the chain was created with. */
  registryStorageLayout: string
  genesisValidators: Address[]
}

export async function readChainRecord(datadir: string): Promise<ChainRecord | null> {
  try {
    const parsed = JSON.parse(await fs.readFile(join(datadir, CHAIN_RECORD_FILE), 'utf8')) as ChainRecord
    return parsed.format === 1 ? parsed : null
  } catch {
    return null
  }
}

export async function writeChainRecord(datadir: string, record: ChainRecord): Promise<void> {
  await writeFileAtomic(join(datadir, CHAIN_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`)
}
