/**
 * Error codes are what CI pipelines branch on (docs/ci.md), so each TnvError subclass declares
 * its own as a string literal, never derived from the class name (a bundler may rename a class;
 * two classes once shared a name). Checked here: every subclass in src declares one, the codes
 * are unique, and the built bundle (dist/) carries the very same literals.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { ROOT } from '../helpers/paths.js'

function walk(dir: string, ext: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, ext, out)
    else if (p.endsWith(ext)) out.push(p)
  }
  return out
}

type ClassDecl = { name: string; base: string; file: string; code: string | null }

/** Every `class X extends Y {` in src with the first statement of its body. */
function classes(): ClassDecl[] {
  const out: ClassDecl[] = []
  for (const file of walk(join(ROOT, 'src'), '.ts')) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/class (\w+) extends (\w+)(?:<[^>{]*>)?\s*\{\s*([^\n]*)/g)) {
      const code = /^override readonly code: string = '([A-Za-z]+)'$/.exec((m[3] ?? '').trim())
      out.push({ name: m[1] as string, base: m[2] as string, file: relative(ROOT, file), code: code?.[1] ?? null })
    }
  }
  return out
}

describe('error codes', () => {
  const all = classes()
  const isTnv = (base: string, depth = 0): boolean =>
    base === 'TnvError' || (depth < 20 && all.some((c) => c.name === base && isTnv(c.base, depth + 1)))
  const errors = all.filter((c) => c.name !== 'TnvError' && isTnv(c.base))

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
