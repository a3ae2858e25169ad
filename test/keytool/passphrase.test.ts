/** Passphrase sources (library level; the CLI tests run them end to end). */
import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { describe, it } from 'node:test'
import { ExitCode } from '../../src/lib/errors.js'
import { type PromptIo, readPassphrase } from '../../src/lib/passphrase/read-passphrase.js'
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
  it('reads TN_BLS_PASSPHRASE from the variables the session hands over, as given, and changes nothing', async () => {
    const env = Object.freeze({ TN_BLS_PASSPHRASE: ' spaces kept ' })
    assert.equal(await readPassphrase({ source: 'env', purpose: 'open', env }), ' spaces kept ')
    assert.equal(await readPassphrase({ source: 'env', purpose: 'open', env }), ' spaces kept ')
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

  it('an empty TN_BLS_PASSPHRASE counts as unset, as the node treats it', async () => {
    for (const purpose of ['create', 'open'] as const)
      await assert.rejects(
        readPassphrase({ source: 'env', purpose, env: { TN_BLS_PASSPHRASE: '' } }),
        /^PassphraseRequiredError: passphrase is required, see the option --bls-passphrase-source for options: TN_BLS_PASSPHRASE is empty/,
      )
    assert.equal(
      await readPassphrase({ source: 'env', purpose: 'open', required: false, env: { TN_BLS_PASSPHRASE: '' } }),
      undefined,
    )
  })
})

describe('stdin source', () => {
  it('takes one line per passphrase and drops ALL its trailing whitespace, as the node does (Rust trim_end)', async () => {
    const stdin = stdinOf('first one \t \r\n  second\u00a0\u2003\nthird\u200b\n')
    assert.equal(await readPassphrase({ source: 'stdin', purpose: 'open', stdin, env: {} }), 'first one')
    // leading whitespace is kept; U+00A0 and U+2003 are White_Space, U+200B is not
    assert.equal(await readPassphrase({ source: 'stdin', purpose: 'create', stdin, env: {} }), '  second')
    assert.equal(await readPassphrase({ source: 'stdin', purpose: 'open', stdin, env: {} }), 'third\u200b')
  })

  it('a line that is empty once trimmed is no passphrase: the node\'s "passphrase is required"', async () => {
    for (const purpose of ['create', 'open'] as const)
      await assert.rejects(
        readPassphrase({ source: 'stdin', purpose, stdin: stdinOf('  \t\r\n'), env: {} }),
        /passphrase is required, see the option --bls-passphrase-source for options: the line read from standard input is empty/,
      )
    assert.equal(
      await readPassphrase({ source: 'stdin', purpose: 'open', required: false, stdin: stdinOf(' \n'), env: {} }),
      undefined,
    )
  })

  it('a last line without a newline counts; ended input is an error', async () => {
    const stdin = stdinOf('only')
    assert.equal(await readPassphrase({ source: 'stdin', purpose: 'open', stdin, env: {} }), 'only')
    await assert.rejects(readPassphrase({ source: 'stdin', purpose: 'open', stdin, env: {} }), /standard input ended/)
    await assert.rejects(
      readPassphrase({ source: 'stdin', purpose: 'open', stdin: stdinOf(undefined), env: {} }),
      /passphrase is required.*standard input ended/,
    )
  })

  it('refuses a terminal on stdin (it would echo)', async () => {
    const s = Object.assign(new PassThrough(), { isTTY: true })
    await assert.rejects(
      readPassphrase({ source: 'stdin', purpose: 'open', stdin: new StdinLines(s), env: {} }),
      /terminal/,
    )
  })
})

describe('ask source', () => {
  it('asks once to open a key', async () => {
    const io = promptIo(['pw'])
    assert.equal(await readPassphrase({ source: 'ask', purpose: 'open', io, env: {} }), 'pw')
    assert.equal(io.asked.length, 1)
  })

  it('asks twice for a new key; a mismatch asks again (as the node does), three times at most', async () => {
    const io = promptIo(['pw', 'pw'])
    assert.equal(await readPassphrase({ source: 'ask', purpose: 'create', io, env: {} }), 'pw')
    assert.deepEqual(io.asked, ['New BLS key passphrase:', 'Repeat the new BLS key passphrase:'])
    const said: string[] = []
    const retry = { ...promptIo(['pw', 'pW', 'pw2', 'pw2']), say: (m: string) => said.push(m) }
    assert.equal(await readPassphrase({ source: 'ask', purpose: 'create', io: retry, env: {} }), 'pw2')
    assert.deepEqual(said, ['Passphrases do not match, retry.'])
    await assert.rejects(
      readPassphrase({ source: 'ask', purpose: 'create', io: promptIo(['a', 'b', 'a', 'b', 'a', 'b']), env: {} }),
      /Passphrases do not match/,
    )
  })

  it('nothing typed: "No passphrase set for BLS key, this is not recommended." then "passphrase is required"', async () => {
    const said: string[] = []
    await assert.rejects(
      readPassphrase({
        source: 'ask',
        purpose: 'create',
        io: { ...promptIo(['']), say: (m) => said.push(m) },
        env: {},
      }),
      /passphrase is required.*nothing was typed/,
    )
    assert.deepEqual(said, ['No passphrase set for BLS key, this is not recommended.'])
  })

  it('needs a terminal', async () => {
    await assert.rejects(
      readPassphrase({ source: 'ask', purpose: 'open', io: promptIo(['pw'], false), env: {} }),
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
        env: {},
      }),
      (err: Error & { fix?: string }) =>
        /--new-passphrase-source env \(set TN_NEW_BLS_PASSPHRASE\)/.test(err.fix ?? '') &&
        !/set TN_BLS_PASSPHRASE/.test(err.fix ?? ''),
    )
  })
})

it('no-passphrase gives none', async () => {
  assert.equal(await readPassphrase({ source: 'no-passphrase', purpose: 'create', env: {} }), undefined)
})
