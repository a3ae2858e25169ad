#!/usr/bin/env node
// Turns the registry ABIs of networks/abi/*.json (interface facts of the deployed code) into
// typed `as const` tables for viem under src/lib/registry/generations/. Run after changing
// networks/abi; test/registry/generations.test.ts fails when the tables and the JSON differ.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const generations = [
  { id: 'adiri', constName: 'adiriRegistryAbi', source: 'networks/abi/consensus-registry-adiri.json' },
  { id: 'next', constName: 'nextRegistryAbi', source: 'networks/abi/consensus-registry-next.json' },
]

for (const g of generations) {
  const abi = JSON.parse(readFileSync(join(root, g.source), 'utf8'))
  // the constructor is not callable on deployed code; keep functions, events and errors
  const entries = abi.filter((e) => e.type !== 'constructor')
  const text = `/**
 * ConsensusRegistry ABI of the "${g.id}" generation, generated from ${g.source}
 * by scripts/gen-registry-abis.mjs (npm run gen:abi). Do not edit by hand.
 */

export const ${g.constName} = ${JSON.stringify(entries, null, 2)} as const
`
  writeFileSync(join(root, `src/lib/registry/generations/abi-${g.id}.ts`), text)
  console.error(`wrote src/lib/registry/generations/abi-${g.id}.ts (${entries.length} entries)`)
}
execFileSync(
  process.execPath,
  [join(root, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', 'src/lib/registry/generations'],
  { cwd: root, stdio: 'ignore' },
)
