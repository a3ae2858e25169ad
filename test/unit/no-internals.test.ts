/**
 * tnv relies on no dependency's underscore-prefixed internals (they change without notice):
 * a member access `._name` on anything in src is refused here.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { ROOT } from '../helpers/paths.js'

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else if (p.endsWith('.ts')) out.push(p)
  }
  return out
}

describe('dependency internals', () => {
  it('no underscore-prefixed member of another module is used in src', () => {
    const found: string[] = []
    for (const file of walk(join(ROOT, 'src'))) {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
        .replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '""')
      for (const m of code.matchAll(/[\w)\]]\._[A-Za-z]\w*/g)) {
        found.push(`${relative(ROOT, file)}: ${m[0].slice(1)}`)
      }
    }
    assert.deepEqual(found, [])
  })
})
