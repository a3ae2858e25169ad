/** The ask source on a real terminal (a pty made by util-linux `script`): hidden prompt, asked twice for a new key. */
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { decryptBlsKw } from '../../src/lib/keys/bls-kw.js'
import { BIN, tempDir } from '../helpers/cli.js'

const hasScript = spawnSync('script', ['--version']).status === 0

/** Runs the CLI on a pty, typing each answer when its prompt appears. */
function runOnTty(args: string[], answers: [RegExp, string][]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {}
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'TN_BLS_PASSPHRASE') env[k] = v
    const child = spawn(
      'script',
      ['-qec', [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' '), '/dev/null'],
      { env, stdio: ['pipe', 'pipe', 'pipe'] },
    )
    let output = ''
    const pending = [...answers]
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`timed out; output so far:\n${output}`))
    }, 60_000)
    child.stdout.on('data', (d) => {
      output += d
      const next = pending[0]
      if (next?.[0].test(output)) {
        pending.shift()
        output += '\n<typed>\n'
        child.stdin.write(`${next[1]}\r`)
      }
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      child.stdin.destroy()
      resolve({ code: code ?? -1, output })
    })
  })
}

describe('ask source on a terminal', { skip: hasScript ? false : 'util-linux script is not installed' }, () => {
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({ dir, cleanup } = tempDir())
  })
  after(() => cleanup())

  it('asks twice for a new key without echoing it, and the key opens with it', async () => {
    const datadir = join(dir, 'asked')
    const r = await runOnTty(
      [
        'keytool',
        'generate',
        'validator',
        '--address',
        '0',
        '--datadir',
        datadir,
        '--bls-passphrase-source',
        'ask',
        '-q',
      ],
      [
        [/New BLS key passphrase/, 'typed secret'],
        [/Repeat the new BLS key passphrase/, 'typed secret'],
      ],
    )
    assert.equal(r.code, 0, r.output)
    assert.doesNotMatch(r.output, /typed secret/)
    const opened = await decryptBlsKw(await fs.readFile(join(datadir, 'node-keys', 'bls.kw'), 'utf8'), 'typed secret')
    assert.ok(opened.ok)
  })

  it('two different entries: "Passphrases do not match, retry." and asks again, as the node does', async () => {
    const datadir = join(dir, 'mismatch')
    const r = await runOnTty(
      [
        'keytool',
        'generate',
        'validator',
        '--address',
        '0',
        '--datadir',
        datadir,
        '--bls-passphrase-source',
        'ask',
        '-q',
      ],
      [
        [/New BLS key passphrase/, 'one'],
        [/Repeat the new BLS key passphrase/, 'two'],
        [/retry\.[\s\S]*New BLS key passphrase/, 'three'],
        [/retry\.[\s\S]*Repeat the new BLS key passphrase/, 'three'],
      ],
    )
    assert.equal(r.code, 0, r.output)
    assert.match(r.output, /Passphrases do not match, retry\./)
    const opened = await decryptBlsKw(await fs.readFile(join(datadir, 'node-keys', 'bls.kw'), 'utf8'), 'three')
    assert.ok(opened.ok)
  })
})
