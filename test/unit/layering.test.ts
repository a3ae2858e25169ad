/**
 * The layers of src/ (src/entries, the launchers, aside):
 *
 *   src/commands → src/cli → src/lib        src/devnet beside the library
 *
 * - src/lib imports neither src/cli, src/commands nor src/devnet, nor the terminal libraries the
 *   command layer owns (oclif, inquirer, ora): it takes interfaces (Prompter, Reporter, ConfirmFn);
 * - src/cli never imports src/commands;
 * - src/devnet imports src/lib only, never src/cli or src/commands;
 * - no module imports itself through others: no cycle, type-only imports included;
 * - src/lib reads process.env only where listed below (test hooks): the session hands it its environment.
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
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

/** Every module specifier a file imports: static, dynamic, type-only and re-exports. */
function specifiers(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) out.push(m[1] as string)
  return out
}

type Layer = 'commands' | 'cli' | 'lib' | 'devnet'
const layerOf = (path: string): Layer | 'other' => {
  const top = path.split('/')[1]
  return top === 'commands' || top === 'cli' || top === 'lib' || top === 'devnet' ? top : 'other'
}

/** src/ without the launchers, as ROOT-relative paths, with the files each one imports (resolved) or the package. */
const files = walk(join(ROOT, 'src'))
  .map((f) => relative(ROOT, f))
  .filter((f) => !f.startsWith('src/entries/'))
const imports = new Map<string, { spec: string; target: string }[]>(
  files.map((file) => [
    file,
    specifiers(readFileSync(join(ROOT, file), 'utf8')).map((spec) => ({
      spec,
      target: spec.startsWith('.') ? relative(ROOT, resolve(dirname(join(ROOT, file)), spec)) : spec,
    })),
  ]),
)

/** Which layers each layer may import (its own included). */
const ALLOWED: Record<Layer, readonly Layer[]> = {
  commands: ['commands', 'cli', 'lib', 'devnet'],
  cli: ['cli', 'lib', 'devnet'],
  lib: ['lib'],
  devnet: ['devnet', 'lib'],
}

function offenders(test: (file: string, target: string, spec: string) => boolean): string[] {
  const bad: string[] = []
  for (const [file, list] of imports)
    for (const { spec, target } of list) if (test(file, target, spec)) bad.push(`${file} imports ${spec}`)
  return bad
}

/** Strongly connected components of more than one module (or a module importing itself): the cycles. */
function cycles(): string[][] {
  const graph = new Map<string, string[]>()
  for (const [file, list] of imports)
    graph.set(
      file,
      list
        .filter((i) => i.spec.startsWith('.'))
        .map((i) => i.target.replace(/\.js$/, '.ts'))
        .filter((t) => existsSync(join(ROOT, t))),
    )
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    let w: string
    do {
      w = stack.pop() as string
      onStack.delete(w)
      component.push(w)
    } while (w !== v)
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

/** The library's reads of process.env that remain, each for a reason. */
const PROCESS_ENV_ALLOWED = new Map<string, number>([
  // fault-injection and kill-point test hooks, inert unless set: a test sets them in the environment of the tnv it starts
  ['src/lib/fs/atomic.ts', 2],
])

/** How often code (comments aside: a comment may name process.env) reads or changes process.env. */
function processEnvUses(text: string): number {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
  return code.match(/\bprocess\.env\b|\bprocess\s*\[\s*['"]env['"]\s*\]/g)?.length ?? 0
}

describe('layering', () => {
  it('scans the whole tree', () => {
    for (const layer of ['commands', 'cli', 'lib', 'devnet'] as const)
      assert.ok(files.filter((f) => layerOf(f) === layer).length > 5, `no files found in src/${layer}`)
  })

  for (const layer of ['lib', 'cli', 'devnet', 'commands'] as const)
    it(`src/${layer} imports only ${ALLOWED[layer].map((l) => `src/${l}`).join(', ')}`, () => {
      assert.deepEqual(
        offenders((file, target) => {
          if (layerOf(file) !== layer || !target.startsWith('src/')) return false
          const to = layerOf(target)
          return to === 'other' || !ALLOWED[layer].includes(to)
        }),
        [],
      )
    })

  it('src/lib never imports the terminal and CLI libraries (oclif, inquirer, ora): it takes interfaces', () => {
    assert.deepEqual(
      offenders((file, _target, spec) => layerOf(file) === 'lib' && /^(@oclif\/|@inquirer\/|ora$)/.test(spec)),
      [],
    )
  })

  it('no import cycles, type-only imports included', () => {
    assert.deepEqual(cycles(), [])
  })

  it('src/lib reads process.env only where the session cannot hand it the value', () => {
    const found: string[] = []
    let checked = 0
    for (const file of files) {
      if (layerOf(file) !== 'lib') continue
      checked++
      const n = processEnvUses(readFileSync(join(ROOT, file), 'utf8'))
      if (n !== (PROCESS_ENV_ALLOWED.get(file) ?? 0)) found.push(`${file}: ${n}`)
    }
    assert.deepEqual(found, [])
    assert.equal(checked, files.filter((f) => f.startsWith('src/lib/')).length, 'every file of src/lib is checked')
  })

  it('the process.env detector sees a read, a change and a destructuring, and ignores comments (self-check)', () => {
    assert.equal(processEnvUses('const x = process.env.TN_X'), 1)
    assert.equal(processEnvUses("delete process.env['TN_BLS_PASSPHRASE']"), 1)
    assert.equal(processEnvUses('const { HOME } = process.env\nf(process["env"])'), 2)
    assert.equal(processEnvUses('// process.env.X\n/** env = process.env */\nconst e = env'), 0)
  })

  it('the detector sees a violation (self-check)', () => {
    assert.deepEqual(
      specifiers(
        "import { x } from '../../devnet/paths.js'\nimport type { Y } from '../cli/session.js'\nconst y = await import('ora')",
      ),
      ['../../devnet/paths.js', '../cli/session.js', 'ora'],
    )
  })
})
