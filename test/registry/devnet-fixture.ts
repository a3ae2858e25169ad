// @ts-nocheck -- written for the retired devnet registry contract (its governance key and ABI are gone); issue 12 rewrites it for the real registries. Left compiling only by issue 11.
/**
 * A devnet chain per test file (anvil + registry, in a temp datadir, on a free port), with
 * helpers: the registry context the library takes, local signers for the dev accounts, fresh
 * BLS validator keys, and raw anvil calls for what operators cannot do (drain the pool,
 * give an address code).
 */
import { randomBytes } from 'node:crypto'
import type { Address, Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import type { DevnetChain } from '../../src/devnet/chain/types.js'
import { createChainClient } from '../../src/lib/chain/client.js'
import type { ChainTarget } from '../../src/lib/chain/resolve-target.js'
import type { Signer } from '../../src/lib/chain/signer.js'
import { blsKeyGen, blsPublicKey } from '../../src/lib/keys/bls.js'
import { signProofOfPossession } from '../../src/lib/keys/pop.js'
import type { RegistryContext } from '../../src/lib/registry/types.js'
import { tempDir } from '../helpers/cli.js'

export type TestChain = {
  chain: DevnetChain
  target: ChainTarget
  ctx: RegistryContext
  datadir: string
  stop(): Promise<void>
}

export async function startTestChain({ epochBlocks = 6 }: { epochBlocks?: number } = {}): Promise<TestChain> {
  const { dir, cleanup } = tempDir('tnv-registry-chain-')
  const chain = await startDevnetChain({ datadir: dir, blockTime: 0, epochBlocks })
  const target: ChainTarget = {
    name: 'custom',
    rpcUrl: chain.engineHttpUrl,
    expectedChainId: chain.chainId,
    registry: chain.registry,
    issuance: chain.issuance,
    explorer: null,
    devnet: null,
  }
  return {
    chain,
    target,
    ctx: { target, client: createChainClient({ rpcUrl: chain.engineHttpUrl, retryCount: 0 }) },
    datadir: dir,
    async stop() {
      await chain.stop()
      cleanup()
    },
  }
}

export function localSigner(privateKey: Hex): Extract<Signer, { type: 'local' }> {
  const account = privateKeyToAccount(privateKey)
  return { type: 'local', address: account.address, account, source: 'test' }
}

export type ValidatorKeys = { blsSecret: Uint8Array; blsPubkey: Hex; popFor(address: Address): Hex }

export function newValidatorKeys(): ValidatorKeys {
  const blsSecret = blsKeyGen(randomBytes(32))
  const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
  return {
    blsSecret,
    blsPubkey: hex(blsPublicKey(blsSecret)),
    popFor: (address) => hex(signProofOfPossession(blsSecret, address)),
  }
}

/** A raw JSON-RPC call to anvil (test-only methods such as anvil_setBalance). */
export async function anvil(t: TestChain, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(t.chain.engineHttpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}
