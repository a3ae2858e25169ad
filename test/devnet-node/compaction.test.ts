/**
 * A devnet started the operator's way (`tnv devnet start --detach --history-blocks 256`)
 * compacts its engine twice while clients keep asking the reference node: every request is
 * answered (they wait through the restart), the node never stops, anvil's process changes, a
 * WebSocket and an IPC client keep their connections and their newHeads subscriptions (the
 * ids they were given, eth_unsubscribe with them afterwards), and the chain carries on: a
 * transfer and its receipt, a registry read, `tnv devnet status` and
 * `tnv validator status --chain devnet`.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { type Address, createWalletClient, type Hex, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { MIN_ENGINE_HISTORY_BLOCKS } from '../../src/devnet/chain/engine-compaction.js'
import { EngineRpc } from '../../src/devnet/chain/engine-rpc.js'
import type { DevnetRuntimeInfo } from '../../src/devnet/paths.js'
import { isProcessAlive } from '../../src/lib/os/process-alive.js'
import { type CliResult, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { call, childPids, freePorts, httpRpc, IpcClient, WsClient } from './helpers.js'

const HISTORY = MIN_ENGINE_HISTORY_BLOCKS

describe('engine compaction under a running reference node', { timeout: 240_000 }, () => {
  const tmp = tempDir('tnv-compact-')
  const devnetDir = join(tmp.dir, 'devnet')
  let runtime: DevnetRuntimeInfo
  let rpcUrl: string
  let wsUrl: string
  const tnv = (args: string[]): Promise<CliResult> =>
    runCli(args, { env: { TNV_DEVNET_DIR: devnetDir, TN_CHAIN: 'devnet' }, timeoutMs: 90_000 })

  before(async () => {
    const [port, wsPort] = await freePorts(2)
    const started = await runCli(
      [
        'devnet',
        'start',
        '--detach',
        '--json',
        '--datadir',
        devnetDir,
        '--block-time',
        '0',
        '--history-blocks',
        String(HISTORY),
        '--',
        '--http',
        '--http.port',
        String(port),
        '--ws',
        '--ws.port',
        String(wsPort),
      ],
      { timeoutMs: 120_000 },
    )
    assert.equal(started.code, 0, started.stderr)
    rpcUrl = parseJson<{ rpcUrl: string }>(started).rpcUrl
    wsUrl = `ws://127.0.0.1:${wsPort}`
    runtime = JSON.parse(readFileSync(join(devnetDir, 'devnet.json'), 'utf8')) as DevnetRuntimeInfo
  })
  /** Closed at the end whatever happened (an open client keeps the test process alive). */
  const subscribers: { close(): unknown }[] = []
  after(async () => {
    for (const c of subscribers) await c.close()
    await runCli(['devnet', 'stop', '--datadir', devnetDir])
    tmp.cleanup()
  })

  const compactions = () => (readFileSync(join(devnetDir, 'node.log'), 'utf8').match(/engine compacted/g) ?? []).length

  it('answers every request through two compactions and the chain carries on', async (ctx) => {
    const nodePid = runtime.pid
    const engine = new EngineRpc(runtime.engine.ipcPath, { reconnectWaitMs: 30_000 })
    const mine = (n: number) => engine.request('anvil_mine', [`0x${n.toString(16)}`])
    const firstEngines = childPids(nodePid)
    assert.ok(firstEngines.length > 0, 'anvil runs as the node’s child')

    // clients that keep asking while the engine is compacted
    let asking = true
    const failures: string[] = []
    let answered = 0
    const client = async () => {
      while (asking) {
        const a = await httpRpc(rpcUrl, 'eth_getBalance', [runtime.accounts[0]?.address, 'latest']).catch(
          (e: Error) => ({ error: { code: 0, message: e.message } }),
        )
        if ('error' in a && a.error) failures.push(a.error.message)
        else answered++
      }
    }
    const clients = [client(), client(), client()]
    const ws = await WsClient.open(wsUrl)
    subscribers.push(ws)
    const wsSub = (await ws.rpc('eth_subscribe', ['newHeads'])).result as string
    assert.match(wsSub, /^0x/)
    let wsClosed = false
    ws.socket.once('close', () => {
      wsClosed = true
    })
    assert.ok(runtime.ipcPath, 'the node serves IPC')
    const ipc = await IpcClient.open(runtime.ipcPath)
    subscribers.push(ipc)
    const ipcSub = (await ipc.rpc('eth_subscribe', ['newHeads'])).result as string
    assert.match(ipcSub, /^0x/)
    type Note = { method?: string; params?: { subscription?: string; result?: { number?: string } } }
    const headOf = (number: bigint) => (m: unknown) =>
      (m as Note).method === 'eth_subscription' && BigInt((m as Note).params?.result?.number ?? -1) === number
    /** Both clients get the head of block `number` under the ids they were given. */
    const bothGetHead = async (number: bigint, when: string) => {
      const wsHead = (await ws.next(headOf(number))) as Note
      const ipcHead = (await ipc.next(headOf(number))) as Note
      assert.equal(wsHead.params?.subscription, wsSub, `WebSocket: the client's id ${when}`)
      assert.equal(ipcHead.params?.subscription, ipcSub, `IPC: the client's id ${when}`)
      // the heads before it are read
      ws.messages.length = 0
      ipc.messages.length = 0
    }

    const until = async (what: string, done: () => boolean) => {
      while (!done()) {
        ctx.signal.throwIfAborted()
        assert.ok(isProcessAlive(nodePid), `the node stopped while waiting for ${what}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    const height = async () => BigInt((await call(rpcUrl, 'eth_blockNumber')) as string)

    await mine(2 * HISTORY + 1)
    await until('the first compaction', () => compactions() >= 1)
    const secondEngines = childPids(nodePid)
    assert.equal(secondEngines.length, 1)
    assert.ok(!firstEngines.includes(secondEngines[0] as number), 'a new anvil runs')

    // a transfer through the node, its receipt, a registry read
    const [account] = runtime.accounts
    assert.ok(account)
    const wallet = createWalletClient({
      account: privateKeyToAccount(account.privateKey as Hex),
      transport: http(rpcUrl),
    })
    const recipient: Address = '0x000000000000000000000000000000000000dEaD'
    const hash = await wallet.sendTransaction({ to: recipient, value: parseEther('2'), chain: null })
    const receipt = (await call(rpcUrl, 'eth_getTransactionReceipt', [hash])) as { status: string; blockNumber: string }
    assert.equal(receipt.status, '0x1')
    await bothGetHead(BigInt(receipt.blockNumber), 'after the first compaction')
    assert.equal(BigInt((await call(rpcUrl, 'eth_getBalance', [recipient, 'latest'])) as string), parseEther('2'))
    const epochInfo = (await call(rpcUrl, 'tn_getCurrentEpochInfo')) as { committee: string[] }
    assert.equal(epochInfo.committee.length, 4)

    // the second compaction, HISTORY blocks later
    await mine(HISTORY + 1)
    await until('the second compaction', () => compactions() >= 2)
    const before = await height()
    await mine(1)
    await bothGetHead(before + 1n, 'after the second compaction')
    const status = await tnv(['devnet', 'status', '--datadir', devnetDir, '--json'])
    assert.equal(status.code, 0, status.stderr)
    assert.ok(BigInt(parseJson<{ blockNumber: number }>(status).blockNumber) >= before)
    const validator = await tnv(['validator', 'status', '--address', epochInfo.committee[0] as string, '--json'])
    assert.equal(validator.code, 0, `${validator.stdout}${validator.stderr}`)
    assert.equal(parseJson<{ status: string }>(validator).status, 'Active')

    asking = false
    await Promise.all(clients)
    engine.close()
    assert.deepEqual(failures, [], 'no request failed during the compactions')
    assert.ok(answered > 0)
    assert.equal(wsClosed, false, 'the WebSocket stays open')
    assert.equal(ipc.closed, false, 'the IPC connection stays open')
    assert.equal((await ws.rpc('eth_unsubscribe', [wsSub])).result, true)
    assert.equal((await ipc.rpc('eth_unsubscribe', [ipcSub])).result, true)
    assert.equal((await ws.rpc('eth_unsubscribe', [wsSub])).result, false)
    assert.equal((await ipc.rpc('eth_unsubscribe', [ipcSub])).result, false)
    assert.ok(isProcessAlive(nodePid), 'the node runs on')
    const third = childPids(nodePid)
    assert.ok(!secondEngines.includes(third[0] as number), 'another anvil runs after the second compaction')
    assert.doesNotMatch(readFileSync(join(devnetDir, 'node.log'), 'utf8'), /exited unexpectedly|ERROR/)
  })
})
