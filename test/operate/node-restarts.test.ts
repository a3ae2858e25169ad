/**
 * Restarts of a node tnv started, end to end with the reference node (bin/tnv-node.js through
 * `tnv node start`) on a devnet: kill -9 a detached node and the next node check records and
 * reports the exit; a foreground `--restart on-failure` starts it again after kill -9 and records
 * both runs; a clean stop (tnv node stop, SIGTERM to tnv) is not a crash; without a restart policy
 * tnv ends with 128 + the signal. Reports validated against docs/node-check.schema.json, the
 * Prometheus counters parsed back.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import type { NodeCheckReport } from '../../src/lib/health/types.js'
import type { RunLog } from '../../src/lib/node/run-log.js'
import { BIN, parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const schema = JSON.parse(readFileSync(join(ROOT, 'docs/node-check.schema.json'), 'utf8'))
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema)
const valid = (report: unknown): NodeCheckReport => {
  assert.ok(validate(report), JSON.stringify(validate.errors, null, 2))
  return report as NodeCheckReport
}
const finding = (r: NodeCheckReport, id: string) => r.findings.find((f) => f.id === id)
const runLog = (datadir: string) => JSON.parse(readFileSync(join(datadir, 'tnv-node-runs.json'), 'utf8')) as RunLog
const statePid = (datadir: string): number | null => {
  try {
    return (JSON.parse(readFileSync(join(datadir, 'tnv-node.json'), 'utf8')) as { pid: number }).pid
  } catch {
    return null
  }
}
async function until<T>(what: string, f: () => T | null | undefined | false, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = f()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
const gone = (pid: number) => {
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}

describe('restarts of a node tnv started (reference node on a devnet)', () => {
  const tmp = tempDir('tnv-restarts-')
  const devnet = join(tmp.dir, 'devnet')
  const env = { TNV_DEVNET_DIR: devnet, TNV_STATE_DIR: join(tmp.dir, 'state') }
  const nodeFlags = async () => ['--chain', 'devnet', '--http', '--http.port', String(await freePort()), '--ipcdisable']
  const check = async (datadir: string, extra: string[] = []) => {
    const r = await runCli(
      [
        'node',
        'check',
        '--datadir',
        datadir,
        '--chain',
        'devnet',
        '--no-exposure',
        '--min-free-gib',
        '0',
        '--json',
        ...extra,
      ],
      { env },
    )
    return { code: r.code, report: valid(parseJson(r)) }
  }
  const children: ChildProcess[] = []

  before(async () => {
    const d = await runCli(['devnet', 'start', '--detach', '--json', '--datadir', devnet], { env })
    assert.equal(d.code, 0, d.stderr)
  })
  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    for (const dir of ['detached', 'foreground', 'stopped', 'never'])
      await runCli(['node', 'stop', '--datadir', join(tmp.dir, dir)], { env })
    await runCli(['devnet', 'stop', '--datadir', devnet], { env })
    tmp.cleanup()
  })

  it('detached: kill -9 is recorded by the next node check and reported (warn, the reason, Prometheus counters); a clean stop afterwards is not a crash', async () => {
    const datadir = join(tmp.dir, 'detached')
    const start = await runCli(['node', 'start', '--detach', '--datadir', datadir, '--', ...(await nodeFlags())], {
      env,
    })
    assert.equal(start.code, 0, start.stderr)
    const healthy = await check(datadir)
    assert.equal(finding(healthy.report, 'host.restarts')?.level, 'ok', JSON.stringify(healthy.report.findings))
    assert.match(finding(healthy.report, 'host.restarts')?.message ?? '', /^1 start in the last hour/)

    const pid = statePid(datadir) as number
    process.kill(pid, 'SIGKILL')
    // gone, or a zombie its new parent has not reaped yet
    const zombie = () => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z')
      } catch {
        return true
      }
    }
    await until('the node to die', () => gone(pid) || zombie())
    const prom = join(tmp.dir, 'restarts.prom')
    const { code, report } = await check(datadir, ['--prometheus', prom])
    assert.equal(code, 2, 'the node is not running: node.process fails')
    const restarts = finding(report, 'host.restarts')
    assert.equal(restarts?.level, 'warn')
    assert.match(restarts?.message ?? '', /1 unclean exit in the last hour/)
    assert.match(
      restarts?.message ?? '',
      new RegExp(
        `\\(pid ${pid}\\): found not running by tnv node check; exit status unknown \\(tnv had detached from it\\)`,
      ),
    )
    assert.match(finding(report, 'node.process')?.message ?? '', /is not running: found not running/)
    assert.equal(report.figures.host.restarts?.lastUnclean?.how, 'found-dead')
    assert.equal(report.figures.host.restarts?.lastUnclean?.restarted, false)
    const families = parsePrometheusTextFormat(readFileSync(prom, 'utf8'))
    const value = (name: string) => families.find((f) => f.name === name)?.metrics[0]?.value
    assert.equal(value('tnv_node_starts_total'), '1')
    assert.equal(value('tnv_node_unclean_exits_total'), '1')

    // started again and stopped cleanly: a stop, not a crash
    const again = await runCli(['node', 'start', '--detach', '--datadir', datadir, '--', ...(await nodeFlags())], {
      env,
    })
    assert.equal(again.code, 0, again.stderr)
    const stop = await runCli(['node', 'stop', '--datadir', datadir], { env })
    assert.equal(stop.code, 0, stop.stderr)
    const log = runLog(datadir)
    assert.deepEqual(
      log.runs.map((r) => [r.exit?.how, r.exit?.clean]),
      [
        ['found-dead', false],
        ['stopped', true],
      ],
    )
    assert.deepEqual(log.totals, { starts: 2, cleanExits: 1, uncleanExits: 1 })
    const after = (await check(datadir)).report.figures.host.restarts
    assert.equal(after?.unclean1h, 1, 'the clean stop did not add an unclean exit')
    assert.equal(after?.lastUnclean?.pid, pid)
  })

  it('foreground --restart on-failure: kill -9 restarts the node (recorded with the signal); SIGTERM to tnv stops it cleanly and tnv exits 0', async () => {
    const datadir = join(tmp.dir, 'foreground')
    const child = spawn(
      process.execPath,
      [BIN, 'node', 'start', '--datadir', datadir, '--restart', 'on-failure', '--', ...(await nodeFlags())],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    children.push(child)
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr += d
    })
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)))
    const first = await until('the node to answer', () => statePid(datadir))
    process.kill(first, 'SIGKILL')
    const second = await until('the restarted node', () => {
      const p = statePid(datadir)
      return p !== null && p !== first ? p : null
    })
    assert.match(stderr, /node exited \(SIGKILL\): crashed, not clean/)
    assert.match(stderr, /restarting the node in 1 s \(restart 1 of at most 5 in 600 s\)/)
    const log = runLog(datadir)
    assert.deepEqual(
      log.runs.map((r) => [r.pid, r.mode, r.restart, r.exit?.how ?? null, r.exit?.signal ?? null]),
      [
        [first, 'foreground', 0, 'crashed', 'SIGKILL'],
        [second, 'foreground', 1, null, null],
      ],
    )
    const { report } = await check(datadir)
    assert.equal(finding(report, 'node.process')?.level, 'ok', 'the restarted node runs')
    assert.equal(finding(report, 'host.restarts')?.level, 'warn')
    assert.match(
      finding(report, 'host.restarts')?.message ?? '',
      /2 starts in the last hour.*: ended by SIGKILL; tnv restarted it$/,
    )
    assert.equal(report.figures.host.restarts?.lastUnclean?.restarted, true)
    assert.doesNotMatch(finding(report, 'host.restarts')?.fix ?? '', /--restart on-failure/, 'it runs with one already')

    child.kill('SIGTERM')
    assert.equal(await exited, 0, stderr)
    assert.deepEqual(
      runLog(datadir).runs.map((r) => [r.exit?.how, r.exit?.clean]),
      [
        ['crashed', false],
        ['stopped', true],
      ],
    )
    assert.ok(gone(second))
  })

  it('foreground --restart on-failure, stopped by tnv node stop from another shell: a stop, not restarted, tnv exits 0', async () => {
    const datadir = join(tmp.dir, 'stopped')
    const child = spawn(
      process.execPath,
      [BIN, 'node', 'start', '--datadir', datadir, '--restart', 'on-failure', '--', ...(await nodeFlags())],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    children.push(child)
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr += d
    })
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)))
    const pid = await until('the node to answer', () => statePid(datadir))
    const stop = await runCli(['node', 'stop', '--datadir', datadir], { env })
    assert.equal(stop.code, 0, stop.stderr)
    assert.equal(await exited, 0, stderr)
    assert.doesNotMatch(stderr, /restarting/)
    const log = runLog(datadir)
    assert.equal(log.runs.length, 1)
    assert.equal(log.runs[0]?.pid, pid)
    assert.deepEqual([log.runs[0]?.exit?.how, log.runs[0]?.exit?.clean], ['stopped', true])
    assert.equal(log.runs[0]?.stopRequested?.by, 'tnv node stop')
  })

  it('foreground without a restart policy: kill -9 ends tnv with 137 (128 + SIGKILL), recorded as a crash, not restarted', async () => {
    const datadir = join(tmp.dir, 'never')
    const child = spawn(process.execPath, [BIN, 'node', 'start', '--datadir', datadir, '--', ...(await nodeFlags())], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    children.push(child)
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)))
    const pid = await until('the node to answer', () => statePid(datadir))
    process.kill(pid, 'SIGKILL')
    assert.equal(await exited, 137)
    const log = runLog(datadir)
    assert.equal(log.runs.length, 1)
    assert.equal(log.runs[0]?.exit?.how, 'crashed')
  })

  it('--restart on-failure with --detach is refused: nothing would watch the node', async () => {
    const r = await runCli(
      [
        'node',
        'start',
        '--detach',
        '--restart',
        'on-failure',
        '--datadir',
        join(tmp.dir, 'refused'),
        '--',
        ...(await nodeFlags()),
      ],
      { env },
    )
    assert.equal(r.code, 2)
    assert.match(r.stderr, /--restart on-failure needs tnv in the foreground/)
    assert.match(r.stderr, /Restart=on-failure/)
  })
})
