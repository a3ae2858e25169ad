/**
 * Shared helpers for the devnet chain tests: a devnet per test file (own anvil, free port, temp
 * datadir) running the REAL registry code of a shipped genesis, viem clients, and the registry
 * calls built from the fact sheets (registry.md, registry-next.md) and the generation's ABI,
 * never through tnv's registry client: these tests say whether the devnet behaves like the
 * chain, independently of the client (issue 12 rewrites it).
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import {
  type Abi,
  type Address,
  BaseError,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  parseEther,
  type TransactionReceipt,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { adiriProofOfPossession } from '../../src/devnet/chain/adiri-pop.js'
import { EngineRpc, engineTransport } from '../../src/devnet/chain/engine-rpc.js'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import type { DevnetAccount, DevnetChain, StartDevnetChainParameters } from '../../src/devnet/chain/types.js'
import { devnetViemChain } from '../../src/devnet/chain/viem-chain.js'
import { blsKeyGen, blsPublicKey } from '../../src/lib/keys/bls.js'
import { signProofOfPossession } from '../../src/lib/keys/pop.js'
import { type RegistryGeneration, registryAbis } from '../../src/lib/registry/generations/detect.js'
import { tempDir } from '../helpers/cli.js'

export const STAKE = parseEther('1000000')
/** Status codes (registry.md §2, registry-next.md §6). */
export const STATUS = {
  Undefined: 0,
  Staked: 1,
  PendingActivation: 2,
  Active: 3,
  PendingExit: 4,
  Exited: 5,
  Any: 6,
} as const
/** uint32 max: activationEpoch while Staked, exitEpoch while PendingExit (registry.md §2). */
export const UNSET_EPOCH = 4294967295
/** Issuance's InsufficientBalance(uint256,uint256) selector (registry.md §3). */
export const INSUFFICIENT_BALANCE_SELECTOR = '0xcf479181'

export const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`

export type ValidatorInfo = {
  validatorAddress: Address
  activationEpoch: number
  exitEpoch: number
  currentStatus: number
  isRetired: boolean
  stakeVersion: number
  region: number
}

export type TestDevnet = {
  chain: DevnetChain
  generation: RegistryGeneration
  abi: Abi
  datadir: string
  client: PublicClient
  /** Reads a registry view of the running generation. */
  read<T = unknown>(functionName: string, args?: readonly unknown[]): Promise<T>
  /** Sends calldata to the registry from `account`; resolves to the receipt (a revert throws). */
  send(account: DevnetAccount, data: Hex, value?: bigint): Promise<TransactionReceipt>
  /** A new account with `tel` TEL. */
  newAccount(tel?: bigint): Promise<DevnetAccount>
  close(): Promise<void>
}

/** A viem transport to the devnet's engine, over its IPC socket (the one way in). */
export function engineTransportOf(chain: Pick<DevnetChain, 'engineIpcPath'>) {
  return engineTransport(new EngineRpc(chain.engineIpcPath))
}

/** A viem client of the devnet's engine, over its IPC socket. */
export function engineClient(chain: Pick<DevnetChain, 'engineIpcPath'>): PublicClient {
  return createPublicClient({ transport: engineTransportOf(chain), pollingInterval: 20 })
}

export async function startTestDevnet(params: Partial<StartDevnetChainParameters> = {}): Promise<TestDevnet> {
  const { dir, cleanup } = tempDir('tnv-devnet-')
  const chain = await startDevnetChain({ datadir: dir, blockTime: 0, protocolLoop: false, ...params })
  const viemChain = devnetViemChain(`file://${chain.engineIpcPath}`, chain.chainId)
  const transport = engineTransportOf(chain)
  const client = createPublicClient({ chain: viemChain, transport, pollingInterval: 20 })
  const abi = registryAbis[chain.generation] as Abi
  return {
    chain,
    generation: chain.generation,
    abi,
    datadir: dir,
    client,
    read: <T>(functionName: string, args: readonly unknown[] = []) =>
      client.readContract({ address: chain.registry, abi, functionName, args }) as Promise<T>,
    async send(account, data, value = 0n) {
      const wallet = createWalletClient({
        account: privateKeyToAccount(account.privateKey),
        chain: viemChain,
        transport,
      })
      // simulate first so a revert names the registry's error
      await client.call({ account: account.address, to: chain.registry, data, value })
      const hash = await wallet.sendTransaction({ to: chain.registry, data, value })
      const receipt = await engineReceipt(client, hash)
      assert.equal(receipt.status, 'success', 'reverted on chain')
      return receipt
    },
    async newAccount(tel = 10_000_000n) {
      const privateKey = generatePrivateKey()
      const account = { address: privateKeyToAccount(privateKey).address, privateKey }
      const request = client.request as unknown as (a: { method: string; params: unknown[] }) => Promise<unknown>
      await request({
        method: 'anvil_setBalance',
        params: [account.address, `0x${parseEther(String(tel)).toString(16)}`],
      })
      return account
    },
    async close() {
      await chain.stop()
      cleanup()
    },
  }
}

export type ValidatorKeys = { secret: Uint8Array; publicKey: Uint8Array; blsPubkey: Hex }

export function newValidatorKeys(): ValidatorKeys {
  const secret = blsKeyGen(randomBytes(32))
  const publicKey = blsPublicKey(secret)
  return { secret, publicKey, blsPubkey: hex(publicKey) }
}

/**
 * The generation's proof-of-possession tuple for `address`: next `(bytes signature)` over the
 * 119-byte message (registry-next.md §3); adiri `(uncompressedPubkey, uncompressedSignature)` over
 * its 218-byte message (registry.md §6).
 */
export function proofFor(generation: RegistryGeneration, keys: ValidatorKeys, address: Address) {
  if (generation === 'next') return { signature: hex(signProofOfPossession(keys.secret, address)) }
  const { uncompressedPubkey, uncompressedSignature } = adiriProofOfPossession(keys.secret, address)
  return { uncompressedPubkey, uncompressedSignature }
}

/** `stake(blsPubkey, pop)` of the generation. */
export function stakeCalldata(generation: RegistryGeneration, keys: ValidatorKeys, address: Address): Hex {
  return encodeFunctionData({
    abi: registryAbis[generation] as Abi,
    functionName: 'stake',
    args: [keys.blsPubkey, proofFor(generation, keys, address)],
  })
}

/** `unstake` of the generation: adiri `unstake(address)`, next `unstake(address, bool acceptRewardShortfall)`. */
export function unstakeCalldata(generation: RegistryGeneration, validator: Address): Hex {
  return encodeFunctionData({
    abi: registryAbis[generation] as Abi,
    functionName: 'unstake',
    args: generation === 'next' ? [validator, false] : [validator],
  })
}

/** The revert data of a failed call (for error selectors). */
export function revertDataOf(err: unknown): Hex | null {
  if (!(err instanceof BaseError)) return null
  const found = err.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: Hex } | null
  return found?.data ?? null
}
