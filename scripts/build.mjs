#!/usr/bin/env node
// Build: esbuild bundles every command (and the devnet node entry) into dist/, with code
// splitting so shared libraries land in shared chunks. Heavy libraries (viem, noble, ...)
// are imported lazily inside run(), so a command's cold start loads only what it uses.
// Then the oclif manifest is regenerated (fast start-up: oclif reads the manifest instead
// of importing every command), and the Solidity contracts are compiled when they changed.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'
import { buildInfo } from './build-info.mjs'
import { buildDirect } from './direct-bundles.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const quiet = process.argv.includes('--quiet')

function walk(dir, out = []) {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else if (p.endsWith('.ts') && !p.endsWith('.d.ts') && !p.endsWith('.test.ts')) out.push(p)
  }
  return out
}

// Entries: every command, the process entries (not the single executable's, built by
// scripts/package.mjs, nor modules only imported by other entries), and the commands of
// @oclif/plugin-autocomplete bundled as tnv's own `autocomplete` commands (one oclif instance,
// no plugin to load at start-up; the manifest lists them like any other command).
const SKIP_ENTRIES = new Set([
  'sea.ts',
  'sea-loader.ts',
  'node-main.ts',
  'version.ts',
  'launch.ts',
  'launch-installed.ts',
  'sea-files.ts',
  'command-index.ts',
  'direct-command.ts',
])
const entryPoints = {}
for (const file of [...walk(join(root, 'src/commands')), ...walk(join(root, 'src/entries'))]) {
  if (file.includes(`${join('src', 'entries')}/`) && SKIP_ENTRIES.has(file.split('/').pop())) continue
  entryPoints[relative(join(root, 'src'), file).replace(/\.ts$/, '')] = file
}
const autocompleteDir = join(root, 'node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete')
for (const name of readdirSync(autocompleteDir).filter((f) => f.endsWith('.js')))
  entryPoints[`commands/autocomplete/${name.replace(/\.js$/, '')}`] = join(autocompleteDir, name)

// --clean removes dist/ first; without it stale files stay (harmless) so that a build never
// pulls files from under a CLI process that is running at the same time.
if (process.argv.includes('--clean')) rmSync(join(root, 'dist'), { recursive: true, force: true })
await esbuild.build({
  absWorkingDir: root,
  entryPoints,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // @oclif/core is bundled into the chunks shared by dist/entries/cli.js (what bin/run.js
  // loads) and every command, so there is one instance; anvil and solc are resolved at run time.
  external: ['@foundry-rs/*', 'solc', 'ws', 'bufferutil', 'utf-8-validate'],
  banner: {
    js: "import { createRequire as __tnvCreateRequire } from 'node:module'; const require = __tnvCreateRequire(import.meta.url);",
  },
  define: { __TNV_BUILD_INFO__: JSON.stringify(buildInfo()) },
  logLevel: 'warning',
})

// Contracts (solc from npm), only when a .sol changed since the last compile.
if (existsSync(join(root, 'scripts/compile-contracts.mjs'))) {
  execFileSync(process.execPath, [join(root, 'scripts/compile-contracts.mjs')], { stdio: 'inherit' })
}

// oclif manifest: lets `tnv <cmd>` start without importing every command file.
execFileSync(process.execPath, [join(root, 'node_modules/oclif/bin/run.js'), 'manifest'], {
  cwd: root,
  stdio: quiet ? 'ignore' : ['ignore', 'ignore', 'inherit'],
})
// The direct command path (src/entries/launch.ts): dist/launch.cjs, which bin/tnv.cjs and
// bin/run.js start, and one CommonJS bundle per command in dist/run/ with the command index.
const direct = await buildDirect({
  root,
  manifest: JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')),
  pjson: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')),
  define: { __TNV_BUILD_INFO__: JSON.stringify(buildInfo()) },
  external: ['@foundry-rs/*', 'solc', 'ws', 'bufferutil', 'utf-8-validate'],
  // --no-minify: readable bundles for a profile
  minify: !process.argv.includes('--no-minify'),
})
if (!quiet)
  console.error(
    `built ${Object.keys(entryPoints).length} entries and ${direct.commands} command bundles into ${relative(process.cwd(), join(root, 'dist')) || 'dist'}`,
  )
