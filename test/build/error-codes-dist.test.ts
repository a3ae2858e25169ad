/**
 * The error codes in the built bundle (dist/, after `npm run build`) are the very literals the
 * source declares (test/unit/error-codes.test.ts checks the source): a bundler that renamed a
 * class cannot change a code.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { ROOT } from '../helpers/paths.js'
import { errorClasses, walk } from '../unit/error-classes.js'

describe('error codes in the bundle', () => {
  const errors = errorClasses()
  it('the built bundle carries the same literals (dist/, after `npm run build`)', (t) => {
    const dist = join(ROOT, 'dist')
    if (!existsSync(dist)) return t.skip('dist/ not built')
    const text = walk(dist, '.js')
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n')
    const inDist = new Set([...text.matchAll(/(?<![.\w])code = "([A-Za-z]+)"/g)].map((m) => m[1] as string))
    const inSource = new Set(errors.map((c) => c.code as string))
    // every class reachable from a command is bundled; none may be missing or differ
    const missing = [...inSource].filter((c) => !inDist.has(c))
    assert.deepEqual(missing, [], 'codes in the source but not in dist/ (rebuild, or a class was renamed)')
    // besides TnvError's own default and oclif's ExitError (EEXIT), bundled with the CLI
    const extra = [...inDist].filter((c) => !inSource.has(c) && c !== 'Tnv' && c !== 'EEXIT')
    assert.deepEqual(extra, [], 'codes in dist/ that the source does not declare (stale build?)')
  })
})
