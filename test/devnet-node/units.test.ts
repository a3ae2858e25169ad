/** The pieces under the transports: the IPC stream splitter, the engine client, the method table. */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { EngineClient, EngineResponseTooBigError, EngineUnavailableError } from '../../src/devnet/node/engine-client.js'
import { JsonStreamSplitter } from '../../src/devnet/node/json-stream.js'
import { routeOf } from '../../src/devnet/node/methods.js'

function split(chunks: Buffer[], max = 1 << 20): { values: string[]; tooLarge: number } {
  const values: string[] = []
  let tooLarge = 0
  const s = new JsonStreamSplitter(
    { onValue: (b) => values.push(b.toString('utf8')), onTooLarge: () => tooLarge++ },
    max,
  )
  for (const c of chunks) s.push(c)
  return { values, tooLarge }
}

describe('IPC stream splitter', () => {
  const messages = [
    '{"jsonrpc":"2.0","id":1,"method":"a","params":["}{ \\" ]["]}',
    '[{"id":2},{"id":"é漢字🙂"}]',
    '{"nested":{"deep":[1,{"x":"\\\\"}]}}',
  ]
  const stream = Buffer.from(`${messages[0]}${messages[1]}\n  ${messages[2]}`)

  it('finds every value whatever the chunk boundaries (every split point, multi-byte characters included)', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      const { values } = split([stream.subarray(0, cut), stream.subarray(cut)])
      assert.deepEqual(values, messages, `cut at ${cut}`)
    }
    assert.deepEqual(split([...stream].map((b) => Buffer.from([b]))).values, messages)
  })

  it('hands stray tokens on (answered -32700) and keeps going', () => {
    assert.deepEqual(split([Buffer.from('junk {"a":1} 12 [2]')]).values, ['junk', '{"a":1}', '12', '[2]'])
  })

  it('reports a value larger than the limit, across chunks too', () => {
    assert.equal(split([Buffer.from(`{"a":"${'x'.repeat(100)}"}`)], 50).tooLarge, 1)
    const r = split([Buffer.from(`{"a":"${'x'.repeat(40)}`), Buffer.from(`${'x'.repeat(40)}"}{"b":1}`)], 50)
    assert.equal(r.tooLarge, 1)
  })
})

describe('method table', () => {
  it('routes by namespace; engine and unknown methods have no route', () => {
    assert.deepEqual(routeOf('eth_call'), { namespace: 'eth', kind: 'gasCapped' })
    assert.deepEqual(routeOf('eth_callBundle'), { namespace: 'eth', kind: 'tracing' })
    assert.deepEqual(routeOf('debug_traceBlockByNumber'), { namespace: 'debug', kind: 'tracing' })
    assert.deepEqual(routeOf('debug_executionWitnessByBlockHash'), { namespace: 'debug', kind: 'tracing' })
    assert.deepEqual(routeOf('trace_filter'), { namespace: 'trace', kind: 'tracing' })
    assert.deepEqual(routeOf('tn_getValidator'), { namespace: 'tn', kind: 'local' })
    for (const m of [
      'anvil_mine',
      'evm_mine',
      'hardhat_mine',
      'ganache_snapshot',
      'eth_sendUnsignedTransaction',
      'tn_unknown',
      'eth',
      'eth_',
      '_x',
      'ETH_chainId',
    ]) {
      assert.equal(routeOf(m), null, m)
    }
  })
})

describe('engine client (over the engine IPC socket)', () => {
  /** A fake engine on an IPC socket: `handler` answers each JSON value it reads with the text it returns. */
  async function fakeEngine(handler: (body: string, write: (text: string) => void) => void) {
    const bodies: string[] = []
    const dir = mkdtempSync(join(tmpdir(), 'tnv-engine-unit-'))
    const path = join(dir, 'engine.ipc')
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      const splitter = new JsonStreamSplitter(
        {
          onValue: (b) => {
            const body = b.toString('utf8')
            bodies.push(body)
            handler(body, (text) => socket.write(text))
          },
          onTooLarge: () => socket.destroy(),
        },
        1 << 24,
      )
      socket.on('data', (c: Buffer) => splitter.push(c))
    })
    await new Promise<void>((r) => server.listen(path, r))
    return {
      path,
      bodies,
      close: () =>
        new Promise<void>((r) => {
          for (const s of sockets) s.destroy()
          server.close(() => {
            rmSync(dir, { recursive: true, force: true })
            r()
          })
        }),
    }
  }

  it("sends the client's bytes as they are when alone, and batches light requests that arrive together", async () => {
    const engine = await fakeEngine((body, write) => {
      const msg = JSON.parse(body)
      const answer = (m: { id: unknown; method: string }) => ({ jsonrpc: '2.0', id: m.id, result: m.method })
      // one line per answer, written in two pieces
      const text = `${JSON.stringify(Array.isArray(msg) ? msg.map(answer) : answer(msg))}\n`
      write(text.slice(0, 5))
      setImmediate(() => write(text.slice(5)))
    })
    const client = new EngineClient({ path: engine.path, maxResponseBytes: 1 << 20 })
    try {
      const raw = Buffer.from('{"jsonrpc":"2.0","id":"mine","method":"eth_chainId","params":[]}')
      const alone = await client.send('eth_chainId', [], raw, true)
      assert.equal(alone.raw?.toString(), '{"jsonrpc":"2.0","id":"mine","result":"eth_chainId"}')
      assert.equal(engine.bodies.at(-1), raw.toString())
      const many = await Promise.all(['a_1', 'b_2', 'c_3'].map((m) => client.send(m, [], null, true)))
      assert.deepEqual(
        many.map((a) => a.object?.result),
        ['a_1', 'b_2', 'c_3'],
      )
      assert.ok(Array.isArray(JSON.parse(engine.bodies.at(-1) as string)), 'the three went as one batch')
      assert.equal(await client.call('eth_blockNumber', []), 'eth_blockNumber')
      // bytes that are not valid UTF-8 are never relayed as they are: the engine gets the node's own text
      const bad = Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":7,"method":"eth_x","params":["'),
        Buffer.from([0xff]),
        Buffer.from('"]}'),
      ])
      const reencoded = await client.send('eth_x', ['\ufffd'], bad, false)
      assert.equal(reencoded.object?.result, 'eth_x')
      assert.equal(JSON.parse(engine.bodies.at(-1) as string).id, 0)
    } finally {
      client.close()
      await engine.close()
    }
  })

  it('a connection the engine answers twice is never used again (no answer reaches the wrong request)', async () => {
    let n = 0
    const stray = `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } })}\n`
    const engine = await fakeEngine((body, write) => {
      const raw = JSON.parse(body) as { id: unknown }
      n++
      if (n === 1) {
        // the answer and a stray line at once, and another stray line a little later
        write(`${JSON.stringify({ jsonrpc: '2.0', id: raw.id, result: 'first' })}\n${stray}`)
        setTimeout(() => write(stray), 20)
      } else setTimeout(() => write(`${JSON.stringify({ jsonrpc: '2.0', id: raw.id, result: 'second' })}\n`), 60)
    })
    const client = new EngineClient({ path: engine.path, maxResponseBytes: 1 << 20 })
    try {
      const raw = (id: string) => Buffer.from(`{"jsonrpc":"2.0","id":"${id}","method":"eth_x","params":[]}`)
      assert.equal(
        (await client.send('eth_x', [], raw('a'), false)).raw?.toString(),
        '{"jsonrpc":"2.0","id":"a","result":"first"}',
      )
      const second = await client.send('eth_x', [], raw('b'), false)
      assert.equal(second.raw?.toString(), '{"jsonrpc":"2.0","id":"b","result":"second"}')
    } finally {
      client.close()
      await engine.close()
    }
  })

  it('refuses an answer larger than the limit before reading it, and says when the engine is down', async () => {
    const engine = await fakeEngine((_body, write) => {
      write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, result: 'x'.repeat(500_000) })}\n`)
    })
    const client = new EngineClient({ path: engine.path, maxResponseBytes: 1000 })
    await assert.rejects(client.send('eth_x', [], null, false), EngineResponseTooBigError)
    client.close()
    await engine.close()
    const down = new EngineClient({ path: engine.path, maxResponseBytes: 1000 })
    await assert.rejects(down.send('eth_x', [], null, false), EngineUnavailableError)
    down.close()
  })
})
