/**
 * The judging of `tnv node check` in every health state, without a node: evaluate() is pure, so
 * each state is one input. The end-to-end file (node-check.test.ts) produces the same states
 * with the reference node. Also: the Prometheus file parsed back by an independent parser, and
 * the host's UDP ports read from this host's own /proc with a socket this test binds.
 */
import assert from 'node:assert/strict'
import { createSocket } from 'node:dgram'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { DEFAULT_THRESHOLDS, type EvaluateParameters, evaluate } from '../../src/lib/health/evaluate.js'
import { formatPrometheus, nodeCheckMetrics, writePrometheusFile } from '../../src/lib/health/prometheus.js'
import { readHost } from '../../src/lib/health/read-host.js'
import { authorityIdOf } from '../../src/lib/health/read-validator-health.js'
import type { EndpointSnapshot, NodeCheckReport, ValidatorFacts } from '../../src/lib/health/types.js'
import type { NodeInfo } from '../../src/lib/nodeinfo/types.js'

const now = Math.floor(Date.now() / 1000)
const key = new Uint8Array(96).fill(7)
const keyHex = `0x${'07'.repeat(96)}`
const authority = authorityIdOf(key)
const address = '0x2222222222222222222222222222222222222222'

const nodeInfo: NodeInfo = {
  name: 'node-test',
  blsPublicKey: key,
  proofOfPossession: new Uint8Array(48),
  executionAddress: address,
  primary: { networkAddress: '/ip4/127.0.0.1/udp/49590/quic-v1', networkKey: 'primary-key' },
  workers: [{ networkAddress: '/ip4/127.0.0.1/udp/49594/quic-v1', networkKey: 'worker-key' }],
}

function endpoint(over: Partial<EndpointSnapshot> = {}): EndpointSnapshot {
  return {
    endpoint: 'http://127.0.0.1:1',
    reachable: true,
    error: null,
    chainId: 2017,
    blockNumber: '1000',
    blockTime: now,
    nodeMode: 'CvvActive',
    consensus: {
      method: 'tn_latestConsensusHeader',
      number: '500',
      commitTimestamp: now - 1,
      ageSeconds: 1,
      scores: { [authority]: 3 },
      leader: authority,
    },
    info: {
      chainId: 2017,
      version: 'v0.14.0-adiri',
      name: 'node-test',
      blsPublicKey: keyHex,
      authorityId: authority,
      executionAddress: address,
      primaryNetworkKey: `0x${'01'.repeat(36)}`,
      primaryNetworkKeyBase58: 'primary-key',
      workerNetworkKey: `0x${'02'.repeat(36)}`,
      workerNetworkKeyBase58: 'worker-key',
    },
    unusable: [],
    ...over,
  }
}

const validator: ValidatorFacts = {
  address,
  whitelisted: true,
  status: 'Active',
  activationEpoch: 3,
  exitEpoch: null,
  currentEpoch: 9,
  inCommittee: true,
  inNextCommittee: true,
  rewards: '0',
  blsPubkey: keyHex,
  authorityId: authority,
  reputationScore: 3,
  secondsToNextEpoch: 100,
  registry: { generation: 'adiri', codeHash: '0x00' },
}

function healthy(over: Partial<EvaluateParameters> = {}): EvaluateParameters {
  return {
    datadir: '/srv/tn',
    nodeInfo,
    nodeInfoProblem: null,
    localEndpoint: 'http://127.0.0.1:8545',
    local: endpoint(),
    localAgain: null,
    networkAgain: null,
    network: endpoint({ endpoint: 'https://rpc.example', nodeMode: null, info: null }),
    networkProblem: null,
    expectedChainId: 2017,
    idleNetwork: false,
    validator,
    validatorProblem: null,
    host: {
      diskFreeBytes: 500 * 2 ** 30,
      diskTotalBytes: 1000 * 2 ** 30,
      udpPorts: [
        { address: '/ip4/127.0.0.1/udp/49590/quic-v1', port: 49590, bound: true, byNode: true },
        { address: '/ip4/127.0.0.1/udp/49594/quic-v1', port: 49594, bound: true, byNode: true },
      ],
      process: null,
      restarts: {
        logFile: '/srv/tn/tnv-node-runs.json',
        starts1h: 0,
        starts24h: 1,
        unclean1h: 0,
        unclean24h: 0,
        totalStarts: 1,
        totalUnclean: 0,
        lastUnclean: null,
      },
    },
    exposure: null,
    exposureProblem: null,
    thresholds: DEFAULT_THRESHOLDS,
    ...over,
  }
}

const level = (r: ReturnType<typeof evaluate>, id: string) => r.findings.find((f) => f.id === id)?.level

describe('node check: every health state judged', () => {
  it('in step, in the committee, voting, authoring: everything ok, exit 0', () => {
    const r = evaluate(healthy())
    assert.deepEqual(
      r.findings.filter((f) => f.level !== 'ok').map((f) => f.id),
      [],
    )
    assert.equal(r.exitCode, 0)
    assert.equal(r.level, 'ok')
    assert.match(r.next, /Healthy/)
  })

  it('lagging but catching up: warn, exit 1, with the move it made', () => {
    const r = evaluate(healthy({ local: endpoint({ blockNumber: '900', blockTime: now - 100 }), localAgain: '905' }))
    assert.equal(level(r, 'node.sync'), 'warn')
    assert.match(
      r.findings.find((f) => f.id === 'node.sync')?.message ?? '',
      /lagging 100 blocks \(100 s\).*catching up \(block 900 → 905\)/,
    )
    assert.equal(r.exitCode, 1)
  })

  it('stalled (behind and not moving): fail, exit 2, and the next step is its fix', () => {
    const r = evaluate(healthy({ local: endpoint({ blockNumber: '900' }), localAgain: '900', networkAgain: '1002' }))
    assert.equal(level(r, 'node.sync'), 'fail')
    assert.match(
      r.findings.find((f) => f.id === 'node.sync')?.message ?? '',
      /stalled: block 900, 100 blocks .* moved to 1002/,
    )
    assert.equal(r.exitCode, 2)
    assert.match(r.next, /Read the node log/)
  })

  it('within the tolerance is in step; the network endpoint behind the node is only a warning about the endpoint', () => {
    assert.equal(level(evaluate(healthy({ local: endpoint({ blockNumber: '998' }) })), 'node.sync'), 'ok')
    const ahead = evaluate(healthy({ local: endpoint({ blockNumber: '1010' }) }))
    assert.equal(level(ahead, 'node.sync'), 'warn')
    assert.match(
      ahead.findings.find((f) => f.id === 'node.sync')?.message ?? '',
      /network endpoint is 10 blocks behind/,
    )
  })

  it('unreachable local node: fail, never a crash; unreachable network: a warning and no comparison', () => {
    const down = evaluate(healthy({ local: { ...endpoint(), reachable: false, error: 'ECONNREFUSED' } }))
    assert.equal(level(down, 'node.rpc'), 'fail')
    assert.match(down.findings.find((f) => f.id === 'node.rpc')?.message ?? '', /does not answer: ECONNREFUSED/)
    assert.equal(down.exitCode, 2)
    const noNet = evaluate(healthy({ network: { ...endpoint(), reachable: false, error: 'rate limited (HTTP 429)' } }))
    assert.equal(level(noNet, 'network.rpc'), 'warn')
    assert.equal(level(noNet, 'node.sync'), 'skip')
    assert.equal(noNet.exitCode, 1)
    const nothing = evaluate(healthy({ localEndpoint: null, local: null }))
    assert.match(
      nothing.findings.find((f) => f.id === 'node.rpc')?.fix ?? '',
      /tnv node start --detach --datadir \/srv\/tn/,
    )
  })

  it('wrong chain: the node on another chain id fails; an endpoint of another network fails too', () => {
    const r = evaluate(healthy({ local: endpoint({ chainId: 911329 }) }))
    assert.equal(level(r, 'node.chain'), 'fail')
    assert.match(r.findings.find((f) => f.id === 'node.chain')?.message ?? '', /chain id 911329, the network is 2017/)
    const net = evaluate(healthy({ network: endpoint({ chainId: 487 }) }))
    assert.equal(level(net, 'network.chain'), 'fail')
  })

  it('stale consensus: fail when the network commits, ok when the network is idle too; header 0 warns', () => {
    const stale = endpoint({
      consensus: { ...(endpoint().consensus as NonNullable<EndpointSnapshot['consensus']>), ageSeconds: 300 },
    })
    assert.equal(level(evaluate(healthy({ local: stale })), 'node.consensus'), 'fail')
    assert.equal(level(evaluate(healthy({ local: stale, idleNetwork: true })), 'node.consensus'), 'ok')
    const zero = endpoint({
      consensus: { ...(endpoint().consensus as NonNullable<EndpointSnapshot['consensus']>), number: '0' },
    })
    assert.equal(level(evaluate(healthy({ local: zero })), 'node.consensus'), 'warn')
  })

  it('not in the committee: Active without a seat now or next is the draw (ok, exit 0); a seat with an Observer node fails; CvvInactive warns', () => {
    const out = evaluate(
      healthy({
        validator: { ...validator, inCommittee: false, inNextCommittee: false },
        local: endpoint({ nodeMode: 'Observer' }),
      }),
    )
    assert.equal(level(out, 'validator.committee'), 'ok')
    assert.match(out.findings.find((f) => f.id === 'validator.committee')?.message ?? '', /not drawn this epoch/)
    assert.equal(level(out, 'node.mode'), 'ok')
    assert.equal(out.exitCode, 0)
    const observer = evaluate(healthy({ local: endpoint({ nodeMode: 'Observer' }) }))
    assert.equal(level(observer, 'node.mode'), 'fail')
    assert.match(observer.findings.find((f) => f.id === 'node.mode')?.fix ?? '', /validator’s keys/)
    assert.equal(level(evaluate(healthy({ local: endpoint({ nodeMode: 'CvvInactive' }) })), 'node.mode'), 'warn')
  })

  it('reputation 0: ok early in the epoch (fewer leader turns than two per member), warn after; not whitelisted warns', () => {
    const withScores = (scores: Record<string, number>) =>
      endpoint({
        consensus: { ...(endpoint().consensus as NonNullable<EndpointSnapshot['consensus']>), scores },
      })
    // the epoch's first commits: nobody (or only the first leaders) has led yet
    const early = evaluate(healthy({ local: withScores({ [authority]: 0, b: 1, c: 1, d: 0 }) }))
    assert.equal(level(early, 'validator.authoring'), 'ok')
    assert.match(early.findings.find((f) => f.id === 'validator.authoring')?.message ?? '', /early in the epoch/)
    assert.equal(early.exitCode, 0)
    assert.equal(level(evaluate(healthy({ local: withScores({ [authority]: 0 }) })), 'validator.authoring'), 'ok')
    // every other member led twice and this one never did: not authoring
    const quiet = evaluate(healthy({ local: withScores({ [authority]: 0, b: 3, c: 3, d: 2 }) }))
    assert.equal(level(quiet, 'validator.authoring'), 'warn')
    assert.equal(quiet.worst, 'validator.authoring')
    const nft = evaluate(
      healthy({
        validator: {
          ...validator,
          whitelisted: false,
          status: 'Undefined',
          inCommittee: false,
          inNextCommittee: false,
        },
      }),
    )
    assert.equal(level(nft, 'validator.status'), 'warn')
    assert.match(nft.next, /whitelist/)
  })

  it('a retired, paid-out validator: informational, exit 0 even with no node running', () => {
    const r = evaluate(
      healthy({
        validator: { ...validator, status: 'Retired', inCommittee: false, inNextCommittee: false, exitEpoch: 7 },
        localEndpoint: null,
        local: null,
        host: { ...healthy().host, udpPorts: [{ address: 'x', port: 49590, bound: false, byNode: false }] },
      }),
    )
    assert.equal(level(r, 'validator.status'), 'ok')
    assert.match(r.findings.find((f) => f.id === 'validator.status')?.message ?? '', /Retired.*informational/)
    assert.equal(level(r, 'node.rpc'), 'ok')
    assert.match(r.findings.find((f) => f.id === 'node.rpc')?.message ?? '', /the validator is retired/)
    assert.equal(level(r, 'host.p2p'), 'ok')
    assert.equal(r.exitCode, 0)
    assert.equal(r.worst, null)
    assert.match(r.next, /retired/)
  })

  it('PendingExit is ok (the protocol completes it); Exited warns with the unstake step', () => {
    const pending = evaluate(healthy({ validator: { ...validator, status: 'PendingExit', exitEpoch: 12 } }))
    assert.equal(level(pending, 'validator.status'), 'ok')
    const exited = evaluate(
      healthy({ validator: { ...validator, status: 'Exited', inCommittee: false, inNextCommittee: false } }),
    )
    assert.equal(level(exited, 'validator.status'), 'warn')
    assert.equal(exited.next, 'Unstake: tnv unstake.')
  })

  it('the summary names the worst finding: the first at the worst level', () => {
    const r = evaluate(
      healthy({ local: endpoint({ nodeMode: 'Observer' }), host: { ...healthy().host, diskFreeBytes: 20 * 2 ** 30 } }),
    )
    assert.equal(r.level, 'fail')
    assert.equal(r.worst, 'node.mode')
  })

  it('the node runs other keys than node-info.yaml: fail naming the fields', () => {
    const other = endpoint({
      info: {
        ...(endpoint().info as NonNullable<EndpointSnapshot['info']>),
        blsPublicKey: `0x${'08'.repeat(96)}`,
        authorityId: 'x',
      },
    })
    const r = evaluate(healthy({ local: other }))
    assert.equal(level(r, 'node.identity'), 'fail')
    assert.match(r.findings.find((f) => f.id === 'node.identity')?.message ?? '', /bls_public_key, authority id differ/)
  })

  it('host: low disk warns, very low fails; an unbound p2p port fails; the registry unreadable fails with its fix', () => {
    const host = healthy().host
    assert.equal(level(evaluate(healthy({ host: { ...host, diskFreeBytes: 20 * 2 ** 30 } })), 'host.disk'), 'warn')
    assert.equal(level(evaluate(healthy({ host: { ...host, diskFreeBytes: 2 ** 30 } })), 'host.disk'), 'fail')
    const unbound = evaluate(
      healthy({ host: { ...host, udpPorts: [{ address: 'x', port: 49590, bound: false, byNode: false }] } }),
    )
    assert.equal(level(unbound, 'host.p2p'), 'fail')
    const reg = evaluate(
      healthy({ validator: null, validatorProblem: { message: 'unknown registry code', fix: 'Check --rpc-url.' } }),
    )
    assert.equal(level(reg, 'validator.registry'), 'fail')
    assert.equal(reg.next, 'Check --rpc-url.')
  })
})

describe('node check: Prometheus textfile', () => {
  const report = (): NodeCheckReport => {
    const e = evaluate(healthy({ local: endpoint({ blockNumber: '900' }), localAgain: '905' }))
    return {
      level: e.level,
      worst: e.worst,
      exitCode: e.exitCode,
      checkedAt: new Date(now * 1000).toISOString(),
      targets: {
        node: 'http://127.0.0.1:8545',
        network: 'https://rpc.example',
        validator: address,
        datadir: '/srv/tn',
      },
      findings: e.findings,
      next: e.next,
      figures: {
        local: endpoint({ blockNumber: '900', nodeMode: 'Cvv"Active\\' }),
        network: endpoint(),
        lagBlocks: 100,
        lagSeconds: 0,
        advancing: true,
        validator: { ...validator, rewards: '1500000000000000000' },
        host: healthy().host,
      },
      roundTrips: { local: 2, network: 2, registry: 3, total: 7, exposureProbes: 10 },
      wallMs: 2100,
    }
  }

  it('parses back with an independent parser: every figure, labels escaped, nothing unknown written as 0', () => {
    const text = formatPrometheus(nodeCheckMetrics(report()))
    const families = parsePrometheusTextFormat(text) as {
      name: string
      type: string
      help: string
      metrics: { value: string; labels?: Record<string, string> }[]
    }[]
    const by = (name: string) => families.find((f) => f.name === name)
    // gauges, but for the run log's two counters
    assert.deepEqual(
      families.filter((f) => f.type !== 'GAUGE').map((f) => [f.name, f.type]),
      [
        ['tnv_node_starts_total', 'COUNTER'],
        ['tnv_node_unclean_exits_total', 'COUNTER'],
      ],
    )
    assert.equal(by('tnv_node_check_status')?.metrics[0]?.value, '1')
    assert.equal(by('tnv_node_lag_blocks')?.metrics[0]?.value, '100')
    assert.equal(by('tnv_node_block_number')?.metrics[0]?.value, '900')
    assert.equal(by('tnv_validator_rewards_tel')?.metrics[0]?.value, '1.5')
    assert.equal(by('tnv_node_check_round_trips')?.metrics[0]?.value, '7')
    assert.deepEqual(by('tnv_node_mode')?.metrics[0]?.labels, { mode: 'Cvv"Active\\' })
    const sync = by('tnv_node_check_finding')?.metrics.find((m) => m.labels?.id === 'node.sync')
    assert.deepEqual([sync?.value, sync?.labels?.area], ['1', 'node'])
    const r = report()
    r.figures.local = null
    r.figures.lagBlocks = null
    const sparse = parsePrometheusTextFormat(formatPrometheus(nodeCheckMetrics(r))) as {
      name: string
      metrics: { value: string }[]
    }[]
    assert.equal(
      sparse.find((f) => f.name === 'tnv_node_lag_blocks'),
      undefined,
      'unknown lag is left out',
    )
    assert.equal(sparse.find((f) => f.name === 'tnv_node_up')?.metrics[0]?.value, '0')
  })

  it('is written atomically: mode 0644, no temporary file left, the collector pattern (*.prom) never sees one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tnv-prom-'))
    try {
      const file = join(dir, 'tnv.prom')
      await writePrometheusFile(file, report())
      await writePrometheusFile(file, report())
      assert.equal(statSync(file).mode & 0o777, 0o644)
      const { readdirSync } = await import('node:fs')
      assert.deepEqual(readdirSync(dir), ['tnv.prom'])
      assert.ok(parsePrometheusTextFormat(readFileSync(file, 'utf8')).length > 10)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('node check: the host', () => {
  it('reads the p2p UDP ports from /proc: bound by the process that holds them, unbound otherwise', async (t) => {
    const { existsSync } = await import('node:fs')
    if (!existsSync('/proc/net/udp')) return t.skip('no /proc on this host')
    const socket = createSocket('udp4')
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
    const port = socket.address().port
    const other = createSocket('udp4')
    await new Promise<void>((resolve) => other.bind(0, '127.0.0.1', resolve))
    const freePort = other.address().port
    await new Promise<void>((resolve) => other.close(() => resolve()))
    try {
      const info: NodeInfo = {
        ...nodeInfo,
        primary: { networkAddress: `/ip4/127.0.0.1/udp/${port}/quic-v1`, networkKey: 'p' },
        workers: [{ networkAddress: `/ip4/127.0.0.1/udp/${freePort}/quic-v1`, networkKey: 'w' }],
      }
      const state = {
        pid: process.pid,
        binary: process.execPath,
        args: [],
        datadir: tmpdir(),
        logFile: null,
        rpc: { http: null, ws: null, ipc: null },
        workerEndpoints: [],
        startedAt: new Date(Date.now() - 5000).toISOString(),
      }
      const host = await readHost({ datadir: tmpdir(), nodeInfo: info, state })
      assert.deepEqual(
        host.udpPorts.map((u) => [u.port, u.bound, u.byNode]),
        [
          [port, true, true],
          [freePort, false, false],
        ],
      )
      assert.equal(host.process?.running, true)
      assert.equal(host.process?.referenceNode, false)
      assert.ok((host.process?.uptimeSeconds ?? 0) >= 4)
      assert.ok((host.diskFreeBytes ?? 0) > 0)
      const judged = evaluate(healthy({ host }))
      assert.equal(level(judged, 'host.p2p'), 'fail')
      assert.match(
        judged.findings.find((f) => f.id === 'host.p2p')?.message ?? '',
        new RegExp(`UDP ${freePort} of node-info.yaml not bound`),
      )
    } finally {
      await new Promise<void>((resolve) => socket.close(() => resolve()))
    }
  })
})
