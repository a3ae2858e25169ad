/**
 * RPC round trips and wall time of the registry commands on the REAL registry code of both
 * generations (the shipped genesis files on the rehearsal engine). Each library operation runs
 * once through a counting transport with JSON-RPC batching (what tnv does) and once, on fresh
 * accounts in the same run, with batching off (the baseline: every call its own HTTP request).
 * Then the CLI itself through a counting HTTP proxy (cold process): `tnv validator status` and
 * `tnv stake` (adiri: the proof signed with the key, a passphrase-encrypted bls.kw), against
 * `tnv --version` of the same run.
 * Run: node scripts/build.mjs && node scripts/bench.mjs registry
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startGenesisEngine } from '../src/devnet/chain/genesis-engine.js'
import { DEVNET_CHAIN_ID, ISSUANCE_ADDRESS, REGISTRY_ADDRESS } from '../src/lib/chain/addresses.js'
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
import { signAdiriProof } from '../src/lib/registry/generations/adiri-proof.js'
import { type RegistryGeneration, registryAbis } from '../src/lib/registry/generations/detect.js'
import { increaseNonce } from '../src/lib/registry/increase-nonce.js'
import { readValidatorStatus } from '../src/lib/registry/read-validator-status.js'
import { signDelegation } from '../src/lib/registry/sign-delegation.js'
import { stake } from '../src/lib/registry/stake.js'
import type { RegistryContext } from '../src/lib/registry/types.js'
import { unstake } from '../src/lib/registry/unstake.js'
import { startCountingProxy } from '../test/helpers/counting-proxy.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
const signerOf = (privateKey: Hex): Extract<Signer, { type: 'local' }> => {
  const account = privateKeyToAccount(privateKey)
  return { type: 'local', address: account.address, account, source: 'bench' }
}
type Row = { command: string; roundTrips: number; calls: number; ms: number; trips: string[][] }

/** Runs a cold CLI process (asynchronously: the proxy answers in this process). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    execFile(
      process.execPath,
      [join(ROOT, 'bin', 'run.js'), ...args],
      { env: { ...process.env, ...env } },
      (err, stdout, stderr) =>
        err
          ? reject(new Error(`tnv ${args.join(' ')}: ${stdout}${stderr}`))
          : resolve({ ms: performance.now() - t0, stdout }),
    )
  })
}

async function benchGeneration(generation: RegistryGeneration, work: string) {
  const keys = Array.from({ length: 10 }, () => hex(randomBytes(32)))
  const engine = await startGenesisEngine({
    genesis: generation,
    dir: join(work, generation),
    chainId: DEVNET_CHAIN_ID,
    balances: keys.map((k) => ({ address: privateKeyToAccount(k).address, wei: parseEther('5000000') })),
  })
  const abi = registryAbis[generation]
  const { encodeFunctionData } = await import('viem')
  const mintRaw = (address: Hex) =>
    engine.asOwner({ data: encodeFunctionData({ abi, functionName: 'mint', args: [address] } as never) })
  try {
    const target: ChainTarget = {
      name: 'custom',
      rpcUrl: engine.httpUrl,
      expectedChainId: DEVNET_CHAIN_ID,
      registry: REGISTRY_ADDRESS,
      issuance: ISSUANCE_ADDRESS,
      explorer: null,
      devnet: null,
      generations: [],
    }
    const account = (i: number) => signerOf(keys[i] as Hex)
    await engine.asOwner({
      data: encodeFunctionData({ abi, functionName: 'allocateIssuance' } as never),
      value: parseEther('1000000'),
    })

    async function lifecycle(batch: boolean, v: number, delegatorIndex: number, delegated: number): Promise<Row[]> {
      const counter = createRpcCounter()
      // one context per command, as each CLI process has its own (the code is read once per command)
      const ctx = (): RegistryContext => ({
        target,
        client: createChainClient({ rpcUrl: target.rpcUrl, fetchFn: counter.fetch, batch, retryCount: 0 }),
      })
      const rows: Row[] = []
      const run = async (command: string, op: (c: RegistryContext) => Promise<unknown>) => {
        const c = ctx()
        counter.reset()
        const t0 = performance.now()
        await op(c)
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
      const material = {
        blsPubkey,
        proofOfPossession: hex(signProofOfPossession(bls, val.address)),
        signAdiriProof: async (p: { validator: Hex; blsPubkey: Hex }) => signAdiriProof(bls, p.blsPubkey, p.validator),
      }
      await mintRaw(val.address)
      await run('validator status', (c) => readValidatorStatus(c, { address: val.address }))
      await run('stake', (c) => stake(c, { signer: val, ...material }))
      await run('stake (repeat: nothing to send)', (c) => stake(c, { signer: val, ...material }))
      await run('activate', (c) => activate(c, { signer: val }))
      await engine.closeEpoch({ headerCounts: [{ validatorAddress: val.address, consensusHeaderCount: 10n }] })
      await run('rewards claim', (c) => claimStakeRewards(c, { signer: val }))
      await run('exit', (c) => beginExit(c, { signer: val }))
      for (let i = 0; i < 6 && !(await readValidatorStatus(ctx(), { address: val.address })).canUnstake; i++)
        await engine.closeEpoch()
      await run('unstake', (c) => unstake(c, { signer: val }))

      const dv = account(delegated)
      const dbls = blsKeyGen(randomBytes(32))
      await mintRaw(dv.address)
      let file: Awaited<ReturnType<typeof signDelegation>>['file'] | undefined
      await run('delegation sign (online)', async (c) => {
        ;({ file } = await signDelegation({
          source: { mode: 'online', ctx: c },
          signer: { kind: 'key', account: dv.account },
          delegator: account(delegatorIndex).address,
          deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
          blsPubkey: hex(blsPublicKey(dbls)),
          proofOfPossession: hex(signProofOfPossession(dbls, dv.address)),
          signAdiriProof: async (p) => signAdiriProof(dbls, p.blsPubkey, p.validator),
        }))
      })
      await run('delegation stake', (c) =>
        delegateStake(c, {
          signer: account(delegatorIndex),
          authority: { kind: 'signature', file: file as NonNullable<typeof file> },
        }),
      )
      if (generation === 'next') await run('delegation revoke', (c) => increaseNonce(c, { signer: dv }))
      return rows
    }

    const batched = await lifecycle(true, 0, 1, 2)
    const unbatched = await lifecycle(false, 3, 4, 5)
    console.log(`\n[${generation}] library operations on the real code; round trips = HTTP requests\n`)
    console.log(
      `${'command'.padEnd(34)} ${'batched'.padStart(8)} ${'calls'.padStart(6)} ${'ms'.padStart(6)}   ${'unbatched'.padStart(9)} ${'ms'.padStart(6)}   ratio`,
    )
    for (const [i, b] of batched.entries()) {
      const u = unbatched[i] as Row
      console.log(
        `${b.command.padEnd(34)} ${String(b.roundTrips).padStart(8)} ${String(b.calls).padStart(6)} ${b.ms.toFixed(0).padStart(6)}   ${String(u.roundTrips).padStart(9)} ${u.ms.toFixed(0).padStart(6)}   ${(u.roundTrips / b.roundTrips).toFixed(2)}`,
      )
    }
    for (const name of ['validator status', 'stake'])
      console.log(
        `${name}, round trip by round trip: ${(batched.find((r) => r.command === name) as Row).trips.map((t) => `[${t.join(' ')}]`).join(' → ')}`,
      )

    // the CLI through a counting proxy
    const proxy = await startCountingProxy(engine.httpUrl)
    const url = proxy.url
    const net = ['--rpc-url', url, '--chain-id', String(DEVNET_CHAIN_ID), '--json']
    const results: { name: string; trips: number[]; ms: number[]; last: string[] }[] = []
    const measure = async (
      name: string,
      make: (i: number) => Promise<string[]>,
      env: (i: number) => NodeJS.ProcessEnv,
    ) => {
      const r = { name, trips: [] as number[], ms: [] as number[], last: [] as string[] }
      for (let i = 0; i < 3; i++) {
        const args = await make(i)
        proxy.reset()
        r.ms.push((await cli([...args, ...net], env(i))).ms)
        r.trips.push(proxy.trips.length)
      }
      results.push({ ...r, last: proxy.trips.map((t) => t.join(' ')) })
    }
    const version: number[] = []
    for (let i = 0; i < 3; i++) version.push((await cli(['--version'])).ms)
    const PASS = 'bench passphrase'
    await measure(
      'tnv validator status',
      async (i) => ['validator', 'status', '--address', account(6 + i).address],
      () => ({}),
    )
    await measure(
      'tnv stake',
      async (i) => {
        const a = account(6 + i)
        const datadir = join(work, `${generation}-v${i}`)
        await cli(['keytool', 'generate', 'validator', '--address', a.address, '--datadir', datadir, '-q'], {
          TN_BLS_PASSPHRASE: PASS,
        })
        await mintRaw(a.address)
        return ['stake', '--datadir', datadir, '--yes']
      },
      (i) => ({ TN_PRIVATE_KEY: keys[6 + i] as string, TN_BLS_PASSPHRASE: PASS }),
    )
    await proxy.close()
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
    const base = median(version)
    console.log(`\n[${generation}] CLI (cold process, medians of 3) through a counting proxy`)
    console.log(`tnv --version (baseline)           ${base.toFixed(0)} ms`)
    for (const r of results)
      console.log(
        `${r.name.padEnd(34)} ${r.trips.join('/')} round trips, ${median(r.ms).toFixed(0)} ms (${(median(r.ms) / base).toFixed(2)}x): ${r.last.map((t) => `[${t}]`).join(' → ')}`,
      )
  } finally {
    await engine.stop()
  }
}

const work = mkdtempSync(join(tmpdir(), 'tnv-bench-registry-'))
try {
  for (const generation of ['adiri', 'next'] as const) await benchGeneration(generation, work)
} finally {
  rmSync(work, { recursive: true, force: true })
}
