/**
 * An endpoint that accepts the connection and never answers (a loopback server that reads and
 * stays silent): every attempt is announced with the endpoint, the methods and the attempt, on
 * stderr (or as `waiting` JSON events with --json, stdout keeping its one JSON document), then the
 * documented timeout error (exit 10). The notice comes at 5 s, or at half of a shorter
 * --rpc-timeout: this test uses --rpc-timeout 2 so that four attempts end soon. Nothing is timed.
 */
import assert from 'node:assert/strict'
import { createServer, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { eventProblems } from '../../src/lib/wizard/event-schema.js'
import { generateKeysArgs, runCli, tempDir } from '../helpers/cli.js'

describe('an endpoint that never answers', () => {
  let server: Server
  const sockets = new Set<Socket>()
  let url = ''
  before(async () => {
    server = createServer((socket) => {
      sockets.add(socket)
      socket.on('data', () => {}) // read the request, answer nothing
      socket.on('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })
  after(async () => {
    for (const s of sockets) s.destroy()
    await new Promise((r) => server.close(r))
  })

  const status = (extra: string[]) =>
    runCli([
      'validator',
      'status',
      '--rpc-url',
      url,
      '--chain-id',
      '911329',
      '--address',
      '0x1111111111111111111111111111111111111111',
      '--rpc-timeout',
      '2',
      ...extra,
    ])

  it('names the endpoint and each attempt on stderr, then exits 10 with --rpc-timeout in the fix', async () => {
    const r = await status([])
    assert.equal(r.code, 10, r.stderr)
    const waits = r.stderr.split('\n').filter((l) => l.startsWith(`Waiting for ${url} (eth_chainId`))
    assert.deepEqual(
      waits.map((l) => /attempt (\d) of 4/.exec(l)?.[1]),
      ['1', '2', '3', '4'],
      r.stderr,
    )
    assert.match(waits[0] ?? '', /each attempt waits up to 2 s \(--rpc-timeout\)/)
    assert.match(r.stderr, /did not answer in time, after retries\..*--rpc-timeout SECONDS/)
    assert.equal(r.stdout, '')
  })

  it('--json: waiting events on stderr, one JSON document (the error) on stdout', async () => {
    const r = await status(['--json'])
    assert.equal(r.code, 10)
    assert.equal(JSON.parse(r.stdout).error.code, 'RpcUnreachable')
    const events = r.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
    assert.ok(events.length >= 1, r.stderr)
    assert.deepEqual(Object.keys(events[0]).sort(), [
      'attempt',
      'attempts',
      'endpoint',
      'event',
      'methods',
      'timeoutSeconds',
      'waitedSeconds',
    ])
    assert.equal(events[0].event, 'waiting')
    assert.equal(events[0].endpoint, url)
    assert.equal(events[0].attempt, 1)
    assert.ok(events[0].methods.includes('eth_chainId'))
  })

  it('a flow (stake --through --json): waiting events among its JSON lines on stdout, each matching its schema', async () => {
    const { dir, cleanup } = tempDir()
    try {
      const datadir = join(dir, 'tn')
      const g = await runCli(generateKeysArgs(datadir, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'))
      assert.equal(g.code, 0, g.stderr)
      const r = await runCli(
        [
          'stake',
          '--through',
          'staked',
          '--json',
          '--yes',
          '--rpc-url',
          url,
          '--chain-id',
          '911329',
          '--datadir',
          datadir,
          '--bls-passphrase-source',
          'no-passphrase',
          '--skip-backup-check',
          '--rpc-timeout',
          '2',
        ],
        // anvil's well-known account #1: a test key, never a real one
        { env: { TN_PRIVATE_KEY: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' } },
      )
      assert.equal(r.code, 10, r.stderr)
      const lines = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      const waiting = lines.filter((l) => l.event === 'waiting')
      assert.deepEqual(
        waiting.map((w) => w.attempt),
        [1, 2, 3, 4],
      )
      for (const w of waiting) assert.deepEqual(eventProblems(w), [])
      assert.equal((lines.at(-1)?.error as { code: string } | undefined)?.code, 'RpcUnreachable')
    } finally {
      cleanup()
    }
  })
})
