/**
 * A process that has exited but was never reaped (a zombie) holds nothing. A node started with
 * --detach is re-parented when tnv exits; where the new parent never reaps (PID 1 of many
 * containers, CI among them), a node killed with -9 stays a zombie, and `kill(pid, 0)` still
 * answers for it. Its lock must be free and its state must read "not running". The zombie here is
 * made the same way: a child whose parent (`sleep`, after exec) never waits for it.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { acquireLock, lockOwnerPath } from '../../src/lib/fs/lock.js'
import { isNodeProcess } from '../../src/lib/node/state.js'
import { isProcessAlive } from '../../src/lib/os/process-alive.js'
import { tempDir } from '../helpers/cli.js'

const linux = process.platform === 'linux'

describe('a zombie holds no lock and is not a running node', { skip: !linux && 'needs /proc' }, () => {
  const tmp = tempDir('tnv-zombie-')
  let zombie = 0
  let parent: ReturnType<typeof spawn>
  before(async () => {
    // the shell starts a short `sleep` in the background, prints its pid, then becomes `sleep`, which never reaps it
    parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] })
    zombie = await new Promise<number>((resolve) =>
      parent.stdout?.once('data', (d) => resolve(Number(String(d).trim()))),
    )
    const deadline = Date.now() + 5000
    while (!readFileSync(`/proc/${zombie}/stat`, 'utf8').includes(') Z') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20))
  })
  after(() => {
    parent.kill('SIGKILL')
    tmp.cleanup()
  })

  it('the signal test still answers for it, isProcessAlive does not', () => {
    assert.match(readFileSync(`/proc/${zombie}/stat`, 'utf8'), /\) Z /, 'the child is a zombie')
    assert.doesNotThrow(() => process.kill(zombie, 0), 'kill(pid, 0) succeeds for a zombie')
    assert.equal(isProcessAlive(zombie), false)
    assert.equal(isProcessAlive(process.pid), true)
    assert.equal(isProcessAlive(parent.pid as number), true, 'its parent runs')
  })

  it('a lock whose recorded holder is a zombie is taken at once, not after it goes stale', async () => {
    const lockPath = join(tmp.dir, 'node.lock')
    mkdirSync(lockPath) // what proper-lockfile leaves behind: a fresh lock directory
    writeFileSync(
      lockOwnerPath(lockPath),
      JSON.stringify({ pid: zombie, host: hostname(), command: 'tnv-node node', since: new Date().toISOString() }),
    )
    const release = await acquireLock({ lockPath, what: 'the node directory', command: 'test', waitMs: 0 })
    assert.equal(JSON.parse(readFileSync(lockOwnerPath(lockPath), 'utf8')).pid, process.pid)
    await release()
  })

  it('a node state naming a zombie pid is not a running node', () => {
    assert.equal(isNodeProcess({ pid: zombie, binary: '/bin/true' }), false)
  })
})
