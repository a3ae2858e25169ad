/**
 * One adapter per deployed registry generation behind one interface: its ABI, the calldata of
 * every state-changing call, the proof format, the delegation digest and the errors it can raise. Commands and the wizard talk to
 * this interface only; the generation is always detected from the code at the address
 * (./detect.ts), never assumed.
 */
import type { Abi, Address, Hex } from 'viem'
import type { ChainClient } from '../../chain/client.js'
import type { AdiriProof } from './adiri-proof.js'
import type { DelegationTypeSpec } from './delegation-hash.js'
import type { RegistryGeneration } from './detect.js'

/** The proof of possession `stake`/`delegateStake` take, in the form of the generation. */
export type StakeProof =
  /** next: the 48-byte compressed signature over the 119-byte message (node-info.yaml's). */
  | { format: 'compressed'; signature: Hex }
  /** adiri: the 192-byte uncompressed key and the 96-byte uncompressed signature over the 218-byte message. */
  | ({ format: 'uncompressed' } & AdiriProof)

export type RegistryFeatures = {
  /** `delegateStake`/`delegationDigest` carry a deadline (DelegationExpired after it). */
  deadline: boolean
  /** `increaseNonce()` revokes the validator's delegation signatures. */
  increaseNonce: boolean
  /** `claimableRefunds(address)` + `claimRefund()`: a rejected payout is credited, not reverted. */
  refunds: boolean
  /** `unstake(address, bool acceptRewardShortfall)`; adiri's `unstake(address)` has no choice and reverts on a shortfall. */
  unstakeShortfallChoice: boolean
  /** `claimableRewards(address)`. */
  claimableRewards: boolean
}

export type ReadDelegationDigestArgs = {
  blsPubkey: Hex
  validator: Address
  delegator: Address
  /** Required when `features.deadline`; ignored otherwise. */
  deadline: bigint | null
}

export interface RegistryAdapter {
  readonly generation: RegistryGeneration
  /** A short description for messages: "adiri (test network, stake(bytes,(bytes,bytes)))". */
  readonly label: string
  readonly abi: Abi
  /** The registry's errors plus what can bubble up from the libraries and contracts it calls. */
  readonly errorAbi: Abi
  readonly proofFormat: StakeProof['format']
  readonly features: RegistryFeatures
  /** The delegation type and key hash of this generation (./delegation-hash.ts). */
  readonly delegationType: DelegationTypeSpec
  /** Signatures of the calls, for messages ("stake(bytes,(bytes,bytes))"). */
  readonly signatures: { stake: string; delegateStake: string; unstake: string; delegationDigest: string }
  stakeData(blsPubkey: Hex, proof: StakeProof): Hex
  activateData(): Hex
  delegateStakeData(p: {
    blsPubkey: Hex
    proof: StakeProof
    validator: Address
    signature: Hex
    deadline: bigint | null
  }): Hex
  unstakeData(validator: Address, acceptRewardShortfall: boolean): Hex
  /** Throws on a generation without the feature (check `features` first). */
  claimRefundData(): Hex
  increaseNonceData(): Hex
  /** The registry's own `delegationDigest(...)` for these inputs (one eth_call). */
  readDelegationDigest(client: ChainClient, registry: Address, args: ReadDelegationDigestArgs): Promise<Hex>
}

/** A programming error: a call the generation does not have was requested. */
export class UnsupportedCallError extends Error {
  constructor(generation: RegistryGeneration, call: string) {
    super(`the ${generation} registry has no ${call}`)
  }
}
