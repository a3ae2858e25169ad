/**
 * The network data tnv ships (networks/): files unchanged since they were copied from their
 * public sources (SHA256SUMS), the generated ABI tables equal to the JSON they come from, and
 * the registry code of each shipped genesis recognised as its generation with no selector of
 * its ABI missing from the dispatcher.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { parse } from 'yaml'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import {
  detectRegistryGeneration,
  functionSelectors,
  KNOWN_REGISTRY_CODE,
  pushedSelectors,
  registryAbis,
} from '../../src/lib/registry/generations/detect.js'
import { ROOT } from '../helpers/cli.js'

const NETWORKS = join(ROOT, 'networks')

function registryCode(generation: 'adiri' | 'next'): `0x${string}` {
  const genesis = parse(readFileSync(join(NETWORKS, generation, 'genesis.yaml'), 'utf8')) as {
    alloc: Record<string, { code?: string }>
  }
  const key = Object.keys(genesis.alloc).find((a) => a.toLowerCase() === REGISTRY_ADDRESS.toLowerCase())
  assert.ok(key, `no registry in networks/${generation}/genesis.yaml`)
  return genesis.alloc[key]?.code as `0x${string}`
}

describe('networks/', () => {
  it('every file matches SHA256SUMS', () => {
    const lines = readFileSync(join(NETWORKS, 'SHA256SUMS'), 'utf8').trim().split('\n')
    assert.ok(lines.length >= 9)
    for (const line of lines) {
      const [hash, file] = line.split(/\s+/)
      const actual = createHash('sha256')
        .update(readFileSync(join(NETWORKS, file as string)))
        .digest('hex')
      assert.equal(actual, hash, `networks/${file} changed`)
    }
  })

  for (const generation of ['adiri', 'next'] as const) {
    it(`the ${generation} ABI table equals networks/abi/consensus-registry-${generation}.json`, () => {
      const json = JSON.parse(readFileSync(join(NETWORKS, 'abi', `consensus-registry-${generation}.json`), 'utf8')) as {
        type: string
      }[]
      assert.deepEqual(
        registryAbis[generation],
        json.filter((e) => e.type !== 'constructor'),
      )
    })

    it(`the ${generation} genesis registry is recognised exactly, every function in its dispatcher`, () => {
      const code = registryCode(generation)
      const report = detectRegistryGeneration(code)
      assert.equal(report.generation, generation)
      assert.equal(report.match, 'exact')
      assert.deepEqual(report.missing[generation], [])
      assert.equal(KNOWN_REGISTRY_CODE[report.codeHash as `0x${string}`]?.generation, generation)
    })
  }

  it('the generations differ in the selectors the fact sheets name', () => {
    const adiri = pushedSelectors(registryCode('adiri'))
    const next = pushedSelectors(registryCode('next'))
    // registry.md §9 and registry-next.md §1
    for (const s of ['0xb5184324', '0xf2888dbb', '0xe3716d04', '0x8bb43f3a', '0x6850eb31'] as const) {
      assert.ok(adiri.has(s), `adiri has ${s}`)
      assert.ok(!next.has(s), `next lacks ${s}`)
    }
    for (const s of [
      '0x2fb0d025',
      '0xf66a25a4',
      '0xad6cfb86',
      '0x127ce8e8',
      '0xb5545a3c',
      '0x43401a00',
      '0xc53a0292',
    ] as const) {
      assert.ok(next.has(s), `next has ${s}`)
      assert.ok(!adiri.has(s), `adiri lacks ${s}`)
    }
  })

  it('code of neither generation is reported with what it lacks, never guessed', () => {
    const code = registryCode('next').replace('2fb0d025', '2fb0d026') as `0x${string}`
    const report = detectRegistryGeneration(code)
    assert.equal(report.generation, null)
    assert.equal(report.match, 'none')
    assert.deepEqual(report.missing.next, ['stake(bytes,(bytes))'])
    const empty = detectRegistryGeneration('0x')
    assert.equal(empty.codeHash, null)
    assert.equal(empty.missing.next.length, functionSelectors(registryAbis.next).length)
  })

  it('a different build with the whole interface of one generation is "interface", not "exact"', () => {
    const code = `${registryCode('adiri')}00` as `0x${string}`
    const report = detectRegistryGeneration(code)
    assert.equal(report.generation, 'adiri')
    assert.equal(report.match, 'interface')
  })
})
