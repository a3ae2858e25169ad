/**
 * `tnv node start -- --http --ipcdisable` behind a JWT secret becomes ready: the readiness probe
 * sends a fresh token over HTTP. Against tnv's REFERENCE node (bin/tnv-node.js, which enforces
 * the JWT like the real node), not a fake that ignores it.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createJwt } from '../../src/lib/rpc/jwt.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const rpc = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  })

describe('node start behind a JWT secret (reference node)', { timeout: 120_000 }, () => {
  let dir: string
  let cleanup: () => void
  const secret = randomBytes(32).toString('hex')
  // the reference node joins a devnet (`--chain devnet`): it refuses a private chain of its own
  const env = () => ({ TNV_DEVNET_DIR: join(dir, 'devnet') })
  before(async () => {
    ;({ dir, cleanup } = tempDir('tnv-jwt-ready-'))
    writeFileSync(join(dir, 'jwt.hex'), `${secret}\n`, { mode: 0o600 })
    const port = await freePort()
    const r = await runCli(
      ['devnet', 'start', '--detach', '--datadir', join(dir, 'devnet'), '--', '--http', '--http.port', String(port)],
      { env: env() },
    )
    assert.equal(r.code, 0, r.stderr)
  })
  after(async () => {
    for (const d of ['file', 'env']) await runCli(['node', 'stop', '--datadir', join(dir, d)], { env: env() })
    await runCli(['devnet', 'stop', '--datadir', join(dir, 'devnet')], { env: env() })
    cleanup()
  })

  for (const how of ['file', 'env'] as const)
    it(`--http --ipcdisable with the secret from ${how === 'file' ? '--jwt-secret-file' : 'TNV_JWT_SECRET'}: ready, and the node enforces the token`, async () => {
      const port = await freePort()
      const datadir = join(dir, how)
      const r = await runCli(
        [
          'node',
          'start',
          '--detach',
          '--json',
          '--datadir',
          datadir,
          '--ready-timeout',
          '60',
          ...(how === 'file' ? ['--jwt-secret-file', join(dir, 'jwt.hex')] : []),
          '--',
          '--chain',
          'devnet',
          '--http',
          '--http.port',
          String(port),
          '--ipcdisable',
        ],
        { env: { ...env(), TN_NODE_BINARY: undefined, ...(how === 'env' ? { TNV_JWT_SECRET: secret } : {}) } },
      )
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
      const state = parseJson<{ pid: number; rpc: { http: string }; args: string[] }>(r)
      // the reference node takes the secret from its own environment: never on its command line
      const cmdline = readFileSync(`/proc/${state.pid}/cmdline`, 'utf8')
      assert.ok(cmdline.length > 0 && !cmdline.includes(secret), "the secret is not on the node's argv")
      assert.equal(state.rpc.http, `http://127.0.0.1:${port}`)
      assert.ok(!JSON.stringify(state).includes(secret), 'the secret is never printed')
      assert.equal((await rpc(state.rpc.http)).status, 401, 'no token: refused')
      const ok = await rpc(state.rpc.http, { authorization: `Bearer ${await createJwt(secret)}` })
      assert.equal(ok.status, 200)
    })
})
