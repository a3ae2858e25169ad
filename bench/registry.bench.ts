// @ts-nocheck -- written for the retired devnet registry contract (its governance key and ABI are gone); issue 12 rewrites it for the real registries. Left compiling only by issue 11.
/**
 * RPC round trips of the registry commands (issue 6): each library operation runs once
 * through a counting transport with JSON-RPC batching (what tnv does) and once, on fresh
 * accounts in the same run, with batching off (the baseline: every read its own HTTP
 * request). Reported per command: HTTP round trips, JSON-RPC calls, wall time, and the
 * round-trip ratio. Then the CLI itself through a counting HTTP proxy (cold process), so the
 * shipped commands are shown to make the same round trips as the library.
 * Run: node scripts/build.mjs && node scripts/bench.mjs registry
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevnetChain } from '../src/devnet/chain/start.js'
import { createChainClient } from '../src/lib/chain/client.js'
import type { ChainTarget } from '../src/lib/chain/resolve-target.js'
import { createRpcCounter } from '../src/lib/chain/rpc-counter.js'
import type { Signer } from '../src/lib/chain/signer.js'
import { blsKeyGen, blsPublicKey } from '../src/lib/keys/bls.js'
import { signProofOfPossession } from '../src/lib/keys/pop.js'
import { activate } from '../src/lib/registry/activate.js'
import { beginExit } from '../src/lib/registry/begin-exit.js'
import { claimStakeRewards } from '../src/lib/registry/claim-stake-rewards.js'
import { delegateStake } from '../src/lib/registry/delegate-stake.js'
import { increaseNonce } from '../src/lib/registry/increase-nonce.js'
import { mint } from '../src/lib/registry/mint.js'
import { readValidatorStatus } from '../src/lib/registry/read-validator-status.js'
import { signDelegation } from '../src/lib/registry/sign-delegation.js'
import { stake } from '../src/lib/registry/stake.js'
import type { RegistryContext } from '../src/lib/registry/types.js'
import { unstake } from '../src/lib/registry/unstake.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tnv-bench-registry-'))
const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
const signer = (privateKey: Hex): Signer => {
  const account = privateKeyToAccount(privateKey)
  return { type: 'local', address: account.address, account, source: 'bench' }
}

type Row = { command: string; roundTrips: number; calls: number; ms: number; trips: string[][] }

const chain = await startDevnetChain({ datadir: join(work, 'chain'), blockTime: 0, epochBlocks: 200 })
try {
  const target: ChainTarget = {
    name: 'custom',
    rpcUrl: chain.engineHttpUrl,
    expectedChainId: chain.chainId,
    registry: chain.registry,
    issuance: chain.issuance,
    explorer: null,
    devnet: null,
  }
  const gov = signer(chain.governance.privateKey)
  const account = (i: number) => signer((chain.accounts[i] as { privateKey: Hex }).privateKey)

  /** The lifecycle of one validator (and one delegation), each step counted on its own. */
  async function lifecycle(batch: boolean, v: number, delegatorIndex: number, delegated: number): Promise<Row[]> {
    const counter = createRpcCounter()
    const ctx: RegistryContext = {
      target,
      client: createChainClient({ rpcUrl: target.rpcUrl, fetchFn: counter.fetch, batch, retryCount: 0 }),
    }
    const rows: Row[] = []
    const run = async (command: string, op: () => Promise<unknown>) => {
      counter.reset()
      const t0 = performance.now()
      await op()
      rows.push({
        command,
        roundTrips: counter.roundTrips,
        calls: counter.calls,
        ms: performance.now() - t0,
        trips: counter.trips,
      })
    }
    const val = account(v)
    const bls = blsKeyGen(randomBytes(32))
    const blsPubkey = hex(blsPublicKey(bls))
    await run('governance mint', () => mint(ctx, { signer: gov, validator: val.address }))
    await run('validator status', () => readValidatorStatus(ctx, { address: val.address }))
    await run('stake', () =>
      stake(ctx, { signer: val, blsPubkey, proofOfPossession: hex(signProofOfPossession(bls, val.address)) }),
    )
    await run('stake (repeat: nothing to send)', () =>
      stake(ctx, { signer: val, blsPubkey, proofOfPossession: hex(signProofOfPossession(bls, val.address)) }),
    )
    await run('activate', () => activate(ctx, { signer: val }))
    await chain.advanceEpoch()
    await chain.advanceEpoch()
    await chain.advanceEpoch()
    await chain.advanceEpoch()
    await run('rewards claim', () => claimStakeRewards(ctx, { signer: val }))
    await run('exit', () => beginExit(ctx, { signer: val }))
    for (let i = 0; i < 6 && (await readValidatorStatus(ctx, { address: val.address })).canUnstake === false; i++)
      await chain.advanceEpoch()
    await run('unstake', () => unstake(ctx, { signer: val }))

    const dv = account(delegated)
    const dbls = blsKeyGen(randomBytes(32))
    await mint(ctx, { signer: gov, validator: dv.address })
    const now = (await ctx.client.getBlock()).timestamp
    let file: Awaited<ReturnType<typeof signDelegation>>['file'] | undefined
    await run('delegation sign (online)', async () => {
      ;({ file } = await signDelegation({
        source: { mode: 'online', ctx },
        account: (dv as Extract<Signer, { type: 'local' }>).account,
        delegator: account(delegatorIndex).address,
        deadline: now + 3600n,
        nowSeconds: now,
        blsPubkey: hex(blsPublicKey(dbls)),
        proofOfPossession: hex(signProofOfPossession(dbls, dv.address)),
      }))
    })
    await run('delegation stake', () =>
      delegateStake(ctx, {
        signer: account(delegatorIndex),
        authority: { kind: 'signature', file: file as NonNullable<typeof file> },
      }),
    )
    await run('delegation revoke', () => increaseNonce(ctx, { signer: dv }))
    return rows
  }

  const batched = await lifecycle(true, 0, 1, 2)
  const unbatched = await lifecycle(false, 3, 4, 5)

  console.log('Library operations, devnet chain (anvil, automine); round trips = HTTP requests\n')
  console.log(
    `${'command'.padEnd(34)} ${'batched'.padStart(8)} ${'calls'.padStart(6)} ${'ms'.padStart(6)}   ${'unbatched'.padStart(9)} ${'ms'.padStart(6)}   ratio`,
  )
  for (const [i, b] of batched.entries()) {
    const u = unbatched[i] as Row
    console.log(
      `${b.command.padEnd(34)} ${String(b.roundTrips).padStart(8)} ${String(b.calls).padStart(6)} ${b.ms.toFixed(0).padStart(6)}   ${String(u.roundTrips).padStart(9)} ${u.ms.toFixed(0).padStart(6)}   ${(u.roundTrips / b.roundTrips).toFixed(2)}`,
    )
  }
  const stakeRow = batched.find((r) => r.command === 'stake') as Row
  console.log(`\nstake, round trip by round trip: ${stakeRow.trips.map((t) => `[${t.join(' ')}]`).join(' → ')}`)

  // The CLI through a counting proxy: a cold `tnv validator status` and `tnv stake`.
  let proxied = 0
  const proxy = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => {
      body += d
    })
    req.on('end', async () => {
      proxied++
      const r = await fetch(chain.engineHttpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      res.writeHead(r.status, { 'content-type': 'application/json' })
      res.end(await r.text())
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const port = (proxy.address() as { port: number }).port
  const v6 = account(6)
  await mint({ target, client: createChainClient({ rpcUrl: target.rpcUrl }) }, { signer: gov, validator: v6.address })
  const bls6 = blsKeyGen(randomBytes(32))
  // the proxy answers in this process, so the CLI must run asynchronously (execFile)
  const cliAsync = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    new Promise<{ trips: number; ms: number }>((resolve, reject) => {
      proxied = 0
      const t0 = performance.now()
      execFile(
        process.execPath,
        [
          join(ROOT, 'bin', 'run.js'),
          ...args,
          '--rpc-url',
          `http://127.0.0.1:${port}`,
          '--chain-id',
          '911329',
          '--json',
        ],
        { env: { ...process.env, ...env } },
        (err, stdout, stderr) =>
          err
            ? reject(new Error(`tnv ${args.join(' ')}: ${stdout}${stderr}`))
            : resolve({ trips: proxied, ms: performance.now() - t0 }),
      )
    })
  const version = await new Promise<number>((resolve) => {
    const t0 = performance.now()
    execFile(process.execPath, [join(ROOT, 'bin', 'run.js'), '--version'], () => resolve(performance.now() - t0))
  })
  const status = await cliAsync(['validator', 'status', '--address', v6.address])
  const staked = await cliAsync(
    ['stake', '--bls-pubkey', hex(blsPublicKey(bls6)), '--pop', hex(signProofOfPossession(bls6, v6.address))],
    { TN_PRIVATE_KEY: (chain.accounts[6] as { privateKey: Hex }).privateKey },
  )
  proxy.close()
  console.log('\nCLI (cold process) through a counting proxy')
  console.log(`tnv --version (baseline)           ${version.toFixed(0)} ms`)
  console.log(
    `tnv validator status               ${status.trips} round trips, ${status.ms.toFixed(0)} ms (${(status.ms / version).toFixed(2)}x)`,
  )
  console.log(
    `tnv stake                          ${staked.trips} round trips, ${staked.ms.toFixed(0)} ms (${(staked.ms / version).toFixed(2)}x)`,
  )
} finally {
  await chain.stop()
  rmSync(work, { recursive: true, force: true })
}
