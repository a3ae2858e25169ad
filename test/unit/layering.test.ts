/**
 * The library never imports the devnet (src/devnet uses src/lib, never the reverse), nor the
 * command layer (src/commands, src/cli), nor the terminal libraries the command layer owns
 * (oclif, inquirer, ora): the library takes interfaces (Prompter, Reporter, ConfirmFn) instead.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
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

/** Every module specifier a file imports: static, dynamic and re-exports. */
function specifiers(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) out.push(m[1] as string)
  return out
}

const lib = walk(join(ROOT, 'src', 'lib'))

function offenders(test: (target: string, spec: string) => boolean): string[] {
  const bad: string[] = []
  for (const file of lib) {
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      const target = spec.startsWith('.') ? relative(ROOT, resolve(dirname(file), spec)) : spec
      if (test(target, spec)) bad.push(`${relative(ROOT, file)} imports ${spec}`)
    }
  }
  return bad
}

describe('layering', () => {
  it('scans the library', () => assert.ok(lib.length > 100))

  it('src/lib never imports src/devnet', () => {
    assert.deepEqual(
      offenders((target) => target.startsWith('src/devnet/') || target === 'src/devnet'),
      [],
    )
  })

  it('src/lib never imports the command layer (src/commands, src/cli)', () => {
    assert.deepEqual(
      offenders((target) => target.startsWith('src/commands/') || target.startsWith('src/cli/')),
      [],
    )
  })

  it('src/lib never imports the terminal and CLI libraries (oclif, inquirer, ora): it takes interfaces', () => {
    assert.deepEqual(
      offenders((_target, spec) => /^(@oclif\/|@inquirer\/|ora$)/.test(spec)),
      [],
    )
  })

  it('the detector sees a violation (self-check)', () => {
    assert.deepEqual(specifiers("import { x } from '../../devnet/paths.js'\nconst y = await import('ora')"), [
      '../../devnet/paths.js',
      'ora',
    ])
  })
})
