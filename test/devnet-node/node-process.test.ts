/**
 * The reference node as a process (bin/tnv-node.js, the node's own argument list): refusals
 * and warnings before anything listens, the endpoints line, tn_* from the registry, SIGTERM
 * with the chain saved and resumed, and an engine that dies. Needs `node scripts/build.mjs`.
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { createWalletClient, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { DevnetRuntimeInfo } from '../../src/devnet/paths.js'
import { isProcessAlive } from '../../src/lib/os/process-alive.js'
import { tempDir } from '../helpers/cli.js'
import { freePortBlock } from '../helpers/ports.js'
import { call, childPids, freePorts, httpRpc, IpcClient, startNode, WsClient } from './helpers.js'

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1')
    s.once('connect', () => {
      s.destroy()
      resolve(true)
    })
    s.once('error', () => resolve(false))
  })
}

/** Running: not gone and not a zombie its parent has not reaped (CI's PID 1 may never reap). */
const alive = isProcessAlive

describe('reference node process', () => {
  const tmp = tempDir('tnv-node-proc-')
  after(() => tmp.cleanup())

  it("refuses before anything listens, with the resolver's error; warnings come before listening", async () => {
    const [p] = await freePorts(1)
    const dir = join(tmp.dir, 'refused')
    const refused = startNode([
      'node',
      '--datadir',
      dir,
      '--http',
      '--ws',
      '--http.port',
      String(p),
      '--ws.port',
      String(p),
      '--http.api',
      'eth,net,web3',
      '--ipcdisable',
    ])
    const code = await refused.exited
    assert.notEqual(code, 0)
    assert.match(refused.out(), /ERROR .*HTTP and WS share 127\.0\.0\.1:\d+.*refuses to start/)
    assert.doesNotMatch(refused.out(), /worker rpc endpoints resolved|starting the devnet chain/)
    assert.equal(await isListening(p as number), false)
    assert.equal(existsSync(join(dir, 'devnet.json')), false)
    assert.equal(existsSync(join(dir, 'chain.json')), false)

    const adiri = startNode(['node', '--datadir', dir, '--chain', 'adiri', '--http', '--http.port', String(p)])
    assert.notEqual(await adiri.exited, 0)
    assert.match(adiri.out(), /test-network feature/)
    assert.match(adiri.out(), /--chain dev/)
    assert.equal(await isListening(p as number), false)
  })

  it('serves the plan on every worker, answers tn_* from the registry, stops cleanly on SIGTERM and resumes the chain', async () => {
    const dir = join(tmp.dir, 'devnet')
    // worker 1 listens on the two ports above w (src/lib/rpc/workers.ts): all four free
    const [h, w] = await freePortBlock(4)
    const args = [
      'node',
      '--datadir',
      dir,
      '--http',
      '--http.port',
      String(h),
      '--http.api',
      'eth,net,web3,rpc,tn,admin',
      '--ws',
      '--ws.port',
      String(w),
      '--ipcpath',
      join(dir, 'tn.ipc'),
      '--workers',
      '2',
      '--devnet.block-time',
      '0',
      '--metrics',
      '127.0.0.1:9001',
    ]
    const node = startNode(args)
    const log = await node.waitFor('reference node started')
    const lines = log.split('\n')
    const warnAt = lines.findIndex((l) => /WARN .*"admin".*not supported/.test(l))
    const listenAt = lines.findIndex((l) => l.includes('worker rpc endpoints resolved'))
    assert.ok(warnAt >= 0 && listenAt > warnAt, `the resolver's warning comes first:\n${log}`)
    assert.match(lines.find((l) => l.includes('--metrics')) ?? '', /WARN .*ignored/)
    const endpointsLine = lines[listenAt] as string
    for (const ep of [
      `http://127.0.0.1:${h}`,
      `ws://127.0.0.1:${w}`,
      join(dir, 'tn.ipc'),
      join(dir, 'tn-worker1.ipc'),
    ]) {
      assert.ok(endpointsLine.includes(ep), `${ep} in ${endpointsLine}`)
    }
    const worker1Http = /worker1\.http=(\S+)/.exec(endpointsLine)?.[1] as string
    const runtime = (await import(join(dir, 'devnet.json'), { with: { type: 'json' } })).default as DevnetRuntimeInfo
    assert.equal(runtime.pid, node.child.pid)
    assert.equal(runtime.rpcUrl, `http://127.0.0.1:${h}`)

    for (const url of [runtime.rpcUrl as string, worker1Http]) {
      const info = (await call(url, 'tn_info')) as { chain_id: number; name: string }
      assert.equal(info.chain_id, 911329)
      assert.equal(await call(url, 'tn_nodeMode'), 'Observer', 'the devnet node holds no validator key')
      const epochInfo = (await call(url, 'tn_getCurrentEpochInfo')) as { committee: string[]; epochId: number }
      assert.equal(epochInfo.committee.length, 4)
      assert.equal(await call(url, 'tn_getCurrentEpoch'), epochInfo.epochId)
      const v = (await call(url, 'tn_getValidator', [epochInfo.committee[0]])) as {
        currentStatus: string
        validatorAddress: string
      }
      assert.equal(v.currentStatus, 'Active')
      assert.equal(v.validatorAddress, epochInfo.committee[0])
      assert.equal(await call(url, 'tn_isValidator', [`0x${'ab'.repeat(96)}`]), false)
      assert.match((await call(url, 'tn_getRewards', [epochInfo.committee[0]])) as string, /^0x[0-9a-f]+$/)
      assert.equal((await httpRpc(url, 'tn_getValidator', ['not-an-address'])).error?.code, -32602)
      assert.equal((await httpRpc(url, 'anvil_mine')).error?.code, -32601)
      assert.equal((await httpRpc(url, 'eth_syncing')).result, false)
    }
    const ws = await WsClient.open(`ws://127.0.0.1:${w}`)
    assert.equal(typeof (await ws.rpc('tn_getCurrentEpoch')).result, 'number')
    await ws.close()
    const ipc = await IpcClient.open(join(dir, 'tn-worker1.ipc'))
    assert.equal((await ipc.rpc('eth_chainId')).result, '0xde7e1')
    ipc.close()

    // a transfer through the node, to find after the restart
    const [account] = runtime.accounts
    assert.ok(account)
    const wallet = createWalletClient({
      account: privateKeyToAccount(account.privateKey),
      transport: http(runtime.rpcUrl as string),
    })
    const recipient = '0x000000000000000000000000000000000000dEaD'
    const hash = await wallet.sendTransaction({ to: recipient, value: parseEther('1.5'), chain: null })
    // mined at once, except when it arrives while the devnet's epoch clock closes an epoch (the
    // engine then mines the closing block itself, a moment later): wait for the receipt, as any
    // client does, before reading the balance
    const deadline = Date.now() + 10_000
    while (!(await call(runtime.rpcUrl as string, 'eth_getTransactionReceipt', [hash]))) {
      assert.ok(Date.now() < deadline, `the transfer ${hash} was not mined within 10 s`)
      await new Promise((r) => setTimeout(r, 50))
    }
    const balance = await call(runtime.rpcUrl as string, 'eth_getBalance', [recipient, 'latest'])
    assert.equal(BigInt(balance as string), parseEther('1.5'))
    const height = BigInt((await call(runtime.rpcUrl as string, 'eth_blockNumber')) as string)

    const engines = childPids(node.child.pid as number)
    assert.ok(engines.length > 0, "anvil runs as the node's child")
    // clients still connected (one subscribed) do not hold the shutdown up
    const lingeringWs = await WsClient.open(`ws://127.0.0.1:${w}`)
    assert.ok((await lingeringWs.rpc('eth_subscribe', ['newHeads'])).result)
    const lingeringIpc = await IpcClient.open(join(dir, 'tn.ipc'))
    assert.equal((await lingeringIpc.rpc('eth_chainId')).result, '0xde7e1')
    node.child.kill('SIGTERM')
    assert.equal(await node.exited, 0)
    lingeringIpc.close()
    await lingeringWs.close()
    assert.match(node.out(), /node stopped; the chain is saved/)
    assert.equal(existsSync(join(dir, 'devnet.json')), false)
    assert.equal(existsSync(join(dir, 'tn.ipc')), false)
    assert.equal(await isListening(h as number), false)
    for (const pid of engines) assert.equal(alive(pid), false, `engine ${pid} is gone`)

    const again = startNode(args)
    await again.waitFor('reference node started')
    try {
      assert.ok(BigInt((await call(runtime.rpcUrl as string, 'eth_blockNumber')) as string) >= height)
      assert.equal(await call(runtime.rpcUrl as string, 'eth_getBalance', [recipient, 'latest']), balance)
    } finally {
      again.child.kill('SIGINT')
      assert.equal(await again.exited, 0)
    }
  })

  it('exits non-zero with a clear log when the engine dies, leaving nothing behind', async () => {
    const dir = join(tmp.dir, 'dies')
    const [h] = await freePorts(1)
    const node = startNode(['node', '--datadir', dir, '--http', '--http.port', String(h), '--ipcdisable'])
    await node.waitFor('reference node started')
    const engines = childPids(node.child.pid as number)
    assert.ok(engines.length > 0)
    for (const pid of engines) process.kill(pid, 'SIGKILL')
    assert.notEqual(await node.exited, 0)
    assert.match(node.out(), /ERROR the execution engine exited unexpectedly; the node stops/)
    assert.equal(existsSync(join(dir, 'devnet.json')), false)
    assert.equal(await isListening(h as number), false)
  })
})
