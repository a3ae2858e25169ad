#!/usr/bin/env node
// Build: esbuild bundles every command (and the devnet node entry) into dist/, with code
// splitting so shared libraries land in shared chunks. Heavy libraries (viem, noble, ...)
// are imported lazily inside run(), so a command's cold start loads only what it uses.
// Then the oclif manifest is regenerated (fast start-up: oclif reads the manifest instead
// of importing every command), and the Solidity contracts are compiled when they changed.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

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

// Entries: every command, the two process entries (the CLI and the reference node), and the
// commands of @oclif/plugin-autocomplete bundled as tnv's own `autocomplete` commands (one oclif
// instance, no plugin to load at start-up; the manifest lists them like any other command).
// The single executable runs these same files (scripts/package.mjs).
const entryPoints = {
  'entries/cli': join(root, 'src/entries/cli.ts'),
  'entries/node-main': join(root, 'src/entries/node-main.ts'),
}
for (const file of walk(join(root, 'src/commands')))
  entryPoints[relative(join(root, 'src'), file).replace(/\.ts$/, '')] = file
const autocompleteDir = join(root, 'node_modules/@oclif/plugin-autocomplete/lib/commands/autocomplete')
// (tnv's own src/commands/autocomplete/index.ts replaces the plugin's instructions)
for (const name of readdirSync(autocompleteDir).filter((f) => f.endsWith('.js')))
  entryPoints[`commands/autocomplete/${name.replace(/\.js$/, '')}`] ??= join(autocompleteDir, name)

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
  target: 'node26',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  // @oclif/core is bundled into the chunks shared by dist/entries/cli.js (what bin/run.js
  // loads) and every command, so there is one instance. The anvil and cast binaries are found
  // at run time; ws's optional native helpers are left to its own fallback.
  external: ['@foundry-rs/*', 'bufferutil', 'utf-8-validate'],
  banner: {
    js: "import { createRequire as __tnvCreateRequire } from 'node:module'; const require = __tnvCreateRequire(import.meta.url);",
  },
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
if (!quiet)
  console.error(
    `built ${Object.keys(entryPoints).length} entries into ${relative(process.cwd(), join(root, 'dist')) || 'dist'}`,
  )
