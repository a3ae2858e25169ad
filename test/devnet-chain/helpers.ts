/**
 * Shared helpers for the devnet chain tests: a devnet per test file (own anvil, free port, temp
 * datadir), viem clients, BLS keys with @noble/curves, and revert assertions.
 */
import assert from 'node:assert/strict'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import {
  type Address,
  BaseError,
  bytesToHex,
  type ContractFunctionArgs,
  type ContractFunctionName,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  type TransactionReceipt,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { consensusRegistryAbi } from '../../src/devnet/chain/abi.js'
import { anvilRequest, anvilSetBalance } from '../../src/devnet/chain/anvil-rpc.js'
import { blsPublicKey, signProofOfPossession } from '../../src/devnet/chain/bls.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import type { DevnetAccount, DevnetChain, StartDevnetChainParameters } from '../../src/devnet/chain/types.js'
import { devnetViemChain } from '../../src/devnet/chain/viem-chain.js'
import { tempDir } from '../helpers/cli.js'

export type TestDevnet = {
  chain: DevnetChain
  datadir: string
  client: PublicClient
  /** Sends a registry transaction from `account` and waits for its receipt (reverts throw). */
  registry: RegistryWriter
  /** Same, from an address anvil impersonates (it may hold code, e.g. one that rejects TEL). */
  registryAs: RegistryWriterAs
  /** Reads a registry view. */
  read: RegistryReader
  /** A new account with `tel` TEL. */
  newAccount(tel?: bigint): Promise<DevnetAccount>
  /** Whitelists (governance mint) a new funded account. */
  newWhitelisted(tel?: bigint): Promise<DevnetAccount>
  close(): Promise<void>
}

type Writable = ContractFunctionName<typeof consensusRegistryAbi, 'nonpayable' | 'payable'>
type Readable = ContractFunctionName<typeof consensusRegistryAbi, 'view' | 'pure'>

export type RegistryWriter = <F extends Writable>(
  account: DevnetAccount,
  functionName: F,
  args: ContractFunctionArgs<typeof consensusRegistryAbi, 'nonpayable' | 'payable', F>,
  value?: bigint,
) => Promise<TransactionReceipt>

export type RegistryWriterAs = <F extends Writable>(
  address: Address,
  functionName: F,
  args: ContractFunctionArgs<typeof consensusRegistryAbi, 'nonpayable' | 'payable', F>,
  value?: bigint,
) => Promise<TransactionReceipt>

export type RegistryReader = <F extends Readable>(
  functionName: F,
  args?: ContractFunctionArgs<typeof consensusRegistryAbi, 'view' | 'pure', F>,
) => Promise<unknown>

export const STAKE = parseEther('1000000')

export async function startTestDevnet(params: Partial<StartDevnetChainParameters> = {}): Promise<TestDevnet> {
  const { dir, cleanup } = tempDir('tnv-devnet-')
  const chain = await startDevnetChain({ datadir: dir, blockTime: 0, ...params })
  const viemChain = devnetViemChain(chain.engineHttpUrl)
  const transport = http(chain.engineHttpUrl, { batch: { batchSize: 100 } })
  const client = createPublicClient({ chain: viemChain, transport, pollingInterval: 20 })
  const send = async (
    account: Address | DevnetAccount,
    functionName: Writable,
    args: unknown,
    value: bigint | undefined,
  ): Promise<TransactionReceipt> => {
    if (typeof account === 'string') await anvilRequest(client, 'anvil_impersonateAccount', [account])
    const signer = typeof account === 'string' ? account : privateKeyToAccount(account.privateKey)
    const wallet = createWalletClient({ account: signer, chain: viemChain, transport })
    if (typeof account === 'string') {
      // anvil sends an impersonated transaction even when it reverts: simulate first to surface the error
      await client.simulateContract({
        account,
        address: chain.registry,
        abi: consensusRegistryAbi,
        functionName,
        args,
        value,
      } as Parameters<typeof client.simulateContract>[0])
    }
    const hash = await wallet.writeContract({
      address: chain.registry,
      abi: consensusRegistryAbi,
      functionName,
      args,
      value,
    } as Parameters<typeof wallet.writeContract>[0])
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    assert.equal(receipt.status, 'success', `${functionName} reverted on chain`)
    return receipt
  }
  const registry: RegistryWriter = (account, functionName, args, value) => send(account, functionName, args, value)
  const registryAs: RegistryWriterAs = (address, functionName, args, value) => send(address, functionName, args, value)
  const read: RegistryReader = (functionName, args) =>
    client.readContract({ address: chain.registry, abi: consensusRegistryAbi, functionName, args } as Parameters<
      typeof client.readContract
    >[0])
  const newAccount = async (tel = 10_000_000n) => {
    const privateKey = generatePrivateKey()
    const account = { address: privateKeyToAccount(privateKey).address, privateKey }
    await anvilSetBalance(client, account.address, parseEther(String(tel)))
    return account
  }
  return {
    chain,
    datadir: dir,
    client,
    registry,
    registryAs,
    read,
    newAccount,
    async newWhitelisted(tel) {
      const account = await newAccount(tel)
      await registry(chain.governance, 'mint', [account.address])
      return account
    },
    async close() {
      await chain.stop()
      cleanup()
    },
  }
}

/** A BLS key pair and its proof of possession for `address`. */
export function blsKeyFor(address: Address, secretKey = bls12_381.utils.randomSecretKey()) {
  return {
    secretKey,
    publicKey: bytesToHex(blsPublicKey(secretKey)),
    proofOfPossession: bytesToHex(signProofOfPossession(secretKey, address)),
  }
}

/** Stake arguments for `address`: [blsPubkey, { signature }]. */
export function stakeArgs(address: Address, key = blsKeyFor(address)): readonly [Hex, { signature: Hex }] {
  return [key.publicKey, { signature: key.proofOfPossession }] as const
}

/** Asserts `promise` rejects with the custom error `errorName` (and `args` when given). */
export async function expectRevert(promise: Promise<unknown>, errorName: string, args?: readonly unknown[]) {
  let error: unknown
  try {
    await promise
  } catch (err) {
    error = err
  }
  assert.ok(error, `expected a revert with ${errorName}, but the call succeeded`)
  assert.ok(error instanceof BaseError, `expected a viem error, got ${String(error)}`)
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  assert.ok(reverted instanceof ContractFunctionRevertedError, `expected a contract revert, got: ${error.shortMessage}`)
  assert.equal(
    reverted.data?.errorName,
    errorName,
    `expected ${errorName}, got ${reverted.data?.errorName ?? reverted.shortMessage}`,
  )
  if (args) assert.deepEqual(reverted.data?.args, args)
  return reverted
}

/** The raw revert data of a call that must revert. */
export async function revertData(promise: Promise<unknown>): Promise<Hex> {
  try {
    await promise
  } catch (err) {
    assert.ok(err instanceof BaseError, `expected a viem error, got ${String(err)}`)
    const withData = err.walk((e) => typeof (e as { data?: unknown }).data === 'string') as { data?: Hex } | null
    assert.ok(withData?.data, `no revert data in: ${err.shortMessage}`)
    return withData.data
  }
  assert.fail('expected a revert, but the call succeeded')
}

/** Validator status enum (facts page order). */
export const Status = {
  Undefined: 0,
  Staked: 1,
  PendingActivation: 2,
  Active: 3,
  PendingExit: 4,
  Exited: 5,
  Any: 6,
} as const

export type ValidatorInfo = {
  validatorAddress: Address
  activationEpoch: number
  exitEpoch: number
  currentStatus: number
  isRetired: boolean
  stakeVersion: number
  region: number
}

export type EpochInfo = {
  committee: readonly Address[]
  epochIssuance: bigint
  blockHeight: bigint
  epochId: number
  epochDuration: number
  stakeVersion: number
}

export async function validatorOf(dn: TestDevnet, address: Address): Promise<ValidatorInfo> {
  return (await dn.read('getValidator', [address])) as ValidatorInfo
}

export async function balanceOf(dn: TestDevnet, address: Address): Promise<bigint> {
  return dn.client.getBalance({ address })
}

/** Total gas cost (wei) of a receipt. */
export function feeOf(receipt: TransactionReceipt): bigint {
  return receipt.gasUsed * receipt.effectiveGasPrice
}

export async function currentEpoch(dn: TestDevnet): Promise<number> {
  return (await dn.read('getCurrentEpoch')) as number
}

export async function epochInfo(dn: TestDevnet, epoch?: number): Promise<EpochInfo> {
  return (await (epoch === undefined ? dn.read('getCurrentEpochInfo') : dn.read('getEpochInfo', [epoch]))) as EpochInfo
}

export async function rewardsOf(dn: TestDevnet, address: Address): Promise<bigint> {
  return (await dn.read('getRewards', [address])) as bigint
}
