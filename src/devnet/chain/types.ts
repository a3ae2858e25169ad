/**
 * The devnet chain: anvil (the execution engine) with the BLS verifier, the registry and the
 * issuance pool installed at the real network's addresses, plus the protocol loop that
 * concludes epochs. Implemented in ./start.ts (`startDevnetChain`); used by the reference
 * node (src/devnet/node), by tests and by benchmarks.
 */
import type { Address, Hex } from 'viem'
import { BLS_PRECOMPILE_ADDRESS } from '../../lib/chain/addresses.js'

export { DEVNET_CHAIN_ID, ISSUANCE_ADDRESS, REGISTRY_ADDRESS } from '../../lib/chain/addresses.js'
export const BLS_VERIFIER_ADDRESS: Address = BLS_PRECOMPILE_ADDRESS

export type DevnetAccount = { address: Address; privateKey: Hex }

export type StartDevnetChainParameters = {
  /** Where anvil's state is kept; a restart on the same directory resumes the chain. */
  datadir: string
  /** anvil's loopback port; 0 or omitted = a free port. */
  port?: number
  /** Blocks per epoch (protocol loop concludes an epoch every N blocks). */
  epochBlocks?: number
  /** Seconds between blocks (interval mining); 0 = mine only on transactions and on demand. */
  blockTime?: number
  /** Run the protocol loop (conclude epochs automatically). Default true. */
  protocolLoop?: boolean
  /** Called with each failure of the background protocol loop (it retries after a pause). */
  onProtocolError?: (error: Error) => void
}

export type DevnetChain = {
  chainId: number
  /** anvil's own endpoint (internal: the reference node fronts it; tests may use it directly). */
  engineHttpUrl: string
  engineWsUrl: string
  /** anvil's process id (for status displays; stop it with stop()). */
  enginePid: number
  registry: Address
  issuance: Address
  blsVerifier: Address
  /** Registry owner (mints ConsensusNFTs, writes stake configs). Public devnet key. */
  governance: DevnetAccount
  /** The protocol's system address, the only caller of concludeEpoch. */
  system: DevnetAccount
  /** Funded dev accounts (public devnet keys), each able to stake several times. Not whitelisted. */
  accounts: DevnetAccount[]
  /** Genesis validators, already Active. */
  genesisValidators: Address[]
  epochBlocks: number
  /** True when an existing devnet in `datadir` was resumed (not bootstrapped). */
  resumed: boolean
  /** Concludes the current epoch now (mining as needed); resolves to the new epoch id. */
  advanceEpoch(): Promise<number>
  /** Mines `blocks` blocks (the protocol loop still concludes epochs on boundaries). */
  mine(blocks?: number): Promise<void>
  /** Saves the state and stops anvil and the loop. Idempotent. */
  stop(): Promise<void>
  /** Called if the engine dies on its own (exit code, stderr tail). */
  onEngineExit(listener: (info: { code: number | null; signal: string | null; stderrTail: string }) => void): void
}
