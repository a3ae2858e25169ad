/**
 * The single executable runs a CommonJS bundle (scripts/package.mjs) in which esbuild keeps
 * `import('node:…')` as a real dynamic import, and a single executable has no dynamic-import
 * callback: such a command fails there with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING while the npm
 * build works. Most of Node's built-in modules cost next to nothing to import statically, so src
 * never imports them dynamically (src/entries/version.ts, which runs only from source, excepted);
 * the one that costs (node:crypto, about 7 ms) is loaded on first use without an import()
 * (src/lib/crypto/node-crypto.ts).
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

const ALLOWED = new Set(['src/entries/version.ts'])

describe('built-in modules in the single executable', () => {
  it('no dynamic import of a node: built-in in src', () => {
    const found: string[] = []
    for (const file of walk(join(ROOT, 'src'))) {
      const rel = relative(ROOT, file)
      if (ALLOWED.has(rel)) continue
      const code = readFileSync(file, 'utf8').replace(/typeof import\(/g, '')
      for (const m of code.matchAll(/\bimport\(\s*['"`]node:[^'"`]+['"`]\s*\)/g)) found.push(`${rel}: ${m[0]}`)
    }
    assert.deepEqual(found, [])
  })
  it('the scan sees one (self-check)', () => {
    assert.match("await import('node:path')", /\bimport\(\s*['"`]node:[^'"`]+['"`]\s*\)/)
  })
})
