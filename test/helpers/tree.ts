/**
 * What a `--check` test compares before and after: every path under a root with its type, size,
 * mode and modification time, the root's own mode and time first (a file made and removed inside
 * it changes the directory's time). A missing root is the empty string.
 */
import { lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** @example assert.equal(treeOf(datadir), before, 'the check touched the data directory') */
export function treeOf(root: string): string {
  const lines: string[] = []
  const top = lstatSync(root, { throwIfNoEntry: false })
  if (top) lines.push(`. ${top.mode.toString(8)} ${top.mtimeMs}`)
  const walk = (dir: string) => {
    const names = (() => {
      try {
        return readdirSync(dir).sort()
      } catch {
        return []
      }
    })()
    for (const name of names) {
      const p = join(dir, name)
      const s = lstatSync(p)
      lines.push(`${p.slice(root.length)} ${s.isDirectory() ? 'd' : 'f'} ${s.size} ${s.mode.toString(8)} ${s.mtimeMs}`)
      if (s.isDirectory()) walk(p)
    }
  }
  walk(root)
  return lines.join('\n')
}
