/** `tnv node stop` signals only the node it started: a recorded pid now used by another program is left alone. */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { NODE_STATE_FILE, type NodeState, writeNodeState } from '../../src/lib/node/state.js'
import { stopNode } from '../../src/lib/node/stop.js'
import { tempDir } from '../helpers/cli.js'

describe('stopNode with a stale record', { skip: !existsSync('/proc/self/cmdline') }, () => {
  it('does not signal a live process that is not the recorded binary', async () => {
    const { dir, cleanup } = tempDir('tnv-node-stop-')
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    try {
      const pid = other.pid as number
      const state: NodeState = {
        pid,
        binary: join(dir, 'telcoin-network'),
        args: ['node', '--datadir', dir],
        datadir: dir,
        logFile: null,
        rpc: { http: null, ws: null, ipc: null },
        workerEndpoints: [],
        startedAt: new Date().toISOString(),
      }
      await writeNodeState(state)
      assert.deepEqual(await stopNode({ datadir: dir, graceMs: 200 }), { pid: null, stopped: false, forced: false })
      assert.equal(other.exitCode, null)
      assert.equal(other.signalCode, null)
      process.kill(pid, 0) // still alive
      assert.equal(existsSync(join(dir, NODE_STATE_FILE)), false) // the stale record is gone
    } finally {
      other.kill('SIGKILL')
      cleanup()
    }
  })
})
