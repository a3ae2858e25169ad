/**
 * The phrase never reaches another process or tnv's own environment: every command that holds a
 * phrase (generate --mnemonic, recover, backup verify --mnemonic-file) runs with a preload module
 * (NODE_OPTIONS --import, inherited by any child) that records the environment of every child
 * process tnv starts and tnv's own environment at exit; no recorded environment may hold a piece of
 * the phrase. stdout and stderr are checked too.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { runCli, tempDir } from '../helpers/cli.js'

const ADDRESS = '0x3333333333333333333333333333333333333333'

/** Records env of every child_process call and of the process at exit, as JSON lines. */
const HOOK = `
import cp from 'node:child_process'
import { appendFileSync } from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
const log = process.env.TNV_TEST_ENV_LOG
const record = (kind, env) => appendFileSync(log, JSON.stringify({ kind, pid: process.pid, env }) + '\\n')
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  const original = cp[name]
  cp[name] = function (...args) {
    const options = args.find((a) => a && typeof a === 'object' && !Array.isArray(a))
    record('child:' + name, options?.env ?? process.env)
    return original.apply(this, args)
  }
}
syncBuiltinESMExports()
process.on('exit', () => record('exit', process.env))
`

describe('the recovery phrase stays out of every environment', () => {
  let dir: string
  let cleanup: () => void
  let log: string
  let env: Record<string, string>
  before(() => {
    ;({ dir, cleanup } = tempDir('tnv-phrase-env-'))
    const hook = join(dir, 'hook.mjs')
    writeFileSync(hook, HOOK)
    log = join(dir, 'env.jsonl')
    writeFileSync(log, '')
    env = { NODE_OPTIONS: `--import ${hook}`, TNV_TEST_ENV_LOG: log, TN_BLS_PASSPHRASE: 'env test passphrase' }
  })
  after(() => cleanup())

  it('generate --mnemonic, recover and backup verify --mnemonic-file: no phrase in any environment, stdout or stderr', async () => {
    const phraseFile = join(dir, 'phrase.txt')
    const outputs: string[] = []
    const run = async (args: string[], input?: string) => {
      const r = await runCli(args, { env, ...(input !== undefined ? { input } : {}) })
      assert.equal(r.code, 0, r.stderr)
      outputs.push(r.stdout, r.stderr)
    }
    await run([
      'keytool',
      'generate',
      'validator',
      '--datadir',
      join(dir, 'v'),
      '--address',
      ADDRESS,
      '--mnemonic',
      '--mnemonic-out',
      phraseFile,
    ])
    const phrase = readFileSync(phraseFile, 'utf8').trim()
    await run(['keytool', 'backup', 'verify', '--mnemonic-file', phraseFile, '--datadir', join(dir, 'v')])
    await run(
      [
        'keytool',
        'recover',
        '--datadir',
        join(dir, 'r'),
        '--address',
        ADDRESS,
        '--mnemonic-file',
        '-',
        '--bls-passphrase-source',
        'stdin',
      ],
      `${phrase}\nanother passphrase\n`,
    )
    const records = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; env: Record<string, string> })
    assert.ok(records.filter((r) => r.kind === 'exit').length >= 3, 'the hook ran in every command')
    const words = phrase.split(' ')
    const pieces = words.slice(0, -3).map((_, i) => words.slice(i, i + 4).join(' '))
    for (const r of records) {
      const text = JSON.stringify(r.env).toLowerCase()
      for (const piece of pieces) assert.ok(!text.includes(piece), `${r.kind} environment holds a piece of the phrase`)
    }
    for (const o of outputs)
      for (const piece of pieces) assert.ok(!o.includes(piece), 'a piece of the phrase was printed')
  })
})
