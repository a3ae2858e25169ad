/**
 * The single executable's entry (the script Node's single executable runs): small, so
 * `tnv --version` costs little more than Node's own start-up, and the same launcher as the
 * installed CLI (./launch.ts) for everything else:
 * - a command the direct path runs is compiled from its own bundle, the asset `run/<id>.cjs`
 *   (with the packages it requires from `run/vendor/`), as dist/run/ holds it in an npm install;
 * - anything else (help, completion, unknown commands, the reference node) compiles the main
 *   bundle (src/entries/sea.ts: oclif's full CLI, every command and the reference node; the
 *   asset `bundle`) with the code cache scripts/package.mjs made by running representative
 *   commands (the asset `bundle.cache`). A cache V8 rejects (another Node.js build) only costs
 *   time: the bundle compiles from source. `TNV_DEBUG_SEA=1` reports whether it was used.
 * The files tnv reads at run time are extracted first (./sea-files.ts), once per build.
 */
import { isBuiltin } from 'node:module'
import { join } from 'node:path'
import { getAsset, getRawAsset } from 'node:sea'
import { Script } from 'node:vm'
import type { CommandIndex } from './command-index.js'
import { endEarlyWorkIfUnused, startEarlyWorkFromArgv } from './early-work.js'
import { type CommandBundle, launch } from './launch.js'
import { installLightStdio } from './light-stdio.js'
import { sourceText } from './read-source.js'
import { codeCacheDir, runModuleLoader } from './run-modules.js'
import { prepareSeaRoot, type SeaIndex } from './sea-files.js'
import { isVersionRequest, printVersion } from './version.js'

/** The text around a bundle, the same at packaging (scripts/package.mjs) so the cache matches. */
declare const __TNV_BUNDLE_WRAPPER__: { head: string; tail: string; filename: string }
/** The extracted files (scripts/package.mjs, esbuild define). */
declare const __TNV_SEA_INDEX__: SeaIndex

type Bundle = { run: (options?: { root?: string }) => Promise<void> }
type ModuleInit = (e: object, r: NodeJS.Require, m: object, f: string, d: string) => void

/** An asset where it lies in the executable, without getAsset's copy (read only: never written to). */
function rawAsset(key: string): Buffer {
  const raw = getRawAsset(key)
  return typeof raw === 'string' ? Buffer.from(raw, 'latin1') : Buffer.from(raw)
}

/** The main bundle with its code cache. */
function mainBundle(): Bundle {
  // scripts/package.mjs stores the bundle wrapped and in ASCII (wrapForLoader), and both assets
  // are read where they lie in the executable: no copy of 3 MB before V8 reads them
  const { head, tail, filename } = __TNV_BUNDLE_WRAPPER__
  const text = sourceText(rawAsset('bundle'))
  const script = new Script(text.startsWith(head) ? text : `${head}${text}${tail}`, {
    filename,
    cachedData: rawAsset('bundle.cache'),
  })
  if (process.env.TNV_DEBUG_SEA)
    process.stderr.write(`tnv: bundle code cache ${script.cachedDataRejected ? 'REJECTED' : 'used'}\n`)
  const module = { exports: {} as Bundle }
  const init = script.runInThisContext() as ModuleInit
  init(module.exports, require, module, __TNV_BUNDLE_WRAPPER__.filename, '/')
  return module.exports
}

const notFound = (id: string) =>
  Object.assign(new Error(`Cannot find module '${id}' (tnv single executable: built-in modules only)`), {
    code: 'MODULE_NOT_FOUND',
  })

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  // `--version` needs no file: answered before anything is extracted; and no stream module
  // (./light-stdio.ts; the launcher installs the same for the commands it runs)
  if (isVersionRequest(args)) {
    installLightStdio()
    return printVersion(args, 'single-executable')
  }
  // `keytool generate`'s key derivation, before anything is extracted or loaded (./early-work.ts)
  await startEarlyWorkFromArgv(args)
  const root = prepareSeaRoot(__TNV_SEA_INDEX__, (key) => getAsset(key))
  if (root === null) return endEarlyWorkIfUnused()
  const full = () => mainBundle().run({ root })
  // `<cache>/bin/tnv-node.js node …`: the reference node (the main bundle's)
  if (args[0] === join(root, 'bin', 'tnv-node.js')) return full()
  // `<cache>/bin/run.js …`: the CLI, as the demo starts tnv's own commands
  const argv = args[0] === join(root, 'bin', 'run.js') ? args.slice(1) : args
  await launch(argv, {
    distribution: 'single-executable',
    root: () => root,
    index: () => JSON.parse(getAsset('run/index.json', 'utf8')) as CommandIndex,
    loadCommand: (file, _config, index) => {
      if (process.env.TNV_DEBUG_SEA) process.stderr.write(`tnv: direct run/${file}\n`)
      return runModuleLoader({
        read: (f) => sourceText(rawAsset(`run/${f}`)),
        filename: (f) => `tnv-run/${f}`,
        require: () => (id) => {
          if (isBuiltin(id)) return require(id)
          throw notFound(id)
        },
        // beside the extracted files: private to this user and this build
        cacheDir: codeCacheDir(root, index.build),
      })(file) as CommandBundle
    },
    runFull: () => full(),
  })
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exitCode = 1
})
