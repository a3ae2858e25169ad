/**
 * Memory of a long-running devnet (issue 15): the reference node (its gateway and chain logic,
 * one Node process) and its engine (anvil), resident set size at the start, its peak and at the
 * end of a bounded soak:
 *   1. load: SOAK_TXS (default 2,000) signed transfers sent through the node's HTTP endpoint, one
 *      at a time; each is mined into a block of its own (automine), its receipt is awaited, and the
 *      registry is read at the block before (as the registry client replays a mined revert);
 *   2. idle: SOAK_IDLE_S seconds (default 180) with nothing to do but the devnet's idle block
 *      every second (the default --devnet.block-time 1).
 * Two runs, alike but for the engine's memory options: tnv's (src/devnet/chain/engine-memory.ts)
 * and anvil's defaults (the options taken off by a wrapper given as TNV_ANVIL_BINARY; the
 * allocator's environment, ENGINE_ALLOCATOR_ENV, is reset to jemalloc's defaults there too), so
 * the effect is measured on the same machine in the same run. SOAK_BASELINE=0 skips the defaults.
 * Each run reports the engine's growth per transaction block (load) and per idle block (idle).
 * The engine's directory (its temporary files, where anvil writes states it moves out of memory)
 * is measured at the end of each phase too.
 * SOAK_LOG=file appends one line a minute of the idle phase (seconds, block, engine and node RSS).
 *
 * Then compaction (src/devnet/chain/engine-compaction.ts), what bounds the engine however long the
 * devnet runs: a devnet with `--devnet.history-blocks SOAK_HISTORY` (default tnv's, 5,000) is
 * grown by SOAK_COMPACT_BLOCKS blocks (default 6 × SOAK_HISTORY), mined on the engine in chunks of
 * 500 with a transfer through the node after each chunk, and the engine's and the node's RSS are
 * sampled after each chunk (the engine's current process: a compaction starts a new one). The
 * report gives the compactions, the engine's highest RSS, and its RSS after each compaction.
 * SOAK_ONLY=compaction runs this part alone.
 * Run: npm run bench devnet-soak (builds first). Takes about (2 x (load + idle)) on a quiet machine.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Hex, parseGwei } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { resolveAnvilBinary } from '../src/devnet/chain/anvil-binary.js'
import { DEFAULT_ENGINE_HISTORY_BLOCKS } from '../src/devnet/chain/engine-compaction.js'
import { ENGINE_MEMORY_ARGS } from '../src/devnet/chain/engine-memory.js'
import { EngineRpc } from '../src/devnet/chain/engine-rpc.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const NODE_BIN = join(ROOT, 'bin', 'tnv-node.js')
const TXS = Number(process.env.SOAK_TXS ?? 2000)
/** The idle phase in seconds: SOAK_IDLE_S=3600 for the idle hour of docs/devnet-chain.md. */
const IDLE_S = Number(process.env.SOAK_IDLE_S ?? 180)
const BASELINE = process.env.SOAK_BASELINE !== '0'
/**
 * A file that gets one line a minute of the idle phase: seconds, block, engine and node RSS, the
 * engine's peak RSS so far (MB), and the size of the engine's state file (MB, rewritten every 30 s).
 */
const LOG = process.env.SOAK_LOG
const ONLY_COMPACTION = process.env.SOAK_ONLY === 'compaction'
const HISTORY = Number(process.env.SOAK_HISTORY ?? DEFAULT_ENGINE_HISTORY_BLOCKS)
const COMPACT_BLOCKS = Number(process.env.SOAK_COMPACT_BLOCKS ?? 6 * HISTORY)
/** getCurrentEpoch() on the registry */
const READ = { to: '0x07e17e17e17e17e17e17e17e17e17e17e17e17e1', data: '0xb97dd9e2' }

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0))
    })
  })
}

const statusMb = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024
const rssMb = (pid: number) => statusMb(pid, 'VmRSS')
const duMb = (dir: string) => Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) / 1024

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

type Receipt = { blockNumber: Hex; status: Hex }

/** The receipt of `hash`: automine mines right after a transaction is accepted, not always before the answer. */
async function receiptOf(url: string, hash: unknown, what: string): Promise<Receipt> {
  for (let tries = 0; tries < 2000; tries++) {
    const receipt = (await rpc(url, 'eth_getTransactionReceipt', [hash])) as Receipt | null
    if (receipt) return receipt
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`${what} was not mined within 10 s`)
}

type Series = { start: number; peak: number; end: number; samples: number[] }
const series = (): Series => ({ start: Number.NaN, peak: 0, end: Number.NaN, samples: [] })
function sample(s: Series, value: number) {
  if (Number.isNaN(s.start)) s.start = value
  s.peak = Math.max(s.peak, value)
  s.end = value
  s.samples.push(value)
}

type RunResult = {
  label: string
  /** Lowest and highest sample of the idle phase. */
  idle: { engine: { min: number; max: number }; node: { min: number; max: number } }
  engine: Series
  node: Series
  afterLoad: { engine: number; node: number; engineDirMb: number }
  engineDirMb: number
  blocks: number
  loadSeconds: number
  idleBlocks: number
}

async function soak(label: string, work: string, anvilBinary: string | null): Promise<RunResult> {
  const port = await freePort()
  const datadir = join(work, label)
  const env = { ...process.env, ...(anvilBinary ? { TNV_ANVIL_BINARY: anvilBinary } : {}) }
  const node: ChildProcess = spawn(
    process.execPath,
    [NODE_BIN, 'node', '--datadir', datadir, '--http', '--http.port', String(port), '--ipcdisable'],
    { stdio: ['ignore', 'ignore', 'inherit'], env },
  )
  try {
    const runtimePath = join(datadir, 'devnet.json')
    for (let i = 0; !existsSync(runtimePath); i++) {
      if (node.exitCode !== null || i > 1200) throw new Error(`the node did not start (${label})`)
      await new Promise((r) => setTimeout(r, 100))
    }
    const info = JSON.parse(readFileSync(runtimePath, 'utf8')) as {
      chainId: number
      rpcUrl: string
      accounts: { privateKey: Hex }[]
    }
    const enginePid = Number(
      execFileSync('pgrep', ['-P', String(node.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n')[0],
    )
    // the engine's private directory is its working directory
    const engineDir = readlinkSync(`/proc/${enginePid}/cwd`)
    const engine = series()
    const gateway = series()
    const take = () => {
      sample(engine, rssMb(enginePid))
      sample(gateway, rssMb(node.pid as number))
    }
    take()
    const url = info.rpcUrl
    const account = privateKeyToAccount(info.accounts[0]?.privateKey as Hex)
    const to = Array.from({ length: 16 }, (_, i) => `0x${(0xbeef00 + i).toString(16).padStart(40, '0')}` as Hex)
    let nonce = Number(await rpc(url, 'eth_getTransactionCount', [account.address, 'pending']))
    const t0 = performance.now()
    for (let i = 0; i < TXS; i++) {
      const raw = await account.signTransaction({
        chainId: info.chainId,
        type: 'eip1559',
        nonce: nonce++,
        to: to[i % to.length] as Hex,
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: parseGwei('100'),
        maxPriorityFeePerGas: 1n,
      })
      const hash = await rpc(url, 'eth_sendRawTransaction', [raw])
      const receipt = await receiptOf(url, hash, `transaction ${i} (${label})`)
      if (receipt.status !== '0x1') throw new Error(`transaction ${i} failed (${label})`)
      // the state at the block before stays readable (a mined revert is replayed there)
      await rpc(url, 'eth_call', [READ, `0x${(BigInt(receipt.blockNumber) - 1n).toString(16)}`])
      if (i % 100 === 0) take()
    }
    const loadSeconds = (performance.now() - t0) / 1000
    take()
    const afterLoad = { engine: engine.end, node: gateway.end, engineDirMb: duMb(engineDir) }
    const blocksAfterLoad = Number(await rpc(url, 'eth_blockNumber'))
    const idleFrom = engine.samples.length
    if (LOG)
      appendFileSync(
        LOG,
        `# ${label}: idle seconds, block, engine RSS MB, node RSS MB, engine peak RSS MB, state file MB\n`,
      )
    for (let s = 0; s < IDLE_S; s += 5) {
      await new Promise((r) => setTimeout(r, 5000))
      take()
      if (LOG && (s + 5) % 60 === 0) {
        const block = Number(await rpc(url, 'eth_blockNumber'))
        const stateMb = statSync(join(datadir, 'anvil-state.json'), { throwIfNoEntry: false })?.size ?? 0
        appendFileSync(
          LOG,
          `${s + 5} ${block} ${engine.end.toFixed(1)} ${gateway.end.toFixed(1)} ${statusMb(enginePid, 'VmHWM').toFixed(1)} ${(stateMb / 2 ** 20).toFixed(1)}\n`,
        )
      }
    }
    const blocks = Number(await rpc(url, 'eth_blockNumber'))
    const engineDirMb = duMb(engineDir)
    const idleOf = (x: Series) => {
      const idle = x.samples.slice(idleFrom)
      return { min: Math.min(...idle), max: Math.max(...idle) }
    }
    return {
      label,
      idle: { engine: idleOf(engine), node: idleOf(gateway) },
      engine,
      node: gateway,
      afterLoad,
      engineDirMb,
      blocks,
      loadSeconds,
      idleBlocks: blocks - blocksAfterLoad,
    }
  } finally {
    if (node.exitCode === null) {
      const exited = new Promise((r) => node.once('exit', r))
      node.kill('SIGTERM')
      await exited
    }
  }
}

const childOf = (pid: number) =>
  Number(
    execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')[0],
  )

/** Compaction: the engine's RSS while the chain grows by many times its block history. */
async function soakCompaction(work: string): Promise<void> {
  const port = await freePort()
  const datadir = join(work, 'compaction')
  const node: ChildProcess = spawn(
    process.execPath,
    [
      NODE_BIN,
      'node',
      '--datadir',
      datadir,
      '--http',
      '--http.port',
      String(port),
      '--ipcdisable',
      '--devnet.history-blocks',
      String(HISTORY),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
  )
  let log = ''
  node.stdout?.setEncoding('utf8')
  node.stdout?.on('data', (d: string) => {
    log += d
  })
  try {
    const runtimePath = join(datadir, 'devnet.json')
    for (let i = 0; !existsSync(runtimePath); i++) {
      if (node.exitCode !== null || i > 1200) throw new Error('the node did not start (compaction)')
      await new Promise((r) => setTimeout(r, 100))
    }
    const info = JSON.parse(readFileSync(runtimePath, 'utf8')) as {
      chainId: number
      rpcUrl: string
      accounts: { privateKey: Hex }[]
      engine: { ipcPath: string }
    }
    const engine = new EngineRpc(info.engine.ipcPath, { reconnectWaitMs: 60_000 })
    const account = privateKeyToAccount(info.accounts[0]?.privateKey as Hex)
    let nonce = Number(await rpc(info.rpcUrl, 'eth_getTransactionCount', [account.address, 'pending']))
    const engineRss = series()
    const nodeRss = series()
    const afterCompaction: { block: number; rss: number; node: number }[] = []
    let pid = childOf(node.pid as number)
    const t0 = performance.now()
    for (let mined = 0; mined < COMPACT_BLOCKS; mined += 500) {
      // the bench mines on the engine directly, as an outside client: a compaction that stops the
      // engine during the call ends it (the node's own requests wait); the blocks are counted anyway
      await engine.request('anvil_mine', ['0x1f4']).catch((err: Error) => {
        if (!/closed the connection/.test(err.message)) throw err
      })
      const raw = await account.signTransaction({
        chainId: info.chainId,
        type: 'eip1559',
        nonce: nonce++,
        to: '0x000000000000000000000000000000000000bEEF',
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: parseGwei('100'),
        maxPriorityFeePerGas: 1n,
      })
      const hash = await rpc(info.rpcUrl, 'eth_sendRawTransaction', [raw])
      const receipt = await receiptOf(info.rpcUrl, hash, `transfer after ${mined} blocks`)
      // let a due compaction happen (the devnet checks every second) before sampling
      await new Promise((r) => setTimeout(r, 1500))
      const now = childOf(node.pid as number)
      sample(engineRss, rssMb(now))
      sample(nodeRss, rssMb(node.pid as number))
      if (now !== pid) {
        pid = now
        afterCompaction.push({ block: Number(BigInt(receipt.blockNumber)), rss: engineRss.end, node: nodeRss.end })
      }
    }
    const seconds = (performance.now() - t0) / 1000
    engine.close()
    const paused = [...log.matchAll(/engine compacted.*pausedMs=(\d+)/g)].map((m) => Number(m[1]))
    console.log(
      `compaction: --devnet.history-blocks ${HISTORY}, ${COMPACT_BLOCKS} blocks (chunks of 500, a transfer after each) in ${seconds.toFixed(0)} s; ${paused.length} compactions${paused.length > 0 ? ` (engine stopped ${Math.min(...paused)}–${Math.max(...paused)} ms)` : ''}`,
    )
    console.log(
      `  engine (anvil)  RSS MB start ${f(engineRss.start)}  peak ${f(engineRss.peak)}  end ${f(engineRss.end)}  after each compaction: ${afterCompaction.map((c) => `${c.rss.toFixed(0)} (block ${c.block})`).join(', ')}`,
    )
    console.log(
      `  node (gateway)  RSS MB start ${f(nodeRss.start)}  peak ${f(nodeRss.peak)}  end ${f(nodeRss.end)}  after each compaction: ${afterCompaction.map((c) => c.node.toFixed(0)).join(', ')}`,
    )
  } finally {
    if (node.exitCode === null) {
      const exited = new Promise((r) => node.once('exit', r))
      node.kill('SIGTERM')
      await exited
    }
  }
}

const f = (n: number) => n.toFixed(0).padStart(4)
function report(r: RunResult): void {
  console.log(
    `${r.label}: ${TXS} transactions in ${r.loadSeconds.toFixed(0)} s, then ${IDLE_S} s idle (${r.idleBlocks} idle blocks); ${r.blocks} blocks in all`,
  )
  for (const [who, s, idle, loadEnd] of [
    ['engine (anvil)', r.engine, r.idle.engine, r.afterLoad.engine],
    ['node (gateway)', r.node, r.idle.node, r.afterLoad.node],
  ] as const) {
    console.log(
      `  ${who.padEnd(15)} RSS MB start ${f(s.start)}  after load ${f(loadEnd)}  peak ${f(s.peak)}  end ${f(s.end)}  (idle: ${f(idle.min)} to ${f(idle.max)})`,
    )
  }
  console.log(
    `  engine directory on disk: ${r.afterLoad.engineDirMb.toFixed(1)} MB after load, ${r.engineDirMb.toFixed(1)} MB at the end`,
  )
  // growth per block: the engine's resident memory over the blocks of each phase
  const kb = (mb: number, blocks: number) => (blocks > 0 ? `${((mb * 1024) / blocks).toFixed(1)} KB` : '-')
  console.log(
    `  engine growth: ${kb(r.afterLoad.engine - r.engine.start, TXS)} per transaction block (load), ${kb(r.engine.end - r.afterLoad.engine, r.idleBlocks)} per idle block (${r.idleBlocks} idle blocks, ${IDLE_S} s)`,
  )
}

// ensure the engine binary exists before spending minutes
const anvil = resolveAnvilBinary()
const work = mkdtempSync(join(tmpdir(), 'tnv-bench-soak-'))
try {
  console.log(`engine memory options: ${ENGINE_MEMORY_ARGS.join(' ')}`)
  if (!ONLY_COMPACTION) report(await soak('tnv options', work, null))
  if (BASELINE && !ONLY_COMPACTION) {
    // anvil's defaults: a wrapper takes tnv's memory options off the engine's command line
    const wrapper = join(work, 'anvil-defaults.sh')
    const [flag] = ENGINE_MEMORY_ARGS
    writeFileSync(
      wrapper,
      `#!/bin/sh\n# anvil without ${ENGINE_MEMORY_ARGS.join(' ')} and with jemalloc's default decay\nunset _RJEM_MALLOC_CONF\nfor a do shift; if [ "$skip" = 1 ]; then skip=0; continue; fi; if [ "$a" = "${flag}" ]; then skip=1; continue; fi; set -- "$@" "$a"; done\nexec ${JSON.stringify(anvil)} "$@"\n`,
    )
    chmodSync(wrapper, 0o755)
    const base = await soak('anvil defaults', work, wrapper)
    report(base)
  }
  await soakCompaction(work)
} finally {
  rmSync(work, { recursive: true, force: true })
}
