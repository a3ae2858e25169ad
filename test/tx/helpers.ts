/**
 * Crash tests' tools: a JSON-RPC proxy in front of anvil that behaves like a real node where the
 * devnet was kind (it estimates gas at `latest`, so a transaction still in the pool is not seen,
 * and it can hold the answer of eth_sendRawTransaction after forwarding it), the CLI run as a
 * child that the test kills, and the chain's own count of a sender's transactions.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Address, Hex } from 'viem'
import { BIN, type CliResult, ROOT, testStateDir } from '../helpers/cli.js'

type RpcRequest = { jsonrpc: '2.0'; id: number | string; method: string; params?: unknown[] }

export type NodeProxy = {
  url: string
  /** When true, eth_sendRawTransaction is forwarded and its answer never comes ('held' is emitted with the raw bytes). */
  holdSends: boolean
  events: EventEmitter
  /** Methods seen, in order. */
  seen: string[]
  close(): Promise<void>
}

export async function startNodeProxy(upstream: string): Promise<NodeProxy> {
  const events = new EventEmitter()
  const seen: string[] = []
  const held: { end: () => void }[] = []
  const forward = async (body: unknown) =>
    (await (
      await fetch(upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as unknown
  const proxy: NodeProxy = {
    url: '',
    holdSends: false,
    events,
    seen,
    close: async () => {
      for (const h of held) h.end()
      await new Promise<void>((r) => server.close(() => r()))
    },
  }
  const rewrite = (req: RpcRequest): RpcRequest => {
    seen.push(req.method)
    // a node that estimates at the latest block: a transaction still in the pool is not part of it
    if (req.method === 'eth_estimateGas') return { ...req, params: [(req.params ?? [])[0], 'latest'] }
    return req
  }
  const server: Server = createServer((req, res) => {
    let text = ''
    req.on('data', (c) => {
      text += c
    })
    req.on('end', () => {
      void (async () => {
        const parsed = JSON.parse(text) as RpcRequest | RpcRequest[]
        const list = Array.isArray(parsed) ? parsed : [parsed]
        const rewritten = list.map(rewrite)
        const answer = await forward(Array.isArray(parsed) ? rewritten : rewritten[0])
        const send = list.find((r) => r.method === 'eth_sendRawTransaction')
        if (send && proxy.holdSends) {
          // the node took it; its answer is lost (the client dies waiting)
          held.push({ end: () => res.destroy() })
          events.emit('held', (send.params as Hex[])[0])
          return
        }
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify(answer))
      })().catch((err: unknown) => {
        res.statusCode = 502
        res.end(String(err))
      })
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return proxy
}

/** Spawns the built CLI (no TTY) with the test's state directory. */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
): ChildProcess & { result: Promise<CliResult & { signal: NodeJS.Signals | null }> } {
  const merged: Record<string, string> = {}
  for (const [k, v] of Object.entries({ ...process.env, TNV_STATE_DIR: testStateDir(), ...env }))
    if (v !== undefined) merged[k] = v
  for (const k of ['TN_BLS_PASSPHRASE', 'TN_PRIVATE_KEY', 'TN_CHAIN', 'TN_RPC_URL', 'TN_DATADIR', 'TN_NON_INTERACTIVE'])
    if (!(k in env)) delete merged[k]
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: merged, stdio: ['pipe', 'pipe', 'pipe'] })
  child.stdin?.end()
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => {
    stdout += d
  })
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  const result = new Promise<CliResult & { signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr }))
  })
  return Object.assign(child, { result })
}

/** Every transaction a sender has in blocks [from, latest], in order (the chain's own count). */
export async function minedFrom(
  rpc: (method: string, params: unknown[]) => Promise<unknown>,
  sender: Address,
): Promise<{ hash: Hex; nonce: number; input: Hex }[]> {
  const latest = Number(BigInt((await rpc('eth_blockNumber', [])) as string))
  const out: { hash: Hex; nonce: number; input: Hex }[] = []
  for (let n = 0; n <= latest; n++) {
    const block = (await rpc('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])) as {
      transactions: { hash: Hex; from: string; nonce: string; input: Hex }[]
    }
    for (const tx of block.transactions)
      if (tx.from.toLowerCase() === sender.toLowerCase())
        out.push({ hash: tx.hash, nonce: Number(BigInt(tx.nonce)), input: tx.input })
  }
  return out
}
