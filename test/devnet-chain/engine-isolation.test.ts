/**
 * The engine (anvil) is reachable only by the devnet: over its IPC socket, in a directory only
 * the devnet's user can enter, and (where the platform allows) with its TCP listener inside a
 * network namespace of its own, so no other local process can call anvil_setBalance or
 * impersonate governance around the reference node. A second local client is tried for real:
 * another user on the IPC socket (when the tests run as root and can become one), and every
 * TCP socket anvil listens on, looked up from the host's own network namespace.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { engineLauncher, ISOLATION_ENV, isolationPolicy } from '../../src/devnet/chain/engine-isolation.js'
import { engineCallOnce } from '../../src/devnet/chain/engine-rpc.js'
import { InvalidDevnetParameterError } from '../../src/devnet/chain/errors.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import type { DevnetChain } from '../../src/devnet/chain/types.js'
import { tempDir } from '../helpers/cli.js'

/** Inodes of the TCP sockets LISTENING in the network namespace whose /proc/…/net/tcp* is read. */
function listeningInodes(procNet: string): Set<string> {
  const inodes = new Set<string>()
  for (const file of ['tcp', 'tcp6']) {
    let text: string
    try {
      text = readFileSync(`${procNet}/${file}`, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      if (cols[3] === '0A') inodes.add(cols[9] as string) // state 0A = LISTEN
    }
  }
  return inodes
}

/** Inodes of every socket the process holds open. */
function socketInodes(pid: number): Set<string> {
  const out = new Set<string>()
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
      if (m) out.add(m[1] as string)
    } catch {
      // closed meanwhile
    }
  }
  return out
}

/** A process of another user (nobody) trying the engine's socket: its connect error code, or 'connected'. */
function connectAsNobody(ipcPath: string): string {
  const script = `const s=require('net').connect(${JSON.stringify(ipcPath)});s.on('connect',()=>{console.log('connected');s.destroy()});s.on('error',e=>console.log(e.code))`
  const r = spawnSync(
    'setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, '-e', script],
    {
      encoding: 'utf8',
    },
  )
  return (r.stdout || r.stderr).trim()
}

describe('the devnet engine is reachable only by the devnet', { timeout: 120_000 }, () => {
  const tmp = tempDir('tnv-engine-isolation-')
  let chain: DevnetChain
  let namespaces = false

  before(async () => {
    namespaces = (await engineLauncher('auto')).isolation === 'netns'
    chain = await startDevnetChain({ datadir: tmp.dir, blockTime: 0, protocolLoop: false })
  })
  after(async () => {
    await chain?.stop()
    tmp.cleanup()
  })

  it('over its IPC socket, in a directory only this user can enter', async () => {
    assert.ok(statSync(chain.engineIpcPath).isSocket())
    const dir = statSync(dirname(chain.engineIpcPath))
    assert.equal(dir.mode & 0o777, 0o700)
    assert.equal(dir.uid, process.getuid?.())
    assert.equal(await engineCallOnce(chain.engineIpcPath, 'eth_chainId'), '0xde7e1')
  })

  it('anvil listens on no TCP port another local process can reach', { skip: process.platform !== 'linux' }, (t) => {
    if (!namespaces) {
      t.skip('user namespaces are not available here: the engine runs on a loopback port (says so in its notice)')
      assert.match(chain.engineIsolationNotice ?? '', /listens on 127\.0\.0\.1:\d+ without authentication/)
      return
    }
    assert.equal(chain.engineIsolation, 'netns')
    assert.equal(chain.engineIsolationNotice, null)
    const own = readlinkSync('/proc/self/ns/net')
    assert.notEqual(
      readlinkSync(`/proc/${chain.enginePid}/ns/net`),
      own,
      'anvil runs in a network namespace of its own',
    )
    const anvilSockets = socketInodes(chain.enginePid)
    // anvil does listen (its HTTP server cannot be turned off)…
    const inside = listeningInodes(`/proc/${chain.enginePid}/net`)
    assert.ok(
      [...anvilSockets].some((i) => inside.has(i)),
      'anvil listens inside its namespace',
    )
    // …but none of its listening sockets exists where every other local process lives
    const host = listeningInodes('/proc/self/net')
    assert.deepEqual(
      [...anvilSockets].filter((i) => host.has(i)),
      [],
      'no socket of anvil listens in the host network namespace',
    )
  })

  it('another local user cannot open the engine socket', { skip: process.getuid?.() !== 0 }, () => {
    // only root can become another user for the test; the directory mode (0700) is checked above for everyone
    assert.match(connectAsNobody(chain.engineIpcPath), /^EACCES$/)
  })

  it('the isolation policy: auto (default), required, none; anything else is refused', () => {
    assert.equal(isolationPolicy({}), 'auto')
    assert.equal(isolationPolicy({ [ISOLATION_ENV]: 'required' }), 'required')
    assert.equal(isolationPolicy({ [ISOLATION_ENV]: 'none' }), 'none')
    assert.throws(() => isolationPolicy({ [ISOLATION_ENV]: 'off' }), InvalidDevnetParameterError)
  })
})

describe('an engine started without isolation says so', { timeout: 120_000 }, () => {
  it('TNV_DEVNET_ENGINE_ISOLATION=none: reached over IPC still, its loopback port named in the notice', async () => {
    const tmp = tempDir('tnv-engine-none-')
    const saved = process.env[ISOLATION_ENV]
    process.env[ISOLATION_ENV] = 'none'
    let chain: DevnetChain | undefined
    try {
      chain = await startDevnetChain({ datadir: tmp.dir, blockTime: 0, protocolLoop: false })
      assert.equal(chain.engineIsolation, 'none')
      assert.match(chain.engineIsolationNotice ?? '', /listens on 127\.0\.0\.1:\d+ without authentication.*=none/)
      assert.equal(await engineCallOnce(chain.engineIpcPath, 'eth_chainId'), '0xde7e1')
    } finally {
      if (saved === undefined) delete process.env[ISOLATION_ENV]
      else process.env[ISOLATION_ENV] = saved
      await chain?.stop()
      tmp.cleanup()
    }
  })
})
