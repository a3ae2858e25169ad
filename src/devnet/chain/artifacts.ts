/**
 * Loads the compiled devnet contract (contracts/out/<Name>.json, written by
 * scripts/compile-contracts.mjs during the build): the EVM BLS verifier installed at the node's
 * precompile address 0x…b151 where the registry generation calls it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Abi, Hex } from 'viem'
import { ContractsNotBuiltError } from './errors.js'

export type ContractName = 'BlsVerifier'

export type ContractArtifact = {
  contractName: ContractName
  abi: Abi
  /** Creation code (constructor + runtime). */
  bytecode: Hex
  /** Runtime code, installed with anvil_setCode or in a genesis alloc. */
  deployedBytecode: Hex
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
 * @example const { deployedBytecode } = loadContractArtifact('BlsVerifier')
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
