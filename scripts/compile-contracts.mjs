#!/usr/bin/env node
// Compiles contracts/*.sol with solc from npm (standard JSON) and writes one artifact per
// deployable contract to contracts/out/<Name>.json: { contractName, sourceName, abi, bytecode,
// deployedBytecode, storageLayout }. Runs only when a source, the compiler or the settings changed
// (a content hash kept in contracts/out/build-info.json), so an unchanged tree costs a few ms.
// The only contract is the EVM BLS verifier the devnet installs at the node's precompile address
// 0x…b151; the registry and the Issuance pool are the real ones, from the genesis files (networks/).
//
// Usage: node scripts/compile-contracts.mjs [--force] [--contracts <dir>] [--out <dir>]
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
function option(name, fallback) {
  const i = args.indexOf(name)
  return i >= 0 && args[i + 1] ? resolve(args[i + 1]) : fallback
}
const contractsDir = option('--contracts', join(root, 'contracts'))
const outDir = option('--out', join(contractsDir, 'out'))
const force = args.includes('--force')

const require = createRequire(import.meta.url)
const solcVersion = JSON.parse(readFileSync(require.resolve('solc/package.json'), 'utf8')).version

const SETTINGS = {
  evmVersion: 'prague',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'storageLayout'] } },
}

const files = existsSync(contractsDir)
  ? readdirSync(contractsDir)
      .filter((f) => f.endsWith('.sol'))
      .sort()
  : []
if (files.length === 0) {
  console.error(`compile-contracts: no .sol files in ${contractsDir}`)
  process.exit(1)
}
const sources = {}
const hash = createHash('sha256').update(`solc ${solcVersion}\n${JSON.stringify(SETTINGS)}\n`)
for (const f of files) {
  const content = readFileSync(join(contractsDir, f), 'utf8')
  sources[f] = { content }
  hash.update(`${f}\n${content}\n`)
}
const sourceHash = hash.digest('hex')
const infoPath = join(outDir, 'build-info.json')

function readInfo() {
  try {
    return JSON.parse(readFileSync(infoPath, 'utf8'))
  } catch {
    return null
  }
}

function writeAtomic(path, data) {
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, data)
  renameSync(tmp, path)
}

const info = readInfo()
const upToDate =
  !force &&
  info?.sourceHash === sourceHash &&
  Array.isArray(info.contracts) &&
  info.contracts.every((name) => existsSync(join(outDir, `${name}.json`)))

if (!upToDate) {
  const started = Date.now()
  const solc = require('solc')
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS })))
  const diagnostics = output.errors ?? []
  const errors = diagnostics.filter((d) => d.severity === 'error')
  for (const d of diagnostics.filter((d) => d.severity !== 'error')) console.error(d.formattedMessage.trimEnd())
  if (errors.length > 0) {
    for (const e of errors) console.error(e.formattedMessage.trimEnd())
    console.error(
      `compile-contracts: ${errors.length} error(s) compiling ${relative(process.cwd(), contractsDir) || '.'} with solc ${solcVersion}; contracts/out was left as it was. Fix the Solidity above and run \`node scripts/build.mjs\` again.`,
    )
    process.exit(1)
  }
  mkdirSync(outDir, { recursive: true })
  const names = []
  for (const [sourceName, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [contractName, c] of Object.entries(contracts)) {
      const deployedBytecode = c.evm?.deployedBytecode?.object ?? ''
      if (deployedBytecode.length === 0) continue // interfaces and abstract contracts
      const artifact = {
        contractName,
        sourceName,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${deployedBytecode}`,
        storageLayout: c.storageLayout,
      }
      writeAtomic(join(outDir, `${contractName}.json`), `${JSON.stringify(artifact, null, 2)}\n`)
      names.push(contractName)
    }
  }
  names.sort()
  // artifacts of contracts that are gone (the retired registry, NFT and issuance) are removed
  for (const f of readdirSync(outDir))
    if (f.endsWith('.json') && f !== 'build-info.json' && !names.includes(f.slice(0, -5))) rmSync(join(outDir, f))
  writeAtomic(infoPath, `${JSON.stringify({ sourceHash, solcVersion, contracts: names }, null, 2)}\n`)
  console.error(`compiled ${files.length} Solidity files (${names.join(', ')}) in ${Date.now() - started} ms`)
}
