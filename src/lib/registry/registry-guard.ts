/**
 * The drift guard (issue 12): what the code at the registry address is, and whether a command
 * may use it.
 * - exact: the code of a shipped genesis (KNOWN_REGISTRY_CODE): used.
 * - interface: every function of exactly one generation, another build: read with that
 *   generation's ABI (with a note); building calldata or signing needs the operator to accept
 *   that exact code hash (--accept-registry-code / TN_ACCEPT_REGISTRY_CODE).
 * - none (or no code): nothing is built or signed; a read-only command reads only when the code
 *   has every view it needs (with a note), else it says what it can and cannot read.
 * `--registry-generation` that disagrees with the code found is an error for every command.
 */
import type { Hex } from 'viem'
import type { ChainInfo } from '../chain/check-chain-id.js'
import type { ChainTarget } from '../chain/resolve-target.js'
import { BadInputError } from '../errors.js'
import {
  type FoundCode,
  RegistryCodeNotAcceptedError,
  RegistryGenerationMismatchError,
  UnknownRegistryCodeError,
  UnreadableRegistryError,
} from './errors.js'
import type { RegistryAdapter } from './generations/adapter.js'
import { registryAdapters } from './generations/adapters.js'
import {
  detectRegistryGeneration,
  functionSelectors,
  pushedSelectors,
  type RegistryCodeReport,
  type RegistryGeneration,
} from './generations/detect.js'
import { type SharedFunctionName, sharedRegistryAbi } from './generations/shared-abi.js'

/** What the operator said about the registry code (flags or environment). */
export type RegistryCodePolicy = {
  /** --registry-generation: the generation expected; another one is an error. */
  generation?: RegistryGeneration | undefined
  /** --accept-registry-code: a code hash accepted for signing although it is not a known build. */
  acceptCodeHash?: Hex | undefined
}

/** The registry found, as reported in JSON results. */
export type RegistryInfo = {
  address: Hex
  generation: RegistryGeneration | null
  match: RegistryCodeReport['match']
  codeHash: Hex | null
  /** Where the exact code comes from (a shipped genesis), when known. */
  source: string | null
  /** Things the operator should know (an unknown build read through its interface, ...). */
  notes: string[]
}

/** The detection, kept for the command's lifetime (the code is read once per command). */
export type BoundRegistry = {
  report: RegistryCodeReport
  /** Selectors the code's dispatcher holds (for what a read-only command can read). */
  selectors: Set<Hex>
}

export function bindRegistryCode(code: Hex | undefined | null): BoundRegistry {
  const report = detectRegistryGeneration(code)
  return { report, selectors: code && code !== '0x' ? pushedSelectors(code) : new Set() }
}

/** Parses --accept-registry-code: a 32-byte 0x hash. */
export function parseAcceptCodeHash(value: string | undefined): Hex | undefined {
  if (value === undefined || value === '') return undefined
  if (!/^0x[0-9a-fA-F]{64}$/.test(value))
    throw new BadInputError(`--accept-registry-code ${value} is not a 32-byte code hash.`, {
      fix: 'Pass the 0x-prefixed keccak256 code hash exactly as tnv printed it when it refused the code.',
    })
  return value.toLowerCase() as Hex
}

export type GuardRegistryParameters = {
  bound: BoundRegistry
  target: ChainTarget
  chain: ChainInfo
  policy: RegistryCodePolicy
  /** write: the command builds calldata or signs. */
  purpose: 'read' | 'write'
  /** What would be signed, for messages ("stake"). */
  action: string
  /** Read-only on unrecognised code: the shared views the command needs. */
  needs?: readonly SharedFunctionName[] | undefined
}

export type GuardRegistryReturnType = { adapter: RegistryAdapter | null; info: RegistryInfo }

/**
 * @example const { adapter, info } = guardRegistry({ bound, target, chain, policy, purpose: 'write', action: 'stake' })
 */
export function guardRegistry({
  bound,
  target,
  chain,
  policy,
  purpose,
  action,
  needs = [],
}: GuardRegistryParameters): GuardRegistryReturnType {
  const { report } = bound
  const network = `${chain.name} (chain id ${chain.chainId})`
  const found: FoundCode = {
    address: target.registry,
    network,
    codeHash: report.codeHash,
    codeSize: report.codeSize,
    missing: report.missing,
  }
  const notes: string[] = []
  const info = (generation: RegistryGeneration | null): RegistryInfo => ({
    address: target.registry,
    generation,
    match: report.match,
    codeHash: report.codeHash,
    source: report.source,
    notes,
  })

  if (policy.generation !== undefined && report.generation !== policy.generation)
    throw new RegistryGenerationMismatchError({
      address: target.registry,
      network,
      expected: policy.generation,
      found: report.generation,
      missing: report.missing[policy.generation],
    })

  if (report.generation === null) {
    if (purpose === 'write') throw new UnknownRegistryCodeError(found, action)
    const can: string[] = []
    const cannot: string[] = []
    const selectors = functionSelectors(sharedRegistryAbi)
    for (const name of needs) {
      const s = selectors.find((x) => x.name === name)
      if (s && bound.selectors.has(s.selector)) can.push(s.signature)
      else cannot.push(s?.signature ?? name)
    }
    if (report.codeHash === null || cannot.length > 0 || needs.length === 0)
      throw new UnreadableRegistryError(found, { can, cannot })
    notes.push(
      `The code at ${target.registry} (code hash ${report.codeHash}) is not a registry generation tnv knows; these values were read through the views both generations share, and what only one generation has is shown as unavailable.`,
    )
    return { adapter: null, info: info(null) }
  }

  const generation = report.generation
  if (report.match === 'interface') {
    const accepted = policy.acceptCodeHash !== undefined && policy.acceptCodeHash === report.codeHash
    if (purpose === 'write' && !accepted)
      throw new RegistryCodeNotAcceptedError({
        address: target.registry,
        network,
        generation,
        codeHash: report.codeHash as string,
        accepted: policy.acceptCodeHash,
        action,
      })
    notes.push(
      accepted
        ? `Registry code ${report.codeHash} is not a build tnv knows; it was accepted with --accept-registry-code and is used as the ${generation} generation (it has that generation's full interface).`
        : `Registry code ${report.codeHash} is not a build tnv knows; it has the full interface of the ${generation} generation, so it was read as that. tnv will not sign for it unless you accept this exact code with --accept-registry-code ${report.codeHash}.`,
    )
  }
  if (target.generations.length > 0 && !target.generations.includes(generation))
    notes.push(
      `${chain.name} was expected to run the ${target.generations.join(' or ')} registry; the code found is the ${generation} generation, which tnv uses.`,
    )
  return { adapter: registryAdapters[generation], info: info(generation) }
}
