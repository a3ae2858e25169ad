/**
 * Error codes are what CI pipelines branch on (docs/ci.md), so each TnvError subclass declares
 * its own as a string literal, never derived from the class name (a bundler may rename a class;
 * two classes once shared a name). Checked here: every subclass in src declares one, the codes
 * are unique, and the built bundle (dist/) carries the very same literals.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { errorClasses } from './error-classes.js'

describe('error codes', () => {
  const errors = errorClasses()

  it('finds the error classes (the scan works)', () => {
    assert.ok(errors.length > 100, `only ${errors.length} TnvError subclasses found`)
  })

  it('every TnvError subclass declares its code as a string literal, first thing in its body', () => {
    const missing = errors.filter((c) => c.code === null).map((c) => `${c.file}: ${c.name}`)
    assert.deepEqual(missing, [])
  })

  it('codes are unique', () => {
    const seen = new Map<string, string>()
    const dupes: string[] = []
    for (const c of errors) {
      if (c.code === null) continue
      const prev = seen.get(c.code)
      if (prev) dupes.push(`${c.code}: ${prev} and ${c.file}:${c.name}`)
      seen.set(c.code, `${c.file}:${c.name}`)
    }
    assert.deepEqual(dupes, [])
  })
})
