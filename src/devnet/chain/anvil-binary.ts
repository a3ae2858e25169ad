/**
 * Finds the anvil binary shipped by @foundry-rs/anvil's platform package
 * (`@foundry-rs/anvil-<platform>-<arch>`, amd64 for x64). Nothing is downloaded.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { AnvilNotFoundError } from './errors.js'

/** The platform package name for this machine, e.g. `@foundry-rs/anvil-linux-amd64`. */
export function anvilPackageName(platform: string = process.platform, arch: string = process.arch): string {
  return `@foundry-rs/anvil-${platform}-${arch === 'x64' ? 'amd64' : arch}`
}

/**
 * Absolute path of the anvil executable. `TNV_ANVIL_BINARY` overrides the lookup.
 * @example spawn(resolveAnvilBinary(), ['--version'])
 */
export function resolveAnvilBinary(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.TNV_ANVIL_BINARY
  if (override) {
    if (!existsSync(override)) throw new AnvilNotFoundError(`TNV_ANVIL_BINARY=${override}`)
    return override
  }
  const pkg = anvilPackageName()
  const require = createRequire(import.meta.url)
  let manifest: string
  try {
    manifest = require.resolve(`${pkg}/package.json`)
  } catch (cause) {
    throw new AnvilNotFoundError(pkg, { cause })
  }
  const binary = join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
  if (!existsSync(binary)) throw new AnvilNotFoundError(pkg)
  return binary
}
