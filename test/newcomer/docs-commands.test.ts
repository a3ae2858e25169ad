/**
 * Issue 16 item 5: no doc and no help example points a newcomer at a command or a flag that does
 * not exist. Every `tnv …` command line in README.md and docs/ (decisions.md aside: it records
 * history), and every example of every command, is read against the oclif manifest (the built
 * CLI's commands and flags, aliases included).
 */
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { ROOT } from '../helpers/paths.js'

type Manifest = {
  commands: Record<
    string,
    { flags: Record<string, { aliases?: string[]; char?: string }>; examples?: (string | { command: string })[] }
  >
}

const manifestPath = join(ROOT, 'oclif.manifest.json')

/** Unknown flags of one command line (`tnv a b --x …`), up to `--`, a pipe or a closing parenthesis. */
function problems(manifest: Manifest, line: string): string[] {
  const tokens = line.split(/[|)]/)[0]?.trim().split(/\s+/).slice(1) ?? []
  const words: string[] = []
  for (const t of tokens) {
    if (!/^[a-z][a-z0-9-]*$/.test(t)) break
    words.push(t)
  }
  let id: string | undefined
  for (let n = words.length; n > 0 && !id; n--)
    if (manifest.commands[words.slice(0, n).join(':')]) id = words.slice(0, n).join(':')
  if (!id) {
    const topic =
      words.length > 0 && Object.keys(manifest.commands).some((c) => c.startsWith(`${words[0]}:`) || c === words[0])
    return topic || words.length === 0 ? [] : [`\`tnv ${words.join(' ')}\` is not a command`]
  }
  const names = new Set(['help', 'json', 'non-interactive', 'version'])
  for (const [name, flag] of Object.entries(manifest.commands[id]?.flags ?? {})) {
    names.add(name)
    for (const a of flag.aliases ?? []) names.add(a)
    if (flag.char) names.add(flag.char)
  }
  const out: string[] = []
  for (const t of tokens) {
    if (t === '--') break
    const m = /^--?([a-z][a-z0-9.-]*)/.exec(t)
    if (m?.[1] && !names.has(m[1])) out.push(`tnv ${id.replaceAll(':', ' ')} has no --${m[1]}`)
  }
  return out
}

describe('docs and help name only commands and flags that exist', () => {
  it('README.md and docs/', (t) => {
    if (!existsSync(manifestPath)) return t.skip('oclif.manifest.json not built')
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest
    const files = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md') && f !== 'decisions.md')
        .map((f) => `docs/${f}`),
    ]
    const found: string[] = []
    for (const f of files) {
      const text = readFileSync(join(ROOT, f), 'utf8')
      // command lines: the lines of fenced code blocks, and inline code spans that start with tnv
      const fenced = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((b) => (b[1] ?? '').split('\n'))
      const lines = [
        ...fenced
          .map((l) => (l.replace(/^\s*\$ /, '').split(/\s#/)[0] ?? '').trim())
          .filter((l) => l.startsWith('tnv ')),
        ...[...text.matchAll(/`(tnv [a-z][^`\n]*)`/g)].map((m) => m[1] as string),
      ]
      for (const line of lines) for (const p of problems(manifest, line)) found.push(`${f}: ${p}`)
    }
    assert.deepEqual(found, [])
  })

  it("every command's help examples", (t) => {
    if (!existsSync(manifestPath)) return t.skip('oclif.manifest.json not built')
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest
    const found: string[] = []
    for (const [id, c] of Object.entries(manifest.commands))
      for (const e of c.examples ?? []) {
        const raw = typeof e === 'string' ? e : e.command
        // the tnv part of the example (other tools' flags, in a pipe or $( ), are not tnv's)
        const line = raw
          .slice(raw.indexOf('<%= config.bin %>'))
          .replaceAll('<%= config.bin %>', 'tnv')
          .replaceAll('<%= command.id %>', id.replaceAll(':', ' '))
        for (const p of problems(manifest, line)) found.push(`${id} example: ${p}`)
      }
    assert.deepEqual(found, [])
  })
})
