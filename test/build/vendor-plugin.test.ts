/**
 * scripts/direct-bundles.mjs `vendorPlugin` for the COLD_CJS packages: a command bundle requires
 * the package's own run module and gets its `module.exports` as the package made them (a
 * function included), and the build refuses an importer that would get a nested copy of the
 * package other than the one vendored (the top of node_modules).
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, describe, it } from 'node:test'
import { runInNewContext } from 'node:vm'
import * as esbuild from 'esbuild'

// @ts-expect-error: a build script in JavaScript, without type declarations
const { vendorPlugin } = (await import('../../scripts/direct-bundles.mjs')) as {
  vendorPlugin: (prefix?: string) => esbuild.Plugin
}

describe('vendorPlugin and the COLD_CJS packages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tnv-vendor-plugin-'))
  after(() => rmSync(dir, { recursive: true, force: true }))
  const put = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), text)
  }
  put('node_modules/debug/package.json', '{"name":"debug","main":"index.js"}')
  put('node_modules/debug/index.js', 'module.exports = function top() {}')
  put('node_modules/uses-top/package.json', '{"name":"uses-top","main":"index.js"}')
  put('node_modules/uses-top/index.js', 'module.exports = require("debug")')
  put('node_modules/own-copy/package.json', '{"name":"own-copy","main":"index.js"}')
  put('node_modules/own-copy/index.js', 'module.exports = require("debug")')
  put('node_modules/own-copy/node_modules/debug/package.json', '{"name":"debug","main":"index.js"}')
  put('node_modules/own-copy/node_modules/debug/index.js', 'module.exports = function nested() {}')

  const build = (entry: string) =>
    esbuild.build({
      absWorkingDir: dir,
      stdin: { contents: entry, resolveDir: dir, loader: 'js' },
      bundle: true,
      format: 'cjs',
      platform: 'node',
      write: false,
      logLevel: 'silent',
      plugins: [vendorPlugin()],
    })

  it("requires the package's run module and hands over its module.exports unchanged", async () => {
    const out = await build('module.exports = require("uses-top")')
    const text = out.outputFiles[0]?.text ?? ''
    assert.match(text, /require\("\.\/vendor\/debug\.cjs"\)/)
    assert.doesNotMatch(text, /function top/)
    // run it with a require that answers the run module: the function itself comes through
    const fn = function top() {}
    const module = { exports: {} as unknown }
    runInNewContext(text, {
      module,
      exports: module.exports,
      require: (id: string) => {
        assert.equal(id, './vendor/debug.cjs')
        return fn
      },
    })
    assert.equal(module.exports, fn)
  })

  it('refuses an importer that would get its own nested copy', async () => {
    await assert.rejects(build('module.exports = require("own-copy")'), (err: Error) => {
      assert.match(
        err.message,
        /own-copy[\\/]index\.js requires its own copy of debug; COLD_CJS vendors the top one only/,
      )
      return true
    })
  })
})
