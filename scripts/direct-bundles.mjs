// The direct command path (src/entries/launch.ts; docs/decisions.md "Shipping", "Start-up"):
// one CommonJS bundle per command in dist/run/, the command index dist/run/index.json, and the
// launcher dist/launch.cjs. Used by scripts/build.mjs (and its esbuild plugins by
// scripts/package.mjs for the single executable).
//
// What keeps a command's bundle small (what a command never uses is never loaded):
// - `@oclif/core` resolves to its Command, Flags, Args and Errors modules, not the package
//   index (which loads config, help, the plugin loader and a semver check of Node's version);
// - @oclif/core's own `const x = require("./y")` become lazy: a module is evaluated when a
//   member of it is first read, so Command's imports of config, help and ux cost nothing unless
//   used (oclifLazyRequirePlugin);
// - large packages that commands import only lazily, or that only oclif's config and help use,
//   are separate bundles in dist/run/vendor/ (one copy per process, loaded when first required).
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { Script } from 'node:vm'
import * as esbuild from 'esbuild'

/**
 * CommonJS packages that every command bundle holds (@oclif/core requires them) and that a
 * command run on the direct path does not evaluate: only oclif's spinner (cli-spinners), its
 * error and help layout (string-width's emoji-regex, ansi-styles' color-convert) and, with DEBUG
 * set, its debug logger (debug) reach them. Each is a run module of its own in dist/run/vendor/,
 * required as it is where it is first needed: about 60 kB less for every command to read, hold
 * and deserialise (docs/decisions.md, "Start-up, stop 32"). Required from CommonJS (`require`),
 * so the bundle's stub hands over the package's `module.exports` unchanged (emoji-regex and debug
 * export a function). The build fails if an importer would resolve a name to another copy of it
 * than the one at the top of node_modules.
 */
export const COLD_CJS = ['cli-spinners', 'emoji-regex', 'color-convert', 'debug']

/** Packages each in its own bundle: loaded only by the commands that reach them. */
export const VENDORED = [
  '@inquirer/prompts',
  'ora',
  'proper-lockfile',
  // one copy for every command that uses them, instead of one per command bundle
  'yaml',
  'jose',
  '@scure/bip39',
  '@noble/curves/bls12-381.js',
  // only oclif's config loader and help renderer use these
  'ejs',
  'minimatch',
  'picomatch',
  'tinyglobby',
  'lilconfig',
  'semver',
  ...COLD_CJS,
]
/**
 * Commands that also get a lean bundle, `<id>.lean.cjs`, for the runs that name none of
 * `unlessFlags`: the modules in `without` (reached only through those flags) are left out of it,
 * each replaced by a module that fails loudly should it ever be reached. The launcher picks the
 * lean bundle when no argument is one of those flags in any of its forms (src/entries/launch.ts).
 * What a run never uses is never loaded:
 * - `keytool export-staking-args` contacts a registry only with --chain or --rpc-url, and the
 *   registry client is half of its bundle (820 → 440 kB; docs/decisions.md, "Start-up, stop 28");
 * - `keytool generate` asks a registry only with --force (alias --overwrite), before it replaces
 *   keys, and that check is the only part of it that needs viem: 819 → 336 kB, about 495 pages
 *   of memory less for the process to touch while PBKDF2 runs ("Start-up, stop 32").
 * The build checks that every flag exists on the command and that the launcher can see each of
 * its forms: a long name or long alias, no short form, environment variable, default or --no-.
 */
const GENERATE_LEAN = { unlessFlags: ['force'], without: ['src/lib/registry/key-replace-guard.ts'] }
export const LEAN_BUNDLES = {
  'keytool:export-staking-args': {
    unlessFlags: ['chain', 'rpc-url'],
    without: ['src/lib/registry/command-support.ts', 'src/lib/registry/first-batch.ts'],
  },
  'keytool:generate:validator': GENERATE_LEAN,
  'keytool:generate:observer': GENERATE_LEAN,
}

/** The manifest's command checked against its LEAN_BUNDLES entry; every form of the flags as the launcher matches them. */
export function leanFlags(id, command, lean) {
  const forms = []
  for (const name of lean.unlessFlags) {
    const flag = command?.flags?.[name]
    if (!flag) throw new Error(`build: LEAN_BUNDLES: ${id} has no flag --${name}`)
    if (
      flag.char !== undefined ||
      (flag.charAliases ?? []).length > 0 ||
      flag.env !== undefined ||
      flag.default !== undefined ||
      (flag.type !== 'option' && flag.type !== 'boolean') ||
      flag.allowNo
    )
      throw new Error(
        `build: LEAN_BUNDLES: --${name} of ${id} can be given in another form (short flag, environment, default, --no-); the launcher would not see it`,
      )
    for (const long of [name, ...(flag.aliases ?? [])]) forms.push(`--${long}`)
  }
  return forms
}

/** Each module of `without` as a module that fails when it is first evaluated. */
function leanStubPlugin(root, id, without) {
  const paths = new Set(without.map((p) => join(root, p)))
  for (const p of paths) statSync(p) // a module that moved fails the build
  return {
    name: 'tnv-lean-stub',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) =>
        paths.has(args.path)
          ? {
              contents: `throw new Error(${JSON.stringify(`tnv: internal error: the lean bundle of ${id} reached ${relative(root, args.path)}, which it does not hold (scripts/direct-bundles.mjs LEAN_BUNDLES names the flags that need it). Please report this.`)})`,
              loader: 'js',
            }
          : undefined,
      )
    },
  }
}

const vendorFile = (pkg) => `${pkg.replaceAll('@', '').replaceAll('/', '-').replace(/\.js$/, '')}.cjs`

/**
 * proper-lockfile's graceful-fs as plain node:fs. graceful-fs patches the process's own fs (close,
 * closeSync) and wraps every call to queue and retry on EMFILE, for programs that open thousands
 * of files at once; initialising it cost every command that locks a data directory 3 to 7 ms
 * (docs/benchmarks.md, Start-up), and a command holds one lock file. The full oclif path keeps it.
 */
function plainFsPlugin() {
  return {
    name: 'tnv-plain-fs',
    setup(build) {
      build.onResolve({ filter: /^graceful-fs$/ }, () => ({ path: 'graceful-fs', namespace: 'tnv-plain-fs' }))
      build.onLoad({ filter: /.*/, namespace: 'tnv-plain-fs' }, () => ({
        contents: "module.exports = require('node:fs')",
        loader: 'js',
      }))
    },
  }
}

/**
 * signal-exit 3 (proper-lockfile's, which removes a lock when the process ends) loads Node's
 * `assert` for one check, `assert.equal(typeof cb, 'function', message)`; loading that built-in
 * costs a fresh process about 5 ms (its error classes and comparison code), on every command that
 * locks a data directory. Here its `assert` is that one loose equality check. Only signal-exit's
 * import is replaced; a new signal-exit that uses more of assert fails the build.
 */
function signalExitAssertPlugin() {
  return {
    name: 'tnv-signal-exit-assert',
    setup(build) {
      build.onResolve({ filter: /^assert$/ }, (args) =>
        /[\\/]signal-exit[\\/]/.test(args.importer)
          ? { path: args.importer, namespace: 'tnv-signal-exit-assert' }
          : undefined,
      )
      build.onLoad({ filter: /.*/, namespace: 'tnv-signal-exit-assert' }, (args) => {
        const uses = [...readFileSync(args.path, 'utf8').matchAll(/\bassert\.(\w+)/g)].map((m) => m[1])
        if (uses.some((u) => u !== 'equal'))
          throw new Error(
            `build: ${args.path} uses assert.${uses.find((u) => u !== 'equal')}; update signalExitAssertPlugin`,
          )
        return {
          contents:
            'module.exports = { equal(actual, expected, message) { if (actual != expected) throw new Error(message) } }',
          loader: 'js',
        }
      })
    },
  }
}

/** package.json settings that Config.load would act on and the direct path does not (command-index.ts). */
export function checkDirectPathAllowed(pjson) {
  const o = pjson.oclif ?? {}
  const found = ['hooks', 'plugins', 'devPlugins', 'jitPlugins', 'theme', 'flexibleTaxonomy', 'exitCodes', 'helpClass']
    .filter((k) => o[k] !== undefined)
    .concat(typeof o.commands === 'string' ? [] : ['commands (not a directory)'])
  if (found.length > 0)
    throw new Error(
      `build: package.json oclif.${found.join(', oclif.')} would change how oclif runs a command, which the direct path (src/entries/launch.ts) does not do; teach src/entries/command-index.ts about it first`,
    )
}

/** @oclif/core's CommonJS: top-level `const x = require("y")` evaluated on first use. */
export function oclifLazyRequirePlugin() {
  const LAZY =
    'var __tnvLazy = (load) => { let m; const get = () => (m ??= load()); return new Proxy({}, { get: (_, k) => get()[k], set: (_, k, v) => { get()[k] = v; return true }, has: (_, k) => k in get(), ownKeys: () => Reflect.ownKeys(get()), getOwnPropertyDescriptor: (_, k) => { const d = Object.getOwnPropertyDescriptor(get(), k); if (d) d.configurable = true; return d } }) };\n'
  return {
    name: 'oclif-lazy-require',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]@oclif[\\/]core[\\/]lib[\\/].*\.js$/ }, (args) => {
        const source = quietLogger(args.path, readFileSync(args.path, 'utf8'))
        const lazy = source.replace(
          /^const (\w+) = (__importDefault\(|__importStar\()?require\(("[^"]+")\)(\))?;$/gm,
          (_, name, wrap, spec) =>
            `const ${name} = __tnvLazy(() => ${wrap ? `${wrap}require(${spec}))` : `require(${spec})`});`,
        )
        return { contents: lazy === source ? source : LAZY + lazy, loader: 'js' }
      })
    },
  }
}

/**
 * @oclif/core's logger (lib/logger.js) creates a `debug` logger for every command it runs, and
 * loading `debug` loads supports-color, which loads node:tty and with it node:net, on every
 * start (about 5 to 10 ms). Without DEBUG in the environment `debug` logs nothing, so then the
 * logger gets a silent one instead and `debug` is never loaded; with DEBUG set it is the real one
 * (DEBUG=* tnv … prints oclif's debug lines as before).
 */
function quietLogger(path, source) {
  if (!/[\\/]lib[\\/]logger\.js$/.test(path)) return source
  const line = 'const debug_1 = __importDefault(require("debug"));'
  if (!source.includes(line)) throw new Error(`build: ${path} no longer loads debug as expected; update quietLogger`)
  const silent = [
    'const __tnvSilentDebug = (namespace) => Object.assign(() => {}, {',
    '  namespace, enabled: false, log: () => {}, destroy: () => {},',
    '  extend: (sub, delimiter) => __tnvSilentDebug(namespace + (delimiter ?? ":") + sub),',
    '});',
    'const debug_1 = { default: (namespace) => (process.env.DEBUG ? require("debug")(namespace) : __tnvSilentDebug(namespace)) };',
  ].join('\n')
  return source.replace(line, silent)
}

/**
 * `import { a, b } from 'viem'` in tnv's sources → imports from the viem modules that define a
 * and b. In a command bundle the library's modules are initialised lazily (they are reached
 * through `await import()`), and initialising viem's package index initialises every viem
 * module the bundle holds: with the registry client in the same bundle, `export-staking-args`
 * initialised viem's clients, actions, ENS and secp256k1 (about 18 ms of CPU) to encode one call.
 * The map comes from viem's own index (`export { … } from './…'`); a name it does not list fails
 * the build. Type-only imports (`import type`, `type X`, which verbatimModuleSyntax requires) are
 * left to the compiler, which drops them.
 */
export function viemDirectImportsPlugin(root) {
  let map
  const exportsOf = () => {
    if (map) return map
    const dir = join(root, 'node_modules', 'viem', '_esm')
    const text = readFileSync(join(dir, 'index.js'), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    map = new Map()
    for (const m of text.matchAll(/export\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
      const from = m[2].startsWith('.') ? join(dir, m[2]) : m[2]
      for (const spec of m[1]
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)) {
        const [imported, exported = imported] = spec.split(/\s+as\s+/)
        map.set(exported, { from, imported })
      }
    }
    if (map.size < 100)
      throw new Error("build: viem's index no longer reads as expected; update viemDirectImportsPlugin")
    return map
  }
  return {
    name: 'viem-direct-imports',
    setup(build) {
      const sources = join(root, 'src')
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(sources)) return undefined
        const source = readFileSync(args.path, 'utf8')
        if (!source.includes("from 'viem'")) return undefined
        const contents = source.replace(/import\s*\{([^}]*)\}\s*from\s*'viem'/g, (_, list) => {
          const lines = []
          for (const spec of list
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)) {
            if (spec.startsWith('type ')) continue
            const [name, local = name] = spec.split(/\s+as\s+/)
            const target = exportsOf().get(name)
            if (!target)
              throw new Error(
                `build: ${args.path} imports ${name} from viem, which viem's index does not export by name`,
              )
            lines.push(`import { ${target.imported} as ${local} } from ${JSON.stringify(target.from)}`)
          }
          return lines.join('\n')
        })
        return { contents, loader: 'ts' }
      })
    },
  }
}

/** `import … from '@oclif/core'` → the four modules a command class uses. */
export function oclifCommandOnlyPlugin() {
  return {
    name: 'oclif-command-only',
    setup(build) {
      build.onResolve({ filter: /^@oclif\/core$/ }, (args) => ({
        path: '@oclif/core (command only)',
        namespace: 'tnv-oclif',
        pluginData: args.resolveDir,
      }))
      build.onLoad({ filter: /.*/, namespace: 'tnv-oclif' }, (args) => ({
        contents: [
          "export { Command } from '@oclif/core/command'",
          "export * as Flags from '@oclif/core/flags'",
          "export * as Args from '@oclif/core/args'",
          "export * as Errors from '@oclif/core/errors'",
        ].join('\n'),
        resolveDir: args.pluginData,
        loader: 'js',
      }))
    },
  }
}

/**
 * The vendored packages as `require("./vendor/<pkg>.cjs")` (relative to dist/run/): a small
 * stub module in the bundle requires the file, so `import('ora')` stays a lazily evaluated
 * require (a real dynamic import would see only `default`, and the single executable has none).
 */
export function vendorPlugin(prefix = './vendor/') {
  const names = new Set(VENDORED)
  const cold = new Set(COLD_CJS)
  return {
    name: 'tnv-vendor',
    setup(build) {
      // where each COLD_CJS package resolves from the top of the tree, once per build
      const tops = new Map()
      const topOf = (name) => {
        if (!tops.has(name))
          tops.set(
            name,
            build.resolve(name, {
              kind: 'require-call',
              resolveDir: build.initialOptions.absWorkingDir ?? process.cwd(),
              pluginData: 'tnv-vendor-check',
            }),
          )
        return tops.get(name)
      }
      build.onResolve({ filter: /^[@a-z]/ }, async (args) => {
        if (!names.has(args.path) || args.pluginData === 'tnv-vendor-check') return undefined
        if (cold.has(args.path)) {
          // the copy this importer would get must be the one vendored (the top of node_modules)
          const here = await build.resolve(args.path, {
            kind: args.kind,
            resolveDir: args.resolveDir,
            pluginData: 'tnv-vendor-check',
          })
          const top = await topOf(args.path)
          if (here.errors.length > 0 || here.path !== top.path)
            return {
              errors: [
                { text: `${args.importer} requires its own copy of ${args.path}; COLD_CJS vendors the top one only` },
              ],
            }
        }
        return { path: args.path, namespace: 'tnv-vendor-stub' }
      })
      build.onLoad({ filter: /.*/, namespace: 'tnv-vendor-stub' }, (args) => {
        const file = JSON.stringify(`tnv-vendor-file:${prefix}${vendorFile(args.path)}`)
        // a CommonJS package required from CommonJS: its module.exports as they are
        if (cold.has(args.path)) return { contents: `module.exports = require(${file})\n`, loader: 'js' }
        // an ES module re-exporting the file: `import ora from 'ora'` gets ora's default export
        // and `import { select } from '@inquirer/prompts'` its named ones, as from the package
        return { contents: `export * from ${file}\nexport { default } from ${file}\n`, loader: 'js' }
      })
      build.onResolve({ filter: /^tnv-vendor-file:/ }, (args) => ({ path: args.path.slice(16), external: true }))
    },
  }
}

/**
 * esbuild's options for a CommonJS bundle on Node 20, for dist/run/ and the single executable
 * alike: names kept (error classes report their name), minified unless asked not to (less to
 * parse at start-up).
 */
export function cjsBundleOptions(root, minify = true) {
  return {
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify,
    keepNames: true,
    logLevel: 'warning',
  }
}

/**
 * A bundle with one character outside ASCII is a two-byte string to V8: twice the memory, a
 * slower read (UTF-8 decoding instead of a one-byte copy) and a slower scan of every function
 * compiled on first call. esbuild escapes such characters in strings, templates and names but
 * leaves regular expressions as written, and ansis (oclif's colours, in every command) writes
 * ESC and CSI raw in one: `/[\x1b\x9b].../` with the bytes themselves. Minified with no comments
 * left, what remains outside ASCII is regular-expression text, where `\uXXXX` means the same
 * character (UTF-16 units, as a regular expression without the u flag reads them; with it, an
 * escaped surrogate pair is one code point). Checked: the escaped file still compiles.
 */
function asciiOnly(text, file) {
  if (!/[\u0080-\uffff]/.test(text)) return text
  const escaped = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  new Script(escaped, { filename: file }) // a syntax error is a build error
  return escaped
}

/**
 * The CommonJS function a bundle is compiled in, by the loader (src/entries/run-modules.ts HEAD
 * and TAIL, which test/ship/direct-path.test.ts holds these to) and the executable's loader.
 */
export const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) {'
export const WRAP_TAIL = '\n})'

/**
 * A run module as the loader compiles it: wrapped in its CommonJS function at build time, so the
 * loader hands V8 the text it read instead of a joined copy (with a 1 MB bundle, one more
 * megabyte of young strings, enough to make V8 collect and grow its young generation at
 * start-up), and ASCII only (asciiOnly). The file is then a function expression: only the
 * loader runs it.
 */
export function wrapForLoader(file) {
  const text = readFileSync(file, 'utf8')
  if (text.startsWith(WRAP_HEAD)) return
  writeFileSync(file, asciiOnly(`${WRAP_HEAD}${classNamesOnly(text, file)}${WRAP_TAIL}`, file))
}

/**
 * esbuild's `keepNames` names every function and class it may rename, each with an
 * `Object.defineProperty(fn, "name", …)` when its code runs: about 3,000 calls and 330 kB of
 * short-lived objects in export-staking-args, and the one collection `rpc plan` had
 * (docs/decisions.md, "Start-up, stop 29"). What reads a name is a class's: tnv's errors take
 * theirs from `new.target.name`, oclif reads `constructor.name`. So in the run modules only the
 * classes are named (esbuild names each in a `static { __name(this, "…") }` block); the helper
 * the functions' calls reach returns the function as it is. The build fails if esbuild's helper
 * takes another shape while calls to it remain.
 */
export function classNamesOnly(text, file) {
  const helper =
    /var ([\w$]+) ?= ?\(([\w$]+), ?([\w$]+)\) ?=> ?([\w$]+)\(\2, ?"name", ?\{ ?value(?:: ?\3)?, ?configurable: ?(?:!0|true) ?\}\);/
  const m = helper.exec(text)
  if (!m) {
    if (/"name", ?\{ ?value/.test(text.slice(0, 4000)))
      throw new Error(`build: ${file}: esbuild's keepNames helper has a shape classNamesOnly does not know`)
    return text
  }
  const [all, name, , , defineProperty] = m
  const classHelper = '__tnvClassName'
  if (text.includes(classHelper)) throw new Error(`build: ${file} already uses ${classHelper}`)
  const staticBlock = new RegExp(`static ?\\{(\\s*)${name.replaceAll('$', '\\$')}\\(this,`, 'g')
  return (
    text
      // a function replacer: names such as `$$` must not be read as replacement patterns
      .replace(
        all,
        () => `var ${name}=(t)=>t;var ${classHelper}=(t,e)=>${defineProperty}(t,"name",{value:e,configurable:!0});`,
      )
      .replace(staticBlock, (_, space) => `static{${space}${classHelper}(this,`)
  )
}

/**
 * The BLS module (wasm/blst/tnv-blst.wasm) in base64, for the run module vendor/blst-wasm.cjs that
 * the bundles require on first use (src/lib/keys/blst.ts, `__TNV_BLST_WASM__`): checked here
 * against the SHA-256 its build recorded (src/lib/keys/blst-wasm.generated.ts), as tnv checks the
 * file when it runs from source.
 */
function blstWasmBase64(root) {
  const generated = readFileSync(join(root, 'src/lib/keys/blst-wasm.generated.ts'), 'utf8')
  const file = /BLST_WASM_FILE = '([^']+)'/.exec(generated)?.[1]
  const sha256 = /BLST_WASM_SHA256 = '([0-9a-f]{64})'/.exec(generated)?.[1]
  if (!file || !sha256) throw new Error('build: src/lib/keys/blst-wasm.generated.ts names no BLS module and SHA-256')
  const bytes = readFileSync(join(root, file))
  if (createHash('sha256').update(bytes).digest('hex') !== sha256)
    throw new Error(
      `build: ${file} is not the module src/lib/keys/blst-wasm.generated.ts records (rebuild it: node scripts/build-blst-wasm.mjs)`,
    )
  return bytes.toString('base64')
}

/**
 * `import.meta.url` in a CommonJS bundle: the file's URL, made when first read (a module reads it
 * only to make a require or find a package file; making it at every module's load cost each
 * command about 0.1 ms per module, node:url's `pathToFileURL`).
 */
const META_URL = '__tnvMeta.url'
const META_URL_BANNER = "var __tnvMeta = { get url() { return require('node:url').pathToFileURL(__filename).href } };"

/** The run module holding the BLS module in base64, and the function the run modules read it with. */
const BLST_WASM_VENDOR_FILE = 'blst-wasm.cjs'
const BLST_WASM_GETTER = '__tnvBlstWasm'

const COMMAND_NS = 'tnv-direct-command'
/** The launcher's run module (src/entries/launch-installed.ts loads it by this name). */
const LAUNCHER_FILE = 'launcher.cjs'

/**
 * Builds dist/run/: one bundle per command of src/commands (the bundled plugin's commands,
 * autocomplete, run through oclif), the vendored packages, the launcher's run module
 * (launcher.cjs), index.json; and dist/launch.cjs, the boot that loads the launcher.
 * The single executable's copy (scripts/package.mjs): `outDir` elsewhere, `importMetaUrl` the
 * global its loader sets, no launcher (the loader is its launcher).
 */
export async function buildDirect({
  root,
  manifest,
  pjson,
  define,
  external,
  outDir = join(root, 'dist', 'run'),
  importMetaUrl,
  launcher = true,
  minify = true,
}) {
  checkDirectPathAllowed(pjson)
  const out = outDir
  // written over, never removed first: a CLI process running during a build keeps its files
  // (stale bundles are harmless; `build.mjs --clean` starts from nothing)
  // every run module that reaches the BLS module requires its one copy, vendor/blst-wasm.cjs, on
  // first use (src/lib/keys/blst.ts, `__TNV_BLST_WASM__`)
  const blstBanner = `var ${BLST_WASM_GETTER} = function () { return require(${JSON.stringify(`./vendor/${BLST_WASM_VENDOR_FILE}`)}) };`
  const metaUrl = {
    define: { 'import.meta.url': importMetaUrl ?? META_URL, __TNV_BLST_WASM__: BLST_WASM_GETTER },
    banner: { js: importMetaUrl ? blstBanner : `${META_URL_BANNER}\n${blstBanner}` },
  }
  mkdirSync(join(out, 'vendor'), { recursive: true })
  if (VENDORED.some((pkg) => vendorFile(pkg) === BLST_WASM_VENDOR_FILE))
    throw new Error(`build: a vendored package's run module would be named ${BLST_WASM_VENDOR_FILE}`)
  writeFileSync(join(out, 'vendor', BLST_WASM_VENDOR_FILE), `module.exports = "${blstWasmBase64(root)}"\n`)
  const fileOf = (id) => `${id.replaceAll(':', '.')}.cjs`
  const sources = {}
  for (const [id, c] of Object.entries(manifest.commands)) {
    const rel = (c.relativePath ?? []).join('/')
    if (rel.startsWith('dist/commands/') && !rel.startsWith('dist/commands/autocomplete'))
      sources[id] = join(root, 'src', rel.slice('dist/'.length).replace(/\.js$/, '.ts'))
  }
  const common = { ...cjsBundleOptions(root, minify), legalComments: 'none' }
  const runner = join(root, 'src/entries/direct-command.ts')
  const commandBundles = (ids, suffix, extraPlugins) =>
    esbuild.build({
      ...common,
      entryPoints: ids.map((id) => ({
        in: `${COMMAND_NS}:${id}`,
        out: `${fileOf(id).replace(/\.cjs$/, '')}${suffix}`,
      })),
      outdir: out,
      outExtension: { '.js': '.cjs' },
      external,
      ...metaUrl,
      define: { ...define, ...metaUrl.define },
      plugins: [
        ...extraPlugins,
        {
          name: COMMAND_NS,
          setup(build) {
            build.onResolve({ filter: new RegExp(`^${COMMAND_NS}:`) }, (args) => ({
              path: args.path.slice(COMMAND_NS.length + 1),
              namespace: COMMAND_NS,
            }))
            build.onLoad({ filter: /.*/, namespace: COMMAND_NS }, (args) => ({
              contents: `import Cmd from ${JSON.stringify(sources[args.path])}\nimport { runCommandDirect } from ${JSON.stringify(runner)}\nexport const runDirect = (id, argv, config) => runCommandDirect(Cmd, id, argv, config)\n`,
              resolveDir: root,
              loader: 'js',
            }))
          },
        },
        oclifCommandOnlyPlugin(),
        vendorPlugin(),
        oclifLazyRequirePlugin(),
        viemDirectImportsPlugin(root),
      ],
    })
  await commandBundles(Object.keys(sources), '', [])
  const lean = {}
  for (const [id, spec] of Object.entries(LEAN_BUNDLES)) {
    if (!sources[id]) throw new Error(`build: LEAN_BUNDLES names ${id}, which is not a command of src/commands`)
    lean[id] = {
      file: fileOf(id).replace(/\.cjs$/, '.lean.cjs'),
      unlessFlags: leanFlags(id, manifest.commands[id], spec),
    }
    await commandBundles([id], '.lean', [leanStubPlugin(root, id, spec.without)])
  }
  // the launcher itself (src/entries/launch.ts) as a run module, compiled with a code cache like
  // the commands; dist/launch.cjs (src/entries/launch-installed.ts) is the small boot that loads it
  if (launcher) {
    if (Object.keys(sources).some((id) => fileOf(id) === LAUNCHER_FILE))
      throw new Error(`build: a command's bundle would be named ${LAUNCHER_FILE}, the launcher's run module`)
    await esbuild.build({
      ...common,
      entryPoints: [join(root, 'src/entries/launch.ts')],
      outfile: join(out, LAUNCHER_FILE),
      external,
      ...metaUrl,
      define: { ...define, ...metaUrl.define },
      plugins: [vendorPlugin(), oclifLazyRequirePlugin()],
    })
  }
  await esbuild.build({
    ...common,
    entryPoints: VENDORED.map((pkg) => ({ in: `tnv-vendor:${pkg}`, out: vendorFile(pkg).replace(/\.cjs$/, '') })),
    outdir: join(out, 'vendor'),
    outExtension: { '.js': '.cjs' },
    external,
    plugins: [
      plainFsPlugin(),
      signalExitAssertPlugin(),
      {
        name: 'tnv-vendor-entry',
        setup(build) {
          build.onResolve({ filter: /^tnv-vendor:/ }, (args) => ({
            path: args.path.slice(11),
            namespace: 'tnv-vendor',
          }))
          build.onLoad({ filter: /.*/, namespace: 'tnv-vendor' }, (args) => ({
            contents: `module.exports = require(${JSON.stringify(args.path)})`,
            resolveDir: root,
            loader: 'js',
          }))
        },
      },
    ],
  })
  const walk = (dir) =>
    readdirSync(dir)
      .sort()
      .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]))
  const bundles = walk(out).filter((f) => f.endsWith('.cjs'))
  for (const f of bundles) wrapForLoader(f)
  // the build of the bundles: names their code cache (src/entries/run-modules.ts)
  const hash = createHash('sha256')
  for (const f of bundles) hash.update(`${relative(out, f)}\0`).update(readFileSync(f))
  const o = pjson.oclif ?? {}
  const index = {
    build: hash.digest('hex').slice(0, 16),
    name: pjson.name,
    version: pjson.version,
    bin: o.bin ?? pjson.name,
    dirname: o.dirname ?? pjson.name,
    binAliases: o.binAliases ?? [],
    topicSeparator: o.topicSeparator === ' ' ? ' ' : ':',
    oclif: {
      ...(o.additionalHelpFlags ? { additionalHelpFlags: o.additionalHelpFlags } : {}),
      ...(o.additionalVersionFlags ? { additionalVersionFlags: o.additionalVersionFlags } : {}),
      ...(o.helpOptions ? { helpOptions: o.helpOptions } : {}),
    },
    commands: {},
  }
  for (const [id, c] of Object.entries(manifest.commands)) {
    const entry = { strict: c.strict !== false, args: Object.keys(c.args ?? {}) }
    index.commands[id] = sources[id] ? { ...entry, file: fileOf(id), ...(lean[id] ? { lean: lean[id] } : {}) } : entry
    for (const alias of [...(c.aliases ?? []), ...(c.hiddenAliases ?? [])]) index.commands[alias] ??= entry
  }
  writeFileSync(join(out, 'index.json'), `${JSON.stringify(index)}\n`)

  if (launcher)
    await esbuild.build({
      ...common,
      minify: false,
      entryPoints: [join(root, 'src/entries/launch-installed.ts')],
      outfile: join(root, 'dist', 'launch.cjs'),
      define: { ...define, 'import.meta.url': META_URL },
      banner: { js: META_URL_BANNER },
    })
  if (launcher) {
    const launcherFile = join(root, 'dist', 'launch.cjs')
    writeFileSync(launcherFile, asciiOnly(readFileSync(launcherFile, 'utf8'), launcherFile))
  }
  return { commands: Object.keys(sources).length }
}
