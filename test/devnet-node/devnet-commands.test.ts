/**
 * `tnv devnet start|status|advance-epoch|stop` and `tnv devnet governance …` end to end (the
 * built CLI, no TTY), `tnv governance mint` routed to the devnet's rehearsal mint, `tnv rpc
 * check` against the running reference node on all three transports, and the bad inputs of
 * `devnet start` (exit code, one paragraph, nothing running, no file written).
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { BIN, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { call, freePorts, httpRpc, startNode } from './helpers.js'

type Status = {
  chainId: number
  rpcUrl: string
  wsUrl: string
  ipcPath: string
  blockNumber: number
  blockTimestamp: number
  source: { kind: string; genesis: { name: string | null } | null }
  generation: string
  registry: { codeHash: string; match: string }
  epoch: {
    id: number
    lengthSeconds: number
    lengthSource: string
    registryEpochDuration: number
    nextBoundaryAt: string
    secondsToNextEpoch: number
  }
  committee: string[]
  governance: { owner: string; rehearsalOnly: boolean }
  rewards: { issuancePoolWei: string; note: string }
  paused: boolean
  accounts: { address: string; privateKey: string }[]
  keysNotice: string
}

describe('tnv devnet', () => {
  const tmp = tempDir('tnv-devnet-cmd-')
  const dir = join(tmp.dir, 'devnet')
  after(async () => {
    await runCli(['devnet', 'stop', '--datadir', dir])
    tmp.cleanup()
  })

  it('start --detach, status, advance-epoch, rpc check, stop; repeated start refused, repeated stop succeeds', async () => {
    const [h, w] = await freePorts(2)
    const flags = ['--http', '--http.port', String(h), '--ws', '--ws.port', String(w)]
    const started = await runCli([
      'devnet',
      'start',
      '--detach',
      '--json',
      '--datadir',
      dir,
      '--block-time',
      '0',
      '--epoch-seconds',
      '3600',
      '--',
      ...flags,
    ])
    assert.equal(started.code, 0, started.stderr)
    const info = parseJson<{
      rpcUrl: string
      wsUrl: string
      ipcPath: string
      pid: number
      logFile: string
      generation: string
      registryCodeHash: string
      epochSeconds: number
      governance?: unknown
      owner: string
    }>(started)
    assert.equal(info.generation, 'next')
    assert.equal(info.registryCodeHash, '0xbd1ade0e07b6827794e1e0cb181e756ff3b6916535c81941b634cd783a9cd8ce')
    assert.equal(info.epochSeconds, 3600)
    assert.equal(info.governance, undefined, 'the devnet has no governance key')
    assert.equal(info.owner, '0x3DCc9a6f3A71F0A6C8C659c65558321c374E917a')
    const runtime = JSON.parse(readFileSync(join(dir, 'devnet.json'), 'utf8'))
    assert.equal(runtime.governance, undefined)
    assert.equal(runtime.source.kind, 'embedded')
    assert.equal(runtime.generation, 'next')
    assert.equal(info.rpcUrl, `http://127.0.0.1:${h}`)
    assert.equal(info.wsUrl, `ws://127.0.0.1:${w}`)
    assert.equal(info.ipcPath, join(dir, 'tn.ipc'), 'IPC inside the devnet directory, not /tmp/tn.ipc')
    assert.equal(info.logFile, join(dir, 'node.log'))

    const again = await runCli(['devnet', 'start', '--detach', '--datadir', dir])
    assert.equal(again.code, 25)
    assert.match(again.stderr, /already runs for .* \(pid \d+, http:\/\/127\.0\.0\.1:\d+\).*tnv devnet stop --datadir/)

    const status = await runCli(['devnet', 'status', '--json', '--datadir', dir])
    assert.equal(status.code, 0, status.stderr)
    const s = parseJson<Status>(status)
    assert.equal(s.chainId, 911329)
    assert.equal(s.rpcUrl, info.rpcUrl)
    assert.equal(typeof s.blockNumber, 'number')
    assert.equal(s.committee.length, 4)
    assert.equal(s.source.kind, 'embedded')
    assert.equal(s.generation, 'next')
    assert.equal(s.registry.match, 'exact')
    assert.equal(s.epoch.lengthSeconds, 3600)
    assert.equal(s.epoch.lengthSource, 'rehearsal')
    assert.equal(s.epoch.registryEpochDuration, 86400)
    assert.ok(s.epoch.secondsToNextEpoch > 3500 && s.epoch.secondsToNextEpoch <= 3600)
    assert.equal(s.governance.owner, '0x3DCc9a6f3A71F0A6C8C659c65558321c374E917a')
    assert.equal(s.governance.rehearsalOnly, true)
    assert.equal('privateKey' in s.governance, false)
    assert.equal(s.rewards.issuancePoolWei, '0')
    assert.match(s.rewards.note, /InsufficientBalance/)
    assert.ok(s.accounts.length >= 1)
    assert.match(s.accounts[0]?.privateKey ?? '', /^0x[0-9a-f]{64}$/)
    assert.match(s.keysNotice, /PUBLIC/)

    const human = await runCli(['devnet', 'status', '--datadir', dir])
    assert.match(human.stdout, /PUBLIC DEVNET KEYS/)
    assert.match(human.stdout, /REHEARSAL setting; the registry says 86400 s/)
    assert.match(human.stdout, /REHEARSAL-ONLY/)

    const advanced = await runCli(['devnet', 'advance-epoch', '--json', '--datadir', dir])
    assert.equal(advanced.code, 0, advanced.stderr)
    const a = parseJson<{ epoch: number; blockNumber: number; warpedSeconds: number; concluded: number }>(advanced)
    assert.equal(a.concluded, s.epoch.id)
    assert.equal(a.epoch, s.epoch.id + 1)
    assert.ok(a.warpedSeconds > 3500, 'the clock was moved to the boundary')
    assert.equal(parseJson<Status>(await runCli(['devnet', 'status', '--json', '--datadir', dir])).epoch.id, a.epoch)

    const check = await runCli([
      'rpc',
      'check',
      '--json',
      '--http',
      info.rpcUrl,
      '--ws',
      info.wsUrl,
      '--ipc',
      info.ipcPath,
      '--expect',
      '--',
      ...flags,
      '--ipcpath',
      info.ipcPath,
    ])
    assert.equal(check.code, 0, `${check.stdout}\n${check.stderr}`)
    assert.equal(parseJson<{ ok: boolean }>(check).ok, true)

    const stopped = await runCli(['devnet', 'stop', '--json', '--datadir', dir])
    assert.equal(stopped.code, 0, stopped.stderr)
    assert.deepEqual(parseJson<{ stopped: boolean; pid: number }>(stopped).pid, info.pid)
    assert.equal(existsSync(join(dir, 'devnet.json')), false)
    const twice = await runCli(['devnet', 'stop', '--datadir', dir])
    assert.equal(twice.code, 0)
    assert.match(twice.stdout, /No devnet is running .*nothing to stop/)
    const none = await runCli(['devnet', 'status', '--datadir', dir])
    assert.equal(none.code, 28)
    assert.match(none.stderr, /No devnet is running for .*tnv devnet start --detach/)

    // the stopped devnet resumes where it was
    const resumed = await runCli(['devnet', 'start', '--detach', '--json', '--datadir', dir, '--', ...flags])
    assert.equal(resumed.code, 0, resumed.stderr)
    const r = parseJson<Status>(await runCli(['devnet', 'status', '--json', '--datadir', dir]))
    assert.ok(r.epoch.id >= a.epoch)
    assert.ok(r.blockNumber >= a.blockNumber)
    assert.equal((await runCli(['devnet', 'stop', '--datadir', dir])).code, 0)
  })

  it('foreground start: logs on stderr, ready summary on stdout, Ctrl-C (SIGINT to the group) stops it cleanly', async () => {
    const fg = join(tmp.dir, 'foreground')
    const [h] = await freePorts(1)
    const child = spawn(
      process.execPath,
      [BIN, 'devnet', 'start', '--datadir', fg, '--block-time', '0', '--', '--http', '--http.port', String(h)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d) => {
      stdout += d
    })
    child.stderr?.on('data', (d) => {
      stderr += d
    })
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    for (let i = 0; i < 600 && !stdout.includes('Ctrl-C stops it'); i++) await new Promise((r) => setTimeout(r, 100))
    assert.match(stdout, new RegExp(`http +http://127\\.0\\.0\\.1:${h}`))
    assert.match(stderr, /node \| .*worker rpc endpoints resolved/)
    assert.ok(existsSync(join(fg, 'devnet.json')))
    process.kill(-(child.pid as number), 'SIGINT')
    assert.equal(await exited, 0, stderr)
    assert.match(stderr, /node stopped; the chain is saved/)
    assert.doesNotMatch(stderr, /second signal/)
    assert.equal(existsSync(join(fg, 'devnet.json')), false)
  })

  it('a node started with --chain devnet joins the running devnet and stops when it stops', async () => {
    const shared = join(tmp.dir, 'shared')
    const [h, own] = await freePorts(2)
    const env = { TNV_DEVNET_DIR: shared }
    const none = startNode(
      ['node', '--datadir', join(tmp.dir, 'validator'), '--chain', 'devnet', '--http', '--http.port', String(own)],
      { ...process.env, ...env },
    )
    assert.notEqual(await none.exited, 0)
    assert.match(none.out(), /none is running for .*tnv devnet start --detach/)

    const devnet = await runCli(
      ['devnet', 'start', '--detach', '--json', '--block-time', '0', '--', '--http', '--http.port', String(h)],
      { env },
    )
    assert.equal(devnet.code, 0, devnet.stderr)
    const info = parseJson<{ rpcUrl: string; engine?: unknown }>(devnet)
    assert.equal(info.engine, undefined, 'the engine endpoint is not part of the output')
    const follower = startNode(
      [
        'node',
        '--datadir',
        join(tmp.dir, 'validator'),
        '--chain',
        'devnet',
        '--http',
        '--http.port',
        String(own),
        '--http.api',
        'eth,tn',
        '--ipcdisable',
      ],
      { ...process.env, ...env },
    )
    await follower.waitFor('reference node started')
    const mine = `http://127.0.0.1:${own}`
    assert.equal((await runCli(['devnet', 'advance-epoch', '--datadir', shared])).code, 0)
    assert.equal(await call(mine, 'eth_blockNumber'), await call(info.rpcUrl, 'eth_blockNumber'))
    assert.equal(await call(mine, 'tn_getCurrentEpoch'), await call(info.rpcUrl, 'tn_getCurrentEpoch'))
    assert.equal((await httpRpc(mine, 'net_version')).error?.code, -32601, "its own selection, not the devnet node's")
    assert.equal((await runCli(['devnet', 'stop', '--datadir', shared])).code, 0)
    assert.equal(await follower.exited, 1)
    assert.match(follower.out(), /the devnet this node joined has stopped/)
  })

  it('a runtime file left by a dead node is cleaned up', async () => {
    const stale = join(tmp.dir, 'stale')
    const dead = spawn(process.execPath, ['-e', ''])
    await new Promise((r) => dead.once('exit', r))
    const { mkdirSync } = await import('node:fs')
    mkdirSync(stale, { recursive: true })
    writeFileSync(
      join(stale, 'devnet.json'),
      JSON.stringify({ pid: dead.pid, chainId: 911329, rpcUrl: 'http://127.0.0.1:1' }),
    )
    const status = await runCli(['devnet', 'status', '--datadir', stale])
    assert.equal(status.code, 28)
    assert.equal(existsSync(join(stale, 'devnet.json')), false)
  })

  it('node flags are checked with the resolver before anything starts', async () => {
    const [p] = await freePorts(1)
    const r = await runCli([
      'devnet',
      'start',
      '--detach',
      '--datadir',
      join(tmp.dir, 'bad'),
      '--',
      '--http',
      '--ws',
      '--http.port',
      String(p),
      '--ws.port',
      String(p),
      '--ws.api',
      'eth',
    ])
    assert.equal(r.code, 25)
    assert.match(r.stderr, /refuses to start.*HTTP and WS share/)
    const misplaced = await runCli(['devnet', 'start', '--datadir', join(tmp.dir, 'bad'), '--http'])
    assert.equal(misplaced.code, 2)
    assert.match(misplaced.stderr, /node flags go after `--`/)
    const own = await runCli(['devnet', 'start', '--datadir', join(tmp.dir, 'bad'), '--', '--chain', 'adiri'])
    assert.equal(own.code, 2)
    assert.match(own.stderr, /--chain is set by `tnv devnet start`/)
  })
})
