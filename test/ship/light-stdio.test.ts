/**
 * stdout and stderr without Node's stream modules (src/entries/light-stdio.ts): the stand-in
 * the launcher puts in place for a file, a pipe, a socket or /dev/null writes what Node's stream
 * would, in the same order, reports a reader that went away as the stream does, and hands over
 * to Node's stream for anything else: a non-blocking pipe that is full, a property it lacks. A
 * terminal keeps Node's stream. And the built CLI's `rpc plan` prints its plan without loading
 * node:stream or node:net.
 */
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { BIN, ROOT } from '../helpers/cli.js'
import { PYTHON } from '../wizard/pty.js'

const CHILD = join(ROOT, 'test/ship/fixtures/light-stdio-child.ts')
const dir = mkdtempSync(join(tmpdir(), 'tnv-light-stdio-'))
after(() => rmSync(dir, { recursive: true, force: true }))
let seq = 0
const childArgs = (mode: string, report: string) => ['--import', 'tsx', CHILD, mode, report]
type Report = Record<string, unknown> & { replaced: string[]; handedOver: boolean }
const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Report

/** Runs the child with stdout and stderr on the given descriptors (or Node's 'pipe'/'ignore'). */
function runChild(mode: string, out: number | 'pipe' | 'ignore', err: number | 'pipe' | 'ignore' = 'pipe') {
  const report = join(dir, `report-${seq++}.json`)
  const r = spawnSync(process.execPath, childArgs(mode, report), { cwd: ROOT, stdio: ['ignore', out, err] })
  assert.equal(r.status, 0, String(r.stderr))
  return { r, report: readReport(report) }
}

describe('stdout and stderr stand-ins', () => {
  it('a file: written in order, callbacks called, no stream built', () => {
    const outFile = join(dir, 'out.txt')
    const errFile = join(dir, 'err.txt')
    const out = openSync(outFile, 'w')
    const err = openSync(errFile, 'w')
    const { report } = runChild('lines', out, err)
    closeSync(out)
    closeSync(err)
    assert.equal(readFileSync(outFile, 'utf8'), 'out 1\nout 2\nout é\nout 3\n')
    assert.equal(readFileSync(errFile, 'utf8'), 'err 1\nerr 2\n')
    assert.deepEqual(report.replaced, ['stdout', 'stderr'])
    assert.deepEqual(report.again, [], 'installed once per process')
    assert.deepEqual(report.called, ['buffer', 'string'])
    assert.equal(report.isTTY, null)
    assert.equal(report.needDrain, false)
    assert.equal(report.fd, 1)
    assert.equal(report.handedOver, false)
  })

  it('a pipe (socket) and /dev/null: replaced; the pipe receives every line', () => {
    const { r, report } = runChild('lines', 'pipe', 'ignore')
    assert.equal(String(r.stdout), 'out 1\nout 2\nout é\nout 3\n')
    assert.deepEqual(report.replaced, ['stdout', 'stderr'])
    assert.equal(report.handedOver, false)
  })

  it("another character device keeps Node's stream", () => {
    const zero = openSync('/dev/zero', 'w')
    const { report } = runChild('lines', zero, 'ignore')
    closeSync(zero)
    assert.deepEqual(report.replaced, ['stderr'])
  })

  it("anything the stand-in lacks builds Node's stream; the order of writes holds", () => {
    const { r, report } = runChild('proxy', 'pipe')
    assert.equal(String(r.stdout), 'a\nb\n')
    assert.equal(report.before, false)
    assert.equal(report.isWritable, true)
    assert.equal(report.handedOver, true)
  })

  it('a library that replaces write and puts back what it read: no loop, nothing lost', () => {
    const { r, report } = runChild('mock', 'pipe')
    assert.equal(String(r.stdout), 'before\nafter\n')
    assert.deepEqual(report.held, ['held\n'])
    assert.equal(report.handedOver, true)
  })

  it("a pipe after the first second of a process: Node's stream; a file: the stand-in still", () => {
    const piped = runChild('later', 'pipe')
    assert.equal(String(piped.r.stdout), 'early\nlate\n')
    assert.equal(piped.report.early, false)
    assert.equal(piped.report.handedOver, true)
    const outFile = join(dir, 'later.txt')
    const out = openSync(outFile, 'w')
    const filed = runChild('later', out)
    closeSync(out)
    assert.equal(readFileSync(outFile, 'utf8'), 'early\nlate\n')
    assert.equal(filed.report.handedOver, false)
  })

  /** Runs the child with its stdout's reader gone from the start; its report. */
  async function runWithReaderGone(mode: string): Promise<Report> {
    const report = join(dir, `report-${seq++}.json`)
    const child = spawn(process.execPath, childArgs(mode, report), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.destroy()
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr += d
    })
    const code = await new Promise((resolve) => child.on('exit', resolve))
    assert.equal(code, 0, stderr)
    return readReport(report)
  }

  it('a reader that went away: EPIPE to the listeners once, later writes fail through their callback', async () => {
    const r = await runWithReaderGone('epipe')
    assert.deepEqual(r.heard, ['once EPIPE', 'on EPIPE'])
    assert.equal(r.late, 'EPIPE')
    assert.equal(r.handedOver, false)
  })

  it('a reader that went away, written through console.log: the listeners hear EPIPE', async () => {
    assert.deepEqual((await runWithReaderGone('epipe-console')).heard, ['once EPIPE'])
  })

  it('the built CLI ends quietly when its reader goes away: `tnv --help | head -1`', () => {
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" --help | head -1`], {
      env: { PATH: process.env.PATH, HOME: dir },
      encoding: 'utf8',
    })
    assert.equal(r.status, 0)
    assert.equal(r.stdout.split('\n').filter(Boolean).length, 1)
    assert.equal(r.stderr, '')
  })

  it("a non-blocking pipe that fills: what would block goes through Node's stream, in order", async () => {
    // a parent that built its own stdout stream over the pipe left it non-blocking (libuv does),
    // and the child inherits the descriptor
    const report = join(dir, `report-${seq++}.json`)
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `process.stdout; const r = require('node:child_process').spawnSync(process.execPath, ${JSON.stringify(childArgs('eagain', report))}, { stdio: 'inherit' }); process.exitCode = r.status`,
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    parent.stdout.pause()
    await new Promise((r) => setTimeout(r, 1500))
    const chunks: Buffer[] = []
    parent.stdout.on('data', (d: Buffer) => chunks.push(d))
    parent.stdout.resume()
    const code = await new Promise((resolve) => parent.on('exit', resolve))
    await new Promise((r) => setImmediate(r))
    assert.equal(code, 0)
    const text = Buffer.concat(chunks).toString()
    const lines = text.split('\n').filter(Boolean)
    assert.equal(lines.length, 65)
    for (const [i, line] of lines.slice(0, 64).entries())
      assert.ok(line.startsWith(String(i).padStart(4, '0')), `line ${i} in place`)
    assert.equal(lines[64], 'END')
    assert.equal(readReport(report).handedOver, true)
  })

  it("a terminal keeps Node's streams", { skip: PYTHON ? false : 'python3 (for a pseudo-terminal) is missing' }, () => {
    const report = join(dir, `report-${seq++}.json`)
    const r = spawnSync(
      PYTHON as string,
      ['-c', 'import pty, sys; pty.spawn(sys.argv[1:])', process.execPath, ...childArgs('lines', report)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    assert.equal(r.status, 0, String(r.stderr))
    assert.deepEqual(readReport(report).replaced, [])
  })

  it('the built CLI prints `rpc plan` without loading node:stream or node:net', () => {
    const preload = join(dir, 'modules.cjs')
    const list = join(dir, 'modules.txt')
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')))`,
    )
    const outFile = join(dir, 'plan.txt')
    const out = openSync(outFile, 'w')
    const r = spawnSync(process.execPath, ['-r', preload, BIN, 'rpc', 'plan', '--', '--http'], {
      stdio: ['ignore', out, 'pipe'],
      env: { PATH: process.env.PATH, HOME: dir },
    })
    closeSync(out)
    assert.equal(r.status, 0, String(r.stderr))
    assert.match(readFileSync(outFile, 'utf8'), /eth/)
    const loaded = readFileSync(list, 'utf8').split('\n')
    assert.deepEqual(
      loaded.filter((m) => m === 'NativeModule stream' || m === 'NativeModule net'),
      [],
    )
  })
})
