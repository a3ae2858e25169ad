/**
 * tnv relies on no dependency's underscore-prefixed internals (they change without notice):
 * a member access `._name` on anything in src is refused here, unless listed with the decision
 * that allows it (docs/decisions.md).
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

/** `file: member` pairs allowed, each with its decision. */
const ALLOWED = new Set<string>([
  // oclif's Command#_run (protected, in its type declarations): what Command.run calls once the
  // config is loaded; the direct path calls it so a command runs exactly as under oclif
  // (docs/decisions.md "Start-up: the direct command path")
  'src/entries/direct-command.ts: ._run',
])

describe('dependency internals', () => {
  it('no underscore-prefixed member of another module is used in src', () => {
    const found: string[] = []
    for (const file of walk(join(ROOT, 'src'))) {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
        .replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '""')
      for (const m of code.matchAll(/[\w)\]]\._[A-Za-z]\w*/g)) {
        const key = `${relative(ROOT, file)}: ${m[0].slice(1)}`
        if (!ALLOWED.has(key)) found.push(key)
      }
    }
    assert.deepEqual(found, [])
  })
})
