/**
 * `npm ci` refuses a lock file that lacks an optional dependency's entry, even one for another
 * platform; the registry these machines reach serves only Linux builds, so `npm install` drops
 * the others and scripts/lock-platform-stubs.mjs must be run after it (docs/decisions.md).
 * A lock without them fails here, in seconds, instead of in a fresh clone's `npm ci`.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { ROOT } from '../helpers/paths.js'

type LockPackage = { optionalDependencies?: Record<string, string> }

describe('package-lock.json', () => {
  it('has an entry for every optional dependency of every package (run scripts/lock-platform-stubs.mjs)', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockPackage>
    }
    const missing: string[] = []
    for (const [path, pkg] of Object.entries(lock.packages))
      for (const name of Object.keys(pkg.optionalDependencies ?? {}))
        if (!lock.packages[`node_modules/${name}`] && !lock.packages[`${path}/node_modules/${name}`])
          missing.push(`${path || '(root)'} → ${name}`)
    assert.deepEqual(missing, [])
  })
})
