/**
 * The resolver against the spec (shared/spec/node-rpc-namespaces.md): every row of the values
 * table and of the errors table, rules 1-8 and the versioning notes, for HTTP and for WS
 * (IPC: always the default set), then rpc_modules, workers, limits, addresses and JWT.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { resolveRpcPlan } from '../../src/lib/rpc/resolve.js'
import type { Namespace, RpcPlan } from '../../src/lib/rpc/types.js'

const DEFAULT: Namespace[] = ['eth', 'net', 'web3', 'rpc', 'tn']
const modules = (...names: Namespace[]) => Object.fromEntries(names.map((n) => [n, '1.0']))
const plan = (...argv: string[]) => resolveRpcPlan(argv, { cpus: 4 })
const has = (list: string[], fragment: string | RegExp) =>
  list.some((m) => (typeof fragment === 'string' ? m.includes(fragment) : fragment.test(m)))

/** One selection flag on one transport, the other transport off: what is served there. */
function served(transport: 'http' | 'ws', value: string | undefined): RpcPlan {
  const argv = [`--${transport}`, ...(value === undefined ? [] : [`--${transport}.api`, value])]
  return plan(...argv)
}

for (const t of ['http', 'ws'] as const) {
  describe(`namespace selection values on ${t.toUpperCase()} (--${t}.api)`, () => {
    const cases: { value: string | undefined; namespaces: Namespace[]; rpcModules: Record<string, string> | null }[] = [
      { value: undefined, namespaces: DEFAULT, rpcModules: modules(...DEFAULT) }, // flag not given
      { value: 'all', namespaces: DEFAULT, rpcModules: modules(...DEFAULT) },
      { value: 'ALL', namespaces: DEFAULT, rpcModules: modules(...DEFAULT) }, // rule 3: all in any case
      { value: 'All', namespaces: DEFAULT, rpcModules: modules(...DEFAULT) },
      { value: 'eth,net,web3', namespaces: ['eth', 'net', 'web3'], rpcModules: null }, // a list: exactly it
      { value: 'none', namespaces: [], rpcModules: null },
      { value: 'NONE', namespaces: [], rpcModules: null },
      { value: 'None', namespaces: [], rpcModules: null },
      { value: 'tn,rpc,eth', namespaces: ['eth', 'rpc', 'tn'], rpcModules: modules('eth', 'rpc', 'tn') },
      { value: 'eth, net , tn', namespaces: ['eth', 'net', 'tn'], rpcModules: null }, // spaces around names ignored
      { value: 'eth,eth,net', namespaces: ['eth', 'net'], rpcModules: null }, // repeats served once
    ]
    for (const c of cases) {
      it(`${c.value === undefined ? 'flag not given' : JSON.stringify(c.value)} serves ${c.namespaces.join(',') || 'nothing'}`, () => {
        const p = served(t, c.value)
        assert.equal(p.ok, true, p.errors.join('\n'))
        assert.equal(p.transports[t].enabled, true)
        assert.deepEqual(p.transports[t].namespaces, c.namespaces)
        assert.deepEqual(p.transports[t].rpcModules, c.rpcModules)
        assert.deepEqual(p.warnings, [])
      })
    }

    it('rule 1: a list without tn serves no tn_* (and tnv says so)', () => {
      const p = served(t, 'eth,net,web3,rpc')
      assert.ok(!p.transports[t].namespaces.includes('tn'))
      assert.deepEqual(p.transports[t].rpcModules, modules('eth', 'net', 'web3', 'rpc'))
      assert.ok(has(p.advice, 'does not serve tn'))
    })

    it('rule 2: debug and trace only when named, each with a startup warning', () => {
      assert.ok(!served(t, 'all').transports[t].namespaces.includes('debug'))
      assert.ok(!served(t, undefined).transports[t].namespaces.includes('trace'))
      const d = served(t, 'eth,debug')
      assert.deepEqual(d.transports[t].namespaces, ['eth', 'debug'])
      assert.equal(d.warnings.length, 1)
      assert.ok(has(d.warnings, 'serves debug'))
      const both = served(t, 'trace,eth,debug,rpc')
      assert.deepEqual(both.transports[t].namespaces, ['eth', 'rpc', 'debug', 'trace'])
      assert.deepEqual(both.transports[t].rpcModules, modules('eth', 'rpc', 'debug', 'trace'))
      assert.equal(both.warnings.length, 2)
      assert.ok(has(both.warnings, 'serves trace') && has(both.warnings, 'serves debug'))
      assert.equal(both.ok, true)
    })

    it('rule 3: names are case-sensitive (TN, Eth dropped with a warning), all/none in any case', () => {
      const p = served(t, 'Eth,TN,net')
      assert.equal(p.ok, true)
      assert.deepEqual(p.transports[t].namespaces, ['net'])
      assert.ok(has(p.warnings, '"TN"') && has(p.warnings, '"Eth"'))
      assert.ok(has(p.advice, 'write tn') && has(p.advice, 'write eth'))
      assert.deepEqual(served(t, 'aLl').transports[t].namespaces, DEFAULT)
      assert.deepEqual(served(t, 'nOnE').transports[t].namespaces, [])
    })

    for (const name of ['admin', 'txpool', 'ots', 'ehh', 'eth2']) {
      it(`rule 4: unsupported "${name}" is dropped with a warning listing the supported names; the node starts`, () => {
        const p = served(t, `eth,${name},tn`)
        assert.equal(p.ok, true)
        assert.deepEqual(p.transports[t].namespaces, ['eth', 'tn'])
        assert.equal(p.warnings.length, 1)
        assert.match(p.warnings[0] ?? '', new RegExp(`"${name}".*dropped.*eth, net, web3, rpc, tn, debug, trace`))
      })
    }

    it('rule 5: all/none as the first entry make the rest ignored', () => {
      const a = served(t, 'all,debug')
      assert.deepEqual(a.transports[t].namespaces, DEFAULT)
      assert.deepEqual(a.warnings, [], 'no debug warning: debug is not served')
      assert.ok(has(a.advice, 'debug is not served'))
      const n = served(t, 'none,eth,tn')
      assert.deepEqual(n.transports[t].namespaces, [])
      assert.ok(has(n.advice, 'eth and tn are not served'))
      const full = served(t, 'eth,net,web3,rpc,tn,debug')
      assert.deepEqual(full.transports[t].namespaces, [...DEFAULT, 'debug'])
      const late = served(t, 'eth,all')
      assert.deepEqual(late.transports[t].namespaces, ['eth'], '"all" later in a list is an unknown name')
      assert.ok(has(late.warnings, '"all"'))
    })
  })
}

describe('rule 6: HTTP and WS are configured separately', () => {
  it('a namespace named only in --ws.api is not served over HTTP', () => {
    const p = plan('--http', '--ws', '--ws.api', 'eth,debug')
    assert.deepEqual(p.transports.ws.namespaces, ['eth', 'debug'])
    assert.deepEqual(p.transports.http.namespaces, DEFAULT)
    assert.equal(p.workers[0]?.sharedServer, false)
  })
  it('a transport that is off serves nothing, whatever its flag says (and tnv says the flag has no effect)', () => {
    const p = plan('--http.api', 'eth', '--ws.api', 'eth')
    assert.equal(p.transports.http.enabled, false)
    assert.deepEqual(p.transports.http.namespaces, [])
    assert.equal(p.transports.http.rpcModules, null)
    assert.ok(has(p.advice, '--http.api is set but --http is not given'))
    assert.ok(has(p.advice, '--ws.api is set but --ws is not given'))
  })
})

describe('IPC: always the default set, off with --ipcdisable', () => {
  it('is on by default at /tmp/tn.ipc and serves the default set', () => {
    const p = plan()
    assert.deepEqual(p.transports.ipc, {
      enabled: true,
      path: '/tmp/tn.ipc',
      namespaces: DEFAULT,
      otherModules: [],
      rpcModules: modules(...DEFAULT),
    })
    assert.equal(p.transports.http.enabled, false)
    assert.equal(p.transports.ws.enabled, false)
  })
  it('ignores --http.api/--ws.api and has no --ipc.api', () => {
    const p = plan('--http', '--http.api', 'none', '--ws', '--ws.api', 'eth,debug', '--ipc.api', 'eth')
    assert.deepEqual(p.transports.ipc.namespaces, DEFAULT)
    assert.ok(p.passthrough.includes('--ipc.api'), 'not a node RPC flag: passed through')
  })
  it('--ipcdisable turns it off; --ipcpath moves it', () => {
    const off = plan('--ipcdisable')
    assert.equal(off.transports.ipc.enabled, false)
    assert.deepEqual(off.transports.ipc.namespaces, [])
    assert.equal(off.transports.ipc.rpcModules, null)
    assert.ok(has(off.advice, 'No RPC transport is on'))
    assert.equal(plan('--ipcpath', '/run/tn/node.ipc').transports.ipc.path, '/run/tn/node.ipc')
  })
})

describe('rules 7-8: HTTP and WS on the same address and port', () => {
  const shared = ['--http', '--ws', '--ws.port', '8545']
  it('one server when both selections are identical (as sets, after dropping unsupported names)', () => {
    for (const [h, w] of [
      [undefined, undefined],
      ['all', undefined],
      [undefined, 'ALL'],
      ['eth,net,web3,rpc,tn', 'all'],
      ['eth,tn', 'tn,eth'],
      ['eth,admin', 'eth'],
      ['none', 'none'],
    ] as const) {
      const argv = [...shared, ...(h ? ['--http.api', h] : []), ...(w ? ['--ws.api', w] : [])]
      const p = plan(...argv)
      assert.equal(p.ok, true, `${argv.join(' ')}: ${p.errors.join(' ')}`)
      assert.equal(p.workers[0]?.sharedServer, true)
    }
  })
  it('refuses to start when the selections differ', () => {
    const p = plan(...shared, '--http.api', 'eth,net', '--ws.api', 'eth,tn')
    assert.equal(p.ok, false)
    assert.match(
      p.errors[0] ?? '',
      /share 127\.0\.0\.1:8545.*must be identical.*--http\.api gives eth,net and --ws\.api gives eth,tn/,
    )
  })
  it('rule 8 / versioning 5: a list on only one of the two flags does not start (the other is the default set)', () => {
    for (const argv of [
      [...shared, '--http.api', 'eth,net,web3'],
      [...shared, '--ws.api', 'eth,net,web3'],
      [...shared, '--http.api', 'eth,net,web3,rpc,tn,debug'],
      [...shared, '--http.api', 'none'],
    ]) {
      const p = plan(...argv)
      assert.equal(p.ok, false, argv.join(' '))
      assert.ok(has(p.errors, 'the default set'), p.errors.join(' '))
      assert.ok(has(p.errors, 'Give both flags the same list or omit both'))
    }
  })
  it('--http.corsdomain must equal --ws.origins when both are set', () => {
    assert.equal(
      plan(...shared, '--http.corsdomain', 'https://a.example', '--ws.origins', 'https://b.example').ok,
      false,
    )
    assert.ok(
      has(
        plan(...shared, '--http.corsdomain', 'https://a', '--ws.origins', 'https://b').errors,
        '--http.corsdomain "https://a" differs from --ws.origins "https://b"',
      ),
    )
    assert.equal(plan(...shared, '--http.corsdomain', 'https://a', '--ws.origins', 'https://a').ok, true)
    assert.equal(plan(...shared, '--http.corsdomain', 'https://a').ok, true, 'only one set: no conflict')
    const p = plan(...shared, '--http.corsdomain', 'https://a,https://b')
    assert.deepEqual(p.httpCorsDomain, ['https://a', 'https://b'])
    assert.equal(p.wsOrigins, null)
  })
  it('different addresses or ports are separate servers: no rule 7', () => {
    assert.equal(plan('--http', '--ws', '--http.api', 'eth', '--ws.api', 'net').ok, true)
    const p = plan(
      '--http',
      '--ws',
      '--ws.port',
      '8545',
      '--ws.addr',
      '127.0.0.2',
      '--http.api',
      'eth',
      '--ws.api',
      'net',
    )
    assert.equal(p.ok, true)
    assert.equal(p.workers[0]?.sharedServer, false)
  })
  it('a wildcard and another address on the same port cannot both bind: refused', () => {
    const p = plan('--http', '--ws', '--ws.port', '8545', '--http.addr', '0.0.0.0')
    assert.equal(p.ok, false)
    assert.ok(has(p.errors, 'cannot bind'))
    assert.equal(
      plan('--http', '--ws', '--ws.port', '8545', '--http.addr', '0.0.0.0', '--ws.addr', '::1').ok,
      true,
      'IPv4 wildcard, IPv6 loopback',
    )
    assert.equal(
      plan('--http', '--ws', '--ws.port', '8545', '--http.addr', '::', '--ws.addr', '127.0.0.1').ok,
      false,
      ':: covers IPv4 too',
    )
  })
  it('a port shared with a transport that is off is no conflict', () => {
    const p = plan('--http', '--ws.port', '8545', '--http.api', 'eth')
    assert.equal(p.ok, true)
    assert.equal(p.workers[0]?.sharedServer, false)
  })
})

describe('rpc_modules: built once from the first transport serving rpc (HTTP, WS, IPC)', () => {
  it("WS and IPC return HTTP's list when HTTP serves rpc", () => {
    const p = plan('--http', '--http.api', 'eth,rpc', '--ws')
    assert.deepEqual(p.transports.http.rpcModules, modules('eth', 'rpc'))
    assert.deepEqual(p.transports.ws.rpcModules, modules('eth', 'rpc'))
    assert.deepEqual(p.transports.ipc.rpcModules, modules('eth', 'rpc'))
  })
  it("HTTP without rpc: -32601 there; WS's list everywhere else", () => {
    const p = plan('--http', '--http.api', 'eth', '--ws', '--ws.api', 'net,rpc,debug')
    assert.equal(p.transports.http.rpcModules, null)
    assert.deepEqual(p.transports.ws.rpcModules, modules('net', 'rpc', 'debug'))
    assert.deepEqual(p.transports.ipc.rpcModules, modules('net', 'rpc', 'debug'))
  })
  it('a transport that is off does not count', () => {
    const p = plan('--http.api', 'eth,rpc', '--ws', '--ws.api', 'rpc,tn')
    assert.equal(p.transports.http.rpcModules, null)
    assert.deepEqual(p.transports.ipc.rpcModules, modules('rpc', 'tn'))
  })
  it('only IPC serving rpc: the default list', () => {
    const p = plan('--http', '--http.api', 'none', '--ws', '--ws.api', 'eth')
    assert.deepEqual(p.transports.ipc.rpcModules, modules(...DEFAULT))
    assert.equal(p.transports.ws.rpcModules, null)
  })
  it('nothing serves rpc: null everywhere', () => {
    const p = plan('--http', '--http.api', 'eth', '--ipcdisable')
    assert.equal(p.transports.http.rpcModules, null)
    assert.equal(p.transports.ipc.rpcModules, null)
  })
  it('every version is "1.0"', () => {
    const p = plan('--http', '--http.api', 'eth,net,web3,rpc,tn,debug,trace')
    assert.deepEqual(Object.values(p.transports.ipc.rpcModules ?? {}), Array(7).fill('1.0'))
  })
})

describe('versioning notes', () => {
  it('1-2: tn is selected like the others; an explicit list must name tn', () => {
    for (const t of ['http', 'ws'] as const) {
      assert.ok(!served(t, 'eth').transports[t].namespaces.includes('tn'))
      assert.ok(served(t, 'eth,tn').transports[t].namespaces.includes('tn'))
    }
  })
  it('3: none serves nothing, not even tn', () => {
    for (const t of ['http', 'ws'] as const) assert.deepEqual(served(t, 'none').transports[t].namespaces, [])
  })
  it('4: the default and all include rpc (rpc_modules answers)', () => {
    for (const t of ['http', 'ws'] as const) {
      for (const v of [undefined, 'all']) {
        const p = served(t, v)
        assert.ok(p.transports[t].namespaces.includes('rpc'))
        assert.notEqual(p.transports[t].rpcModules, null)
      }
    }
  })
  it('5: a one-sided list on a shared port does not start', () => {
    assert.equal(plan('--http', '--ws', '--ws.port', '8545', '--ws.api', 'eth,tn').ok, false)
  })
})

describe('errors table', () => {
  it('a namespace not served answers -32601: rpc_modules is null where rpc is not served', () => {
    assert.equal(served('http', 'eth').transports.http.rpcModules, null)
  })
  it('unsupported name: dropped, warning, the node still starts', () => {
    const p = served('ws', 'admin')
    assert.equal(p.ok, true)
    assert.deepEqual(p.transports.ws.namespaces, [])
    assert.equal(p.warnings.length, 1)
  })
  it('debug or trace named: startup warning, namespace served', () => {
    const p = served('http', 'trace')
    assert.deepEqual(p.transports.http.namespaces, ['trace'])
    assert.equal(p.warnings.length, 1)
  })
  it('shared port with different selections or origins: the RPC server refuses to start', () => {
    assert.ok(has(plan('--http', '--ws', '--ws.port', '8545', '--ws.api', 'eth').errors, 'refuses to start'))
    assert.ok(
      has(
        plan('--http', '--ws', '--ws.port', '8545', '--http.corsdomain', 'a', '--ws.origins', 'b').errors,
        'refuses to start',
      ),
    )
  })
})

describe('malformed selection values (tnv: refused, see docs/decisions.md)', () => {
  for (const [value, fragment] of [
    ['', 'is empty'],
    [' ', 'is empty'],
    ['eth,,net', 'empty entry'],
    ['eth,', 'empty entry'],
    [',eth', 'empty entry'],
  ] as const) {
    it(`--http.api ${JSON.stringify(value)} is refused`, () => {
      const p = plan('--http', `--http.api=${value}`)
      assert.equal(p.ok, false)
      assert.ok(has(p.errors, fragment), p.errors.join(' '))
    })
  }
  it('a malformed value is refused even when the transport is off (the node parses every flag)', () => {
    assert.equal(plan('--ws.api', 'eth,,net').ok, false)
  })
})

describe('addresses and ports', () => {
  it('defaults: 127.0.0.1:8545 and 127.0.0.1:8546', () => {
    const p = plan('--http', '--ws')
    assert.equal(p.transports.http.address, '127.0.0.1')
    assert.equal(p.transports.http.port, 8545)
    assert.equal(p.transports.ws.address, '127.0.0.1')
    assert.equal(p.transports.ws.port, 8546)
  })
  it('IPv6 addresses are accepted and written canonically', () => {
    assert.equal(plan('--http', '--http.addr', '0:0::1').transports.http.address, '::1')
  })
  for (const [flag, value, fragment] of [
    ['--http.port', '0', 'random port'],
    ['--http.port', '65536', 'not a TCP port'],
    ['--ws.port', '-1', 'not a whole number'],
    ['--ws.port', '85a', 'not a whole number'],
    ['--http.port', '0x2161', 'not a whole number'],
    ['--http.addr', 'localhost', 'Write --http.addr 127.0.0.1'],
    ['--ws.addr', '[::1]', 'without brackets'],
    ['--ws.addr', 'node.example.org', 'not an IP address'],
    ['--http.addr', '256.1.1.1', 'not an IP address'],
  ] as const) {
    it(`${flag} ${value} is refused`, () => {
      const p = plan('--http', '--ws', flag, value)
      assert.equal(p.ok, false)
      assert.ok(has(p.errors, fragment), p.errors.join(' '))
    })
  }
  it('port 65535 and leading zeros are fine', () => {
    assert.equal(plan('--http', '--http.port', '65535').transports.http.port, 65535)
    assert.equal(plan('--http', '--http.port', '08545').transports.http.port, 8545)
  })
  it('IPC path: empty refused; longer than a Unix socket path can be refused', () => {
    assert.ok(has(plan('--ipcpath', '').errors, '--ipcpath is empty'))
    const long = `/tmp/${'x'.repeat(110)}.ipc`
    assert.ok(has(plan('--ipcpath', long).errors, 'at most 107 bytes'))
    assert.equal(plan('--ipcpath', long, '--ipcdisable').ok, true, 'not bound when IPC is off')
  })
})

describe('safety advice (spec: Authentication 3)', () => {
  it('debug or trace on a non-loopback address without --rpc.jwtsecret: advice to protect and separate', () => {
    for (const addr of ['0.0.0.0', '::', '192.0.2.10']) {
      const p = plan('--http', '--http.addr', addr, '--http.api', 'eth,debug')
      assert.equal(p.ok, true)
      assert.ok(
        has(p.advice, /serves debug on .*non-loopback address, without --rpc\.jwtsecret.*separate/),
        `${addr}: ${p.advice.join(' ')}`,
      )
    }
    const ws = plan('--ws', '--ws.addr', '0.0.0.0', '--ws.api', 'trace')
    assert.ok(has(ws.advice, 'WS serves trace'))
  })
  it('no such advice on loopback or with a JWT secret', () => {
    for (const argv of [
      ['--http', '--http.api', 'eth,debug'],
      ['--http', '--http.addr', '::1', '--http.api', 'debug'],
      ['--http', '--http.addr', '0.0.0.0', '--http.api', 'debug', '--rpc.jwtsecret', 'a'.repeat(64)],
    ]) {
      assert.ok(!has(plan(...argv).advice, 'non-loopback'), argv.join(' '))
    }
  })
  it('tracing limit above 4 with debug or trace served: advice for a shared host', () => {
    assert.ok(has(resolveRpcPlan(['--http', '--http.api', 'debug'], { cpus: 16 }).advice, '2 to 4 is advised'))
    assert.ok(!has(resolveRpcPlan(['--http'], { cpus: 16 }).advice, '2 to 4 is advised'))
    assert.ok(
      !has(
        resolveRpcPlan(['--http', '--http.api', 'debug', '--rpc.max-tracing-requests', '3'], { cpus: 16 }).advice,
        '2 to 4',
      ),
    )
  })
  it('0 = no limit on logs with eth on a public address: advice', () => {
    const p = plan('--http', '--http.addr', '0.0.0.0', '--rpc.max-blocks-per-filter', '0')
    assert.ok(has(p.advice, '--rpc.max-blocks-per-filter 0 removes the limit'))
  })
  it('--instance and --with-unused-ports: the plan says it does not apply them', () => {
    assert.ok(has(plan('--instance', '2').advice, '--instance'))
    assert.ok(has(plan('--with-unused-ports').advice, 'random free ports'))
  })
  it('a list without eth: the validator advice', () => {
    assert.ok(has(served('http', 'net,tn').advice, 'eth_sendRawTransaction'))
  })
})

describe('JWT secret (--rpc.jwtsecret)', () => {
  const hex = 'ab'.repeat(32)
  it('hex (with or without 0x): JWT required on HTTP and WS', () => {
    for (const v of [hex, `0x${hex}`, hex.toUpperCase()]) {
      const p = plan('--http', '--rpc.jwtsecret', v)
      assert.equal(p.ok, true)
      assert.deepEqual(p.jwt, { required: true, source: 'hex', path: null })
      assert.equal(p.jwtSecret, v)
    }
  })
  it('a path is refused: the node parses --rpc.jwtsecret as hex only (it reads no file)', () => {
    const p = plan('--rpc.jwtsecret', '/etc/tn/jwt.hex')
    assert.deepEqual(p.jwt, { required: true, source: 'file', path: '/etc/tn/jwt.hex' })
    assert.equal(p.ok, false)
    assert.ok(has(p.errors, 'does not read a file'), p.errors.join(' '))
    assert.ok(has(p.errors, 'tnv node start --jwt-secret-file /etc/tn/jwt.hex'), p.errors.join(' '))
  })
  it('not set: no JWT', () => {
    assert.deepEqual(plan().jwt, { required: false, source: null, path: null })
  })
  for (const [value, fragment] of [
    ['abc123', 'got 6 hex digits'],
    [`${hex}00`, 'got 66 hex digits'],
    ['', 'an empty value'],
    ['0x', 'an empty value'],
  ] as const) {
    it(`a bad hex secret (${value.length} chars) is refused and never echoed`, () => {
      const p = plan('--rpc.jwtsecret', value)
      assert.equal(p.ok, false)
      assert.ok(has(p.errors, fragment), p.errors.join(' '))
      if (value.length > 2) assert.ok(!p.errors.join(' ').includes(value))
    })
  }
  it('a duplicated secret is refused without echoing either value', () => {
    const p = plan('--rpc.jwtsecret', hex, '--rpc.jwtsecret', 'cd'.repeat(32))
    assert.equal(p.ok, false)
    assert.ok(!p.errors.join(' ').includes(hex))
    assert.ok(!p.errors.join(' ').includes('cd'.repeat(32)))
  })
})

describe('the plan object', () => {
  it('transports is worker 0, one workers entry per worker, JSON-serialisable', () => {
    const p = plan('--http', '--ws', '--workers', '2')
    assert.deepEqual(p.transports, { http: p.workers[0]?.http, ws: p.workers[0]?.ws, ipc: p.workers[0]?.ipc })
    assert.equal(p.workers.length, 2)
    assert.deepEqual(JSON.parse(JSON.stringify(p)), p)
  })
  it('passes the other node flags through untouched, in order', () => {
    const p = plan(
      'node',
      '--datadir',
      '/d',
      '--http',
      '-vvv',
      '--metrics=127.0.0.1:9101',
      '--http.api',
      'eth',
      '--',
      '--http',
    )
    assert.deepEqual(p.passthrough, ['node', '--datadir', '/d', '-vvv', '--metrics=127.0.0.1:9101', '--', '--http'])
    assert.deepEqual(p.transports.http.namespaces, ['eth'])
  })
  it('reports every problem at once', () => {
    const p = plan('--http.port', '0', '--ws.port', 'x', '--workers', '9', '--rpc.gascap', '0')
    assert.equal(p.errors.length, 4)
  })
})
