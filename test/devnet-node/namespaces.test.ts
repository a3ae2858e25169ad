/**
 * The namespace rules on every transport: each server answers exactly what the resolver's
 * plan says for it (and a few cases spelled out by hand), rpc_modules is the plan's, engine
 * methods are never reachable, subscriptions work on WS and IPC only.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { NAMESPACES, type Namespace } from '../../src/lib/rpc/types.js'
import { tempDir } from '../helpers/cli.js'
import { freePortBlock } from '../helpers/ports.js'
import {
  call,
  type Engine,
  httpPost,
  IpcClient,
  type RpcAnswer,
  rpcOver,
  startAnvil,
  startTestGateway,
  type TestGateway,
  WsClient,
} from './helpers.js'

const PROBES: Record<Namespace, [string, unknown[]]> = {
  eth: ['eth_chainId', []],
  net: ['net_version', []],
  web3: ['web3_clientVersion', []],
  rpc: ['rpc_modules', []],
  tn: ['tn_nodeMode', []],
  debug: ['debug_traceTransaction', [`0x${'ab'.repeat(32)}`]],
  trace: ['trace_block', ['0x0']],
}

const ENGINE_METHODS = [
  'anvil_mine',
  'anvil_setBalance',
  'anvil_impersonateAccount',
  'evm_mine',
  'evm_snapshot',
  'evm_increaseTime',
  'hardhat_setBalance',
  'ganache_snapshot',
  'txpool_content',
  'admin_nodeInfo',
  'ots_getApiLevel',
  'eth_sendUnsignedTransaction',
  'personal_sign',
  'anvil',
  '_',
]

type Target = {
  transport: 'http' | 'ws' | 'ipc'
  target: string
  served: Namespace[]
  rpcModules: Record<string, string> | null
}

function targetsOf(t: TestGateway): Target[] {
  const out: Target[] = []
  t.plan.workers.forEach((w, i) => {
    const e = t.gateway.endpoints[i]
    assert.ok(e)
    if (e.http)
      out.push({ transport: 'http', target: e.http, served: w.http.namespaces, rpcModules: w.http.rpcModules })
    if (e.ws) out.push({ transport: 'ws', target: e.ws, served: w.ws.namespaces, rpcModules: w.ws.rpcModules })
    if (e.ipc) out.push({ transport: 'ipc', target: e.ipc, served: w.ipc.namespaces, rpcModules: w.ipc.rpcModules })
  })
  return out
}

async function assertServesPlan(t: TestGateway): Promise<void> {
  for (const target of targetsOf(t)) {
    for (const ns of NAMESPACES) {
      const [method, params] = PROBES[ns]
      const a = await rpcOver(target.transport, target.target, method, params)
      const where = `${target.transport} ${target.target} ${method}`
      if (target.served.includes(ns)) {
        assert.notEqual(a.error?.code, -32601, `${where} should be served: ${JSON.stringify(a)}`)
      } else {
        assert.deepEqual(a.error, { code: -32601, message: 'Method not found' }, `${where} should answer -32601`)
      }
    }
    if (target.served.includes('rpc')) {
      const a = await rpcOver(target.transport, target.target, 'rpc_modules')
      assert.deepEqual(a.result, target.rpcModules, `${target.transport} rpc_modules`)
    }
  }
}

describe('reference node: namespaces per transport', () => {
  let engine: Engine
  const tmp = tempDir('tnv-ns-')
  before(async () => {
    engine = await startAnvil()
  })
  after(async () => {
    await engine.stop()
    tmp.cleanup()
  })

  async function withGateway(
    flags: (ports: number[], ipc: string) => string[],
    fn: (t: TestGateway) => Promise<void>,
    jwt: string | null = null,
  ) {
    // workers listen on the ports above the configured ones (src/lib/rpc/workers.ts): up to 3 workers
    const ports = await freePortBlock(8)
    const t = await startTestGateway(flags(ports, join(tmp.dir, `tn-${ports[0]}.ipc`)), engine, jwt)
    try {
      await fn(t)
    } finally {
      await t.close()
    }
  }

  it('default selection: eth, net, web3, rpc, tn on HTTP, WS and IPC; debug and trace not', async () => {
    await withGateway(
      ([h, w], ipc) => ['--http', '--http.port', String(h), '--ws', '--ws.port', String(w), '--ipcpath', ipc],
      async (t) => {
        await assertServesPlan(t)
        const [e] = t.gateway.endpoints
        assert.ok(e?.http && e.ws && e.ipc)
        for (const [transport, target] of [
          ['http', e.http],
          ['ws', e.ws],
          ['ipc', e.ipc],
        ] as const) {
          const modules = await rpcOver(transport, target, 'rpc_modules')
          assert.deepEqual(modules.result, { eth: '1.0', net: '1.0', web3: '1.0', rpc: '1.0', tn: '1.0' })
          assert.equal(
            (await rpcOver(transport, target, 'debug_traceTransaction', [`0x${'00'.repeat(32)}`])).error?.code,
            -32601,
          )
        }
      },
    )
  })

  it('a list is served exactly: no tn without tn, namespaces named only on WS are not on HTTP, IPC keeps the default set', async () => {
    await withGateway(
      ([h, w], ipc) => [
        '--http',
        '--http.port',
        String(h),
        '--http.api',
        'eth,net,web3',
        '--ws',
        '--ws.port',
        String(w),
        '--ws.api',
        'eth,tn,debug',
        '--ipcpath',
        ipc,
      ],
      async (t) => {
        await assertServesPlan(t)
        const [e] = t.gateway.endpoints
        assert.ok(e?.http && e.ws && e.ipc)
        assert.equal((await rpcOver('http', e.http, 'tn_nodeMode')).error?.code, -32601)
        assert.equal(
          (await rpcOver('http', e.http, 'debug_traceTransaction', [`0x${'00'.repeat(32)}`])).error?.code,
          -32601,
        )
        assert.equal((await rpcOver('ws', e.ws, 'tn_nodeMode')).result, 'Observer')
        assert.equal((await rpcOver('ipc', e.ipc, 'tn_nodeMode')).result, 'Observer')
        // rpc is served only on IPC here, so rpc_modules is built from IPC's (default) set
        assert.deepEqual((await rpcOver('ipc', e.ipc, 'rpc_modules')).result, {
          eth: '1.0',
          net: '1.0',
          web3: '1.0',
          rpc: '1.0',
          tn: '1.0',
        })
      },
    )
  })

  it("none serves nothing; all never includes debug; rpc_modules everywhere is HTTP's list", async () => {
    await withGateway(
      ([h, w], ipc) => [
        '--http',
        '--http.port',
        String(h),
        '--http.api',
        'none',
        '--ws',
        '--ws.port',
        String(w),
        '--ws.api',
        'all,debug',
        '--ipcpath',
        ipc,
      ],
      async (t) => {
        await assertServesPlan(t)
        const [e] = t.gateway.endpoints
        assert.ok(e?.http && e.ws)
        assert.equal((await rpcOver('http', e.http, 'eth_chainId')).error?.code, -32601)
        assert.equal(
          (await rpcOver('ws', e.ws, 'debug_traceTransaction', [`0x${'00'.repeat(32)}`])).error?.code,
          -32601,
        )
      },
    )
    await withGateway(
      ([h, w], ipc) => [
        '--http',
        '--http.port',
        String(h),
        '--http.api',
        'eth,rpc,tn,trace',
        '--ws',
        '--ws.port',
        String(w),
        '--ipcpath',
        ipc,
      ],
      async (t) => {
        await assertServesPlan(t)
        const [e] = t.gateway.endpoints
        assert.ok(e?.http && e.ws && e.ipc)
        const httpList = { eth: '1.0', rpc: '1.0', tn: '1.0', trace: '1.0' }
        for (const [transport, target] of [
          ['http', e.http],
          ['ws', e.ws],
          ['ipc', e.ipc],
        ] as const) {
          assert.deepEqual((await rpcOver(transport, target, 'rpc_modules')).result, httpList, transport)
        }
        assert.notEqual((await rpcOver('http', e.http, 'trace_block', ['0x0'])).error?.code, -32601)
      },
    )
  })

  it('HTTP and WS on one address and port: one server answers both protocols', async () => {
    await withGateway(
      ([p], ipc) => [
        '--http',
        '--http.port',
        String(p),
        '--ws',
        '--ws.port',
        String(p),
        '--http.api',
        'eth,rpc',
        '--ws.api',
        'eth,rpc',
        '--ipcpath',
        ipc,
      ],
      async (t) => {
        const [e] = t.gateway.endpoints
        assert.ok(e?.http && e.ws)
        assert.equal(new URL(e.http).port, new URL(e.ws).port)
        await assertServesPlan(t)
        assert.equal((await rpcOver('http', e.http, 'eth_chainId')).result, '0xde7e1')
        assert.equal((await rpcOver('ws', e.ws, 'eth_chainId')).result, '0xde7e1')
      },
    )
  })

  it("workers: every worker serves the same selection on the resolver's derived endpoints", async () => {
    await withGateway(
      ([h, w], ipc) => [
        '--http',
        '--http.port',
        String(h),
        '--ws',
        '--ws.port',
        String(w),
        '--http.api',
        'eth,tn',
        '--ipcpath',
        ipc,
        '--workers',
        '3',
      ],
      async (t) => {
        assert.equal(t.gateway.endpoints.length, 3)
        t.plan.workers.forEach((w, i) => {
          const e = t.gateway.endpoints[i]
          assert.equal(e?.http, `http://127.0.0.1:${w.http.port}`)
          assert.equal(e?.ws, `ws://127.0.0.1:${w.ws.port}`)
          assert.equal(e?.ipc, w.ipc.path)
        })
        await assertServesPlan(t)
      },
    )
  })

  it('engine methods are never reachable, whatever is selected', async () => {
    await withGateway(
      ([h, w], ipc) => [
        '--http',
        '--http.port',
        String(h),
        '--http.api',
        'eth,net,web3,rpc,tn,debug,trace',
        '--ws',
        '--ws.port',
        String(w),
        '--ws.api',
        'eth,net,web3,rpc,tn,debug,trace',
        '--ipcpath',
        ipc,
      ],
      async (t) => {
        const before = await call(engine.httpUrl, 'eth_blockNumber')
        for (const target of targetsOf(t)) {
          for (const method of ENGINE_METHODS) {
            const a = await rpcOver(target.transport, target.target, method, [])
            assert.deepEqual(a.error, { code: -32601, message: 'Method not found' }, `${target.transport} ${method}`)
          }
        }
        assert.equal(await call(engine.httpUrl, 'eth_blockNumber'), before, 'nothing was mined')
      },
    )
  })

  it('the node answers eth_syncing false, holds no keys, and names itself', async () => {
    await withGateway(
      ([h], ipc) => ['--http', '--http.port', String(h), '--ipcpath', ipc],
      async (t) => {
        const url = t.gateway.endpoints[0]?.http as string
        assert.equal((await rpcOver('http', url, 'eth_syncing')).result, false)
        assert.deepEqual((await rpcOver('http', url, 'eth_accounts')).result, [])
        const send = await rpcOver('http', url, 'eth_sendTransaction', [
          { from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', to: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' },
        ])
        assert.equal(send.error?.code, -32000)
        assert.match(send.error?.message ?? '', /unknown account/)
        assert.equal((await rpcOver('http', url, 'web3_clientVersion')).result, 'tnv-reference-node/test')
      },
    )
  })

  it('subscriptions work on WS and IPC, not on HTTP', async () => {
    await withGateway(
      ([h, w], ipc) => ['--http', '--http.port', String(h), '--ws', '--ws.port', String(w), '--ipcpath', ipc],
      async (t) => {
        const [e] = t.gateway.endpoints
        assert.ok(e?.http && e.ws && e.ipc)
        const overHttp = await rpcOver('http', e.http, 'eth_subscribe', ['newHeads'])
        assert.equal(overHttp.error?.code, -32001)
        assert.match(overHttp.error?.message ?? '', /WebSocket or IPC/)

        const ws = await WsClient.open(e.ws)
        const ipcClient = await IpcClient.open(e.ipc)
        try {
          const wsSub = (await ws.rpc('eth_subscribe', ['newHeads'], 'w1')).result as string
          const ipcSub = (await ipcClient.rpc('eth_subscribe', ['newHeads'], 'i1')).result as string
          assert.match(wsSub, /^0x[0-9a-f]+$/)
          assert.match(ipcSub, /^0x[0-9a-f]+$/)
          await call(engine.httpUrl, 'evm_mine')
          const isNote = (sub: string) => (m: unknown) =>
            (m as { method?: string; params?: { subscription?: string } }).method === 'eth_subscription' &&
            (m as { params: { subscription: string } }).params.subscription === sub
          const wsNote = (await ws.next(isNote(wsSub))) as { params: { result: { number: string } } }
          const ipcNote = (await ipcClient.next(isNote(ipcSub))) as { params: { result: { number: string } } }
          assert.equal(wsNote.params.result.number, ipcNote.params.result.number)
          assert.equal((await ws.rpc('eth_unsubscribe', [wsSub], 'w2')).result, true)
          assert.equal((await ipcClient.rpc('eth_unsubscribe', [ipcSub], 'i2')).result, true)
          // --rpc.max-subscriptions-per-connection (4 in these tests)
          for (let i = 0; i < 4; i++) assert.ok((await ws.rpc('eth_subscribe', ['newHeads'])).result)
          assert.equal((await ws.rpc('eth_subscribe', ['newHeads'])).error?.code, -32006)
        } finally {
          await ws.close()
          ipcClient.close()
        }
      },
    )
  })

  it('malformed JSON is -32700, an invalid request -32600, on every transport; batches and notifications', async () => {
    await withGateway(
      ([h, w], ipc) => ['--http', '--http.port', String(h), '--ws', '--ws.port', String(w), '--ipcpath', ipc],
      async (t) => {
        const [e] = t.gateway.endpoints
        assert.ok(e?.http && e.ws && e.ipc)
        const parse = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }
        const invalid = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } }
        const batch = JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
          { jsonrpc: '2.0', id: 2, method: 'anvil_mine' },
          { jsonrpc: '2.0', method: 'eth_chainId' },
          { jsonrpc: '1.0', id: 3, method: 'eth_chainId' },
          5,
          { jsonrpc: '2.0', id: 'x', method: 'rpc_modules', params: [] },
        ])
        const expectBatch = (answer: RpcAnswer[]) => {
          assert.equal(answer.length, 5, 'the notification gets no answer')
          const byId = new Map(answer.map((a) => [JSON.stringify(a.id), a]))
          assert.equal(byId.get('1')?.result, '0xde7e1')
          assert.equal(byId.get('2')?.error?.code, -32601)
          assert.equal(byId.get('3')?.error?.code, -32600)
          assert.equal(byId.get('null')?.error?.code, -32600)
          assert.ok(byId.get('"x"')?.result)
        }

        // HTTP
        assert.deepEqual((await httpPost(e.http, '{"jsonrpc":"2.0",')).json, parse)
        assert.deepEqual((await httpPost(e.http, '[]')).json, invalid)
        assert.deepEqual((await httpPost(e.http, '{"jsonrpc":"2.0","id":1}')).json, { ...invalid, id: 1 })
        assert.deepEqual(
          (await httpPost(e.http, '{"jsonrpc":"2.0","id":{"a":1},"method":"eth_chainId"}')).json,
          invalid,
        )
        expectBatch((await httpPost(e.http, batch)).json as RpcAnswer[])
        const note = await httpPost(e.http, '{"jsonrpc":"2.0","method":"eth_chainId"}')
        assert.equal(note.status, 204)
        assert.equal(note.text, '')

        // WS
        const ws = await WsClient.open(e.ws)
        try {
          ws.send('{"jsonrpc":')
          assert.deepEqual(await ws.next((m) => (m as RpcAnswer).error?.code === -32700), parse)
          ws.send('[]')
          assert.deepEqual(await ws.next((m) => (m as RpcAnswer).error?.code === -32600), invalid)
          ws.send(batch)
          expectBatch((await ws.next(Array.isArray)) as RpcAnswer[])
        } finally {
          await ws.close()
        }

        // IPC: concatenated values without separators, garbage in between
        const ipcClient = await IpcClient.open(e.ipc)
        try {
          ipcClient.write('{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}{"jsonrpc":"2.0","id":8,')
          assert.equal(((await ipcClient.next((m) => (m as RpcAnswer).id === 7)) as RpcAnswer).result, '0xde7e1')
          ipcClient.write('"method":"eth_chainId"} garbage [] ')
          assert.equal(((await ipcClient.next((m) => (m as RpcAnswer).id === 8)) as RpcAnswer).result, '0xde7e1')
          assert.deepEqual(await ipcClient.next((m) => (m as RpcAnswer).error?.code === -32700), parse)
          assert.deepEqual(await ipcClient.next((m) => (m as RpcAnswer).error?.code === -32600), invalid)
          ipcClient.write(batch)
          expectBatch((await ipcClient.next(Array.isArray)) as RpcAnswer[])
          ipcClient.write('{"jsonrpc":"2.0","id":9,"method":"web3_clientVersion","params":["{[\\"}"]}')
          assert.equal(
            ((await ipcClient.next((m) => (m as RpcAnswer).id === 9)) as RpcAnswer).result,
            'tnv-reference-node/test',
          )
        } finally {
          ipcClient.close()
        }
      },
    )
  })
})
