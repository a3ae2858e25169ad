/** The pieces of the hardening (issue 15, issue 16 item 2), each with the input that broke tnv before. */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, it } from 'node:test'
import { toTnvError } from '../../src/cli/base-command.js'
import { secretOnArgv } from '../../src/cli/secret-argv.js'
import { checkAnswer } from '../../src/lib/chain/check-answer.js'
import { ExitCode } from '../../src/lib/errors.js'
import { assertDatadirPlace, explainFsError } from '../../src/lib/fs/fs-errors.js'
import { remoteText, stripControl } from '../../src/lib/io/remote-text.js'
import { parseBlsKey } from '../../src/lib/keys/bls-key.js'
import { parseBlsKw } from '../../src/lib/keys/bls-kw.js'
import { recoverCommit } from '../../src/lib/keys/commit-files.js'
import { decodeNetworkKey, publicKeyFromPeerId } from '../../src/lib/keys/libp2p.js'
import { httpFailureText } from '../../src/lib/net/http-failure.js'
import { maxBase58Length } from '../../src/lib/nodeinfo/base58.js'
import { parseNodeInfo } from '../../src/lib/nodeinfo/parse.js'
import { checkRpcUrl, redactUserinfo } from '../../src/lib/nodeinfo/rpc-url.js'
import { assertUtf8Secret } from '../../src/lib/passphrase/errors.js'
import { StdinLines } from '../../src/lib/passphrase/stdin-lines.js'
import { MAX_DEADLINE, parseDeadline } from '../../src/lib/registry/deadline.js'
import { ROOT } from '../helpers/paths.js'
import { HAND_EDITED } from '../keytool/fixtures.js'

const ESC = '\u001b'

describe('remote text', () => {
  it('drops escape sequences, bells, C1 controls and bidi overrides, and cuts short', () => {
    const hostile = `${ESC}[2J${ESC}]0;owned\u0007\u009b31m\u202eevil\r\nline two${'x'.repeat(5000)}`
    const clean = remoteText(hostile, 40)
    for (const ch of Array.from(clean)) {
      const c = ch.codePointAt(0) as number
      assert.ok(c >= 0x20 && !(c >= 0x7f && c <= 0x9f) && c !== 0x202e, `control character U+${c.toString(16)}`)
    }
    assert.ok(Array.from(clean).length <= 41)
    assert.ok(clean.endsWith('…'))
    assert.equal(remoteText('short'), 'short')
    assert.equal(remoteText({ a: 1 }), '{"a":1}')
    assert.equal(stripControl(`a${ESC}[31mb\r\nc`), 'a[31mb\nc')
  })

  it('TnvError.render never lets a control character through', () => {
    const err = toTnvError(new Error(`boom ${ESC}[2J${ESC}]0;title\u0007`)) as NonNullable<
      ReturnType<typeof toTnvError>
    >
    assert.equal(err.render().includes(ESC), false)
    assert.equal(err.render().includes('\u0007'), false)
  })
})

describe('HTTP failures (issue 16 item 2): status, one line of the answer, what to check', () => {
  for (const [status, check] of [
    [404, /does not lead to a JSON-RPC server/],
    [405, /does not lead to a JSON-RPC server/],
    [401, /credentials/],
    [403, /credentials/],
    [407, /proxy/],
    [413, /too large/],
    [415, /not take JSON/],
    [429, /rate-limits/],
    [500, /server behind the endpoint failed/],
    [502, /server behind the endpoint failed/],
    [301, /redirects/],
    [418, /Check the URL/],
  ] as const)
    it(`HTTP ${status}`, () => {
      const { message, fix } = httpFailureText({
        url: 'http://h:1',
        status,
        body: `<html>${ESC}[2Jfirst line\nsecond line</html>`,
      })
      assert.match(message, new RegExp(`answered HTTP ${status} \\(`))
      assert.match(message, /first line/)
      assert.doesNotMatch(message, /second line/)
      assert.equal(message.includes(ESC), false)
      assert.match(fix, check)
    })

  it('toTnvError classifies an HTTP failure a library let through (exit 10, not "Unexpected failure")', () => {
    const inner = Object.assign(new Error('HTTP request failed'), {
      name: 'HttpRequestError',
      status: 404,
      url: 'http://h:1/x',
      details: '"Not Found"',
    })
    const err = toTnvError(new Error('outer', { cause: inner }))
    assert.equal(err?.exitCode, ExitCode.RpcUnreachable)
    assert.match(err?.message ?? '', /HTTP 404 \(Not Found\): "Not Found"/)
  })
})

describe('answers of the wrong type', () => {
  it('accepts what a node answers, refuses the rest naming the method', () => {
    checkAnswer('u', 'eth_chainId', '0xde7e1')
    checkAnswer('u', 'eth_call', '0x')
    checkAnswer('u', 'eth_getTransactionReceipt', null)
    checkAnswer('u', 'eth_getBlockByNumber', { number: '0x1', timestamp: '0x2', baseFeePerGas: null })
    for (const [method, result] of [
      ['eth_chainId', { a: 1 }],
      ['eth_chainId', '0xZZ'],
      ['eth_blockNumber', 42],
      ['eth_getBalance', `0x${'f'.repeat(65)}`],
      ['eth_call', '0x123'],
      ['eth_getCode', null],
      ['eth_sendRawTransaction', '0x12'],
      ['eth_getBlockByNumber', []],
      ['eth_getTransactionReceipt', { status: 'yes' }],
    ] as const)
      assert.throws(
        () => checkAnswer('http://h', method, result),
        (e: Error & { code?: string; exitCode?: number }) => {
          assert.equal(e.code, 'RpcBadAnswer')
          assert.equal(e.exitCode, ExitCode.RpcUnreachable)
          assert.match(e.message, new RegExp(method))
          return true
        },
      )
  })
})

describe('secrets', () => {
  it('refuses U+FFFD and lone surrogates, accepts any UTF-8 text', () => {
    for (const ok of ['correct horse', 'пароль', '密码🔑', ' trailing ']) assertUtf8Secret(ok, 'p', { kind: 'prompt' })
    for (const bad of ['a\uFFFDb', 'x\uD800y', '\uDC00'])
      assert.throws(() => assertUtf8Secret(bad, 'p', { kind: 'env', name: 'V' }), /not valid UTF-8/)
  })

  it('stdin lines: bytes checked as UTF-8, a line without an end bounded', async () => {
    const s = new PassThrough()
    const lines = new StdinLines(s, 1024)
    s.end(Buffer.concat([Buffer.from('pässwörd\r\n'), Buffer.from([0xff, 0x61, 0x0a])]))
    assert.equal(await lines.next(), 'pässwörd')
    await assert.rejects(lines.next(), /not valid UTF-8/)

    const endless = new PassThrough()
    const bounded = new StdinLines(endless, 1024)
    endless.write(Buffer.alloc(4096, 0x61)) // and never ends
    await assert.rejects(bounded.next(), /more than 1024 bytes without a line end/)
  })

  it('a secret on the command line is found; @FILE for a JWT secret and what follows -- are not', () => {
    assert.equal(secretOnArgv(['stake', '--private-key', '0xab'])?.flag, '--private-key')
    assert.equal(secretOnArgv(['stake', '--private-key=@key'])?.flag, '--private-key', 'a key has no @FILE form')
    assert.equal(secretOnArgv(['rpc', 'jwt', '--secret', 'ab'])?.flag, '--secret')
    assert.equal(secretOnArgv(['--jwt-secret=ab'])?.flag, '--jwt-secret')
    assert.equal(secretOnArgv(['--secret', '@/etc/jwt']), null)
    assert.equal(secretOnArgv(['--jwt-secret=@/etc/jwt']), null)
    assert.equal(secretOnArgv(['rpc', 'check', '--expect', '--', '--rpc.jwtsecret', 'ab', '--secret', 'ab']), null)
    assert.equal(secretOnArgv(['stake', '--keystore', 'k.json']), null)
  })

  it('an RPC URL with credentials is refused, and the credentials are not echoed', () => {
    assert.equal(redactUserinfo('https://u:p@h.example/x'), 'https://***@h.example/x')
    assert.throws(
      () => checkRpcUrl('https://operator:s3cret@h.example', 'http', '--http'),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'RpcUrlCredentials')
        assert.equal(e.message.includes('s3cret'), false)
        return true
      },
    )
    assert.equal(checkRpcUrl('https://h.example', 'http', '--http'), 'https://h.example/')
  })
})

describe('sizes before decoding', () => {
  it('base58 text longer than its byte length allows is not decoded', () => {
    assert.equal(maxBase58Length(72), 100)
    const started = performance.now()
    assert.deepEqual(parseBlsKw('3'.repeat(3000)), { reason: 'length', length: Math.floor(3000 / 1.37) })
    assert.equal(parseBlsKey('3'.repeat(3000)).ok, false)
    assert.equal(decodeNetworkKey('3'.repeat(200_000)), undefined)
    assert.equal(publicKeyFromPeerId('3'.repeat(200_000)), undefined)
    assert.ok(performance.now() - started < 200, 'bounded before decoding')
  })

  it('deadlines beyond 9999 are refused, not crashed on', () => {
    assert.throws(() => parseDeadline('99999999999999999', 0n), /beyond 9999-12-31/)
    assert.throws(() => parseDeadline('99999999999999999999d', 1_700_000_000n), /beyond 9999-12-31/)
    assert.equal(parseDeadline(String(MAX_DEADLINE), 0n), MAX_DEADLINE)
  })
})

describe('YAML tags', () => {
  it('an unknown tag is refused with one paragraph and nothing printed by the library', () => {
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(w.message)
    process.on('warning', onWarning)
    try {
      for (const tag of ['!!js/function', '!secret', '!!binary', '!!int', '!!timestamp'])
        assert.throws(
          () => parseNodeInfo(HAND_EDITED.replace(/^name: /m, `name: ${tag} `), '/d/node-info.yaml'),
          (e: Error & { code?: string }) => e.code === 'NodeInfoSyntax',
        )
      parseNodeInfo(HAND_EDITED, '/d/node-info.yaml')
    } finally {
      process.off('warning', onWarning)
    }
    assert.deepEqual(warnings, [])
  })
})

describe('docs/ci.md', () => {
  it('documents every exit code tnv uses, the file-system code 5 included', () => {
    const table = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')
    for (const [name, code] of Object.entries(ExitCode))
      assert.match(table, new RegExp(`^\\| ${code} \\| `, 'm'), `exit code ${code} (${name}) is not in docs/ci.md`)
  })
})

describe('file-system errors', () => {
  const errno = (code: string, syscall = 'write') =>
    Object.assign(new Error(`${code}: x`), { code, syscall, path: '/d/node-info.yaml' })

  it('space, read-only, permission and I/O are exit 5; the wrong kind of path is exit 3', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO']) {
      const e = explainFsError(errno(code))
      assert.equal(e?.exitCode, ExitCode.Filesystem, code)
      assert.match(e?.render() ?? '', /\/d\/node-info\.yaml/)
    }
    for (const code of ['EISDIR', 'ENOTDIR', 'ELOOP']) assert.equal(explainFsError(errno(code, 'open'))?.exitCode, 3)
    assert.equal(explainFsError(new Error('plain')), undefined)
    assert.equal(toTnvError(errno('ENOSPC'))?.exitCode, ExitCode.Filesystem)
  })

  it('a data directory under /proc or /sys is refused before any mkdir; /tmp and /dev/shm are fine', async () => {
    await assert.rejects(assertDatadirPlace('/proc/sys/tnv/x'), /kernel file system/)
    await assert.rejects(assertDatadirPlace('/sys/kernel/tnv'), /kernel file system/)
    await assertDatadirPlace('/tmp/tnv-not-created/x')
    await assertDatadirPlace('/dev/shm/tnv-not-created')
  })
})

describe('leftovers of a killed run', () => {
  it("the next opening removes an atomic write's temporary file whose writer is gone, and keeps a live writer's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tnv-leftovers-'))
    try {
      mkdirSync(join(dir, 'node-keys'), { mode: 0o700 })
      // pid 2^22 + 1 is above Linux's pid_max limit: no process has it
      const dead = join(dir, `.node-info.yaml.tmp-${2 ** 22 + 1}-0a1b2c3d`)
      const deadKey = join(dir, 'node-keys', `.bls.kw.tmp-${2 ** 22 + 1}-0a1b2c3d`)
      const live = join(dir, `.tnv-journal.json.tmp-${process.ppid}-0a1b2c3d`)
      for (const p of [dead, deadKey, live]) writeFileSync(p, 'x', { mode: 0o600 })
      const r = await recoverCommit(dir)
      assert.equal(r.action, 'rolled-back')
      assert.deepEqual(readdirSync(dir).sort(), [basename(live), 'node-keys'].sort())
      assert.deepEqual(readdirSync(join(dir, 'node-keys')), [])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
