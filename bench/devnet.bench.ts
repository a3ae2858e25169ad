/**
 * The devnet chain (issue 4): time from nothing to a ready devnet with all contracts, against
 * anvil's bare start-up measured in the same run; resume time; and the gas of the registry's
 * and the BLS verifier's main operations.
 * Run: node scripts/build.mjs && node scripts/bench.mjs devnet
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import * as esbuild from 'esbuild'
import {
  bytesToHex,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { blsVerifierAbi, consensusRegistryAbi } from '../src/devnet/chain/abi.js'
import { anvilSetBalance } from '../src/devnet/chain/anvil-rpc.js'
import { BLS_DST, blsPublicKey, signProofOfPossession } from '../src/devnet/chain/bls.js'
import { freeLoopbackPort } from '../src/devnet/chain/free-port.js'
import { spawnAnvil } from '../src/devnet/chain/spawn-anvil.js'
import { startDevnetChain } from '../src/devnet/chain/start.js'
import { BLS_VERIFIER_ADDRESS, DEVNET_CHAIN_ID, type DevnetChain } from '../src/devnet/chain/types.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'tnv-bench-devnet-'))
let n = 0
const fresh = () => join(work, `d${n++}`)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
const ms = (x: number) => `${x.toFixed(0)} ms`

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now()
  const value = await fn()
  return [performance.now() - t, value]
}

try {
  // warm the module graph so in-process figures show the devnet's own work
  await (await startDevnetChain({ datadir: fresh(), blockTime: 0 })).stop()

  const bare: number[] = []
  const devnet: number[] = []
  const resume: number[] = []
  for (let i = 0; i < 5; i++) {
    const [tBare, anvil] = await timed(async () =>
      spawnAnvil({
        port: await freeLoopbackPort(),
        chainId: DEVNET_CHAIN_ID,
        statePath: join(fresh(), 'state.json'),
        blockTime: 0,
      }),
    )
    bare.push(tBare)
    await anvil.stop()
    const dir = fresh()
    const [tDevnet, chain] = await timed(() => startDevnetChain({ datadir: dir, blockTime: 0 }))
    devnet.push(tDevnet)
    await chain.stop()
    const [tResume, again] = await timed(() => startDevnetChain({ datadir: dir, blockTime: 0 }))
    resume.push(tResume)
    await again.stop()
  }

  const cold: number[] = []
  const coldImport: number[] = []
  for (let i = 0; i < 3; i++) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/devnet-cold-start.ts'), fresh()], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    const r = JSON.parse(out.trim().split('\n').at(-1) as string) as { importedAtMs: number; readyAtMs: number }
    cold.push(r.readyAtMs)
    coldImport.push(r.importedAtMs)
  }

  // the same from an esbuild bundle (as the build ships dist/), written next to contracts/out so
  // the artifact lookup and node_modules resolve as they do for dist/
  const bundle = join(ROOT, 'contracts/out/.bench-devnet-cold-start.mjs')
  const coldBundled: number[] = []
  try {
    await esbuild.build({
      entryPoints: [join(ROOT, 'bench/devnet-cold-start.ts')],
      outfile: bundle,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['@foundry-rs/*', 'solc'],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      logLevel: 'error',
    })
    for (let i = 0; i < 3; i++) {
      const out = execFileSync(process.execPath, [bundle, fresh()], { cwd: ROOT, encoding: 'utf8' })
      coldBundled.push((JSON.parse(out.trim().split('\n').at(-1) as string) as { readyAtMs: number }).readyAtMs)
    }
  } finally {
    rmSync(bundle, { force: true })
  }

  const base = median(bare)
  console.log('\nStart-up (medians)')
  console.log(`  bare anvil, spawn to first RPC answer (baseline): ${ms(base)}`)
  console.log(
    `  startDevnetChain, fresh datadir, in process:      ${ms(median(devnet))}  (${(median(devnet) / base).toFixed(1)}× bare anvil)`,
  )
  console.log(
    `  startDevnetChain, resuming a saved devnet:        ${ms(median(resume))}  (${(median(resume) / base).toFixed(1)}× bare anvil)`,
  )
  console.log(
    `  new node process (tsx) to a ready devnet:         ${ms(median(cold))}  (${(median(cold) / base).toFixed(1)}× bare anvil; budget 5000 ms)`,
  )
  console.log(`    of which Node start-up and loading the modules through tsx: ${ms(median(coldImport))}`)
  console.log(
    `  new node process, bundled with esbuild like dist/: ${ms(median(coldBundled))}  (${(median(coldBundled) / base).toFixed(1)}× bare anvil)`,
  )

  // ---- gas ----
  const chain: DevnetChain = await startDevnetChain({ datadir: fresh(), blockTime: 0, protocolLoop: false })
  const client: PublicClient = createPublicClient({ transport: http(chain.engineHttpUrl) })
  const send = async (privateKey: Hex, to: `0x${string}`, data: Hex, value?: bigint) => {
    const wallet = createWalletClient({
      account: privateKeyToAccount(privateKey),
      transport: http(chain.engineHttpUrl),
    })
    const hash = await wallet.sendTransaction({ chain: null, to, data, value })
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (receipt.status !== 'success') throw new Error(`reverted: ${hash}`)
    return receipt.gasUsed
  }
  const sk = bls12_381.utils.randomSecretKey()
  const pk = blsPublicKey(sk)
  const message = new TextEncoder().encode('tnv devnet benchmark')
  const sigs = bls12_381.shortSignatures
  const sig = sigs.sign(sigs.hash(message, BLS_DST), sk).toBytes(true)
  const verifyData = encodeFunctionData({
    abi: blsVerifierAbi,
    functionName: 'blsVerify',
    args: [bytesToHex(sig), bytesToHex(pk), bytesToHex(message)],
  })
  // gasUsed of a transaction calling the verifier (eth_estimateGas is not used: it would settle
  // on the smallest gas that does not revert, and the verifier never reverts on its inputs)
  const funded = chain.accounts[0]?.privateKey as Hex
  const verifyGas = await send(funded, BLS_VERIFIER_ADDRESS, verifyData)
  const bytes = [...Buffer.from(verifyData.slice(2), 'hex')]
  const calldataGas = BigInt(bytes.reduce((g, b) => g + (b === 0 ? 4 : 16), 0))
  const verifyExecution = verifyGas - 21_000n - calldataGas

  const validator = generatePrivateKey()
  const address = privateKeyToAccount(validator).address
  await anvilSetBalance(client, address, parseEther('2000000'))
  await send(
    chain.governance.privateKey,
    chain.registry,
    encodeFunctionData({ abi: consensusRegistryAbi, functionName: 'mint', args: [address] }),
  )
  const stakeGas = await send(
    validator,
    chain.registry,
    encodeFunctionData({
      abi: consensusRegistryAbi,
      functionName: 'stake',
      args: [bytesToHex(pk), { signature: bytesToHex(signProofOfPossession(sk, address)) }],
    }),
    parseEther('1000000'),
  )
  const activateGas = await send(
    validator,
    chain.registry,
    encodeFunctionData({ abi: consensusRegistryAbi, functionName: 'activate' }),
  )
  const epoch = await client.readContract({
    address: chain.registry,
    abi: consensusRegistryAbi,
    functionName: 'getCurrentEpoch',
  })
  const concludeGas = await send(
    chain.system.privateKey,
    chain.registry,
    encodeFunctionData({ abi: consensusRegistryAbi, functionName: 'concludeEpoch', args: [epoch] }),
  )
  await chain.stop()

  console.log('\nGas')
  console.log(`  blsVerify (transaction gasUsed, 20-byte message):      ${verifyGas}`)
  console.log(`    of which execution (minus 21,000 intrinsic and ${calldataGas} calldata): ${verifyExecution}`)
  console.log(`  stake (transaction gasUsed, PoP check included):      ${stakeGas}`)
  console.log(`  activate:                                             ${activateGas}`)
  console.log(`  concludeEpoch with 5 validators, one activating:      ${concludeGas}`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
