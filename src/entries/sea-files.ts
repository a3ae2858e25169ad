/**
 * The single executable's files: the assets tnv reads at run time (package.json, the oclif
 * manifest, networks/**, contracts/out, anvil), extracted once into a private cache directory
 * and checked against the SHA-256 recorded at packaging (see ./sea.ts). Built-in modules only.
 */
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'

/** One extracted file, as scripts/package.mjs recorded it. */
export type SeaFile = { path: string; asset: string; sha256: string; mode: number; gzip: boolean }
export type SeaIndex = { key: string; files: SeaFile[] }

const COMPLETE = '.complete'

export class SeaCacheError extends Error {
  override name = 'SeaCacheError'
}

/** Where this build's files live: `$XDG_CACHE_HOME/tnv/sea/<key>`, else `~/.cache/tnv/sea/<key>`. */
export function seaCacheDir(index: SeaIndex, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache')
  return join(base, 'tnv', 'sea', index.key)
}

/**
 * The cache directory with every asset extracted and checked; extracted on first use into a
 * temporary sibling and renamed into place, so a crash or a second process racing never leaves
 * a half-written directory behind the `.complete` marker.
 */
export function ensureExtracted(index: SeaIndex, getAsset: (key: string) => ArrayBuffer): string {
  const dir = seaCacheDir(index)
  if (existsSync(join(dir, COMPLETE))) return dir
  const parent = dirname(dir)
  let tmp: string
  try {
    mkdirSync(parent, { recursive: true, mode: 0o700 })
    tmp = mkdtempSync(join(parent, `.${index.key}-`))
  } catch (cause) {
    throw new SeaCacheError(
      `tnv cannot create its file cache in ${parent} (${(cause as NodeJS.ErrnoException).code ?? cause}). ` +
        'Set XDG_CACHE_HOME to a directory you can write (absolute path), or HOME to your home directory, and run it again.',
    )
  }
  try {
    chmodSync(tmp, 0o700)
    for (const f of index.files) {
      const raw = Buffer.from(getAsset(f.asset))
      const data = f.gzip ? gunzipSync(raw) : raw
      const digest = createHash('sha256').update(data).digest('hex')
      if (digest !== f.sha256)
        throw new SeaCacheError(
          `the executable's asset ${f.path} has SHA-256 ${digest}, not ${f.sha256}: the file is damaged. Download it again and check it against its .sha256 file.`,
        )
      const target = join(tmp, f.path)
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
      writeFileSync(target, data, { mode: f.mode })
      chmodSync(target, f.mode)
    }
    writeFileSync(join(tmp, COMPLETE), `${index.key}\n`, { mode: 0o600 })
    // a directory without the marker was left by a damaged cache (the marker is written before
    // the rename, so a finished extraction always has it): replace it
    if (existsSync(dir) && !existsSync(join(dir, COMPLETE))) rmSync(dir, { recursive: true, force: true })
    try {
      renameSync(tmp, dir)
    } catch (err) {
      // another process finished first: keep its directory
      if (!existsSync(join(dir, COMPLETE))) throw err
      rmSync(tmp, { recursive: true, force: true })
    }
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true })
    throw err
  }
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700)
  return dir
}

/**
 * The extracted files' directory (extracted now through `getAsset` when needed), with the devnet's
 * anvil pointed at the one inside the executable unless the operator names another. null when
 * the files cannot be extracted: the reason is on stderr and the exit code set.
 */
export function prepareSeaRoot(index: SeaIndex, getAsset: (key: string) => ArrayBuffer): string | null {
  let root: string
  try {
    root = ensureExtracted(index, getAsset)
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`)
    process.exitCode = err instanceof SeaCacheError ? 3 : 1
    return null
  }
  if (!process.env.TNV_ANVIL_BINARY) process.env.TNV_ANVIL_BINARY = join(root, 'bin', 'anvil')
  return root
}
