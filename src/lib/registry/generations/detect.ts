/**
 * Which registry generation a piece of deployed code is (several deployed versions behind one
 * interface: ./adapter.ts). Two signals:
 * - the code hash: the exact code of a shipped genesis is recognised as that generation;
 * - the dispatcher's selectors (every PUSH4, and PUSH3 for selectors with a leading zero
 *   byte, read by walking the opcodes so push data is never taken for an opcode): they say
 *   which generation's interface the code has, and what is missing when it has neither.
 * Nothing is ever guessed: code that is neither is reported with what was found.
 */
import { type Abi, type Hex, hexToBytes, keccak256, toFunctionSelector } from 'viem'
import { adiriRegistryAbi } from './abi-adiri.js'
import { nextRegistryAbi } from './abi-next.js'

import { KNOWN_REGISTRY_CODE, REGISTRY_GENERATIONS, type RegistryGeneration } from './known-code.js'

export { KNOWN_REGISTRY_CODE, REGISTRY_GENERATIONS, type RegistryGeneration }

export const registryAbis = { adiri: adiriRegistryAbi, next: nextRegistryAbi } as const

export type SelectorInfo = { name: string; signature: string; selector: Hex }

/** Every function of an ABI with its selector. */
export function functionSelectors(abi: Abi): SelectorInfo[] {
  const out: SelectorInfo[] = []
  for (const item of abi) {
    if (item.type !== 'function') continue
    const signature = `${item.name}(${item.inputs.map(formatParam).join(',')})`
    out.push({ name: item.name, signature, selector: toFunctionSelector(signature) })
  }
  return out
}

function formatParam(p: { type: string; components?: readonly unknown[] }): string {
  if (!p.type.startsWith('tuple')) return p.type
  const inner = (p.components as { type: string; components?: readonly unknown[] }[]).map(formatParam).join(',')
  return `(${inner})${p.type.slice('tuple'.length)}`
}

/** The 4-byte values the code pushes (PUSH4, and PUSH3 left-padded), as lowercase 0x hex. */
export function pushedSelectors(code: Hex): Set<Hex> {
  const bytes = hexToBytes(code)
  const found = new Set<Hex>()
  for (let i = 0; i < bytes.length; i++) {
    const op = bytes[i] as number
    if (op >= 0x60 && op <= 0x7f) {
      const n = op - 0x5f
      if (n === 3 || n === 4) {
        let hex = ''
        for (let j = 1; j <= n; j++) hex += ((bytes[i + j] ?? 0) as number).toString(16).padStart(2, '0')
        found.add(`0x${hex.padStart(8, '0')}`)
      }
      i += n
    }
  }
  return found
}

export type RegistryCodeReport = {
  /** keccak256 of the runtime code (null: no code). */
  codeHash: Hex | null
  codeSize: number
  /** The generation, when the code is recognised. */
  generation: RegistryGeneration | null
  /**
   * exact: the code of a shipped genesis; interface: every function of exactly one generation
   * is in the dispatcher but the code differs (another build, or a changed contract); none.
   */
  match: 'exact' | 'interface' | 'none'
  /** Where the exact code comes from. */
  source: string | null
  /** Per generation, the functions (signatures) whose selectors the code lacks. */
  missing: Record<RegistryGeneration, string[]>
}

/**
 * @example
 * const report = detectRegistryGeneration(await client.getCode({ address: REGISTRY_ADDRESS }))
 * report.generation // 'next'
 */
export function detectRegistryGeneration(code: Hex | undefined | null): RegistryCodeReport {
  const missing = { adiri: [] as string[], next: [] as string[] }
  if (!code || code === '0x') {
    for (const g of REGISTRY_GENERATIONS) missing[g] = functionSelectors(registryAbis[g]).map((s) => s.signature)
    return { codeHash: null, codeSize: 0, generation: null, match: 'none', source: null, missing }
  }
  const codeHash = keccak256(code)
  const codeSize = (code.length - 2) / 2
  const pushed = pushedSelectors(code)
  for (const g of REGISTRY_GENERATIONS)
    missing[g] = functionSelectors(registryAbis[g])
      .filter((s) => !pushed.has(s.selector))
      .map((s) => s.signature)
  const known = KNOWN_REGISTRY_CODE[codeHash]
  if (known) return { codeHash, codeSize, generation: known.generation, match: 'exact', source: known.source, missing }
  const complete = REGISTRY_GENERATIONS.filter((g) => missing[g].length === 0)
  if (complete.length === 1)
    return {
      codeHash,
      codeSize,
      generation: complete[0] as RegistryGeneration,
      match: 'interface',
      source: null,
      missing,
    }
  return { codeHash, codeSize, generation: null, match: 'none', source: null, missing }
}
