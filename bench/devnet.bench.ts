/**
 * The rehearsal devnet (issue 11): time from `tnv devnet start --genesis adiri|next` and from
 * `--fork-url` (a LOCAL upstream started from a genesis) to a ready devnet, as ratios against
 * anvil's bare start-up measured in the same run; the same in process (startDevnetChain); the
 * upstream requests of a fork; the gas of the node's system calls and of a stake on both real
 * registries; and `npm run demo`'s wall time (it goes through the registry client, which issue
 * 12 rewrites: its outcome is printed as measured).
 * Run: node scripts/build.mjs && node scripts/bench.mjs devnet
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Abi, createWalletClient, encodeFunctionData, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { adiriProofOfPossession } from '../src/devnet/chain/adiri-pop.js'
import { engineLauncher } from '../src/devnet/chain/engine-isolation.js'
import { EngineRpc, engineTransport } from '../src/devnet/chain/engine-rpc.js'
import { freeLoopbackPort } from '../src/devnet/chain/free-port.js'
import { startGenesisEngine } from '../src/devnet/chain/genesis-engine.js'
import { spawnAnvil } from '../src/devnet/chain/spawn-anvil.js'
import { startDevnetChain } from '../src/devnet/chain/start.js'
import { DEVNET_CHAIN_ID, REGISTRY_ADDRESS } from '../src/devnet/chain/types.js'
import { blsKeyGen, blsPublicKey } from '../src/lib/keys/bls.js'
import { signProofOfPossession } from '../src/lib/keys/pop.js'
import { registryAbis } from '../src/lib/registry/generations/detect.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin', 'run.js')
const work = mkdtempSync(join(tmpdir(), 'tnv-bench-devnet-'))
let n = 0
const fresh = () => join(work, `d${n++}`)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const ms = (x: number) => `${x.toFixed(0)} ms`
const ratio = (x: number, base: number) => `${(x / base).toFixed(1)}×`

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now()
  const value = await fn()
  return [performance.now() - t, value]
}

/** `tnv …` as a user runs it (a new process), in milliseconds; the devnet it starts is stopped after. */
function cli(args: string[], env: Record<string, string> = {}): { ms: number; code: number | null; out: string } {
  const t = performance.now()
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' })
  return { ms: performance.now() - t, code: r.status, out: `${r.stdout}${r.stderr}` }
}

/** anvil's bare start-up: spawn to the first answer, on a loopback port (no namespace), IPC as the devnet asks it. */
async function bareAnvil(): Promise<number> {
  const launcher = await engineLauncher('none')
  const engineDir = mkdtempSync(join(tmpdir(), 'tnv-bench-anvil-'))
  const [t, anvil] = await timed(async () =>
    spawnAnvil({ engineDir, launcher, port: await freeLoopbackPort(), chainId: DEVNET_CHAIN_ID, blockTime: 0 }),
  )
  await anvil.stop()
  rmSync(engineDir, { recursive: true, force: true })
  return t
}

const rows: string[] = []
const row = (...cells: string[]) => rows.push(`| ${cells.join(' | ')} |`)

try {
  // warm the module graph so in-process figures show the devnet's own work
  await (await startDevnetChain({ datadir: fresh(), blockTime: 0, protocolLoop: false })).stop()

  // a local upstream for the fork figures: the adiri genesis under its own chain id
  const upstream = await startGenesisEngine({ genesis: 'adiri', dir: fresh() })
  const bare: number[] = []
  const inProcess: Record<string, number[]> = { next: [], adiri: [], fork: [], resume: [] }
  let forkRequests = 0
  for (let i = 0; i < 5; i++) {
    bare.push(await bareAnvil())
    for (const g of ['next', 'adiri'] as const) {
      const [t, chain] = await timed(() =>
        startDevnetChain({
          datadir: fresh(),
          source: { kind: 'genesis', genesis: g },
          blockTime: 0,
          protocolLoop: false,
        }),
      )
      inProcess[g]?.push(t)
      await chain.stop()
    }
    const dir = fresh()
    const [tf, fork] = await timed(() =>
      startDevnetChain({
        datadir: dir,
        source: { kind: 'fork', url: upstream.httpUrl },
        blockTime: 0,
        protocolLoop: false,
      }),
    )
    inProcess.fork?.push(tf)
    forkRequests = fork.forkStats()?.requests ?? 0
    await fork.stop()
    const [tr, resumed] = await timed(() =>
      startDevnetChain({
        datadir: dir,
        source: { kind: 'fork', url: upstream.httpUrl },
        blockTime: 0,
        protocolLoop: false,
      }),
    )
    inProcess.resume?.push(tr)
    await resumed.stop()
  }
  const base = median(bare)
  console.log(`bare anvil start (spawn to first answer): median ${ms(base)} of ${bare.map(ms).join(', ')}`)
  for (const [what, xs] of Object.entries(inProcess))
    console.log(`startDevnetChain ${what}: median ${ms(median(xs))} (${ratio(median(xs), base)})`)
  console.log(`fork start: ${forkRequests} upstream HTTP requests (dev account funding included)`)

  // the CLI, as an operator runs it: from `tnv devnet start --detach` to the prompt (ready)
  const cliRuns: Record<string, number[]> = { embedded: [], 'genesis next': [], 'genesis adiri': [], fork: [] }
  const cliBare: number[] = []
  for (let i = 0; i < 3; i++) {
    cliBare.push(await bareAnvil())
    for (const [what, extra] of [
      ['embedded', []],
      ['genesis next', ['--genesis', 'next']],
      ['genesis adiri', ['--genesis', 'adiri']],
      ['fork', ['--fork-url', upstream.httpUrl]],
    ] as const) {
      const dir = fresh()
      const port = await freeLoopbackPort()
      const r = cli([
        'devnet',
        'start',
        '--detach',
        '--datadir',
        dir,
        ...extra,
        '--',
        '--http',
        '--http.port',
        String(port),
        '--ipcdisable',
      ])
      if (r.code !== 0) throw new Error(`devnet start ${what} failed:\n${r.out}`)
      cliRuns[what]?.push(r.ms)
      cli(['devnet', 'stop', '--datadir', dir])
    }
  }
  const cliBase = median(cliBare)
  console.log(`bare anvil (same run as the CLI): median ${ms(cliBase)}`)
  for (const [what, xs] of Object.entries(cliRuns)) {
    console.log(
      `tnv devnet start --detach (${what}) to ready: median ${ms(median(xs))} of ${xs.map(ms).join(', ')} (${ratio(median(xs), cliBase)})`,
    )
    row(
      `\`tnv devnet start --detach\` ${what}`,
      `bare anvil ${ms(cliBase)}`,
      ms(median(xs)),
      ratio(median(xs), cliBase),
    )
  }
  for (const [what, xs] of Object.entries(inProcess))
    row(`\`startDevnetChain\` in process, ${what}`, `bare anvil ${ms(base)}`, ms(median(xs)), ratio(median(xs), base))

  // gas on both real registries
  for (const generation of ['next', 'adiri'] as const) {
    const chain = await startDevnetChain({
      datadir: fresh(),
      source: { kind: 'genesis', genesis: generation },
      blockTime: 0,
      protocolLoop: false,
    })
    const abi = registryAbis[generation] as Abi
    const account = chain.accounts[0] as (typeof chain.accounts)[number]
    await chain.governance({ action: 'mint', validator: account.address })
    const secret = blsKeyGen(new Uint8Array(32).fill(7))
    const key = `0x${Buffer.from(blsPublicKey(secret)).toString('hex')}` as const
    const pop =
      generation === 'next'
        ? { signature: `0x${Buffer.from(signProofOfPossession(secret, account.address)).toString('hex')}` }
        : (({ uncompressedPubkey, uncompressedSignature }) => ({ uncompressedPubkey, uncompressedSignature }))(
            adiriProofOfPossession(secret, account.address),
          )
    const transport = engineTransport(new EngineRpc(chain.engineIpcPath))
    const wallet = createWalletClient({ account: privateKeyToAccount(account.privateKey), transport })
    const { createPublicClient } = await import('viem')
    const client = createPublicClient({ transport })
    const send = async (data: `0x${string}`, value = 0n) => {
      const hash = await wallet.sendTransaction({ chain: null, to: REGISTRY_ADDRESS, data, value })
      return (await client.waitForTransactionReceipt({ hash })).gasUsed
    }
    const stakeGas = await send(
      encodeFunctionData({ abi, functionName: 'stake', args: [key, pop] }),
      parseEther('1000000'),
    )
    const activateGas = await send(encodeFunctionData({ abi, functionName: 'activate' }))
    const r = await chain.advanceEpoch()
    const block = await client.getBlock({ blockNumber: r.blockNumber, includeTransactions: true })
    const systemGas = await Promise.all(
      block.transactions.map(async (tx) => (await client.getTransactionReceipt({ hash: tx.hash })).gasUsed),
    )
    console.log(
      `gas ${generation}: stake ${stakeGas}, activate ${activateGas}, epoch close system calls ${systemGas.join(' + ')}`,
    )
    row(
      `gas on ${generation}: stake / activate / epoch close (system calls)`,
      '',
      `${stakeGas} / ${activateGas} / ${systemGas.join(' + ')}`,
      '',
    )
    await chain.stop()
  }
  await upstream.stop()

  // npm run demo (build excluded: the bench runs after a build)
  const demo = cli(['demo'])
  const outcome =
    demo.code === 0
      ? 'completed'
      : `failed (exit ${demo.code}): ${demo.out.trim().split('\n').slice(-2).join(' | ').slice(0, 300)}`
  console.log(`tnv demo: ${ms(demo.ms)}, ${outcome}`)
  row('`tnv demo` wall time (what `npm run demo` runs after the build)', '', ms(demo.ms), outcome)

  console.log('\nMarkdown rows:')
  for (const r of rows) console.log(r)
} finally {
  rmSync(work, { recursive: true, force: true })
}
