/**
 * The run log of the nodes tnv starts (src/lib/node/run-log.ts), the foreground supervisor's
 * restart policy (src/lib/node/supervise.ts, with scripted node exits: no process) and how node
 * check judges restarts. The end-to-end file (node-restarts.test.ts) kills the reference node.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { DEFAULT_THRESHOLDS, evaluate } from '../../src/lib/health/evaluate.js'
import { formatPrometheus, nodeCheckMetrics } from '../../src/lib/health/prometheus.js'
import type { HostFacts, NodeCheckReport } from '../../src/lib/health/types.js'
import {
  classifyExit,
  MAX_RUNS,
  observeNodeExits,
  RUN_LOG_FILE,
  type RunLog,
  readRunLog,
  recordNodeExit,
  recordNodeStart,
  recordStopRequest,
  summarizeRuns,
} from '../../src/lib/node/run-log.js'
import type { NodeExit, StartedNode } from '../../src/lib/node/start.js'
import { superviseNode } from '../../src/lib/node/supervise.js'

const dirs: string[] = []
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'tnv-runs-'))
  dirs.push(d)
  return d
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** A pid that is certainly dead: a child that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const c = spawn(process.execPath, ['-e', ''])
  await new Promise((r) => c.once('exit', r))
  return c.pid as number
}

describe('run log', () => {
  it('classifies exits like systemd Restart=on-failure: code 0 and SIGTERM/INT/HUP/PIPE clean; a stop tnv asked for is "stopped"', () => {
    assert.deepEqual(classifyExit({ code: 0, signal: null, requested: false }), {
      how: 'exited',
      clean: true,
      reason: 'exited with code 0',
    })
    assert.equal(classifyExit({ code: null, signal: 'SIGTERM', requested: false }).clean, true)
    assert.deepEqual(classifyExit({ code: null, signal: 'SIGKILL', requested: false }), {
      how: 'crashed',
      clean: false,
      reason: 'ended by SIGKILL',
    })
    assert.deepEqual(classifyExit({ code: 101, signal: null, requested: false }), {
      how: 'crashed',
      clean: false,
      reason: 'exited with code 101',
    })
    assert.equal(classifyExit({ code: null, signal: 'SIGTERM', requested: true }).how, 'stopped')
    const forced = classifyExit({ code: null, signal: 'SIGKILL', requested: true, forced: true })
    assert.equal(forced.how, 'stopped')
    assert.equal(forced.clean, false, 'a SIGKILL after the grace period is not a clean stop')
  })

  it('records starts and exits; the first exit recorded wins; a stop request makes the exit a stop; nothing secret, mode 0644', async () => {
    const d = tmp()
    await recordNodeStart(d, { pid: 4242, binary: '/usr/bin/telcoin-network', mode: 'detached' })
    await recordStopRequest(d, 4242, 'tnv node stop')
    const first = await recordNodeExit(d, 4242, { code: null, signal: 'SIGKILL' })
    assert.equal(first?.how, 'stopped', 'asked for by tnv node stop, even though SIGKILL ended it')
    const second = await recordNodeExit(d, 4242, { code: 1, signal: null })
    assert.deepEqual(second, first, 'an exit is recorded once')
    const log = (await readRunLog(d)) as RunLog
    assert.deepEqual(log.totals, { starts: 1, cleanExits: 1, uncleanExits: 0 })
    assert.equal(statSync(join(d, RUN_LOG_FILE)).mode & 0o777, 0o644)
    assert.deepEqual(Object.keys(log.runs[0] ?? {}).sort(), [
      'binary',
      'exit',
      'mode',
      'pid',
      'restart',
      'startedAt',
      'stopRequested',
      'supervisorPid',
    ])
    assert.deepEqual(
      readdirSync(d).filter((f) => f !== RUN_LOG_FILE),
      [],
      'no temporary file or lock left behind',
    )
  })

  it(`is bounded: the last ${MAX_RUNS} runs are kept, the totals keep counting`, async () => {
    const d = tmp()
    const runs = Array.from({ length: MAX_RUNS + 5 }, (_, i) => ({
      pid: 1000 + i,
      startedAt: new Date().toISOString(),
      binary: 'x',
      mode: 'detached' as const,
      supervisorPid: null,
      restart: 0,
      stopRequested: null,
      exit: null,
    }))
    writeFileSync(
      join(d, RUN_LOG_FILE),
      JSON.stringify({ version: 1, totals: { starts: 7000, cleanExits: 0, uncleanExits: 0 }, runs }),
    )
    await recordNodeStart(d, { pid: 99, binary: 'x', mode: 'detached' })
    const log = (await readRunLog(d)) as RunLog
    assert.equal(log.runs.length, MAX_RUNS)
    assert.equal(log.runs.at(-1)?.pid, 99)
    assert.equal(log.totals.starts, 7001)
  })

  it('observes a detached node that died unseen: found-dead, unclean, exit status unknown; a live one is left alone; a pid now held by another program is not the node', async () => {
    const d = tmp()
    const pid = await deadPid()
    // a live "node": its command line holds the recorded binary
    const node = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', '/opt/tn/telcoin-network'])
    try {
      await recordNodeStart(d, { pid, binary: '/opt/tn/telcoin-network', mode: 'detached' })
      await recordNodeStart(d, { pid: node.pid as number, binary: '/opt/tn/telcoin-network', mode: 'detached' })
      // this test's own pid, recorded for another binary: the pid was reused
      await recordNodeStart(d, { pid: process.pid, binary: '/opt/tn/other-binary', mode: 'detached' })
      await observeNodeExits(d, null, 'tnv node check')
      const log = (await readRunLog(d)) as RunLog
      const [dead, live, reused] = log.runs
      assert.equal(dead?.exit?.how, 'found-dead')
      assert.equal(dead?.exit?.clean, false)
      assert.match(dead?.exit?.reason ?? '', /found not running by tnv node check; exit status unknown/)
      assert.equal(live?.exit, null)
      assert.equal(reused?.exit?.how, process.platform === 'linux' ? 'found-dead' : undefined)
    } finally {
      node.kill('SIGKILL')
      await new Promise((r) => node.once('exit', r))
    }
  })

  it('leaves the exit of a foreground node to its supervisor while the supervisor lives', async () => {
    const d = tmp()
    const pid = await deadPid()
    const supervisor = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'])
    try {
      const log: RunLog = {
        version: 1,
        totals: { starts: 1, cleanExits: 0, uncleanExits: 0 },
        runs: [
          {
            pid,
            startedAt: new Date().toISOString(),
            binary: 'x',
            mode: 'foreground',
            supervisorPid: supervisor.pid as number,
            restart: 0,
            stopRequested: null,
            exit: null,
          },
        ],
      }
      writeFileSync(join(d, RUN_LOG_FILE), JSON.stringify(log))
      await observeNodeExits(d, null, 'tnv node check')
      assert.equal((await readRunLog(d))?.runs[0]?.exit, null)
    } finally {
      supervisor.kill('SIGKILL')
      await new Promise((r) => supervisor.once('exit', r))
    }
    await observeNodeExits(d, null, 'tnv node check')
    assert.match((await readRunLog(d))?.runs[0]?.exit?.reason ?? '', /the tnv that ran it had ended/)
  })

  it('summarises the last hour and day', () => {
    const now = Date.parse('2026-01-02T12:00:00Z')
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString()
    const run = (startedAgo: number, exitAgo: number | null, clean: boolean) => ({
      pid: startedAgo,
      startedAt: at(startedAgo),
      binary: 'x',
      mode: 'detached' as const,
      supervisorPid: null,
      restart: 0,
      stopRequested: null,
      exit:
        exitAgo === null
          ? null
          : {
              at: at(exitAgo),
              code: clean ? 0 : 1,
              signal: null,
              how: clean ? ('exited' as const) : ('crashed' as const),
              clean,
              reason: clean ? 'exited with code 0' : 'exited with code 1',
            },
    })
    const s = summarizeRuns(
      {
        version: 1,
        totals: { starts: 40, cleanExits: 10, uncleanExits: 30 },
        runs: [
          run(3000, 2990, false),
          run(600, 500, false),
          run(400, 300, true),
          run(50, 40, false),
          run(30, null, true),
        ],
      },
      now,
    )
    assert.deepEqual(
      [s.starts1h, s.starts24h, s.unclean1h, s.unclean24h, s.totalStarts, s.totalUnclean],
      [2, 4, 1, 2, 40, 30],
    )
    assert.equal(s.lastUnclean?.pid, 50)
    assert.equal(s.lastUnclean?.restarted, false, 'no supervisor restarted it')
    assert.equal(s.lastUnclean?.reason, 'exited with code 1')
  })
})

/** A node whose exit the test decides. */
function scripted(pid: number): { node: StartedNode; end: (e: Partial<NodeExit>) => void; stopped: () => boolean } {
  let resolve: (e: NodeExit) => void = () => {}
  let stopped = false
  const exited = new Promise<NodeExit>((r) => {
    resolve = r
  })
  const end = (e: Partial<NodeExit>) => resolve({ code: null, signal: null, recorded: null, ...e })
  const node = {
    state: { pid } as StartedNode['state'],
    child: null,
    exited,
    stop: () => {
      stopped = true
      end({
        signal: 'SIGTERM',
        recorded: { at: '', code: null, signal: 'SIGTERM', how: 'stopped', clean: true, reason: 'stopped by tnv' },
      })
    },
  }
  return { node, end, stopped: () => stopped }
}
const crash = { signal: 'SIGKILL' as const, recorded: null }

describe('restart policy (foreground supervisor)', () => {
  const policy = { mode: 'on-failure' as const, maxRestarts: 2, windowSeconds: 600, backoffMs: 1, maxBackoffMs: 4 }
  const params = {} as Parameters<typeof superviseNode>[0]['startParameters']

  it('restarts a crashed node with a doubling backoff, gives up past the cap in the window', async () => {
    const nodes = [scripted(1), scripted(2), scripted(3)]
    const events: string[] = []
    const result = superviseNode({
      first: (nodes[0] as ReturnType<typeof scripted>).node,
      start: async (n) => {
        const next = nodes[n] as ReturnType<typeof scripted>
        setTimeout(() => next.end(crash), 5)
        return next.node
      },
      startParameters: params,
      policy,
      signal: new AbortController().signal,
      onEvent: (e) => events.push(e.event === 'restarting' ? `restarting in ${e.inMs}` : e.event),
    })
    nodes[0]?.end(crash)
    const r = await result
    assert.deepEqual(r, {
      exit: { code: null, signal: 'SIGKILL', recorded: null },
      restarts: 2,
      gaveUp: true,
      stopped: false,
    })
    assert.deepEqual(events, [
      'exited',
      'restarting in 1',
      'ready',
      'exited',
      'restarting in 2',
      'ready',
      'exited',
      'gave-up',
    ])
  })

  it('never restarts a clean exit, nor with --restart never, nor a stop asked for', async () => {
    for (const [mode, exit] of [
      ['on-failure', { code: 0 }],
      ['never', crash],
      [
        'on-failure',
        {
          signal: 'SIGKILL' as const,
          recorded: { at: '', code: null, signal: 'SIGKILL', how: 'stopped' as const, clean: false, reason: 'x' },
        },
      ],
    ] as const) {
      const n = scripted(1)
      let starts = 0
      const result = superviseNode({
        first: n.node,
        start: async () => {
          starts++
          return scripted(2).node
        },
        startParameters: params,
        policy: { ...policy, mode },
        signal: new AbortController().signal,
      })
      n.end(exit)
      const r = await result
      assert.equal(starts, 0, `${mode} ${JSON.stringify(exit)}`)
      assert.equal(r.gaveUp, false)
    }
  })

  it('an abort (Ctrl-C) stops the node and does not restart it', async () => {
    const n = scripted(1)
    const ac = new AbortController()
    const result = superviseNode({
      first: n.node,
      start: async () => assert.fail('no restart'),
      startParameters: params,
      policy,
      signal: ac.signal,
    })
    ac.abort()
    const r = await result
    assert.equal(n.stopped(), true)
    assert.equal(r.stopped, true)
  })
})

describe('node check: restarts', () => {
  const host = (restarts: HostFacts['restarts']): HostFacts => ({
    diskFreeBytes: 10 * 2 ** 40,
    diskTotalBytes: 20 * 2 ** 40,
    udpPorts: [],
    process: null,
    restarts,
  })
  const summary = (unclean1h: number, unclean24h: number): NonNullable<HostFacts['restarts']> => ({
    logFile: '/srv/tn/tnv-node-runs.json',
    starts1h: unclean1h + 1,
    starts24h: unclean24h + 1,
    unclean1h,
    unclean24h,
    totalStarts: 12,
    totalUnclean: 5,
    lastUnclean:
      unclean24h > 0
        ? {
            pid: 77,
            startedAt: '2026-01-02T10:00:00.000Z',
            exitedAt: '2026-01-02T11:00:00.000Z',
            code: null,
            signal: 'SIGKILL',
            how: 'crashed',
            reason: 'ended by SIGKILL',
            restarted: false,
          }
        : null,
  })
  const judge = (restarts: HostFacts['restarts']) =>
    evaluate({
      datadir: '/srv/tn',
      nodeInfo: null,
      nodeInfoProblem: null,
      localEndpoint: null,
      local: null,
      localAgain: null,
      networkAgain: null,
      network: null,
      networkProblem: null,
      expectedChainId: null,
      idleNetwork: false,
      validator: null,
      validatorProblem: null,
      host: host(restarts),
      exposure: null,
      exposureProblem: null,
      thresholds: DEFAULT_THRESHOLDS,
    }).findings.find((f) => f.id === 'host.restarts')

  it('skip without a run log; ok without an unclean exit; warn on a recent one with its reason; fail when crash-looping', () => {
    assert.equal(judge(null)?.level, 'skip')
    assert.equal(judge(summary(0, 0))?.level, 'ok')
    const warn = judge(summary(1, 2))
    assert.equal(warn?.level, 'warn')
    assert.match(
      warn?.message ?? '',
      /1 unclean exit in the last hour, 2 in 24 h; last unclean exit .*\(pid 77\): ended by SIGKILL/,
    )
    assert.match(warn?.fix ?? '', /Restart=on-failure|--restart on-failure/)
    const fail = judge(summary(DEFAULT_THRESHOLDS.crashLoopExits, 4))
    assert.equal(fail?.level, 'fail')
    assert.match(fail?.message ?? '', /^crash-looping/)
  })

  it('Prometheus: two counters from the totals, the windows as a labelled gauge, the last unclean exit time', () => {
    const report = {
      level: 'warn',
      worst: null,
      exitCode: 1,
      checkedAt: new Date().toISOString(),
      targets: { node: null, network: null, validator: null, datadir: '/srv/tn' },
      findings: [],
      next: 'x',
      figures: {
        local: null,
        network: null,
        lagBlocks: null,
        lagSeconds: null,
        advancing: null,
        validator: null,
        host: host(summary(1, 2)),
      },
      roundTrips: { local: 0, network: 0, registry: 0, total: 0, exposureProbes: 0 },
      wallMs: 1,
    } satisfies NodeCheckReport
    const families = parsePrometheusTextFormat(formatPrometheus(nodeCheckMetrics(report)))
    const fam = (name: string) => families.find((f) => f.name === name)
    assert.equal(fam('tnv_node_starts_total')?.type, 'COUNTER')
    assert.equal(fam('tnv_node_starts_total')?.metrics[0]?.value, '12')
    assert.equal(fam('tnv_node_unclean_exits_total')?.type, 'COUNTER')
    assert.equal(fam('tnv_node_unclean_exits_total')?.metrics[0]?.value, '5')
    assert.deepEqual(
      fam('tnv_node_unclean_exits')?.metrics.map((m) => [
        (m as { labels?: { window: string } }).labels?.window,
        m.value,
      ]),
      [
        ['1h', '1'],
        ['24h', '2'],
      ],
    )
    assert.equal(
      fam('tnv_node_last_unclean_exit_timestamp_seconds')?.metrics[0]?.value,
      String(Date.parse('2026-01-02T11:00:00.000Z') / 1000),
    )
  })
})
