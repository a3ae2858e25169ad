/** Worker endpoint derivation (docs/rpc.md) and the limits with their defaults and checks. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { LIMIT_SPECS } from '../../src/lib/rpc/limits.js'
import { resolveRpcPlan } from '../../src/lib/rpc/resolve.js'
import { workerIpcPath, workerPorts } from '../../src/lib/rpc/workers.js'

const plan = (...argv: string[]) => resolveRpcPlan(argv, { cpus: 4 })

describe('workers (--workers N)', () => {
  it('one worker by default', () => {
    assert.equal(plan().workers.length, 1)
    assert.equal(plan().workers[0]?.index, 0)
  })
  it('worker 0 on the configured ports and path; the others above the highest port, IPC path -worker<i>', () => {
    const p = plan('--http', '--ws', '--workers', '3')
    const endpoints = p.workers.map((w) => [w.http.port, w.ws.port, w.ipc.path])
    assert.deepEqual(endpoints, [
      [8545, 8546, '/tmp/tn.ipc'],
      [8547, 8548, '/tmp/tn-worker1.ipc'],
      [8549, 8550, '/tmp/tn-worker2.ipc'],
    ])
  })
  it('every worker serves the same selection and rpc_modules', () => {
    const p = plan('--http', '--http.api', 'eth,rpc,debug', '--ws', '--ws.api', 'eth', '--workers', '4')
    for (const w of p.workers) {
      assert.deepEqual(w.http, { ...p.transports.http, port: w.http.port })
      assert.deepEqual(w.ws, { ...p.transports.ws, port: w.ws.port })
      assert.deepEqual(w.ipc, { ...p.transports.ipc, path: w.ipc.path })
    }
  })
  it('a shared HTTP/WS server stays shared: one port per worker', () => {
    const p = plan('--http', '--ws', '--ws.port', '8545', '--workers', '3')
    assert.deepEqual(
      p.workers.map((w) => [w.http.port, w.ws.port, w.sharedServer]),
      [
        [8545, 8545, true],
        [8546, 8546, true],
        [8547, 8547, true],
      ],
    )
    assert.equal(p.ok, true)
  })
  it('the base is the higher of the two configured ports', () => {
    const p = plan('--http', '--http.port', '9000', '--ws', '--ws.port', '8000', '--workers', '2')
    assert.deepEqual([p.workers[1]?.http.port, p.workers[1]?.ws.port], [9001, 9002])
  })
  it('no port is used twice, for any port pair and worker count', () => {
    for (const [h, w] of [
      [8545, 8546],
      [8546, 8545],
      [8545, 8547],
      [8545, 8549],
      [9000, 8000],
      [8545, 8545],
      [30000, 30002],
    ]) {
      for (let n = 1; n <= 4; n++) {
        const p = plan('--http', '--ws', '--http.port', String(h), '--ws.port', String(w), '--workers', String(n))
        assert.equal(p.ok, true, p.errors.join(' '))
        const servers = new Set<string>()
        for (const wk of p.workers) {
          const ports = wk.sharedServer ? [wk.http.port] : [wk.http.port, wk.ws.port]
          for (const port of ports) {
            assert.ok(!servers.has(String(port)), `port ${port} twice (${h}/${w}, ${n} workers)`)
            servers.add(String(port))
          }
        }
        const paths = new Set(p.workers.map((wk) => wk.ipc.path))
        assert.equal(paths.size, n)
      }
    }
  })
  it('a derived port above 65535 is refused (only for transports that are on)', () => {
    const p = plan('--http', '--ws', '--http.port', '65534', '--ws.port', '65533', '--workers', '2')
    assert.equal(p.ok, false)
    assert.match(p.errors.join(' '), /Worker 1's WS port would be 65536/)
    assert.equal(
      plan('--http', '--http.port', '65534', '--workers', '2').ok,
      true,
      'HTTP 65535; WS (off) would be 65536',
    )
  })
  it('derived IPC paths must fit a Unix socket path too', () => {
    const path = `/tmp/${'x'.repeat(98)}.ipc` // 107 bytes
    assert.equal(plan('--ipcpath', path).ok, true)
    const p = plan('--ipcpath', path, '--workers', '2')
    assert.equal(p.ok, false)
    assert.match(p.errors.join(' '), /Worker 1's IPC path/)
  })
  for (const value of ['0', '5', 'two', '-1', '1.5']) {
    it(`--workers ${value} is refused (1 to 4)`, () => {
      assert.equal(plan('--workers', value).ok, false)
    })
  }
  it('workerIpcPath keeps the directory and the extension', () => {
    assert.equal(workerIpcPath('/tmp/tn.ipc', 0), '/tmp/tn.ipc')
    assert.equal(workerIpcPath('/tmp/tn.ipc', 3), '/tmp/tn-worker3.ipc')
    assert.equal(workerIpcPath('/run/tn.d/socket', 1), '/run/tn.d/socket-worker1')
    assert.equal(workerIpcPath('/run/.hidden', 1), '/run/.hidden-worker1')
    assert.equal(workerIpcPath('relative.ipc', 2), 'relative-worker2.ipc')
  })
  it('workerPorts is the documented rule', () => {
    assert.deepEqual(workerPorts({ httpPort: 8545, wsPort: 8546, shared: false }, 2), { http: 8549, ws: 8550 })
    assert.deepEqual(workerPorts({ httpPort: 8545, wsPort: 8545, shared: true }, 2), { http: 8547, ws: 8547 })
  })
})

describe('limits', () => {
  it('the spec defaults', () => {
    assert.deepEqual(plan().limits, {
      maxTracingRequests: 2,
      maxTraceFilterBlocks: 100,
      maxBlocksPerFilter: 100_000,
      maxLogsPerResponse: 20_000,
      gasCap: 50_000_000,
      maxResponseSizeMb: 160,
      maxConnections: 500,
      maxRequestSizeMb: 15,
    })
  })
  it('--rpc.max-tracing-requests defaults to CPU cores minus 2, at least 2', () => {
    for (const [cpus, expected] of [
      [1, 2],
      [2, 2],
      [4, 2],
      [5, 3],
      [8, 6],
      [64, 62],
    ]) {
      assert.equal(resolveRpcPlan([], { cpus }).limits.maxTracingRequests, expected, `${cpus} cores`)
    }
  })
  it("without options.cpus it uses this host's count", async () => {
    const { availableParallelism } = await import('node:os')
    assert.equal(resolveRpcPlan([]).limits.maxTracingRequests, Math.max(2, availableParallelism() - 2))
  })
  it('every limit flag takes a value (both forms)', () => {
    for (const spec of LIMIT_SPECS) {
      assert.equal(plan(spec.flag, '7').limits[spec.key], 7, spec.flag)
      assert.equal(plan(`${spec.flag}=9`).limits[spec.key], 9, spec.flag)
    }
  })
  it('0 = no limit only for --rpc.max-blocks-per-filter and --rpc.max-logs-per-response', () => {
    for (const spec of LIMIT_SPECS) {
      const p = plan(spec.flag, '0')
      const zeroAllowed = spec.flag === '--rpc.max-blocks-per-filter' || spec.flag === '--rpc.max-logs-per-response'
      assert.equal(p.ok, zeroAllowed, spec.flag)
      if (zeroAllowed) assert.equal(p.limits[spec.key], 0)
      else assert.match(p.errors[0] ?? '', /0 is refused: it must be at least 1/)
    }
  })
  for (const value of ['-5', 'abc', '1.5', '1e6', '0x10', '1_000', '50M', '99999999999999999999']) {
    it(`--rpc.gascap ${value} is refused`, () => {
      const p = plan('--rpc.gascap', value)
      assert.equal(p.ok, false)
      assert.equal(p.limits.gasCap, 50_000_000, 'the default stays in the plan')
    })
  }
  it('u32 limits stop at 4294967295', () => {
    assert.equal(plan('--rpc.max-connections', '4294967295').ok, true)
    assert.equal(plan('--rpc.max-connections', '4294967296').ok, false)
  })
})
