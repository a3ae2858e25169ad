/**
 * Install paths (issue 19), each as an operator runs it:
 * - the npm tarball: `npm pack`, and what it holds (everything the installed CLI reads,
 *   nothing secret, no source maps or sources);
 * - `npm install --global ./tnv-<version>.tgz` into a temporary prefix, its dependencies
 *   resolved through a package registry on loopback that serves what this checkout installed
 *   (test/ship/registry.ts), then the installed `tnv` run from that prefix: keys, rpc plan and
 *   a devnet (anvil, the reference node, the genesis files, the BLS verifier all found in the
 *   installed layout);
 * - no document or help text names a package the project does not own.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { generateKeysArgs, parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { type LocalRegistry, packInstalled, startLocalRegistry } from './registry.js'
import { removeDir, runBare } from './sea.js'

type PackResult = { filename: string; files: { path: string; size: number }[]; unpackedSize: number }

/** npm with nothing from the caller's npm environment (npm test sets npm_config_*), a private cache. */
function npmEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    npm_config_cache: join(home, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  }
}

function pack(dest: string, home: string, dryRun = false): PackResult {
  const out = execFileSync(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', dest, ...(dryRun ? ['--dry-run'] : [])],
    { cwd: ROOT, env: npmEnv(home), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  )
  return (JSON.parse(out) as PackResult[])[0] as PackResult
}

/** The production dependency closure of the package, as installed in this checkout. */
function productionClosure(): string[] {
  const seen = new Set<string>()
  const queue = Object.keys(
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
      .dependencies,
  )
  while (queue.length) {
    const name = queue.shift() as string
    if (seen.has(name) || !existsSync(join(ROOT, 'node_modules', name, 'package.json'))) continue
    seen.add(name)
    const m = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
      optionalDependencies?: Record<string, string>
    }
    queue.push(...Object.keys(m.dependencies ?? {}), ...Object.keys(m.optionalDependencies ?? {}))
  }
  return [...seen]
}

describe('the npm tarball', () => {
  const tmp = tempDir('tnv-pack-')
  after(() => removeDir(tmp.dir))

  it('holds what the installed CLI reads, and nothing secret, huge or from the source tree', () => {
    const r = pack(tmp.dir, tmp.dir, true)
    const paths = r.files.map((f) => f.path)
    for (const needed of [
      'package.json',
      'bin/run.js',
      'bin/tnv-node.js',
      'dist/entries/cli.js',
      'dist/entries/node-main.js',
      'oclif.manifest.json',
      'contracts/out/BlsVerifier.json',
      'contracts/out/build-info.json',
      'networks/adiri/genesis.yaml',
      'networks/next/genesis.yaml',
      'networks/SHA256SUMS',
      'dist/commands/autocomplete/index.js',
      'dist/commands/rpc/plan.js',
      'wasm/blst/tnv-blst.wasm',
    ])
      assert.ok(paths.includes(needed), `${needed} is in the tarball`)
    const forbidden = paths.filter((p) =>
      /\.map$|^src\/|^test\/|^bench\/|^scripts\/|^release\/|^\.|\/\.env|bls\.(kw|key)$|\.seed$|^bin\/dev\.js$/.test(p),
    )
    assert.deepEqual(forbidden, [])
    assert.ok(r.unpackedSize < 20e6, `unpacked ${r.unpackedSize} bytes`)
  })
})

describe('npm install --global from the tarball', { timeout: 600_000 }, () => {
  const tmp = tempDir('tnv-install-')
  const home = join(tmp.dir, 'home')
  const prefix = join(tmp.dir, 'prefix')
  let registry: LocalRegistry
  let tnvBin: string
  const installed = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) =>
    runBare(tnvBin, args, {
      ...opts,
      // the installed CLI finds `node` on PATH (#!/usr/bin/env node), and nothing of the checkout
      env: { PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, ...opts.env },
      cwd: tmp.dir,
    })

  before(async () => {
    mkdirSync(home, { recursive: true })
    const tarballs = join(tmp.dir, 'tarballs')
    mkdirSync(tarballs)
    const { filename } = pack(tarballs, home)
    registry = await startLocalRegistry(packInstalled(ROOT, productionClosure(), tarballs))
    // asynchronously: the registry answers from this process
    const npm = (await runBare('/usr/bin/env', ['which', 'npm'], { env: npmEnv(home) })).stdout.trim()
    const r = await runBare(
      npm,
      ['install', '--global', '--prefix', prefix, '--registry', registry.url, join(tarballs, filename)],
      { env: npmEnv(home), timeoutMs: 300_000, cwd: tmp.dir },
    )
    assert.equal(r.code, 0, `npm install failed:\n${r.stdout}\n${r.stderr}`)
    tnvBin = join(prefix, 'bin', 'tnv')
  })
  after(async () => {
    await registry?.close()
    removeDir(tmp.dir)
  })

  it('installs tnv with only its runtime dependencies, all from the registry it was given', () => {
    assert.ok(existsSync(tnvBin))
    const root = join(prefix, 'lib', 'node_modules', 'tnv')
    assert.deepEqual(
      readdirSync(join(root, 'node_modules'))
        .filter((n) => n !== '.bin')
        .sort(),
      ['@foundry-rs'],
    )
    assert.ok(!existsSync(join(root, 'src')) && !existsSync(join(root, 'test')))
    // npm may look up what the closure names as optional (another platform's anvil, ws's
    // optional peers), and nothing else
    const optional = new Set(
      productionClosure().flatMap((name) => {
        const m = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
          optionalDependencies?: Record<string, string>
          peerDependencies?: Record<string, string>
        }
        return [...Object.keys(m.optionalDependencies ?? {}), ...Object.keys(m.peerDependencies ?? {})]
      }),
    )
    for (const name of new Set(registry.requests.filter((p) => !p.includes('/-/'))))
      assert.ok(
        productionClosure().includes(name) || optional.has(name),
        `npm asked the registry for ${name}, which is not a runtime dependency`,
      )
  })

  it('the installed tnv: --version, keys, export-staking-args and rpc plan as in the checkout', async () => {
    const v = await installed(['--version', '--json'])
    assert.equal(v.code, 0, v.stderr)
    assert.equal(JSON.parse(v.stdout).distribution, 'npm')
    const datadir = join(tmp.dir, 'keys')
    const gen = await installed(generateKeysArgs(datadir, '0x2222222222222222222222222222222222222222'))
    assert.equal(gen.code, 0, gen.stderr)
    const args = [
      'keytool',
      'export-staking-args',
      '--node-info',
      datadir,
      '--calldata',
      '--bls-passphrase-source',
      'no-passphrase',
    ]
    const fromInstall = await installed(args)
    const fromCheckout = await runCli(args)
    assert.equal(fromInstall.code, 0, fromInstall.stderr)
    assert.equal(fromInstall.stdout, fromCheckout.stdout)
    const plan = await installed(['rpc', 'plan', '--json', '--', '--http'])
    assert.equal(plan.code, 0, plan.stderr)
  })

  it('the installed tnv runs the devnet: anvil, the reference node, the genesis and the BLS verifier found in the install', async () => {
    const devnet = join(tmp.dir, 'devnet')
    const start = await installed([
      'devnet',
      'start',
      '--detach',
      '--json',
      '--datadir',
      devnet,
      '--',
      '--http',
      '--http.port',
      String(await freePort()),
      '--ipcdisable',
    ])
    assert.equal(start.code, 0, start.stderr)
    try {
      const info = parseJson<{ pid: number }>(start)
      const cmdline = readFileSync(`/proc/${info.pid}/cmdline`, 'utf8').split('\0')
      assert.equal(cmdline[1], join(prefix, 'lib', 'node_modules', 'tnv', 'bin', 'tnv-node.js'))
      const status = await installed(['devnet', 'status', '--json', '--datadir', devnet])
      assert.equal(status.code, 0, status.stderr)
    } finally {
      const stop = await installed(['devnet', 'stop', '--json', '--datadir', devnet])
      assert.equal(stop.code, 0, stop.stderr)
    }
  })
})

describe('documents and help name no package the project does not own', () => {
  it('no `npm install --global tnv` (or -g / i) anywhere in the docs, README or command help', () => {
    const files = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).map((f) => join(ROOT, 'docs', f))]
    const manifest = readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')
    const pattern = /npm\s+(install|i|add)\s+(--global|-g)\s+(tnv|@[\w-]+\/tnv)\b/
    for (const f of files) {
      const hit = pattern.exec(readFileSync(f, 'utf8'))
      assert.equal(hit, null, `${f}: ${hit?.[0]}`)
    }
    assert.equal(pattern.exec(manifest), null, 'command help')
  })
})
