/**
 * The local fence sees a node process tnv did not start: a process whose command line is
 * `telcoin-network node --datadir <dir>` (a tiny stand-in that only sleeps: the fence reads
 * /proc/<pid>/cmdline and the key in that directory, not the process's behaviour), on a data
 * directory holding the same key as the one `tnv node start` is asked to run, refuses the start
 * with exit 29 and starts nothing. The same process on another network, or holding another key,
 * does not.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { type KeyIdentity, keyIdentities, takeKeyFence } from '../../src/lib/node/fence.js'
import { listNodeProcesses } from '../../src/lib/node/node-processes.js'
import { generateKeysArgs, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

describe('the local fence sees node processes tnv did not start (/proc)', () => {
  const tmp = tempDir('tnv-untracked-')
  const env = { TNV_STATE_DIR: join(tmp.dir, 'state') }
  const a = join(tmp.dir, 'a') // the copy the untracked process runs on
  const b = join(tmp.dir, 'b') // the same key, the one tnv is asked to start
  const c = join(tmp.dir, 'c') // another key
  const program = join(tmp.dir, 'bin', 'telcoin-network')
  const running: ChildProcess[] = []
  let ids: KeyIdentity[] = []

  /** A process with a node's command line: `telcoin-network node --datadir <dir> …`. */
  async function untracked(datadir: string, ...flags: string[]): Promise<ChildProcess> {
    const child = spawn(process.execPath, [program, 'node', '--datadir', datadir, ...flags], { stdio: 'ignore' })
    running.push(child)
    for (let i = 0; i < 100 && !listNodeProcesses().some((p) => p.pid === child.pid); i++)
      await new Promise((r) => setTimeout(r, 50))
    return child
  }
  const stop = async (child: ChildProcess) => {
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
  }

  before(async () => {
    mkdirSync(join(tmp.dir, 'bin'))
    writeFileSync(program, 'setInterval(() => {}, 1000)\n')
    writeFileSync(`${program}.js`, 'setInterval(() => {}, 1000)\n')
    const gen = (dir: string, address: string) => runCli(generateKeysArgs(dir, address), { env })
    assert.equal((await gen(a, '0x1111111111111111111111111111111111111111')).code, 0)
    assert.equal((await gen(c, '0x2222222222222222222222222222222222222222')).code, 0)
    mkdirSync(b)
    cpSync(join(a, 'node-info.yaml'), join(b, 'node-info.yaml'))
    cpSync(join(a, 'node-keys'), join(b, 'node-keys'), { recursive: true })
    ids = await keyIdentities(b)
    assert.ok(ids.some((i) => i.blsPublicKey))
  })
  after(async () => {
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    tmp.cleanup()
  })

  it('tnv node start on a copy of the key is refused: exit 29, the process named, nothing started', async () => {
    const other = await untracked(a, '--chain', 'adiri')
    try {
      const r = await runCli(
        [
          'node',
          'start',
          '--detach',
          '--datadir',
          b,
          '--node-binary',
          `${program}.js`,
          '--skip-doppelganger-check',
          '--json',
          '--',
          '--chain',
          'adiri',
          '--http',
          '--http.port',
          String(await freePort()),
          '--ipcdisable',
        ],
        { env },
      )
      assert.equal(r.code, 29, r.stderr + r.stdout)
      const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error
      assert.equal(error.code, 'KeyRunningUntracked')
      assert.match(error.message, new RegExp(`process ${other.pid} runs a node on ${a} holding the same key`))
      assert.ok(!existsSync(join(b, 'tnv-node.json')), 'nothing started')
    } finally {
      await stop(other)
    }
  })

  it('the fence: refused while the process holds the key on the same network; free after it stops', async () => {
    const fence = (network: string) =>
      takeKeyFence({ stateDir: join(tmp.dir, 'state-lib'), datadir: b, identities: ids, network, command: 'test' })
    const other = await untracked(a, '--chain', 'adiri')
    await assert.rejects(fence('adiri'), { code: 'KeyRunningUntracked' })
    // one key on two networks is no double signature (as for the registry's entries)
    await (await fence('datadir-genesis')).release()
    await stop(other)
    await (await fence('adiri')).release()
  })

  it('a node process holding another key does not count', async () => {
    const other = await untracked(c)
    try {
      await (
        await takeKeyFence({
          stateDir: join(tmp.dir, 'state-lib'),
          datadir: b,
          identities: ids,
          network: 'datadir-genesis',
          command: 'test',
        })
      ).release()
    } finally {
      await stop(other)
    }
  })
})
