/** The adapter of each generation, and the error table when the generation is not known. */
import type { Abi } from 'viem'
import type { RegistryAdapter } from './adapter.js'
import { adiriAdapter } from './adiri.js'
import type { RegistryGeneration } from './detect.js'
import { nextAdapter } from './next.js'

export const registryAdapters: Readonly<Record<RegistryGeneration, RegistryAdapter>> = {
  adiri: adiriAdapter,
  next: nextAdapter,
}

/** Every error either generation (and what they call) can raise, first match by selector wins. */
export const anyGenerationErrorAbi: Abi = [...nextAdapter.errorAbi, ...adiriAdapter.errorAbi]
