/** Paths of the repository, for tests. */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const BIN = join(ROOT, 'bin', 'run.js')
