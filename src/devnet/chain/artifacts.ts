/**
 * Loads the compiled devnet contracts (contracts/out/<Name>.json, written by
 * scripts/compile-contracts.mjs during the build).
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'
import { ContractsNotBuiltError } from './errors.js'

export type ContractName = 'BlsVerifier' | 'ConsensusRegistry' | 'Issuance'

export type StorageLayout = {
  storage: { label: string; slot: string; offset: number; type: string }[]
}

export type ContractArtifact = {
  contractName: ContractName
  abi: Abi
  /** Creation code (constructor + runtime). */
  bytecode: Hex
  /** Runtime code, installed with anvil_setCode. */
  deployedBytecode: Hex
  storageLayout: StorageLayout
}

/** contracts/out, found by walking up from this module (src/devnet/chain in dev, dist/chunks when bundled). */
export function contractsOutDir(start = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start
  for (;;) {
    const candidate = join(dir, 'contracts', 'out')
    if (existsSync(join(candidate, 'build-info.json'))) return candidate
    const parent = dirname(dir)
    if (parent === dir) throw new ContractsNotBuiltError(join(start, '..', 'contracts', 'out'))
    dir = parent
  }
}

const cache = new Map<ContractName, ContractArtifact>()

/**
 * The compiled artifact of one devnet contract.
 * @example const { deployedBytecode } = loadContractArtifact('ConsensusRegistry')
 */
export function loadContractArtifact(name: ContractName): ContractArtifact {
  const cached = cache.get(name)
  if (cached) return cached
  const path = join(contractsOutDir(), `${name}.json`)
  if (!existsSync(path)) throw new ContractsNotBuiltError(path)
  const artifact = JSON.parse(readFileSync(path, 'utf8')) as ContractArtifact
  cache.set(name, artifact)
  return artifact
}

/** The storage slot (as 32-byte hex) of a top-level state variable, from the compiler's layout. */
export function storageSlotOf(artifact: ContractArtifact, label: string): Hex {
  const entry = artifact.storageLayout.storage.find((s) => s.label === label)
  if (!entry) throw new Error(`${artifact.contractName} has no state variable ${label}`)
  if (entry.offset !== 0) throw new Error(`${artifact.contractName}.${label} is packed (offset ${entry.offset})`)
  return `0x${BigInt(entry.slot).toString(16).padStart(64, '0')}`
}
