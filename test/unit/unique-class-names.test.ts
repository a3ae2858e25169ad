/**
 * Every class declared in src/ has a name of its own: two classes of one name confuse a reader,
 * a stack trace and a bundler, even when their error codes differ (the codes are checked in
 * ./error-codes.test.ts).
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { it } from 'node:test'
import { ROOT } from '../helpers/paths.js'
import { walk } from './error-classes.js'

it('no two classes in src/ share a name', () => {
  const where = new Map<string, string[]>()
  for (const file of walk(join(ROOT, 'src'), '.ts')) {
    for (const m of readFileSync(file, 'utf8').matchAll(
      /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+(\w+)/gm,
    )) {
      const name = m[1] as string
      where.set(name, [...(where.get(name) ?? []), relative(ROOT, file)])
    }
  }
  assert.ok(where.size > 50, `only ${where.size} classes found: the scan is broken`)
  const duplicates = [...where]
    .filter(([, files]) => files.length > 1)
    .map(([name, files]) => `${name}: ${files.join(', ')}`)
  assert.deepEqual(duplicates, [])
})
