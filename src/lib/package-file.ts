/**
 * A file of the tnv package (e.g. `bin/run.js`), found by walking up from this module: the
 * same code runs from src/ (tests through tsx) and from dist/chunks/ (the built CLI).
 * Null when no ancestor holds it.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export function findPackageFile(relativePath: string): string | null {
  let dir = new URL('.', import.meta.url)
  for (let i = 0; i < 6; i++) {
    const candidate = fileURLToPath(new URL(relativePath, dir))
    if (existsSync(candidate)) return candidate
    dir = new URL('..', dir)
  }
  return null
}
