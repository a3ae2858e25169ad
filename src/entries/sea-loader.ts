/**
 * The single executable's entry (the script Node's single executable runs): small, so
 * `tnv --version` costs little more than Node's own start-up. Every other command compiles the
 * main bundle (src/entries/sea.ts, every command and the reference node: the asset `bundle`)
 * with the code cache scripts/package.mjs made by running representative commands (the asset
 * `bundle.cache`, functions compiled then included), so start-up skips most of V8's parsing and
 * compiling. A cache V8 rejects (another Node.js build) only costs time: the bundle compiles
 * from source. `TNV_DEBUG_SEA=1` reports whether it was used.
 */
import { getAsset } from 'node:sea'
import { Script } from 'node:vm'
import { isVersionRequest, printVersion } from './version.js'

/** The text around the bundle, the same at packaging (scripts/package.mjs) so the cache matches. */
declare const __TNV_BUNDLE_WRAPPER__: { head: string; tail: string; filename: string }

type Bundle = { run: (options?: { root?: string }) => Promise<void> }

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  if (isVersionRequest(args)) return printVersion(args, 'single-executable')
  const source = getAsset('bundle', 'utf8')
  const script = new Script(`${__TNV_BUNDLE_WRAPPER__.head}${source}${__TNV_BUNDLE_WRAPPER__.tail}`, {
    filename: __TNV_BUNDLE_WRAPPER__.filename,
    cachedData: Buffer.from(getAsset('bundle.cache')),
  })
  if (process.env.TNV_DEBUG_SEA)
    process.stderr.write(`tnv: bundle code cache ${script.cachedDataRejected ? 'REJECTED' : 'used'}\n`)
  const module = { exports: {} as Bundle }
  const init = script.runInThisContext() as (e: object, r: NodeJS.Require, m: object, f: string, d: string) => void
  init(module.exports, require, module, __TNV_BUNDLE_WRAPPER__.filename, '/')
  await module.exports.run()
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exitCode = 1
})
