/** Issue 16 item 8: a mistyped command or flag gets the closest one and a one-line usage. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { errorLabel, useColor } from '../../src/cli/color.js'
import { closestWithin, notFoundId, suggestCommand, suggestFlag } from '../../src/cli/did-you-mean.js'
import { ExitCode } from '../../src/lib/errors.js'
import { parseJson, runCli } from '../helpers/cli.js'

const IDS = ['validator', 'validator:status', 'node:start', 'node:status', 'node:stop', 'stake', 'unstake', 'exit']

describe('did you mean (pure)', () => {
  it('corrects a topic, then the command under it', () => {
    assert.equal(suggestCommand('valdator:status', IDS), 'validator:status')
    assert.equal(suggestCommand('node:strat', IDS), 'node:start')
    assert.equal(suggestCommand('valdator', IDS), 'validator')
    assert.equal(suggestCommand('stak', IDS), 'stake')
  })
  it('suggests nothing for words far from every command', () => {
    assert.equal(suggestCommand('foo:bar', IDS), undefined)
    assert.equal(closestWithin('completely-different', ['stake']), undefined)
  })
  it('flags: with dashes and a value', () => {
    assert.equal(suggestFlag('--chian', ['chain', 'rpc-url']), '--chain')
    assert.equal(suggestFlag('--rpc-ulr=x', ['chain', 'rpc-url']), '--rpc-url')
    assert.equal(suggestFlag('--zzzzzz', ['chain']), undefined)
  })
  it("recognises only oclif's not-found error", () => {
    assert.equal(notFoundId(new Error('command valdator:status not found')), 'valdator:status')
    assert.equal(notFoundId(new Error('Command devnet:strat not found.')), 'devnet:strat')
    assert.equal(notFoundId(new Error('something else')), undefined)
  })
})

describe('did you mean (the CLI)', () => {
  it('a mistyped command is named with spaces and the closest command, exit 2', async () => {
    const r = await runCli(['valdator', 'status'])
    assert.equal(r.code, ExitCode.Usage)
    assert.match(r.stderr, /`tnv valdator status` is not a tnv command\. Did you mean `tnv validator status`\?/)
    assert.doesNotMatch(r.stderr, /valdator:status/)
    const j = parseJson<{ error: { code: string; suggestion: string } }>(await runCli(['node', 'strat', '--json']))
    assert.equal(j.error.code, 'CommandNotFound')
    assert.equal(j.error.suggestion, 'tnv node start')
  })
  it('a mistyped flag: the closest flag and one usage line, not the whole help', async () => {
    const r = await runCli(['keytool', 'generate', 'validator', '--adress', '0x1'])
    assert.equal(r.code, ExitCode.Usage)
    assert.match(r.stderr, /Nonexistent flag: --adress\. Did you mean --address\?/)
    assert.match(r.stderr, /^Usage: tnv keytool generate validator --address <address> \[flags\]$/m)
    assert.ok(r.stderr.split('\n').length <= 3, r.stderr)
    const j = parseJson<{ error: { suggestion: string } }>(await runCli(['stake', '--chian', 'devnet', '--json']))
    assert.equal(j.error.suggestion, '--chain')
  })
  it('a value outside the options: the closest option; `tnv help <typo>` corrects the typo', async () => {
    const r = await runCli(['stake', '--through', 'activ'])
    assert.equal(r.code, ExitCode.Usage)
    assert.match(r.stderr, /Did you mean --through active\?/)
    const h = await runCli(['help', 'valdator'])
    assert.match(h.stderr, /`tnv valdator` is not a tnv command\. Did you mean `tnv validator`\?/)
  })
  it('no colour without a terminal, even for errors', async () => {
    const r = await runCli(['stak'])
    assert.ok(!r.stderr.includes(`${String.fromCharCode(27)}[`), r.stderr)
  })
})

describe('colour', () => {
  const tty = { isTTY: true } as NodeJS.WriteStream
  const pipe = { isTTY: false } as NodeJS.WriteStream
  const withEnv = (env: Record<string, string | undefined>, fn: () => void) => {
    const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR, TERM: process.env.TERM }
    Object.assign(process.env, env)
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k]
    try {
      fn()
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
    }
  }
  it('only on a terminal, and never with NO_COLOR', () => {
    withEnv({ NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'xterm' }, () => {
      assert.equal(useColor(tty), true)
      assert.equal(useColor(pipe), false)
      assert.equal(errorLabel(pipe), 'Error:')
    })
    withEnv({ NO_COLOR: '1', FORCE_COLOR: undefined, TERM: 'xterm' }, () => {
      assert.equal(useColor(tty), false)
      assert.equal(errorLabel(tty), 'Error:')
    })
    withEnv({ NO_COLOR: undefined, FORCE_COLOR: undefined, TERM: 'dumb' }, () => assert.equal(useColor(tty), false))
  })
})
