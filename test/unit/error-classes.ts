/** The TnvError subclasses declared in src, with the code each declares (for the error-code tests). */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { ROOT } from '../helpers/paths.js'

export function walk(dir: string, ext: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, ext, out)
    else if (p.endsWith(ext)) out.push(p)
  }
  return out
}

export type ClassDecl = { name: string; base: string; file: string; code: string | null }

/** Every `class X extends Y {` in src with the first statement of its body. */
export function classes(): ClassDecl[] {
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

/** The subclasses of TnvError (transitively). */
export function errorClasses(): ClassDecl[] {
  const all = classes()
  const isTnv = (base: string, depth = 0): boolean =>
    base === 'TnvError' || (depth < 20 && all.some((c) => c.name === base && isTnv(c.base, depth + 1)))
  return all.filter((c) => c.name !== 'TnvError' && isTnv(c.base))
}
