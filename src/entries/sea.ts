/**
 * The single executable's main script (Node's single executable applications; built by
 * scripts/package.mjs). The executable carries the npm build's own files as assets: dist/ (every
 * command's bundle), package.json, the oclif manifest, networks/**, contracts/out, the BLS module
 * and anvil. The first run extracts them, each checked against the SHA-256 recorded at packaging,
 * into a private cache directory (./sea-files.ts); every run then loads the CLI from there exactly
 * as an npm install does, with Node's compile cache kept beside the files.
 *
 * One executable, two modes, chosen by the first argument:
 * - `<cache>/bin/tnv-node.js node …`: the reference node (tnv starts its node as
 *   `process.execPath <reference node path> node …`, and process.execPath is this executable);
 * - `<cache>/bin/run.js …` (how the demo runs tnv's own commands) or anything else: the CLI.
 */
import { createRequire, enableCompileCache } from 'node:module'
import { join } from 'node:path'
import { getAsset } from 'node:sea'
import { prepareSeaRoot, type SeaIndex } from './sea-files.js'

const index = JSON.parse(getAsset('index.json', 'utf8')) as SeaIndex
const root = prepareSeaRoot(index, (key) => getAsset(key))
if (root !== null) {
  enableCompileCache(join(root, '.compile-cache'))
  const load = createRequire(join(root, 'package.json'))
  const args = process.argv.slice(2)
  if (args[0] === join(root, 'bin', 'tnv-node.js')) {
    const { main } = load('./dist/entries/node-main.js') as typeof import('./node-main.js')
    void main(args.slice(1))
  } else {
    const { run } = load('./dist/entries/cli.js') as typeof import('./cli.js')
    void run(args[0] === join(root, 'bin', 'run.js') ? args.slice(1) : args, 'single-executable')
  }
}
