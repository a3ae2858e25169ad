/**
 * The two namespace behaviours, row by row of the comparison table in real-network/node.md §4
 * ("Spec rule" vs "Real node today"), through the resolver (`rpc plan`'s library) and through
 * `rpc check` against the test server serving each behaviour: which behaviour a live node shows
 * (tn_* answering under --http.api none, rpc_modules missing on default HTTP, IPC serving admin
 * and txpool) and how it is judged.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { RpcPlanResult } from '../../src/commands/rpc/plan.js'
import { resolveRpcPlans } from '../../src/lib/rpc/behaviours.js'
import { checkRpcEndpoints } from '../../src/lib/rpc/check.js'
import { resolveRpcPlan } from '../../src/lib/rpc/resolve.js'
import type { RpcBehaviour, RpcCheckReport, RpcPlan } from '../../src/lib/rpc/types.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { startTestRpcServer } from './helpers/server.js'

const plan = (behaviour: RpcBehaviour, ...argv: string[]): RpcPlan => resolveRpcPlan(argv, { cpus: 4, behaviour })
const both = (...argv: string[]) => ({ released: plan('released', ...argv), spec: plan('spec', ...argv) })
const http = (p: RpcPlan) => p.transports.http.namespaces.join(' ')
const has = (items: string[], fragment: string) => items.some((i) => i.includes(fragment))
const ALL_RETH = ['admin', 'txpool', 'reth', 'ots', 'flashbots', 'miner', 'mev', 'testing']

describe('node.md §4, row by row: the specification vs the released node', () => {
  it('default (no --http.api): spec eth net web3 rpc tn; released eth net web3 + tn, no rpc (rpc_modules -32601)', () => {
    const { released, spec } = both('--http')
    assert.equal(http(spec), 'eth net web3 rpc tn')
    assert.equal(http(released), 'eth net web3 tn')
    assert.equal(released.transports.http.rpcModules, null)
    assert.deepEqual(Object.keys(spec.transports.http.rpcModules ?? {}), ['eth', 'net', 'web3', 'rpc', 'tn'])
  })

  it('all: spec the default set; released adds debug and trace', () => {
    for (const all of ['all', 'ALL', 'All']) {
      const { released, spec } = both('--http', '--http.api', all)
      assert.equal(http(spec), 'eth net web3 rpc tn')
      assert.equal(http(released), 'eth net web3 rpc tn debug trace')
    }
  })

  it('none: spec nothing; released tn only', () => {
    const { released, spec } = both('--http', '--http.api', 'none')
    assert.equal(http(spec), '')
    assert.equal(http(released), 'tn')
    // the released node reads an empty value as none (the spec leaves it undefined: tnv refuses it there)
    const empty = both('--http', '--http.api', '')
    assert.equal(http(empty.released), 'tn')
    assert.equal(empty.released.ok, true)
    assert.equal(empty.spec.ok, false)
  })

  it('rule 1, a list is exact: spec no tn unless named; released tn always, writing tn is dropped silently', () => {
    const noTn = both('--http', '--http.api', 'eth,net,web3')
    assert.equal(http(noTn.spec), 'eth net web3')
    assert.equal(http(noTn.released), 'eth net web3 tn')
    const withTn = both('--http', '--http.api', 'eth,tn')
    assert.equal(http(withTn.released), 'eth tn')
    assert.deepEqual(withTn.released.warnings, [])
    assert.ok(!has(withTn.released.advice, '"tn"'))
  })

  it('rule 2, debug/trace: spec only when named, with a warning; released when named or with all, no warning', () => {
    const named = both('--http', '--http.api', 'eth,debug,trace')
    assert.equal(http(named.spec), 'eth debug trace')
    assert.equal(http(named.released), 'eth tn debug trace')
    assert.ok(has(named.spec.warnings, 'HTTP serves debug'))
    assert.deepEqual(named.released.warnings, [])
    assert.ok(has(named.released.advice, 'logs no warning'))
  })

  it('rule 3, names are case-sensitive, all/none in any case: the same on both', () => {
    const { released, spec } = both('--http', '--http.api', 'Eth,TN,net')
    assert.equal(http(spec), 'net')
    assert.equal(http(released), 'net tn')
    assert.equal(http(plan('released', '--http', '--http.api', 'NONE')), 'tn')
  })

  it('rule 4, unsupported names: spec warns for each; released warns only for admin and txpool (its own words)', () => {
    const { released, spec } = both('--http', '--http.api', 'eth,admin,txpool,ots,reth,TN,typo')
    assert.equal(spec.warnings.length, 6)
    assert.deepEqual(released.warnings, [
      'HTTP: Attempted to configure unsupported admin RPC module! (--http.api; it is dropped)',
      'HTTP: Attempted to configure unsupported txpool RPC module! (--http.api; it is dropped)',
    ])
    for (const silent of ['ots', 'reth', 'TN', 'typo'])
      assert.ok(has(released.advice, `"${silent}" is dropped silently by the released node`), silent)
  })

  it('rule 5, a first all/none wins: the same on both', () => {
    const { released, spec } = both('--http', '--http.api', 'none,eth')
    assert.equal(http(spec), '')
    assert.equal(http(released), 'tn')
    assert.equal(http(plan('released', '--http', '--http.api', 'all,admin')), 'eth net web3 rpc tn debug trace')
  })

  it('rule 6, HTTP and WS separate: the same on both', () => {
    for (const p of Object.values(both('--http', '--http.api', 'eth', '--ws', '--ws.port', '9', '--ws.api', 'net'))) {
      assert.ok(!p.transports.http.namespaces.includes('net'))
      assert.ok(p.transports.ws.namespaces.includes('net'))
    }
  })

  it('rule 7, a shared address and port: identical selections and equal CORS on both', () => {
    const shared = ['--http', '--ws', '--ws.port', '8545']
    for (const p of Object.values(both(...shared, '--http.api', 'eth', '--ws.api', 'net'))) assert.equal(p.ok, false)
    for (const p of Object.values(both(...shared, '--http.corsdomain', 'a', '--ws.origins', 'b')))
      assert.equal(p.ok, false)
    for (const p of Object.values(both(...shared, '--http.api', 'eth,admin', '--ws.api', 'eth')))
      assert.equal(p.ok, true)
  })

  it('rule 8, a missing flag on a shared port: spec the default set (refuses); released eth,net,web3 (starts)', () => {
    const { released, spec } = both('--http', '--ws', '--ws.port', '8545', '--http.api', 'eth,net,web3')
    assert.equal(spec.ok, false)
    assert.equal(released.ok, true)
  })

  it('IPC: spec the default set; released every reth module (admin, txpool, debug, trace …) + tn', () => {
    const { released, spec } = both()
    assert.deepEqual(spec.transports.ipc.namespaces, ['eth', 'net', 'web3', 'rpc', 'tn'])
    assert.deepEqual(spec.transports.ipc.otherModules, [])
    assert.deepEqual(released.transports.ipc.namespaces, ['eth', 'net', 'web3', 'rpc', 'tn', 'debug', 'trace'])
    assert.deepEqual(released.transports.ipc.otherModules, ALL_RETH)
  })

  it('rpc_modules: built once, HTTP → WS → IPC, on both; the released list never holds tn; versions 1.0', () => {
    const { released, spec } = both('--http', '--http.api', 'eth,rpc,tn', '--ws', '--ws.api', 'net,rpc')
    for (const t of ['http', 'ws', 'ipc'] as const) {
      assert.deepEqual(spec.transports[t].rpcModules, { eth: '1.0', rpc: '1.0', tn: '1.0' }, t)
      assert.deepEqual(released.transports[t].rpcModules, { eth: '1.0', rpc: '1.0' }, t)
    }
    // HTTP without rpc: the released node's list comes from IPC (every module, no tn)
    const ipcSource = plan('released', '--http')
    assert.deepEqual(Object.keys(ipcSource.transports.ipc.rpcModules ?? {}), [
      'eth',
      'net',
      'web3',
      'rpc',
      'debug',
      'trace',
      ...ALL_RETH,
    ])
    assert.ok(Object.values(ipcSource.transports.ipc.rpcModules ?? {}).every((v) => v === '1.0'))
  })

  it('--workers and per-worker RPC exist only in the specification; the released node refuses the flag', () => {
    const { released, spec } = both('--http', '--workers', '2')
    assert.equal(spec.workers.length, 2)
    assert.equal(released.workers.length, 1)
    assert.equal(released.ok, false)
    assert.ok(has(released.errors, "unexpected argument '--workers'"))
  })

  it('the differences and the list that means the same on both', () => {
    const plans = resolveRpcPlans(['--http', '--http.api', 'all'], { cpus: 4 })
    assert.deepEqual(plans.equivalents, [
      { flag: '--http.api', releasedMeaning: 'eth,net,web3,rpc,tn,debug,trace', specMeaning: 'eth,net,web3,rpc,tn' },
    ])
    // each equivalent list means the same on both releases
    for (const list of ['eth,net,web3,rpc,tn,debug,trace', 'eth,net,web3,rpc,tn', 'eth,net,web3,tn']) {
      const { released, spec } = both('--http', '--http.api', list)
      assert.equal(http(released), http(spec), list)
      assert.deepEqual(resolveRpcPlans(['--http', '--http.api', list]).equivalents, [])
    }
    assert.deepEqual(
      resolveRpcPlans(['--http', '--http.api', 'none']).equivalents[0]?.specMeaning,
      null,
      'nothing on HTTP cannot be had on the released node',
    )
  })
})

describe('rpc check tells the behaviour of a live node and judges under it', () => {
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({ dir, cleanup } = tempDir('tnv-behaviour-'))
  })
  after(() => cleanup())

  let n = 0
  const flagsWith = async (extra: string[]) => {
    const port = await freePort()
    const ipc = join(dir, `b${++n}.ipc`)
    return {
      flags: ['--http', '--http.port', String(port), '--ipcpath', ipc, ...extra],
      http: `http://127.0.0.1:${port}`,
      ipc,
    }
  }
  const withServer = async <T>(flags: string[], behaviour: RpcBehaviour, fn: () => Promise<T>) => {
    const server = await startTestRpcServer(flags, { behaviour })
    try {
      return await fn()
    } finally {
      await server.close()
    }
  }

  it('tn_* answering under --http.api none: the released node (from the expected flags), no mismatch', async () => {
    const node = await flagsWith(['--http.api', 'none'])
    await withServer(node.flags, 'released', async () => {
      const r = await runCli(['rpc', 'check', '--http', node.http, '--json', '--expect', '--', ...node.flags])
      assert.equal(r.code, 0, r.stdout)
      const report = parseJson<RpcCheckReport>(r)
      assert.deepEqual(report.transports.http?.served, ['tn'])
      assert.equal(report.behaviour.detected, 'released')
      assert.match(
        report.behaviour.evidence.join(),
        /match the released node's plan of the expected flags, not the specification's: HTTP serves tn/,
      )
      // judged by the spec's rules instead, the same answers are a mismatch
      const spec = await checkRpcEndpoints({ http: node.http, expect: resolveRpcPlan(node.flags) })
      assert.match(
        spec.mismatches.join(),
        /tn is served \(tn_getCurrentEpoch answered\), but the expected flags do not serve it there/,
      )
    })
  })

  it('default HTTP without rpc_modules and IPC serving admin and txpool: the released node, from the answers alone', async () => {
    const node = await flagsWith([])
    await withServer(node.flags, 'released', async () => {
      const report = await checkRpcEndpoints({ http: node.http, ipc: node.ipc })
      assert.equal(report.behaviour.detected, 'released')
      assert.ok(
        has(report.behaviour.evidence, 'IPC answers debug, trace, admin, txpool'),
        report.behaviour.evidence.join(),
      )
      assert.ok(has(report.behaviour.evidence, 'rpc_modules lists admin, txpool'))
      assert.equal(report.transports.http?.rpcModules, null, 'rpc_modules -32601 on default HTTP')
      assert.deepEqual(report.transports.http?.served, ['eth', 'net', 'web3', 'tn'])
      assert.equal(report.ok, true, report.mismatches.join('\n'))
      assert.ok(has(report.notes, 'answers admin_nodeInfo and txpool_status'))
      const human = await runCli(['rpc', 'check', '--http', node.http, '--ipc', node.ipc])
      assert.equal(human.code, 0, human.stdout)
      assert.match(human.stdout, /^Namespace behaviour: the released node's \(v0\.14\.0-adiri and main\)\.$/m)
      assert.match(human.stdout, /OK: the node serves what the released node's rules say\.\n$/)
    })
  })

  it("a node following the specification is told apart (rpc_modules lists tn) and judged by the spec's rules", async () => {
    const node = await flagsWith([])
    await withServer(node.flags, 'spec', async () => {
      const r = await runCli([
        'rpc',
        'check',
        '--http',
        node.http,
        '--ipc',
        node.ipc,
        '--json',
        '--expect',
        '--',
        ...node.flags,
      ])
      assert.equal(r.code, 0, r.stdout)
      const report = parseJson<RpcCheckReport>(r)
      assert.equal(report.behaviour.detected, 'spec')
      assert.equal(report.behaviour.judgedAs, 'spec')
    })
  })

  it('flags that mean the same on both: undetermined, judged by --behaviour (default the released node)', async () => {
    const node = await flagsWith(['--http.api', 'eth,net,web3,tn', '--ipcdisable'])
    await withServer(node.flags, 'released', async () => {
      const r = parseJson<RpcCheckReport>(
        await runCli(['rpc', 'check', '--http', node.http, '--json', '--expect', '--', ...node.flags]),
      )
      assert.equal(r.behaviour.detected, 'undetermined')
      assert.match(r.behaviour.evidence.join(), /both releases give the same answers/)
      assert.equal(r.behaviour.judgedAs, 'released')
      assert.equal(r.ok, true)
      const spec = parseJson<RpcCheckReport>(
        await runCli([
          'rpc',
          'check',
          '--http',
          node.http,
          '--behaviour',
          'spec',
          '--json',
          '--expect',
          '--',
          ...node.flags,
        ]),
      )
      assert.equal(spec.behaviour.judgedAs, 'spec')
      assert.equal(spec.ok, true)
    })
  })

  it('exposure under the released node: --http.api all serves debug and trace; on a non-loopback plan address it is reported', async () => {
    const { evaluateCheck } = await import('../../src/lib/rpc/evaluate-check.js')
    const node = await flagsWith(['--http.api', 'all'])
    await withServer(node.flags, 'released', async () => {
      const report = await checkRpcEndpoints({ http: node.http })
      assert.deepEqual(report.transports.http?.served, ['eth', 'net', 'web3', 'rpc', 'tn', 'debug', 'trace'])
      // the same answers, from a node whose plan listens on every interface
      const exposed = resolveRpcPlans([
        '--http',
        '--http.addr',
        '0.0.0.0',
        '--http.port',
        node.http.split(':')[2] as string,
        '--http.api',
        'all',
      ])
      const judged = evaluateCheck(report.transports, { expect: exposed, jwtSecretKnown: false })
      assert.equal(judged.behaviour.judgedAs, 'released')
      assert.match(judged.exposures.join(), /debug_getRawTransaction and trace_transaction without authentication/)
    })
  })

  it('rpc plan --json carries both plans', async () => {
    const r = parseJson<RpcPlanResult>(await runCli(['rpc', 'plan', '--json', '--', '--http', '--http.api', 'none']))
    assert.deepEqual(r.transports.http.namespaces, [])
    assert.deepEqual(r.released.transports.http.namespaces, ['tn'])
    assert.deepEqual(r.differences[0], { topic: 'HTTP namespaces', released: 'tn', spec: '(nothing)' })
  })
})
