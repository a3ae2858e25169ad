/**
 * `tnv --version` (npm build): oclif's user-agent line, then the registry generations tnv
 * recognises with their code hashes and the node releases it knows. The hashes are checked
 * against src/lib/registry/generations/detect.ts AND recomputed from the shipped genesis files
 * (keccak256 of the registry's runtime code), so the build's copy cannot drift from either.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { type Hex, keccak256 } from 'viem'
import { parse } from 'yaml'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { KNOWN_REGISTRY_CODE } from '../../src/lib/registry/generations/detect.js'
import { ROOT, runCli } from '../helpers/cli.js'

type Version = {
  name: string
  version: string
  distribution: string
  registryGenerations: { generation: string; codeHash: string }[]
  nodeReleases: { release: string; status: string }[]
}

function genesisRegistryHash(generation: 'adiri' | 'next'): Hex {
  const genesis = parse(readFileSync(join(ROOT, 'networks', generation, 'genesis.yaml'), 'utf8')) as {
    alloc: Record<string, { code?: Hex }>
  }
  const entry = Object.entries(genesis.alloc).find(([a]) => a.toLowerCase() === REGISTRY_ADDRESS.toLowerCase())
  assert.ok(entry?.[1].code, `the ${generation} genesis has registry code`)
  return keccak256(entry[1].code)
}

describe('tnv --version', () => {
  it('--json: version, the registry generations with their code hashes, the node releases', async () => {
    const r = await runCli(['--version', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const v = JSON.parse(r.stdout) as Version
    const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
    assert.equal(v.name, 'tnv')
    assert.equal(v.version, pjson.version)
    assert.equal(v.distribution, 'npm')
    assert.deepEqual(
      v.registryGenerations.map((g) => [g.generation, g.codeHash]),
      Object.entries(KNOWN_REGISTRY_CODE).map(([hash, k]) => [k.generation, hash]),
    )
    for (const generation of ['adiri', 'next'] as const)
      assert.equal(
        v.registryGenerations.find((g) => g.generation === generation)?.codeHash,
        genesisRegistryHash(generation),
      )
    assert.deepEqual(
      v.nodeReleases.map((n) => n.release),
      ['v0.14.0-adiri', 'next'],
    )
  })

  it('text: the user-agent line first, then generations and releases; -v is the same', async () => {
    const r = await runCli(['--version'])
    assert.equal(r.code, 0, r.stderr)
    const lines = r.stdout.trim().split('\n')
    assert.match(lines[0] as string, /^tnv\/\d+\.\d+\.\d+ \w+-\w+ node-v\d+\.\d+\.\d+$/)
    for (const [hash, k] of Object.entries(KNOWN_REGISTRY_CODE))
      assert.ok(
        lines.some((l) => l.includes(k.generation) && l.includes(hash)),
        `${k.generation} ${hash} listed`,
      )
    assert.ok(lines.some((l) => /v0\.14\.0-adiri\s+released/.test(l)))
    assert.ok(lines.some((l) => /next\s+specified, not released/.test(l)))
    const short = await runCli(['-v'])
    assert.equal(short.stdout, r.stdout)
  })
})
