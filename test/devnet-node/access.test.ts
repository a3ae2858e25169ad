/** --rpc.jwtsecret (HTTP and WS need a fresh HS256 token; IPC does not), --http.corsdomain, --ws.origins. */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createJwt } from '../../src/lib/rpc/jwt.js'
import { tempDir } from '../helpers/cli.js'
import {
  type Engine,
  freePorts,
  httpPost,
  IpcClient,
  startAnvil,
  startTestGateway,
  type TestGateway,
  WsClient,
} from './helpers.js'

const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'

describe('reference node: access', () => {
  let engine: Engine
  const tmp = tempDir('tnv-access-')
  before(async () => {
    engine = await startAnvil()
  })
  after(async () => {
    await engine.stop()
    tmp.cleanup()
  })

  describe('JWT', () => {
    const secret = randomBytes(32).toString('hex')
    let t: TestGateway
    let http: string
    let ws: string
    let ipc: string
    before(async () => {
      const [h, w] = await freePorts(2)
      t = await startTestGateway(
        [
          '--http',
          '--http.port',
          String(h),
          '--ws',
          '--ws.port',
          String(w),
          '--ipcpath',
          join(tmp.dir, 'jwt.ipc'),
          '--rpc.jwtsecret',
          secret,
        ],
        engine,
        secret,
      )
      const [e] = t.gateway.endpoints
      http = e?.http as string
      ws = e?.ws as string
      ipc = e?.ipc as string
    })
    after(() => t.close())

    it('HTTP: 401 without a token, with a token of another secret, with a stale iat; served with a good token', async () => {
      assert.equal((await httpPost(http, CHAIN_ID)).status, 401)
      const other = await createJwt(randomBytes(32).toString('hex'))
      assert.equal((await httpPost(http, CHAIN_ID, { authorization: `Bearer ${other}` })).status, 401)
      const stale = await createJwt(secret, { iat: Math.floor(Date.now() / 1000) - 120 })
      assert.equal((await httpPost(http, CHAIN_ID, { authorization: `Bearer ${stale}` })).status, 401)
      const future = await createJwt(secret, { iat: Math.floor(Date.now() / 1000) + 120 })
      assert.equal((await httpPost(http, CHAIN_ID, { authorization: `Bearer ${future}` })).status, 401)
      assert.equal((await httpPost(http, CHAIN_ID, { authorization: 'Basic abc' })).status, 401)
      const good = await createJwt(secret)
      for (let i = 0; i < 2; i++) {
        const r = await httpPost(http, CHAIN_ID, { authorization: `Bearer ${good}` })
        assert.equal(r.status, 200)
        assert.equal((r.json as { result: string }).result, '0xde7e1')
      }
    })

    it('WS: the upgrade is refused with 401 without a valid token, accepted with one', async () => {
      await assert.rejects(WsClient.open(ws), /HTTP 401/)
      await assert.rejects(
        WsClient.open(ws, { authorization: `Bearer ${await createJwt(randomBytes(32).toString('hex'))}` }),
        /HTTP 401/,
      )
      const client = await WsClient.open(ws, { authorization: `Bearer ${await createJwt(secret)}` })
      try {
        assert.equal((await client.rpc('eth_chainId')).result, '0xde7e1')
      } finally {
        await client.close()
      }
    })

    it('IPC needs no token', async () => {
      const client = await IpcClient.open(ipc)
      try {
        assert.equal((await client.rpc('eth_chainId')).result, '0xde7e1')
      } finally {
        client.close()
      }
    })
  })

  describe('CORS and WS origins', () => {
    let t: TestGateway
    let http: string
    let ws: string
    before(async () => {
      const [h, w] = await freePorts(2)
      t = await startTestGateway(
        [
          '--http',
          '--http.port',
          String(h),
          '--http.corsdomain',
          'https://app.example,http://localhost:3000',
          '--ws',
          '--ws.port',
          String(w),
          '--ws.origins',
          'https://wallet.example',
          '--ipcdisable',
        ],
        engine,
      )
      const [e] = t.gateway.endpoints
      http = e?.http as string
      ws = e?.ws as string
    })
    after(() => t.close())

    it('a preflight is answered only for an allowed origin', async () => {
      const ok = await httpPost(
        http,
        '',
        {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
        'OPTIONS',
      )
      assert.equal(ok.status, 204)
      assert.equal(ok.headers['access-control-allow-origin'], 'https://app.example')
      assert.match(String(ok.headers['access-control-allow-methods']), /POST/)
      assert.equal(ok.headers['access-control-allow-headers'], 'content-type')
      const bad = await httpPost(
        http,
        '',
        { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
        'OPTIONS',
      )
      assert.equal(bad.status, 403)
      assert.equal(bad.headers['access-control-allow-origin'], undefined)
    })

    it('requests from an allowed origin get the CORS header; other origins are refused; no Origin (not a browser) is served', async () => {
      const ok = await httpPost(http, CHAIN_ID, { origin: 'http://localhost:3000' })
      assert.equal(ok.status, 200)
      assert.equal(ok.headers['access-control-allow-origin'], 'http://localhost:3000')
      const bad = await httpPost(http, CHAIN_ID, { origin: 'https://wallet.example' })
      assert.equal(bad.status, 403)
      const plain = await httpPost(http, CHAIN_ID)
      assert.equal(plain.status, 200)
      assert.equal(plain.headers['access-control-allow-origin'], undefined)
    })

    it('WS upgrades from another origin are refused', async () => {
      await assert.rejects(WsClient.open(ws, { origin: 'https://app.example' }), /HTTP 403/)
      for (const headers of [{ origin: 'https://wallet.example' }, {}] as Record<string, string>[]) {
        const client = await WsClient.open(ws, headers)
        assert.equal((await client.rpc('eth_chainId')).result, '0xde7e1')
        await client.close()
      }
    })

    it('without --http.corsdomain no browser origin may call', async () => {
      const [h] = await freePorts(1)
      const plain = await startTestGateway(['--http', '--http.port', String(h), '--ipcdisable'], engine)
      try {
        const url = plain.gateway.endpoints[0]?.http as string
        assert.equal((await httpPost(url, CHAIN_ID, { origin: 'https://app.example' })).status, 403)
        assert.equal(
          (
            await httpPost(
              url,
              '',
              { origin: 'https://app.example', 'access-control-request-method': 'POST' },
              'OPTIONS',
            )
          ).status,
          403,
        )
        assert.equal((await httpPost(url, CHAIN_ID)).status, 200)
      } finally {
        await plain.close()
      }
    })
  })

  it('HTTP wants POST with application/json', async () => {
    const [h] = await freePorts(1)
    const t = await startTestGateway(['--http', '--http.port', String(h), '--ipcdisable'], engine)
    try {
      const url = t.gateway.endpoints[0]?.http as string
      assert.equal((await httpPost(url, '', {}, 'GET')).status, 405)
      assert.equal((await httpPost(url, CHAIN_ID, { 'content-type': 'text/plain' })).status, 415)
    } finally {
      await t.close()
    }
  })
})
