/**
 * The judging rules of `rpc check` on made-up findings (no network), including what a test
 * cannot produce on loopback: a non-loopback host answering debug without authentication.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { evaluateCheck } from '../../src/lib/rpc/evaluate-check.js'
import { NAMESPACE_PROBES } from '../../src/lib/rpc/probe.js'
import { resolveRpcPlan } from '../../src/lib/rpc/resolve.js'
import { NAMESPACES, type Namespace, type TransportCheck, type TransportName } from '../../src/lib/rpc/types.js'

const DEFAULT: Namespace[] = ['eth', 'net', 'web3', 'rpc', 'tn']
const modules = (names: Namespace[]) => Object.fromEntries(names.map((n) => [n, '1.0']))

function finding(transport: TransportName, served: Namespace[], over: Partial<TransportCheck> = {}): TransportCheck {
  const target = transport === 'ipc' ? '/tmp/tn.ipc' : `${transport}://127.0.0.1:${transport === 'http' ? 8545 : 8546}`
  return {
    transport,
    target,
    loopback: true,
    reachable: true,
    failure: null,
    auth: { tokenSent: false, withoutToken: 'not-tested', wrongToken: 'not-tested' },
    rpcModules: served.includes('rpc') ? modules(DEFAULT) : null,
    namespaces: NAMESPACES.map((namespace) => ({
      namespace,
      method: NAMESPACE_PROBES[namespace].method,
      status: served.includes(namespace) ? 'served' : 'not-served',
      detail: served.includes(namespace) ? null : '-32601 Method not found',
      expected: null,
    })),
    served,
    subscriptions:
      transport === 'http' || !served.includes('eth')
        ? { status: 'refused', detail: '-32601 Method not found' }
        : { status: 'works', detail: null },
    expected: null,
    ...over,
  }
}
const none = { expect: null, jwtSecretKnown: false }

describe('evaluateCheck: spec rules', () => {
  it('a node that follows the spec passes', () => {
    const r = evaluateCheck(
      { http: finding('http', DEFAULT), ws: finding('ws', DEFAULT), ipc: finding('ipc', DEFAULT) },
      none,
    )
    assert.deepEqual([r.ok, r.mismatches, r.exposures, r.failures], [true, [], [], []])
  })
  it('eth_subscribe answering over HTTP is a mismatch', () => {
    const r = evaluateCheck(
      { http: finding('http', DEFAULT, { subscriptions: { status: 'works', detail: null } }), ws: null, ipc: null },
      none,
    )
    assert.match(r.mismatches.join(), /subscription id over HTTP/)
  })
  it('eth_subscribe failing on WS or IPC where eth is served is a mismatch; without eth it is not checked', () => {
    for (const t of ['ws', 'ipc'] as const) {
      const bad = finding(t, DEFAULT, { subscriptions: { status: 'refused', detail: '-32000 nope' } })
      assert.match(
        evaluateCheck({ http: null, ws: null, ipc: null, [t]: bad }, none).mismatches.join(),
        /eth_subscribe did not work/,
      )
      assert.equal(evaluateCheck({ http: null, ws: null, ipc: null, [t]: finding(t, ['net']) }, none).ok, true)
    }
  })
  it('rpc_modules must be the same list everywhere, with 1.0 for the default namespaces', () => {
    const r = evaluateCheck(
      {
        http: finding('http', DEFAULT),
        ws: finding('ws', DEFAULT, { rpcModules: modules(['eth', 'rpc']) }),
        ipc: null,
      },
      none,
    )
    assert.match(r.mismatches.join(), /rpc_modules differs between transports/)
    const v = evaluateCheck(
      { http: finding('http', DEFAULT, { rpcModules: { ...modules(DEFAULT), eth: '2.0' } }), ws: null, ipc: null },
      none,
    )
    assert.match(v.mismatches.join(), /eth version "2.0"/)
  })
  it('rpc served but rpc_modules not an object is a mismatch', () => {
    const r = evaluateCheck({ http: finding('http', DEFAULT, { rpcModules: null }), ws: null, ipc: null }, none)
    assert.match(r.mismatches.join(), /instead of an object/)
  })
  it('with a JWT secret: answering without a token or with a wrong one is a mismatch', () => {
    const auth = { tokenSent: true, withoutToken: 'accepted', wrongToken: 'accepted' } as const
    const r = evaluateCheck(
      { http: finding('http', DEFAULT, { auth }), ws: null, ipc: null },
      { expect: null, jwtSecretKnown: true },
    )
    assert.match(r.mismatches.join(), /JWT is not enforced/)
    assert.match(r.mismatches.join(), /signed with a different secret/)
    const good = { tokenSent: true, withoutToken: 'refused', wrongToken: 'refused' } as const
    assert.equal(
      evaluateCheck(
        { http: finding('http', DEFAULT, { auth: good }), ws: null, ipc: null },
        { expect: null, jwtSecretKnown: true },
      ).ok,
      true,
    )
  })
  it('an endpoint that could not be checked is a failure, not a mismatch', () => {
    const down = finding('ws', [], {
      reachable: false,
      failure: 'ws://x did not answer: connection refused (ECONNREFUSED).',
    })
    const r = evaluateCheck({ http: null, ws: down, ipc: null }, none)
    assert.deepEqual([r.ok, r.mismatches, r.failures.length], [false, [], 1])
  })
})

describe('evaluateCheck: exposure (debug or trace without auth on a non-loopback address)', () => {
  it('non-loopback host, no token: exposure', () => {
    for (const ns of ['debug', 'trace'] as const) {
      const r = evaluateCheck(
        {
          http: finding('http', [...DEFAULT, ns], { loopback: false, target: 'http://192.0.2.2:8545' }),
          ws: null,
          ipc: null,
        },
        none,
      )
      assert.equal(r.exposures.length, 1)
      assert.match(
        r.exposures[0] ?? '',
        new RegExp(`${NAMESPACE_PROBES[ns].method} without authentication on a non-loopback address`),
      )
    }
  })
  it('loopback host, or JWT enforced, or no debug/trace: no exposure', () => {
    const enforced = { tokenSent: true, withoutToken: 'refused', wrongToken: 'refused' } as const
    for (const f of [
      finding('http', [...DEFAULT, 'debug']),
      finding('http', [...DEFAULT, 'debug'], { loopback: false, auth: enforced }),
      finding('http', DEFAULT, { loopback: false }),
    ]) {
      assert.deepEqual(
        evaluateCheck({ http: f, ws: null, ipc: null }, { expect: null, jwtSecretKnown: f.auth.tokenSent }).exposures,
        [],
      )
    }
  })
  it('a token sent but not enforced still exposes', () => {
    const lax = { tokenSent: true, withoutToken: 'accepted', wrongToken: 'refused' } as const
    const r = evaluateCheck(
      { http: null, ws: finding('ws', ['eth', 'trace'], { loopback: false, auth: lax }), ipc: null },
      { expect: null, jwtSecretKnown: true },
    )
    assert.equal(r.exposures.length, 1)
  })
  it('dialled on loopback but the expected plan listens on 0.0.0.0: exposure', () => {
    const expect = resolveRpcPlan(['--http', '--http.addr', '0.0.0.0', '--http.api', 'eth,debug'], { cpus: 4 })
    const r = evaluateCheck(
      { http: finding('http', ['eth', 'debug'], { rpcModules: null }), ws: null, ipc: null },
      { expect, jwtSecretKnown: false },
    )
    assert.equal(r.exposures.length, 1)
    assert.match(r.exposures[0] ?? '', /listening on 0\.0\.0\.0/)
  })
  it('IPC is never an exposure', () => {
    assert.deepEqual(
      evaluateCheck({ http: null, ws: null, ipc: finding('ipc', [...DEFAULT, 'debug'], { loopback: false }) }, none)
        .exposures,
      [],
    )
  })
})

describe('evaluateCheck: against the expected plan', () => {
  const expect = resolveRpcPlan(['--http', '--http.api', 'eth,net,tn', '--ws', '--workers', '2'], { cpus: 4 })
  it('matching findings pass; expected values are filled in per namespace', () => {
    const r = evaluateCheck(
      {
        http: finding('http', ['eth', 'net', 'tn'], { rpcModules: null }),
        ws: finding('ws', DEFAULT),
        ipc: finding('ipc', DEFAULT),
      },
      { expect, jwtSecretKnown: false },
    )
    assert.deepEqual(r.mismatches, [])
    assert.equal(r.transports.http?.expected?.worker, 0)
    assert.deepEqual(
      r.transports.http?.namespaces.map((n) => n.expected),
      NAMESPACES.map((n) => ['eth', 'net', 'tn'].includes(n)),
    )
  })
  it('a namespace served but not expected, or expected but not served, is a mismatch', () => {
    const r = evaluateCheck(
      { http: finding('http', ['eth', 'net', 'debug'], { rpcModules: null }), ws: null, ipc: null },
      { expect, jwtSecretKnown: false },
    )
    assert.match(r.mismatches.join('\n'), /debug is served .*but the expected flags do not serve it/)
    assert.match(r.mismatches.join('\n'), /tn is not served .*but the expected flags serve it/)
  })
  it('rpc_modules different from the plan is a mismatch', () => {
    const r = evaluateCheck(
      { http: null, ws: finding('ws', DEFAULT, { rpcModules: modules(['eth', 'rpc']) }), ipc: null },
      { expect, jwtSecretKnown: false },
    )
    assert.match(r.mismatches.join(), /rpc_modules gives \{eth: 1\.0, rpc: 1\.0\}, but the expected plan gives/)
  })
  it('matches a worker by port or IPC path', () => {
    const w1 = finding('ws', DEFAULT, { target: 'ws://127.0.0.1:8548' })
    const ipc1 = finding('ipc', DEFAULT, { target: '/tmp/tn-worker1.ipc' })
    const r = evaluateCheck({ http: null, ws: w1, ipc: ipc1 }, { expect, jwtSecretKnown: false })
    assert.equal(r.transports.ws?.expected?.worker, 1)
    assert.equal(r.transports.ipc?.expected?.worker, 1)
    assert.deepEqual(r.notes, [])
  })
  it('an endpoint not in the plan is compared with worker 0, with a note', () => {
    const r = evaluateCheck(
      {
        http: finding('http', ['eth', 'net', 'tn'], { target: 'https://rpc.example.org', rpcModules: null }),
        ws: null,
        ipc: null,
      },
      { expect, jwtSecretKnown: false },
    )
    assert.equal(r.transports.http?.expected?.worker, 0)
    assert.match(r.notes.join(), /not one of the expected plan's HTTP endpoints/)
  })
  it('a transport answering although the plan leaves it off, or silent although on', () => {
    const ipcOff = resolveRpcPlan(['--ipcdisable'], { cpus: 4 })
    assert.match(
      evaluateCheck(
        { http: null, ws: null, ipc: finding('ipc', DEFAULT) },
        { expect: ipcOff, jwtSecretKnown: false },
      ).mismatches.join(),
      /leave IPC off/,
    )
    const down = finding('http', [], { reachable: false, failure: 'down' })
    assert.match(
      evaluateCheck({ http: down, ws: null, ipc: null }, { expect, jwtSecretKnown: false }).mismatches.join(),
      /did not answer, but the expected flags turn HTTP on/,
    )
  })
  it('JWT: needed by the node but not by the plan, or the other way round', () => {
    const needsToken = finding('http', [], {
      reachable: false,
      failure: 'needs a JWT',
      namespaces: finding('http', []).namespaces.map((n) => ({ ...n, status: 'unauthorized' as const })),
    })
    const plain = resolveRpcPlan(['--http'], { cpus: 4 })
    assert.match(
      evaluateCheck(
        { http: needsToken, ws: null, ipc: null },
        { expect: plain, jwtSecretKnown: false },
      ).mismatches.join(),
      /needs a JWT, but the expected flags set no --rpc.jwtsecret/,
    )
    const refused = finding('http', DEFAULT, {
      auth: { tokenSent: true, withoutToken: 'refused', wrongToken: 'refused' },
    })
    assert.match(
      evaluateCheck({ http: refused, ws: null, ipc: null }, { expect: plain, jwtSecretKnown: true }).mismatches.join(),
      /refuses requests without a token/,
    )
  })
  it('expected flags the node would refuse: a mismatch that names the errors', () => {
    const bad = resolveRpcPlan(['--http', '--ws', '--ws.port', '8545', '--ws.api', 'eth'], { cpus: 4 })
    assert.match(
      evaluateCheck({ http: null, ws: null, ipc: finding('ipc', DEFAULT) }, { expect: bad, jwtSecretKnown: false })
        .mismatches[0] ?? '',
      /would not start the specification's release: HTTP and WS share/,
    )
  })
})
