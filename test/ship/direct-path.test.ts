/**
 * The direct command path (src/entries/launch.ts): a command found in the command index runs
 * from its own bundle with a config built from the index, instead of through oclif's
 * `Config.load` and `run`. These tests hold it to oclif's own answers:
 * - every member of the index's config that a command reads equals `Config.load` of this tree;
 * - the launcher hands oclif everything it does not run itself (help, aliases, topics,
 *   completion, unknown commands, a theme file, oclif's debug switch);
 * - the same command line gives the same stdout, stderr and exit code through both paths.
 */
import assert from 'node:assert/strict'
import { isAscii } from 'node:buffer'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Config } from '@oclif/core'
import { type CommandIndex, DirectConfig } from '../../src/entries/command-index.js'
import { directTarget } from '../../src/entries/launch.js'
import { readSourceFile } from '../../src/entries/read-source.js'
import { HEAD, runModuleLoader, TAIL } from '../../src/entries/run-modules.js'
import { generateKeysArgs, ROOT, runCli, tempDir, testStateDir } from '../helpers/cli.js'

const index = (): CommandIndex => JSON.parse(readFileSync(join(ROOT, 'dist', 'run', 'index.json'), 'utf8'))

describe('the direct path config', () => {
  const tmp = tempDir('tnv-direct-')
  const env = { HOME: join(tmp.dir, 'home') }
  let oclif: Config
  let direct: DirectConfig
  before(async () => {
    mkdirSync(env.HOME, { recursive: true })
    const saved = process.env.HOME
    process.env.HOME = env.HOME
    try {
      oclif = await Config.load(ROOT)
      direct = new DirectConfig(index(), ROOT, { ...process.env, ...env })
    } finally {
      process.env.HOME = saved
    }
  })
  after(() => tmp.cleanup())

  it('equals Config.load on every member a command reads', () => {
    for (const k of [
      'root',
      'name',
      'version',
      'bin',
      'dirname',
      'topicSeparator',
      'userAgent',
      'configDir',
      'cacheDir',
    ] as const)
      assert.equal(direct[k], oclif[k], k)
    assert.deepEqual(direct.binAliases, oclif.binAliases ?? [])
    assert.equal(direct.theme, oclif.theme)
    assert.equal(direct.flexibleTaxonomy, oclif.flexibleTaxonomy)
    assert.equal(direct.isSingleCommandCLI, oclif.isSingleCommandCLI)
    for (const k of ['CONTENT_TYPE', 'REDIRECTED', 'DEBUG'])
      assert.deepEqual(direct.scopedEnvVarKeys(k), oclif.scopedEnvVarKeys(k), k)
    assert.equal(direct.scopedEnvVarKey('CONTENT_TYPE'), oclif.scopedEnvVarKey('CONTENT_TYPE'))
    assert.deepEqual([...direct.commandIDs].sort(), [...oclif.commandIDs].sort())
    for (const id of oclif.commandIDs) {
      const a = direct.findCommand(id)
      const b = oclif.findCommand(id)
      assert.ok(a && b, id)
      assert.equal(a.strict, b.strict !== false, `${id} strict`)
      assert.deepEqual(a.args, Object.keys(b.args ?? {}), `${id} args`)
    }
  })

  it('no hook, plugin or theme that Config.load would act on', async () => {
    assert.deepEqual(
      oclif.getPluginsList().map((p) => p.name),
      ['tnv'],
    )
    assert.deepEqual(oclif.getPluginsList()[0]?.hooks ?? {}, {})
    assert.deepEqual(await direct.runHook(), { successes: [], failures: [] })
    assert.deepEqual(await oclif.runHook('init', { argv: [], id: 'rpc:plan' }), { successes: [], failures: [] })
  })

  it('runs directly only a command of src/commands; oclif answers the rest', () => {
    const target = (argv: string[], e: NodeJS.ProcessEnv = env) =>
      directTarget(argv, new DirectConfig(index(), ROOT, { ...process.env, ...e }))?.id ?? null
    // oclif's own id resolution: the longest known prefix, node flags after `--` untouched
    assert.equal(target(['rpc', 'plan', '--', '--http', '--help']), 'rpc:plan')
    assert.equal(target(['keytool', 'generate', 'validator', '--datadir', 'x']), 'keytool:generate:validator')
    assert.equal(target(['rpc:plan']), 'rpc:plan')
    assert.equal(target(['stake', '--json']), 'stake')
    for (const argv of [
      [],
      ['--help'],
      ['rpc', 'plan', '--help'],
      ['help', 'rpc'],
      ['rpc'],
      ['keytool', 'generate'],
      ['keytool', 'generate', 'proof-of-possession'], // an alias of keytool generate pop
      ['keytool', 'generate', 'all'], // an alias of keytool generate validator
      ['autocomplete', 'script', 'bash'], // the bundled plugin
      ['rpx', 'plan'],
      ['--version'],
    ])
      assert.equal(target(argv), null, argv.join(' '))
    assert.equal(target(['rpc', 'plan'], { ...env, TNV_DEBUG: '1' }), null, 'oclif debug mode')
    const themed = join(tmp.dir, 'themed')
    mkdirSync(join(themed, 'tnv'), { recursive: true })
    writeFileSync(join(themed, 'tnv', 'theme.json'), '{}')
    assert.equal(target(['rpc', 'plan'], { ...env, XDG_CONFIG_HOME: themed }), null, 'a user theme')
    assert.equal(target(['rpc', 'plan'], { ...env, XDG_CONFIG_HOME: themed, TNV_DISABLE_THEME: '1' }), 'rpc:plan')
  })

  it('runs export-staking-args from its lean bundle unless a flag that contacts a registry is given', () => {
    const file = (argv: string[]) =>
      directTarget(argv, new DirectConfig(index(), ROOT, { ...process.env, ...env }))?.file
    const base = ['keytool', 'export-staking-args', '--node-info', 'x', '--calldata']
    assert.equal(file(base), 'keytool.export-staking-args.lean.cjs')
    assert.equal(file([...base, '--registry-generation', 'adiri']), 'keytool.export-staking-args.lean.cjs')
    for (const online of [
      ['--rpc-url', 'http://127.0.0.1:8545'],
      ['--rpc-url=http://127.0.0.1:8545'],
      ['--chain', 'testnet'],
      ['--chain=testnet'],
    ])
      assert.equal(file([...base, ...online]), 'keytool.export-staking-args.cjs', online.join(' '))
    // the lean bundle leaves the registry client out, each of its modules replaced by one that
    // says so should it ever be reached; the full bundle has no such stand-in
    const lean = readFileSync(join(ROOT, 'dist', 'run', 'keytool.export-staking-args.lean.cjs'), 'utf8')
    const full = readFileSync(join(ROOT, 'dist', 'run', 'keytool.export-staking-args.cjs'), 'utf8')
    assert.match(lean, /the lean bundle of keytool:export-staking-args reached src\/lib\/registry\/command-support\.ts/)
    assert.doesNotMatch(full, /the lean bundle of/)
    assert.ok(lean.length < full.length * 0.7, `${lean.length} against ${full.length}`)
  })

  it('runs keytool generate from its lean bundle unless --force (or --overwrite) asks a registry first', () => {
    const file = (argv: string[]) =>
      directTarget(argv, new DirectConfig(index(), ROOT, { ...process.env, ...env }))?.file
    for (const role of ['validator', 'observer']) {
      const base = ['keytool', 'generate', role, '--datadir', 'x', '--address', '0x01']
      assert.equal(file(base), `keytool.generate.${role}.lean.cjs`)
      for (const force of [
        ['--force'],
        ['--overwrite'],
        ['--force', '--skip-registry-check'],
        ['--overwrite', '--chain', 'devnet'],
      ])
        assert.equal(file([...base, ...force]), `keytool.generate.${role}.cjs`, force.join(' '))
      const lean = readFileSync(join(ROOT, 'dist', 'run', `keytool.generate.${role}.lean.cjs`), 'utf8')
      const full = readFileSync(join(ROOT, 'dist', 'run', `keytool.generate.${role}.cjs`), 'utf8')
      assert.match(lean, /the lean bundle of keytool:generate:\w+ reached src\/lib\/registry\/key-replace-guard\.ts/)
      assert.doesNotMatch(full, /the lean bundle of/)
      // without the registry check, viem is not in it at all (its errors link to viem.sh)
      assert.match(full, /viem\.sh/)
      assert.doesNotMatch(lean, /viem\.sh/)
      assert.ok(lean.length < full.length * 0.6, `${lean.length} against ${full.length}`)
    }
  })

  it('the build names a lean bundle only for flags the launcher can see in every form', async () => {
    // @ts-expect-error: a build script in JavaScript, without type declarations
    const { leanFlags } = (await import('../../scripts/direct-bundles.mjs')) as {
      leanFlags: (id: string, command: unknown, lean: { unlessFlags: string[] }) => string[]
    }
    const option = { type: 'option' }
    const boolean = { type: 'boolean', allowNo: false }
    const command = {
      flags: {
        'rpc-url': option,
        chain: option,
        force: { ...boolean, aliases: ['overwrite'] },
        c: { ...option, char: 'c' },
      },
    }
    assert.deepEqual(leanFlags('x', command, { unlessFlags: ['rpc-url', 'chain'] }), ['--rpc-url', '--chain'])
    // a long alias is one more form the launcher sees
    assert.deepEqual(leanFlags('x', command, { unlessFlags: ['force'] }), ['--force', '--overwrite'])
    const refused = (flags: Record<string, unknown>, name: string) =>
      assert.throws(() => leanFlags('x', { flags }, { unlessFlags: [name] }), /LEAN_BUNDLES/, name)
    refused({}, 'missing')
    // oclif also reads a short flag inside a group (`-qc`)
    refused({ c: { ...option, char: 'c' } }, 'c')
    refused({ b: { ...boolean, char: 'f' } }, 'b')
    refused({ e: { ...option, env: 'TN_E' } }, 'e')
    refused({ e: { ...boolean, env: 'TN_FORCE' } }, 'e')
    refused({ n: { ...option, allowNo: true } }, 'n')
    refused({ n: { ...boolean, allowNo: true } }, 'n')
    refused({ a: { ...option, charAliases: ['r'] } }, 'a')
    refused({ d: { ...option, default: 'testnet' } }, 'd')
    refused({ d: { ...boolean, default: true } }, 'd')
    refused({ f: { type: 'custom' } }, 'f')
  })
})

describe('the same command line through the direct path and through oclif', () => {
  const tmp = tempDir('tnv-direct-e2e-')
  const address = '0x4444444444444444444444444444444444444444'
  const keys = join(tmp.dir, 'keys')
  const env = { HOME: join(tmp.dir, 'home'), TNV_STATE_DIR: testStateDir(), NO_COLOR: '1' }
  after(() => tmp.cleanup())

  /** oclif's path: dist/entries/cli.js's run, as the launcher calls it for what it does not run. */
  const throughOclif = (args: string[], input = '') => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { run } = await import(${JSON.stringify(join(ROOT, 'dist/entries/cli.js'))}); await run(${JSON.stringify(args)})`,
      ],
      { cwd: tmp.dir, env: { PATH: process.env.PATH, ...env }, input, encoding: 'utf8' },
    )
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
  }
  const direct = async (args: string[], input?: string) => {
    const r = await runCli(args, { env, cwd: tmp.dir, ...(input === undefined ? {} : { input }) })
    return { code: r.code, stdout: r.stdout, stderr: r.stderr }
  }

  before(async () => {
    mkdirSync(env.HOME, { recursive: true })
    const r = await runCli(generateKeysArgs(keys, address), { env, cwd: tmp.dir })
    assert.equal(r.code, 0, r.stderr)
  })

  it('export-staking-args on an unencrypted key loads no network module', () => {
    const preload = join(tmp.dir, 'modules.cjs')
    const list = join(tmp.dir, 'modules.txt')
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')))`,
    )
    const r = spawnSync(
      process.execPath,
      [
        '-r',
        preload,
        join(ROOT, 'bin', 'tnv.cjs'),
        'keytool',
        'export-staking-args',
        '--node-info',
        keys,
        '--calldata',
      ],
      { cwd: tmp.dir, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' },
    )
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /^0x[0-9a-f]+\n$/)
    // node:crypto (and stream, which it loads) it does load: the BLS module's package file is
    // checked against its recorded SHA-256 (src/lib/keys/blst.ts)
    const loaded = readFileSync(list, 'utf8').split('\n')
    assert.deepEqual(
      loaded.filter((m) => ['NativeModule net', 'NativeModule http', 'NativeModule https'].includes(m)),
      [],
    )
  })

  it("reads oclif's spinner, layout and debug packages (COLD_CJS) only where they are used", async () => {
    // @ts-expect-error: a build script in JavaScript, without type declarations
    const { COLD_CJS } = (await import('../../scripts/direct-bundles.mjs')) as { COLD_CJS: string[] }
    const preload = join(tmp.dir, 'reads.cjs')
    const list = join(tmp.dir, 'reads.txt')
    // the run module loader reads each module with readFileSync (src/entries/read-source.ts)
    writeFileSync(
      preload,
      `const fs = require('node:fs'); const read = fs.readFileSync; const seen = []
fs.readFileSync = function (f, ...rest) { if (String(f).includes('/dist/run/vendor/')) seen.push(String(f).replace(/.*\\/vendor\\//, '')); return read.call(this, f, ...rest) }
process.on('exit', () => fs.writeFileSync(${JSON.stringify(list)}, seen.join('\\n')))`,
    )
    const vendorRead = (args: string[], extraEnv: Record<string, string> = {}) => {
      const r = spawnSync(process.execPath, ['-r', preload, join(ROOT, 'bin', 'tnv.cjs'), ...args], {
        cwd: tmp.dir,
        env: { PATH: process.env.PATH, ...env, ...extraEnv },
        encoding: 'utf8',
      })
      return { r, read: readFileSync(list, 'utf8').split('\n').filter(Boolean) }
    }
    const cold = COLD_CJS.map((pkg) => `${pkg}.cjs`)
    assert.deepEqual(cold, ['cli-spinners.cjs', 'emoji-regex.cjs', 'color-convert.cjs', 'debug.cjs'])
    for (const args of [
      ['rpc', 'plan', '--', '--http'],
      ['keytool', 'export-staking-args', '--node-info', keys, '--calldata', '--bls-passphrase-source', 'no-passphrase'],
      ['keytool', 'show', '--datadir', keys, '--json'],
    ]) {
      const { r, read } = vendorRead(args)
      assert.equal(r.status, 0, r.stderr)
      assert.deepEqual(
        read.filter((f) => cold.includes(f)),
        [],
        `${args.join(' ')}`,
      )
    }
    // and no command bundle holds a copy of them
    for (const f of readdirSync(join(ROOT, 'dist/run')).filter((f) => f.endsWith('.cjs')))
      assert.ok(!readFileSync(join(ROOT, 'dist/run', f), 'latin1').includes('"dots12"'), `${f} holds cli-spinners`)
    // oclif's debug logger, with DEBUG set: the package from its own run module, printing as before
    const { r, read } = vendorRead(['rpc', 'plan', '--', '--http'], { DEBUG: 'oclif:*' })
    assert.equal(r.status, 0, r.stderr)
    assert.ok(read.includes('debug.cjs'), read.join(', '))
    assert.match(r.stderr, /oclif:tnv:rpc:plan init version: @oclif\/core@/)
  })

  for (const args of [
    ['rpc', 'plan', '--', '--http', '--http.api', 'eth,net,web3,rpc,tn'],
    ['rpc', 'plan', '--json', '--', '--http', '--ws', '--workers', '2'],
    ['rpc', 'plan', '--behaviour', 'released', '--', '--http', '--http.api', 'all'],
    ['rpc', 'plan', '--behaviour', 'relased'],
    ['rpc', 'plan', '--http'],
    ['rpc', 'plan', '--', '--http.port', 'x'],
    ['keytool', 'export-staking-args', '--node-info', keys, '--calldata', '--bls-passphrase-source', 'no-passphrase'],
    ['keytool', 'export-staking-args', '--node-info', keys, '--json'],
    ['keytool', 'export-staking-args', '--node-info', join(tmp.dir, 'none'), '--json'],
    ['keytool', 'show', '--datadir', keys, '--json'],
    ['keytool', 'verify', '--datadir', keys, '--bls-passphrase-source', 'no-passphrase'],
    ['keytool', 'generate', 'validator', '--datadir', keys, '--address', address],
    ['keytool', 'generate', 'validator', '--datadir', keys, '--adress', address],
    ['validator', 'status', '--json'],
  ])
    it(args.join(' '), async () => {
      const a = await direct(args)
      const b = throughOclif(args)
      assert.deepEqual(a, b)
    })
})

describe('the code cache of the command bundles', () => {
  const tmp = tempDir('tnv-code-cache-')
  const env = { HOME: join(tmp.dir, 'home'), XDG_CACHE_HOME: join(tmp.dir, 'cache'), TNV_STATE_DIR: testStateDir() }
  const args = ['rpc', 'plan', '--json', '--', '--http']
  after(() => tmp.cleanup())

  it("is made on a command's first run, private to the user, and named after the build and Node.js", async () => {
    const first = await runCli(args, { env })
    assert.equal(first.code, 0, first.stderr)
    const dir = join(env.XDG_CACHE_HOME, 'tnv', 'code-cache', `${index().build}-node${process.version}-${process.arch}`)
    const file = join(dir, 'rpc.plan.cjs.cache')
    assert.ok(statSync(file).size > 0)
    assert.equal(statSync(file).mode & 0o777, 0o600)
    assert.equal(statSync(dir).mode & 0o777, 0o700)
    // a damaged cache is rejected by V8 and replaced; the command's answer is the same
    writeFileSync(file, 'not a code cache')
    const again = await runCli(args, { env })
    assert.deepEqual([again.code, again.stdout, again.stderr], [first.code, first.stdout, first.stderr])
    assert.notEqual(readFileSync(file, 'utf8'), 'not a code cache')
  })

  it('a cache directory that cannot be written changes nothing but the time', async () => {
    writeFileSync(join(tmp.dir, 'not-a-dir'), '')
    const r = await runCli(args, { env: { ...env, XDG_CACHE_HOME: join(tmp.dir, 'not-a-dir') } })
    const ok = await runCli(args, { env })
    assert.deepEqual([r.code, r.stdout, r.stderr], [ok.code, ok.stdout, ok.stderr])
  })
})

describe('the run modules as the build writes them', () => {
  const runDir = join(ROOT, 'dist', 'run')
  const files = [
    ...readdirSync(runDir).filter((f) => f.endsWith('.cjs')),
    ...readdirSync(join(runDir, 'vendor')).map((f) => `vendor/${f}`),
  ]

  it('are ASCII only and already wrapped in the function the loader compiles them in', () => {
    // one character outside ASCII makes V8 hold the whole bundle as a two-byte string
    // (ansis writes ESC and CSI raw in a regular expression, which esbuild leaves as written)
    assert.ok(files.length > 40)
    for (const f of files) {
      const bytes = readFileSync(join(runDir, f))
      assert.ok(isAscii(bytes), `${f} holds a character outside ASCII`)
      assert.ok(bytes.toString('latin1').startsWith(HEAD), `${f} is not wrapped`)
      assert.ok(bytes.toString('latin1').endsWith(TAIL), `${f} is not wrapped`)
    }
    assert.ok(isAscii(readFileSync(join(ROOT, 'dist', 'launch.cjs'))))
  })

  it('name their classes and leave their functions as esbuild wrote them (classNamesOnly)', async () => {
    // @ts-expect-error: a build script in JavaScript, without type declarations
    const { classNamesOnly } = (await import('../../scripts/direct-bundles.mjs')) as {
      classNamesOnly: (text: string, file: string) => string
    }
    const esbuild = await import('esbuild')
    // esbuild's own output, minified and not: the shape the build rewrites
    const source = `
      export class FeeTooHighError extends Error { constructor() { super('x'); this.name = new.target.name } }
      export const Named = class Inner {}
      export function plan() { return 1 }
      export const make = () => { const helper = () => 2; return helper }
    `
    for (const minify of [true, false]) {
      const built = await esbuild.transform(source, { format: 'cjs', keepNames: true, minify, platform: 'node' })
      const text = classNamesOnly(built.code, 'test.cjs')
      assert.notEqual(text, built.code, `rewritten (minify ${minify})`)
      const module = { exports: {} as Record<string, unknown> }
      new Function('module', 'exports', text)(module, module.exports)
      const m = module.exports as {
        FeeTooHighError: new () => Error
        Named: { name: string }
        plan: () => number
        make: () => () => number
      }
      assert.equal(new m.FeeTooHighError().name, 'FeeTooHighError', `minify ${minify}`)
      assert.equal(m.Named.name, 'Inner', `minify ${minify}`)
      assert.equal(m.plan(), 1)
      assert.equal(m.make()(), 2)
    }
    // what the build wrote: the classes' helper in every module that names anything
    const rpcPlan = readFileSync(join(runDir, 'rpc.plan.cjs'), 'latin1')
    assert.match(rpcPlan, /static\{__tnvClassName\(this,"RpcPlanCommand"\)/)
    // a minifier's name with `$` in it stays that name
    const dollars = classNamesOnly(
      'var $$=(t,e)=>d$(t,"name",{value:e,configurable:!0});class A{static{$$(this,"B")}};function f(){}$$(f,"g");',
      'dollars.cjs',
    )
    const got = new Function('d$', `${dollars};return [A.name, f.name, $$(f)]`)(Object.defineProperty)
    assert.deepEqual(got.slice(0, 2), ['B', 'f'])
    assert.equal(typeof got[2], 'function')
    assert.throws(
      () => classNamesOnly('var q=(t,e)=>d(t,"name",{value:e,writable:!0});q(f,"f");', 'odd.cjs'),
      /keepNames helper has a shape/,
    )
  })
})

describe('the run module loader', () => {
  const tmp = tempDir('tnv-run-modules-')
  after(() => tmp.cleanup())
  const loaderFor = (dir: string) =>
    runModuleLoader({
      read: (f) => readSourceFile(join(dir, f)),
      filename: (f) => join(dir, f),
      require: () => (id) => {
        throw new Error(`unexpected require ${id}`)
      },
      cacheDir: undefined,
    })

  it('runs a wrapped module and a plain CommonJS one alike, each once', () => {
    const dir = join(tmp.dir, 'mods')
    mkdirSync(dir)
    writeFileSync(join(dir, 'plain.cjs'), "exports.word = 'plain ' + require('./wrapped.cjs').word")
    writeFileSync(join(dir, 'wrapped.cjs'), `${HEAD}module.exports = { word: 'wrapped', n: Math.random() }${TAIL}`)
    const load = loaderFor(dir)
    assert.equal((load('plain.cjs') as { word: string }).word, 'plain wrapped')
    assert.equal(load('wrapped.cjs'), load('wrapped.cjs'))
  })

  it('reads a source that is not ASCII as UTF-8', () => {
    const file = join(tmp.dir, 'utf8.cjs')
    const text = "exports.s = 'prix: 1 000 000 TEL → ok ✓'"
    writeFileSync(file, text)
    assert.equal(readSourceFile(file), text)
    writeFileSync(file, '')
    assert.equal(readSourceFile(file), '')
  })
})
