/**
 * A chain per test file on the REAL registry code of one generation: the rehearsal engine
 * (src/devnet/chain/genesis-engine.ts) boots anvil from the shipped node genesis (adiri = the
 * test network's registry, next = the one the specification describes), with the rehearsal
 * chain id, funded test accounts, governance by impersonating the registry's owner, and epoch
 * boundaries made with the node's system calls. Helpers: the registry context the library
 * takes, local signers, fresh BLS validator keys (with both generations' proofs), raw anvil calls.
 */
import { randomBytes } from 'node:crypto'
import { type Address, encodeFunctionData, type Hex, numberToHex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type GenesisEngine, startGenesisEngine } from '../../src/devnet/chain/genesis-engine.js'
import { DEVNET_CHAIN_ID, ISSUANCE_ADDRESS, REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { createChainClient } from '../../src/lib/chain/client.js'
import type { ChainTarget } from '../../src/lib/chain/resolve-target.js'
import type { Signer } from '../../src/lib/chain/signer.js'
import { blsKeyGen, blsPublicKey } from '../../src/lib/keys/bls.js'
import { signProofOfPossession } from '../../src/lib/keys/pop.js'
import { type AdiriProof, signAdiriProof } from '../../src/lib/registry/generations/adiri-proof.js'
import { type RegistryGeneration, registryAbis } from '../../src/lib/registry/generations/detect.js'
import type { SignAdiriProof } from '../../src/lib/registry/stake-checks.js'
import type { RegistryContext } from '../../src/lib/registry/types.js'
import { tempDir } from '../helpers/cli.js'

export const GENERATIONS: readonly RegistryGeneration[] = ['adiri', 'next']

export type TestAccount = { address: Address; privateKey: Hex }

export type TestChain = {
  generation: RegistryGeneration
  engine: GenesisEngine
  url: string
  target: ChainTarget
  /** A fresh registry context (each one detects the code again, as a new command would). */
  ctx(): RegistryContext
  accounts: TestAccount[]
  datadir: string
  /** Governance: mint a ConsensusNFT (owner impersonated; rehearsal only). */
  mint(address: Address): Promise<void>
  /** Governance: put TEL in the Issuance pool (allocateIssuance by the owner). */
  fundPool(wei: bigint): Promise<void>
  /** Raw JSON-RPC to anvil (anvil_setCode, anvil_setBalance, ...). */
  anvil(method: string, params: unknown[]): Promise<unknown>
  stop(): Promise<void>
}

export async function startTestChain(
  generation: RegistryGeneration,
  { accounts: n = 8 }: { accounts?: number } = {},
): Promise<TestChain> {
  const { dir, cleanup } = tempDir(`tnv-registry-${generation}-`)
  const accounts: TestAccount[] = Array.from({ length: n }, () => {
    const privateKey = `0x${randomBytes(32).toString('hex')}` as Hex
    return { privateKey, address: privateKeyToAccount(privateKey).address }
  })
  const engine = await startGenesisEngine({
    genesis: generation,
    dir,
    chainId: DEVNET_CHAIN_ID,
    balances: accounts.map((a) => ({ address: a.address, wei: parseEther('5000000') })),
  })
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
  const abi = registryAbis[generation]
  const anvil = async (method: string, params: unknown[]) => {
    const res = await fetch(engine.httpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    const body = (await res.json()) as { result?: unknown; error?: { message: string } }
    if (body.error) throw new Error(`${method}: ${body.error.message}`)
    return body.result
  }
  return {
    generation,
    engine,
    url: engine.httpUrl,
    target,
    ctx: () => ({ target, client: createChainClient({ rpcUrl: engine.httpUrl, retryCount: 0 }) }),
    accounts,
    datadir: dir,
    async mint(address) {
      await engine.asOwner({ data: encodeFunctionData({ abi, functionName: 'mint', args: [address] }) })
    },
    async fundPool(wei) {
      await engine.asOwner({ data: encodeFunctionData({ abi, functionName: 'allocateIssuance' }), value: wei })
    },
    anvil,
    async stop() {
      await engine.stop()
      cleanup()
    },
  }
}

export function localSigner(privateKey: Hex): Extract<Signer, { type: 'local' }> {
  const account = privateKeyToAccount(privateKey)
  return { type: 'local', address: account.address, account, source: 'test' }
}

export type ValidatorKeys = {
  blsSecret: Uint8Array
  blsPubkey: Hex
  /** node-info's proof (119-byte message): the next registry's. */
  popFor(address: Address): Hex
  /** The adiri registry's proof (218-byte message, uncompressed key). */
  adiriProofFor(address: Address): AdiriProof
  /** What `tnv stake` does with the key on adiri. */
  signAdiriProof: SignAdiriProof
}

export function newValidatorKeys(): ValidatorKeys {
  const blsSecret = blsKeyGen(randomBytes(32))
  const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
  const blsPubkey = hex(blsPublicKey(blsSecret))
  return {
    blsSecret,
    blsPubkey,
    popFor: (address) => hex(signProofOfPossession(blsSecret, address)),
    adiriProofFor: (address) => signAdiriProof(blsSecret, blsPubkey, address),
    signAdiriProof: async ({ validator, blsPubkey: key }) => signAdiriProof(blsSecret, key, validator),
  }
}

/** The stake arguments of the keys for the generation (library parameters). */
export function stakeMaterial(t: TestChain, keys: ValidatorKeys, validator: Address) {
  return {
    blsPubkey: keys.blsPubkey,
    proofOfPossession: keys.popFor(validator),
    signAdiriProof: t.generation === 'adiri' ? keys.signAdiriProof : undefined,
  }
}

/** Sets an account's balance (wei). */
export async function setBalance(t: TestChain, address: Address, wei: bigint): Promise<void> {
  await t.anvil('anvil_setBalance', [address, numberToHex(wei)])
}
