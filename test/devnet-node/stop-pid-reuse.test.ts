/** `tnv devnet stop` signals only the reference node: a runtime file whose pid now runs another program is stale. */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { runtimeFilePath } from '../../src/devnet/node/runtime-file.js'
import { stopDevnet } from '../../src/devnet/node/stop-devnet.js'
import { tempDir } from '../helpers/cli.js'

describe('stopDevnet with a reused pid', { skip: !existsSync('/proc/self/cmdline') }, () => {
  it('leaves the unrelated process alone and removes the stale runtime file', async () => {
    const { dir, cleanup } = tempDir('tnv-devnet-stop-')
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    try {
      const pid = other.pid as number
      writeFileSync(runtimeFilePath(dir), JSON.stringify({ pid, chainId: 911329 }))
      const r = await stopDevnet(dir, { timeoutMs: 500 })
      assert.deepEqual(r, { stopped: false, pid: null, staleRemoved: true })
      process.kill(pid, 0) // still alive, never signalled
      assert.equal(other.signalCode, null)
      assert.equal(existsSync(runtimeFilePath(dir)), false)
    } finally {
      other.kill('SIGKILL')
      cleanup()
    }
  })
})
