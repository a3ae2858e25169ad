/**
 * src/lib/registry/abi.ts against the compiled contract (contracts/out, written by
 * `node scripts/build.mjs`): every function, error and event tnv declares must exist there
 * with the same signature, outputs and mutability, and every custom error the contract can
 * raise must be decodable by tnv.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { registryAbi } from '../../src/lib/registry/abi.js'
import { ROOT } from '../helpers/cli.js'

type Param = { type: string; components?: readonly Param[]; indexed?: boolean }
type Item = {
  type: string
  name?: string
  inputs?: readonly Param[]
  outputs?: readonly Param[]
  stateMutability?: string
  anonymous?: boolean
}

function canon(p: Param): string {
  if (p.type.startsWith('tuple')) return `(${(p.components ?? []).map(canon).join(',')})${p.type.slice('tuple'.length)}`
  return p.type
}

function signature(item: Item): string {
  const inputs = (item.inputs ?? [])
    .map((p) => `${canon(p)}${item.type === 'event' && p.indexed ? ' indexed' : ''}`)
    .join(',')
  if (item.type === 'function')
    return `function ${item.name}(${inputs}) ${item.stateMutability} returns (${(item.outputs ?? []).map(canon).join(',')})`
  if (item.type === 'event') return `event ${item.name}(${inputs})${item.anonymous ? ' anonymous' : ''}`
  return `${item.type} ${item.name}(${inputs})`
}

function compiledAbi(): Item[] {
  const path = join(ROOT, 'contracts', 'out', 'ConsensusRegistry.json')
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    throw new Error(`${path} is missing: run \`node scripts/build.mjs\` (it compiles the contracts) first`)
  }
  return (JSON.parse(text) as { abi: Item[] }).abi
}

describe('registry ABI', () => {
  const compiled = compiledAbi()
  const compiledSigs = new Set(compiled.filter((i) => i.name).map(signature))

  for (const kind of ['function', 'error', 'event'] as const) {
    it(`every ${kind} tnv declares matches the compiled contract`, () => {
      const ours = (registryAbi as readonly Item[]).filter((i) => i.type === kind)
      assert.ok(ours.length > 0)
      const missing = ours.map(signature).filter((s) => !compiledSigs.has(s))
      assert.deepEqual(missing, [], `not in contracts/out/ConsensusRegistry.json:\n${missing.join('\n')}`)
    })
  }

  it('decodes every custom error the compiled contract declares', () => {
    const ours = new Set((registryAbi as readonly Item[]).filter((i) => i.type === 'error').map(signature))
    const undecodable = compiled
      .filter((i) => i.type === 'error')
      .map(signature)
      .filter((s) => !ours.has(s))
    assert.deepEqual(undecodable, [], `add these errors to src/lib/registry/abi.ts:\n${undecodable.join('\n')}`)
  })
})
