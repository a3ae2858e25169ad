#!/usr/bin/env node
// Lists the functions a reader cannot hold at once (issue 34, "functions a reader can hold"):
//   - src/lib: every function or method longer than --lib lines (default 60);
//   - src/commands: every command whose code (its methods and the file's functions, the static
//     summary/description/examples/flags aside) is longer than --command lines (default 100).
// It reads the source as biome formats it: a function's body ends at the first line, after its
// header, that starts with `}` at the header's indentation. A report, not a check: exit 0.
// Usage: node scripts/long-functions.mjs [--lib 60] [--command 100] [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const LIB_LIMIT = option('lib', 60)
const COMMAND_LIMIT = option('command', 100)

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) walk(p, out)
    else if (p.endsWith('.ts') && !p.endsWith('.generated.ts')) out.push(p)
  }
  return out
}

// a function declaration, a class member (indented two spaces, as biome formats a top-level class)
// or a const bound to a function
const FUNCTION = /^(\s*)(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s*(\w+)/
const METHOD = /^( {2})(?:(?:public|private|protected|async|override)\s+)*(?:get\s+|set\s+)?(\w+)\s*(?:<[^>]*>)?\(/
const ARROW = /^(\s*)(?:export\s+)?const\s+(\w+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\(|\w+\s*=>)/

/** The line ranges [first, last] (0-based) of the top-level class bodies. */
function classRanges(lines) {
  const ranges = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s/.test(lines[i])) continue
    const end = lines.findIndex((l, j) => j > i && l.startsWith('}'))
    ranges.push([i, end < 0 ? lines.length - 1 : end])
  }
  return ranges
}

/** Each function of a file: its name, first line (1-based) and length in lines. */
function functionsOf(text) {
  const lines = text.split('\n')
  const classes = classRanges(lines)
  const inClass = (i) => classes.some(([a, b]) => a < i && i < b)
  const found = []
  for (let i = 0; i < lines.length; i++) {
    const m = FUNCTION.exec(lines[i]) ?? (inClass(i) ? METHOD.exec(lines[i]) : null) ?? ARROW.exec(lines[i])
    if (!m) continue
    const [, indent, name] = m
    if (name === 'constructor' && !inClass(i)) continue
    // the body ends at the first later line that starts with `}` at the header's indentation
    let end = -1
    for (let j = i + 1; j < lines.length; j++) {
      if (lines[j].startsWith(`${indent}}`)) {
        end = j
        break
      }
      if (lines[j].length > 0 && !lines[j].startsWith(`${indent} `) && !lines[j].startsWith(`${indent})`)) break
    }
    // a one-line function (or an arrow whose body is one expression) ends on its own line
    if (end < 0 || !lines.slice(i, Math.min(end, i + 12)).some((l) => /\{\s*$/.test(l))) continue
    found.push({ name, line: i + 1, lines: end - i + 1 })
  }
  return found
}

const report = { lib: [], commands: [] }
for (const file of walk(join(root, 'src', 'lib'))) {
  const rel = relative(root, file)
  for (const f of functionsOf(readFileSync(file, 'utf8')))
    if (f.lines > LIB_LIMIT) report.lib.push({ file: rel, name: f.name, line: f.line, lines: f.lines })
}
for (const file of walk(join(root, 'src', 'commands'))) {
  const rel = relative(root, file)
  const fns = functionsOf(readFileSync(file, 'utf8'))
  // a command's code: its outermost functions and methods (nested ones are inside them)
  const outer = fns.filter((f) => !fns.some((g) => g !== f && g.line < f.line && f.line < g.line + g.lines))
  const total = outer.reduce((n, f) => n + f.lines, 0)
  const run = outer.find((f) => f.name === 'run')
  if (total > COMMAND_LIMIT)
    report.commands.push({
      file: rel,
      lines: total,
      run: run?.lines ?? 0,
      longest: outer
        .filter((f) => f !== run && f.lines > 40)
        .sort((a, b) => b.lines - a.lines)
        .map((f) => `${f.name} ${f.lines}`),
    })
}
report.lib.sort((a, b) => b.lines - a.lines)
report.commands.sort((a, b) => b.lines - a.lines)

if (args.includes('--json')) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
else {
  process.stdout.write(`src/lib functions over ${LIB_LIMIT} lines: ${report.lib.length}\n`)
  for (const f of report.lib) process.stdout.write(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line} ${f.name}\n`)
  process.stdout.write(`src/commands commands over ${COMMAND_LIMIT} lines of code: ${report.commands.length}\n`)
  for (const c of report.commands)
    process.stdout.write(
      `  ${String(c.lines).padStart(4)}  ${c.file} (run ${c.run}${c.longest.length ? `; ${c.longest.join(', ')}` : ''})\n`,
    )
}
