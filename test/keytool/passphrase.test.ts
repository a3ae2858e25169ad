/** Passphrase sources (library level; the CLI tests run them end to end). */
import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { describe, it } from 'node:test'
import { ExitCode } from '../../src/lib/errors.js'
import { type PromptIo, readPassphrase, requirePassphraseSource } from '../../src/lib/passphrase/read-passphrase.js'
import { StdinLines } from '../../src/lib/passphrase/stdin-lines.js'

function stdinOf(text: string | undefined): StdinLines {
  const s = new PassThrough()
  if (text !== undefined) s.end(text)
  else s.end()
  return new StdinLines(s)
}

function promptIo(answers: string[], isTTY = true): PromptIo & { asked: string[] } {
  const asked: string[] = []
  return {
    isTTY,
    asked,
    ask: async (message) => {
      asked.push(message)
      return answers.shift() ?? ''
    },
  }
}

describe('env source', () => {
  it('reads TN_BLS_PASSPHRASE and removes it from the environment', async () => {
    const env: NodeJS.ProcessEnv = { TN_BLS_PASSPHRASE: ' spaces kept ' }
    assert.equal(await readPassphrase({ source: 'env', purpose: 'open', env }), ' spaces kept ')
    assert.equal('TN_BLS_PASSPHRASE' in env, false)
  })

  it('missing: "passphrase is required", naming the other sources', async () => {
    await assert.rejects(
      readPassphrase({ source: 'env', purpose: 'open', env: {} }),
      (e: Error & { exitCode?: number; fix?: string }) => {
        assert.match(e.message, /passphrase is required/)
        assert.match(e.fix ?? '', /stdin/)
        assert.match(e.fix ?? '', /ask/)
        assert.match(e.fix ?? '', /no-passphrase/)
        assert.equal(e.exitCode, ExitCode.Usage)
        return true
      },
    )
  })

  it('an empty passphrase is refused for a new key, accepted to open one', async () => {
    await assert.rejects(readPassphrase({ source: 'env', purpose: 'create', env: { TN_BLS_PASSPHRASE: '' } }), /empty/)
    assert.equal(await readPassphrase({ source: 'env', purpose: 'open', env: { TN_BLS_PASSPHRASE: '' } }), '')
  })

  it('commands that read no key still require the env variable (and remove it)', () => {
    const env: NodeJS.ProcessEnv = { TN_BLS_PASSPHRASE: 'x' }
    requirePassphraseSource({ source: 'env', env })
    assert.equal('TN_BLS_PASSPHRASE' in env, false)
    assert.throws(() => requirePassphraseSource({ source: 'env', env: {} }), /passphrase is required/)
    requirePassphraseSource({ source: 'no-passphrase', env: {} })
  })
})

describe('stdin source', () => {
  it('takes one line per passphrase, without its line ending only', async () => {
    const stdin = stdinOf('first one \r\nsecond\n')
    assert.equal(await readPassphrase({ source: 'stdin', purpose: 'open', stdin }), 'first one ')
    assert.equal(await readPassphrase({ source: 'stdin', purpose: 'create', stdin }), 'second')
  })

  it('a last line without a newline counts; ended input is an error', async () => {
    const stdin = stdinOf('only')
    assert.equal(await readPassphrase({ source: 'stdin', purpose: 'open', stdin }), 'only')
    await assert.rejects(readPassphrase({ source: 'stdin', purpose: 'open', stdin }), /Standard input ended/)
    await assert.rejects(
      readPassphrase({ source: 'stdin', purpose: 'open', stdin: stdinOf(undefined) }),
      /Standard input ended/,
    )
  })

  it('an empty line is refused for a new key', async () => {
    await assert.rejects(readPassphrase({ source: 'stdin', purpose: 'create', stdin: stdinOf('\n') }), /empty/)
  })

  it('refuses a terminal on stdin (it would echo)', async () => {
    const s = Object.assign(new PassThrough(), { isTTY: true })
    await assert.rejects(readPassphrase({ source: 'stdin', purpose: 'open', stdin: new StdinLines(s) }), /terminal/)
  })
})

describe('ask source', () => {
  it('asks once to open a key', async () => {
    const io = promptIo(['pw'])
    assert.equal(await readPassphrase({ source: 'ask', purpose: 'open', io }), 'pw')
    assert.equal(io.asked.length, 1)
  })

  it('asks twice for a new key, and the two must match', async () => {
    const io = promptIo(['pw', 'pw'])
    assert.equal(await readPassphrase({ source: 'ask', purpose: 'create', io }), 'pw')
    assert.deepEqual(io.asked, ['New BLS key passphrase:', 'Repeat the new BLS key passphrase:'])
    await assert.rejects(
      readPassphrase({ source: 'ask', purpose: 'create', io: promptIo(['pw', 'pW']) }),
      /do not match/,
    )
    await assert.rejects(readPassphrase({ source: 'ask', purpose: 'create', io: promptIo(['']) }), /empty/)
  })

  it('needs a terminal', async () => {
    await assert.rejects(
      readPassphrase({ source: 'ask', purpose: 'open', io: promptIo(['pw'], false) }),
      /needs a terminal/,
    )
  })

  it('without a terminal, the fix names the env variable of that source', async () => {
    await assert.rejects(
      readPassphrase({
        source: 'ask',
        purpose: 'create',
        flag: '--new-passphrase-source',
        envVar: 'TN_NEW_BLS_PASSPHRASE',
        io: promptIo(['pw'], false),
      }),
      (err: Error & { fix?: string }) =>
        /--new-passphrase-source env \(set TN_NEW_BLS_PASSPHRASE\)/.test(err.fix ?? '') &&
        !/set TN_BLS_PASSPHRASE/.test(err.fix ?? ''),
    )
  })
})

it('no-passphrase gives none', async () => {
  assert.equal(await readPassphrase({ source: 'no-passphrase', purpose: 'create' }), undefined)
})
