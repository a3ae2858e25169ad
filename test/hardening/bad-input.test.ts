/**
 * Hostile and broken input, run through the built CLI as an operator (or an attacker) would
 * give it (issue 15): each row is one kind of bad input, and each must end in ONE paragraph
 * with its fix, the documented exit code and error code (docs/ci.md), quickly (no hang, no
 * quadratic decoding), without "Unexpected failure", without an escape sequence or a secret in
 * the output, and with the data directory byte for byte as it was. The figures of
 * docs/reliability.md ("Bad input") come from this file's run: see the summary it prints.
 */
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { promises as fs, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { BIN, ROOT, runCli, tempDir, testStateDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { FIXED, plainDatadir, snapshotTree, type TreeSnapshot } from '../keytool/fixtures.js'
import { writeKeystore } from '../registry/keystore-fixture.js'

type Result = { code: number; stdout: string; stderr: string; ms: number }

/** Runs the CLI with raw bytes where a test needs them (an environment value or stdin that is not UTF-8). */
function run(
  args: string[],
  {
    env = {},
    rawEnv = {},
    input,
  }: { env?: Record<string, string>; rawEnv?: Record<string, string>; input?: Buffer } = {},
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const merged: Record<string, string> = {}
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) merged[k] = v
    for (const k of ['TN_BLS_PASSPHRASE', 'TN_NEW_BLS_PASSPHRASE', 'TN_PRIVATE_KEY', 'TN_KEYSTORE_PASSWORD'])
      delete merged[k]
    Object.assign(merged, { TNV_STATE_DIR: testStateDir(), TN_NON_INTERACTIVE: '1' }, env)
    // a variable holding bytes that are not UTF-8 can only be made by the shell (printf '\377')
    const exports = Object.entries(rawEnv)
      .map(([k, printf]) => `${k}="$(printf '${printf}')"; export ${k}; `)
      .join('')
    const started = Date.now()
    const child = spawn('/bin/sh', ['-c', `${exports}exec "$0" "$@"`, process.execPath, BIN, ...args], {
      cwd: ROOT,
      env: merged,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => err.push(d))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`tnv ${args.join(' ')} did not finish in 60 s (a hang)`))
    }, 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ms: Date.now() - started,
      })
    })
    child.stdin.on('error', () => {}) // tnv stops reading a stream it refuses: EPIPE is expected
    if (input) child.stdin.end(input)
    else child.stdin.end()
  })
}

/** A scripted endpoint: what a broken, hostile or wrong server answers. */
type Endpoint = 'http404' | 'http405' | 'http429' | 'http502' | 'wrong-type' | 'bad-hex' | 'huge-error' | 'odd-error'
const ESC = '\u001b'
function answer(mode: Endpoint, req: { id: number; method: string }): { status: number; body: string } {
  const page = `<html>${ESC}[2J${ESC}]0;owned\u0007<h1>Not here</h1>${'x'.repeat(20_000)}</html>`
  if (mode.startsWith('http')) return { status: Number(mode.slice(4)), body: page }
  const reply = (x: object) => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: req.id, ...x }) })
  if (mode === 'wrong-type') return reply({ result: req.method === 'eth_chainId' ? '0xde7e1' : { surprise: [1, 2] } })
  if (mode === 'bad-hex') return reply({ result: req.method === 'eth_chainId' ? '0xde7e1' : '0xZZ' })
  if (mode === 'huge-error')
    return reply({ error: { code: -32000, message: `${ESC}[31mboom${ESC}[0m\u0007${'A'.repeat(2_000_000)}` } })
  return reply({ error: { code: 'not-a-number', message: { nested: ['odd'] } } })
}

async function startEndpoint(mode: Endpoint): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort()
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => {
      body += d
    })
    req.on('end', () => {
      let parsed: { id: number; method: string } | { id: number; method: string }[]
      try {
        parsed = JSON.parse(body)
      } catch {
        parsed = { id: 0, method: '?' }
      }
      const list = Array.isArray(parsed) ? parsed : [parsed]
      const answers = list.map((r) => answer(mode, r))
      const first = answers[0] as { status: number; body: string }
      if (first.status !== 200) {
        res.writeHead(first.status, { 'content-type': 'text/html' })
        res.end(first.body)
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(Array.isArray(parsed) ? `[${answers.map((a) => a.body).join(',')}]` : first.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

type Case = {
  name: string
  /** Makes what the case needs; returns the arguments (and what else to run with). */
  setup: (c: { plain: string; encrypted: string; scratch: string; outside: string }) => Promise<{
    args: string[]
    env?: Record<string, string>
    rawEnv?: Record<string, string>
    input?: Buffer
    endpoint?: Endpoint
  }>
  /** Exit code (docs/ci.md) and TnvError code. */
  exit: number
  code: string
  /** Text the paragraph must carry. */
  says?: RegExp
  /** The run must end within this many ms (bounded before decoding, no hang). Default 20 s. */
  withinMs?: number
  /** A secret that must not appear in any output. */
  secret?: string
  /** Which data directory must be unchanged. Default plain and encrypted both. */
}

const ADDRESS = FIXED.address
const GEN = (datadir: string) => ['keytool', 'generate', 'validator', '--datadir', datadir, '--address', ADDRESS]

const CASES: Case[] = [
  // ---- secrets ----
  {
    name: 'TN_BLS_PASSPHRASE that is not UTF-8 (generate)',
    setup: async ({ scratch }) => ({
      args: GEN(join(scratch, 'new')),
      rawEnv: { TN_BLS_PASSPHRASE: '\\377\\376\\375' },
    }),
    exit: 2,
    code: 'SecretEncoding',
    says: /not valid UTF-8/,
  },
  {
    name: 'TN_BLS_PASSPHRASE that is not UTF-8 (opening bls.kw)',
    setup: async ({ encrypted }) => ({
      args: ['keytool', 'verify', '--datadir', encrypted],
      rawEnv: { TN_BLS_PASSPHRASE: '\\200\\201\\202' },
    }),
    exit: 2,
    code: 'SecretEncoding',
  },
  {
    name: 'TN_NEW_BLS_PASSPHRASE that is not UTF-8',
    setup: async ({ encrypted }) => ({
      args: ['keytool', 'change-passphrase', '--datadir', encrypted, '--new-passphrase-source', 'env'],
      env: { TN_BLS_PASSPHRASE: 'hardening-pass' },
      rawEnv: { TN_NEW_BLS_PASSPHRASE: '\\377abc' },
    }),
    exit: 2,
    code: 'SecretEncoding',
  },
  {
    name: 'a stdin passphrase line that is not UTF-8',
    setup: async ({ scratch }) => ({
      args: [...GEN(join(scratch, 'new')), '--bls-passphrase-source', 'stdin'],
      input: Buffer.from([0xff, 0xfe, 0x61, 0x0a]),
    }),
    exit: 2,
    code: 'SecretEncoding',
  },
  {
    name: 'a passphrase that is the replacement character U+FFFD',
    setup: async ({ scratch }) => ({ args: GEN(join(scratch, 'new')), env: { TN_BLS_PASSPHRASE: 'abc\uFFFD' } }),
    exit: 2,
    code: 'SecretEncoding',
  },
  {
    name: 'TN_KEYSTORE_PASSWORD that is not UTF-8',
    setup: async ({ scratch }) => {
      const keystore = join(scratch, 'keystore.json')
      writeKeystore(keystore, `0x${'0c'.repeat(32)}`, 'keystore-pass')
      return {
        args: ['activate', '--keystore', keystore, '--rpc-url', 'http://127.0.0.1:9', '--chain-id', '911329'],
        rawEnv: { TN_KEYSTORE_PASSWORD: '\\377\\377' },
      }
    },
    exit: 2,
    code: 'SecretEncoding',
  },
  {
    name: '8 MB on stdin without a newline (read stops at 64 KiB)',
    setup: async ({ scratch }) => ({
      args: [...GEN(join(scratch, 'new')), '--bls-passphrase-source', 'stdin'],
      input: Buffer.alloc(8 * 1024 * 1024, 0x61),
    }),
    exit: 2,
    code: 'StdinLineTooLong',
    withinMs: 10_000,
  },
  {
    name: 'set-rpc --http with user:password@',
    setup: async ({ plain }) => ({
      args: ['keytool', 'set-rpc', '--datadir', plain, '--http', 'https://operator:hunter2secret@rpc.example.org'],
    }),
    exit: 3,
    code: 'RpcUrlCredentials',
    secret: 'hunter2secret',
  },
  {
    name: 'generate --rpc-http with user:password@',
    setup: async ({ scratch }) => ({
      args: [
        ...GEN(join(scratch, 'new')),
        '--bls-passphrase-source',
        'no-passphrase',
        '--rpc-http',
        'http://u:hunter2secret@h.example',
      ],
    }),
    exit: 3,
    code: 'RpcUrlCredentials',
    secret: 'hunter2secret',
  },
  // ---- sizes before decoding ----
  {
    name: 'a 2 MB bls.kw',
    setup: async ({ scratch, encrypted }) => {
      const d = join(scratch, 'big-kw')
      await fs.cp(encrypted, d, { recursive: true })
      writeFileSync(join(d, 'node-keys', 'bls.kw'), '3'.repeat(2 * 1024 * 1024))
      return { args: ['keytool', 'verify', '--datadir', d], env: { TN_BLS_PASSPHRASE: 'x' } }
    },
    exit: 4,
    code: 'KeyFileCorrupt',
    withinMs: 10_000,
  },
  {
    name: 'a bls.kw of 4,000 base58 characters (under the file bound, over the key bound)',
    setup: async ({ scratch, encrypted }) => {
      const d = join(scratch, 'long-kw')
      await fs.cp(encrypted, d, { recursive: true })
      writeFileSync(join(d, 'node-keys', 'bls.kw'), '3'.repeat(4000))
      return { args: ['keytool', 'verify', '--datadir', d], env: { TN_BLS_PASSPHRASE: 'x' } }
    },
    exit: 4,
    code: 'KeyFileCorrupt',
    withinMs: 10_000,
  },
  {
    name: 'a 200 KB base58 field in node-info.yaml',
    setup: async ({ scratch, plain }) => {
      const f = join(scratch, 'big-field.yaml')
      const text = await fs.readFile(join(plain, 'node-info.yaml'), 'utf8')
      writeFileSync(f, text.replace(/^bls_public_key: .*$/m, `bls_public_key: ${'3'.repeat(200_000)}`))
      return { args: ['keytool', 'export-staking-args', '--node-info', f] }
    },
    exit: 3,
    code: 'NodeInfoSyntax',
    withinMs: 10_000,
  },
  {
    name: 'a 60 KB base58 field in node-info.yaml (under the file bound)',
    setup: async ({ scratch, plain }) => {
      const f = join(scratch, 'long-field.yaml')
      const text = await fs.readFile(join(plain, 'node-info.yaml'), 'utf8')
      writeFileSync(f, text.replace(/^bls_public_key: .*$/m, `bls_public_key: ${'3'.repeat(60_000)}`))
      return { args: ['keytool', 'export-staking-args', '--node-info', f] }
    },
    exit: 3,
    code: 'NodeInfoField',
    withinMs: 10_000,
  },
  // ---- files of the wrong kind, places that cannot hold a data directory ----
  {
    name: '--node-info /dev/zero',
    setup: async () => ({ args: ['keytool', 'export-staking-args', '--node-info', '/dev/zero'] }),
    exit: 3,
    code: 'WrongFileKind',
    withinMs: 10_000,
  },
  {
    name: '--node-info a FIFO nobody writes',
    setup: async ({ outside }) => {
      // outside every directory the test compares (reading a FIFO would block the comparison)
      const fifo = join(outside, 'fifo.yaml')
      execFileSync('mkfifo', [fifo])
      return { args: ['keytool', 'export-staking-args', '--node-info', fifo] }
    },
    exit: 3,
    code: 'WrongFileKind',
    withinMs: 10_000,
  },
  {
    name: '--keystore /dev/zero',
    setup: async () => ({
      args: ['activate', '--keystore', '/dev/zero', '--rpc-url', 'http://127.0.0.1:9', '--chain-id', '911329'],
      env: { TN_KEYSTORE_PASSWORD: 'x' },
    }),
    exit: 3,
    code: 'WrongFileKind',
    withinMs: 10_000,
  },
  {
    name: 'rpc jwt --secret @/dev/zero',
    setup: async () => ({ args: ['rpc', 'jwt', '--secret', '@/dev/zero'] }),
    exit: 3,
    code: 'WrongFileKind',
    withinMs: 10_000,
  },
  {
    name: 'node-info.yaml is a directory',
    setup: async ({ scratch, plain }) => {
      const d = join(scratch, 'dir-info')
      await fs.cp(plain, d, { recursive: true })
      await fs.rm(join(d, 'node-info.yaml'))
      mkdirSync(join(d, 'node-info.yaml'))
      return { args: ['keytool', 'show', '--datadir', d] }
    },
    exit: 3,
    code: 'WrongFileKind',
  },
  {
    name: 'bls.kw is a directory',
    setup: async ({ scratch, encrypted }) => {
      const d = join(scratch, 'dir-kw')
      await fs.cp(encrypted, d, { recursive: true })
      await fs.rm(join(d, 'node-keys', 'bls.kw'))
      mkdirSync(join(d, 'node-keys', 'bls.kw'))
      return { args: ['keytool', 'verify', '--datadir', d], env: { TN_BLS_PASSPHRASE: 'x' } }
    },
    exit: 3,
    code: 'WrongFileKind',
  },
  {
    name: '--datadir under /proc',
    setup: async () => ({ args: [...GEN('/proc/sys/tnv-x'), '--bls-passphrase-source', 'no-passphrase'] }),
    exit: 3,
    code: 'DatadirPlace',
    withinMs: 10_000,
  },
  {
    name: '--datadir under /sys',
    setup: async () => ({ args: [...GEN('/sys/kernel/tnv-x/y'), '--bls-passphrase-source', 'no-passphrase'] }),
    exit: 3,
    code: 'DatadirPlace',
    withinMs: 10_000,
  },
  {
    name: '--datadir below a file',
    setup: async ({ scratch }) => {
      writeFileSync(join(scratch, 'a-file'), 'x')
      return { args: [...GEN(join(scratch, 'a-file', 'd')), '--bls-passphrase-source', 'no-passphrase'] }
    },
    exit: 3,
    code: 'DatadirNotCreatable',
  },
  // ---- YAML ----
  {
    name: 'node-info.yaml with !!js/function',
    setup: async ({ scratch, plain }) => {
      const f = join(scratch, 'tag.yaml')
      const text = await fs.readFile(join(plain, 'node-info.yaml'), 'utf8')
      writeFileSync(f, text.replace(/^name: /m, 'name: !!js/function '))
      return { args: ['keytool', 'export-staking-args', '--node-info', f] }
    },
    exit: 3,
    code: 'NodeInfoSyntax',
    says: /refuses every YAML tag/,
  },
  {
    name: 'node-info.yaml with a local tag !secret',
    setup: async ({ scratch, plain }) => {
      const f = join(scratch, 'local-tag.yaml')
      const text = await fs.readFile(join(plain, 'node-info.yaml'), 'utf8')
      writeFileSync(f, text.replace(/^name: /m, 'name: !secret '))
      return { args: ['keytool', 'export-staking-args', '--node-info', f] }
    },
    exit: 3,
    code: 'NodeInfoSyntax',
  },
  // ---- symlinks ----
  {
    name: 'set-rpc on a symlinked node-info.yaml',
    setup: async ({ scratch, plain }) => {
      const d = join(scratch, 'link-info')
      await fs.cp(plain, d, { recursive: true })
      await fs.rename(join(d, 'node-info.yaml'), join(scratch, 'real-info.yaml'))
      symlinkSync(join(scratch, 'real-info.yaml'), join(d, 'node-info.yaml'))
      return { args: ['keytool', 'set-rpc', '--datadir', d, '--http', 'https://rpc.example.org'] }
    },
    exit: 3,
    code: 'SymlinkRefused',
  },
  {
    name: 'change-passphrase on a symlinked bls.kw',
    setup: async ({ scratch, encrypted }) => {
      const d = join(scratch, 'link-kw')
      await fs.cp(encrypted, d, { recursive: true })
      await fs.rename(join(d, 'node-keys', 'bls.kw'), join(scratch, 'real.kw'))
      symlinkSync(join(scratch, 'real.kw'), join(d, 'node-keys', 'bls.kw'))
      return {
        args: ['keytool', 'change-passphrase', '--datadir', d, '--new-passphrase-source', 'env'],
        env: { TN_BLS_PASSPHRASE: 'hardening-pass', TN_NEW_BLS_PASSPHRASE: 'another-pass' },
      }
    },
    exit: 3,
    code: 'SymlinkRefused',
  },
  {
    name: 'generate --force on a symlinked node-keys/',
    setup: async ({ scratch, plain }) => {
      const d = join(scratch, 'link-keys')
      await fs.cp(plain, d, { recursive: true })
      await fs.rename(join(d, 'node-keys'), join(scratch, 'real-keys'))
      symlinkSync(join(scratch, 'real-keys'), join(d, 'node-keys'))
      return { args: [...GEN(d), '--force', '--skip-registry-check', '--bls-passphrase-source', 'no-passphrase'] }
    },
    exit: 3,
    code: 'SymlinkRefused',
  },
  // ---- the file system refuses ----
  ...(['ENOSPC', 'EROFS', 'EACCES', 'EPERM', 'EIO'] as const).map(
    (errno): Case => ({
      name: `${errno} while set-rpc writes node-info.yaml`,
      setup: async ({ plain }) => ({
        args: ['keytool', 'set-rpc', '--datadir', plain, '--http', 'https://rpc.example.org'],
        env: { TNV_INJECT_FAULT: `write=${errno}` },
      }),
      exit: 5,
      code: 'Filesystem',
      says: new RegExp(errno),
    }),
  ),
  {
    name: 'ENOSPC while generate writes the keys',
    setup: async ({ scratch }) => ({
      args: [...GEN(join(scratch, 'full')), '--bls-passphrase-source', 'no-passphrase'],
      env: { TNV_INJECT_FAULT: 'write=ENOSPC' },
    }),
    exit: 5,
    code: 'Filesystem',
  },
  // ---- endpoints that answer badly ----
  ...(
    [
      ['http404', /HTTP 404 \(Not Found\).*does not lead to a JSON-RPC server/],
      ['http405', /HTTP 405/],
      ['http429', /rate/],
      ['http502', /HTTP 502 \(Bad Gateway\)/],
      ['wrong-type', /not hex data|not a hex quantity/],
      ['bad-hex', /"0xZZ", not hex data/],
      ['huge-error', /./],
      ['odd-error', /./],
    ] as const
  ).map(
    ([endpoint, says]): Case => ({
      name: `an endpoint that answers ${endpoint}`,
      setup: async ({ plain }) => ({
        args: ['validator', 'status', '--datadir', plain, '--rpc-url', 'ENDPOINT', '--chain-id', '911329'],
        endpoint,
      }),
      exit: 10,
      // a 2 MB error message per call is read in full (viem's body limit refuses the batch, retried by viem's policy)
      ...(endpoint === 'huge-error' ? { withinMs: 45_000 } : {}),
      code:
        endpoint === 'huge-error' || endpoint === 'odd-error'
          ? 'RegistryAnswer'
          : endpoint.startsWith('http')
            ? 'RpcUnreachable'
            : 'RpcBadAnswer',
      says,
    }),
  ),
  // ---- values out of range ----
  {
    name: '--registry that is not an address',
    setup: async ({ plain }) => ({
      args: [
        'validator',
        'status',
        '--datadir',
        plain,
        '--rpc-url',
        'http://127.0.0.1:9',
        '--chain-id',
        '911329',
        '--registry',
        '0x1234',
      ],
    }),
    exit: 3,
    code: 'BadInput',
  },
  {
    name: '--deadline beyond the date range',
    setup: async ({ plain }) => ({
      args: [
        'delegation',
        'digest',
        '--delegator',
        '0x2222222222222222222222222222222222222222',
        '--deadline',
        '99999999999999999',
        '--stake-version',
        '1',
        '--nonce',
        '0',
        '--registry-generation',
        'next',
        '--datadir',
        plain,
        '--chain-id',
        '911329',
      ],
    }),
    exit: 3,
    code: 'BadInput',
    says: /beyond 9999-12-31/,
  },
]

describe('hostile and broken input: one paragraph, the documented exit code, files intact (issue 15)', {
  timeout: 600_000,
}, () => {
  const { dir, cleanup } = tempDir('tnv-hardening-')
  const plain = join(dir, 'plain')
  const encrypted = join(dir, 'encrypted')
  const tally = { kinds: 0, clear: 0, intact: 0 }
  before(async () => {
    await plainDatadir(plain)
    const r = await runCli(
      [
        ...GEN(encrypted),
        '--external-primary-addr',
        '/ip4/203.0.113.10/udp/49590/quic-v1',
        '--external-worker-addrs',
        '/ip4/203.0.113.10/udp/49594/quic-v1',
        '-q',
      ],
      { env: { TN_BLS_PASSPHRASE: 'hardening-pass' } },
    )
    assert.equal(r.code, 0, r.stderr)
  })
  after(() => {
    process.stderr.write(
      `hardening: ${tally.kinds} bad-input kinds tried, ${tally.clear} clear errors, ${tally.intact} with every file intact\n`,
    )
    cleanup()
  })

  for (const c of CASES) {
    it(c.name, async () => {
      tally.kinds++
      const scratch = await fs.mkdtemp(join(dir, 'case-'))
      const outside = await fs.mkdtemp(join(dir, 'outside-'))
      const made = await c.setup({ plain, encrypted, scratch, outside })
      const beforeTrees: [string, TreeSnapshot][] = []
      for (const d of [plain, encrypted, scratch]) beforeTrees.push([d, await snapshotTree(d)])
      const endpoint = made.endpoint ? await startEndpoint(made.endpoint) : undefined
      let r: Result
      try {
        const args = made.args.map((a) => (a === 'ENDPOINT' && endpoint ? endpoint.url : a))
        r = await run([...args, '--json'], {
          ...(made.env ? { env: made.env } : {}),
          ...(made.rawEnv ? { rawEnv: made.rawEnv } : {}),
          ...(made.input ? { input: made.input } : {}),
        })
      } finally {
        await endpoint?.close()
      }
      const context = `exit ${r.code} in ${r.ms} ms\nstdout: ${r.stdout.slice(0, 1500)}\nstderr: ${r.stderr.slice(0, 1500)}`
      // --json: nothing but one JSON document on stdout, the error in it
      const doc = JSON.parse(r.stdout) as { error: { code: string; message: string; fix?: string; exitCode: number } }
      assert.equal(r.code, c.exit, context)
      assert.equal(doc.error.code, c.code, context)
      assert.equal(doc.error.exitCode, c.exit)
      assert.ok(doc.error.fix && doc.error.fix.length > 10, `no fix: ${context}`)
      assert.doesNotMatch(doc.error.message, /Unexpected failure/)
      assert.doesNotMatch(r.stdout + r.stderr, /YAMLWarning/, context)
      for (const text of [doc.error.message, doc.error.fix, r.stderr])
        assert.ok(!text.includes(ESC) && !text.includes('\u0007'), `a control character reached the output: ${context}`)
      assert.ok(doc.error.message.length < 1200, `a paragraph, not a dump: ${doc.error.message.length} characters`)
      if (c.says) assert.match(`${doc.error.message} ${doc.error.fix}`, c.says)
      if (c.secret) assert.equal((r.stdout + r.stderr).includes(c.secret), false, 'the secret was echoed')
      assert.ok(r.ms < (c.withinMs ?? 20_000), `took ${r.ms} ms`)
      tally.clear++
      // the same paragraph for people, without --json
      if (!made.endpoint) {
        const human = await run(made.args, {
          ...(made.env ? { env: made.env } : {}),
          ...(made.rawEnv ? { rawEnv: made.rawEnv } : {}),
          ...(made.input ? { input: made.input } : {}),
        })
        assert.equal(human.code, c.exit, human.stderr)
        assert.match(human.stderr, /^Error: /m)
        assert.ok(!human.stderr.includes(ESC), 'a control character reached the terminal')
        assert.equal(human.stdout.includes('Unexpected failure'), false)
      }
      for (const [d, snapshot] of beforeTrees) assert.deepEqual(await snapshotTree(d), snapshot, `${d} changed`)
      tally.intact++
    })
  }
})
