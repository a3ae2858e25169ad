/**
 * The direct path's CommonJS modules (dist/run/<id>.cjs and dist/run/vendor/*, or the single
 * executable's `run/…` assets), compiled with a V8 code cache: the first run of a command
 * compiles its bundle and, when the process exits, saves V8's cache of everything it compiled
 * (the functions the command ran included); later runs skip most parsing and compiling, as
 * Node 22's module compile cache does (Node 20 has none). The cache lives in a directory named
 * after the build of the bundles and the Node.js build (a bundle that changes gets a new
 * directory; V8 rejects a cache of another Node.js build, which then only costs time), written
 * atomically, 0600 in a 0700 directory; a cache that cannot be read or written is ignored.
 * Another build's directory unused for a week goes when a new build's cache is started.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { constants, Script } from 'node:vm'

/** How a module is found and where its cache goes. */
export type RunModuleSource = {
  /** The module's source text. */
  read: (file: string) => string
  /** The file name it is compiled under (stack traces, `__filename`). */
  filename: (file: string) => string
  /** What a module requires that is neither a built-in nor another run module (`./…`). */
  require: (file: string) => (id: string) => unknown
  /** The code cache directory, or undefined for none. */
  cacheDir: string | undefined
}

/** The CommonJS wrapper a run module is compiled in (the build writes bundles with it: `wrapForLoader`). */
export const HEAD = '(function (exports, require, module, __filename, __dirname) {'
export const TAIL = '\n})'
type ModuleInit = (e: object, r: (id: string) => unknown, m: object, f: string, d: string) => void

/** The name of the cache directory for a build of the bundles, under the given base. */
export function codeCacheDir(base: string, build: string): string {
  return join(base, 'code-cache', `${build}-node${process.version}-${process.arch}`)
}

/** A loader of run modules: each evaluated once per process, with its code cache. */
export function runModuleLoader(source: RunModuleSource): (file: string) => unknown {
  const modules = new Map<string, { exports: unknown }>()
  const load = (file: string): unknown => {
    const known = modules.get(file)
    if (known) return known.exports
    const filename = source.filename(file)
    const cacheFile = source.cacheDir === undefined ? undefined : join(source.cacheDir, `${file}.cache`)
    let cachedData: Buffer | undefined
    if (cacheFile)
      try {
        cachedData = readFileSync(cacheFile)
      } catch {
        // none yet
      }
    const text = source.read(file)
    // the build writes each bundle already wrapped (scripts/direct-bundles.mjs, `wrapForLoader`):
    // joining the wrapper here would copy the whole source once more before V8 reads it
    const script = new Script(text.startsWith(HEAD) ? text : `${HEAD}${text}${TAIL}`, {
      filename,
      ...(cachedData ? { cachedData } : {}),
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    })
    if (cacheFile && (!cachedData || script.cachedDataRejected))
      process.once('exit', () => saveCache(cacheFile, script))
    const module = { exports: {} }
    modules.set(file, module)
    const outer = source.require(file)
    // another run module (`./vendor/ora.cjs`); built-ins and packages go to the host's require
    const local = (id: string): unknown =>
      id.startsWith('./') ? load(join(dirname(file), id).replaceAll('\\', '/')) : outer(id)
    ;(script.runInThisContext() as ModuleInit)(module.exports, local, module, filename, dirname(filename))
    return module.exports
  }
  return load
}

/** Caches of other builds left unused this long are removed when a new build's cache starts. */
const STALE_MS = 7 * 24 * 3600 * 1000

function saveCache(cacheFile: string, script: Script): void {
  try {
    const created = mkdirSync(dirname(cacheFile), { recursive: true, mode: 0o700 })
    if (created !== undefined) pruneOtherBuilds(dirname(cacheFile))
    const tmp = `${cacheFile}.${process.pid}.tmp`
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 })
    renameSync(tmp, cacheFile)
  } catch {
    // a cache is only an optimisation
  }
}

function pruneOtherBuilds(dir: string): void {
  const parent = dirname(dir)
  for (const name of readdirSync(parent)) {
    const other = join(parent, name)
    if (other !== dir && Date.now() - statSync(other).mtimeMs > STALE_MS)
      rmSync(other, { recursive: true, force: true })
  }
}
