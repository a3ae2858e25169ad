/**
 * Devnets started at the same moment with tnv's default ports: each looks at 8545/8546 while
 * they are free, only one node can bind them, and the others must choose again rather than
 * fail (what parallel CI jobs and test files do). The log line that tells a taken port is the
 * reference node's own (its gateway), read by DevnetStartFailedError.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { DevnetStartFailedError } from '../../src/devnet/node/errors.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'

describe('devnet start: default ports taken by a devnet starting at the same time', { timeout: 180_000 }, () => {
  const { dir, cleanup } = tempDir('tnv-concurrent-')
  const dirs = [1, 2, 3].map((i) => join(dir, `d${i}`))
  const env = (d: string) => ({ TNV_DEVNET_DIR: d, TNV_STATE_DIR: `${d}-state` })
  after(async () => {
    await Promise.all(dirs.map((d) => runCli(['devnet', 'stop', '--datadir', d], { env: env(d) })))
    cleanup()
  })

  it("tells a taken port from the node's log tail, and nothing else", () => {
    const taken = new DevnetStartFailedError(
      'the node exited (exit code 1) before it served',
      'ERROR the node did not start: The HTTP server of worker 0 cannot listen on 127.0.0.1:8545: the port is in use\n',
      null,
    )
    assert.equal(taken.portInUse, true)
    const other = new DevnetStartFailedError(
      'the node exited (exit code 1) before it served',
      'ERROR bad genesis\n',
      null,
    )
    assert.equal(other.portInUse, false)
  })

  it('three at once: all three run, on three different HTTP ports', async () => {
    const results = await Promise.all(
      dirs.map((d) => runCli(['devnet', 'start', '--detach', '--json', '--datadir', d], { env: env(d) })),
    )
    for (const r of results) assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
    const urls = results.map((r) => parseJson<{ rpcUrl: string }>(r).rpcUrl)
    assert.equal(new Set(urls).size, 3, urls.join(' '))
  })
})
