/**
 * Fixed addresses and chain ids of the real networks (../../../networks/README.md, the node's
 * `crates/config/src/genesis.rs` and `system_calls.rs` as read for the fact sheets). The
 * registry, the Issuance pool and the precompiles sit at the same addresses on every network,
 * the devnet included.
 */
import type { Address } from 'viem'

/** ConsensusRegistry (`CONSENSUS_REGISTRY_ADDRESS`). */
export const REGISTRY_ADDRESS: Address = '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1'
/** Issuance, the reward pool (`ISSUANCE_ADDRESS`). */
export const ISSUANCE_ADDRESS: Address = '0x07A07A07A07A07a07A07A07a07a07A07a07a07A0'
/** The node's native BLS verify precompile, called by the next-generation registry. */
export const BLS_PRECOMPILE_ADDRESS: Address = '0x000000000000000000000000000000000000b151'
/** The sender of the node's system calls (applyIncentives, applySlashes, concludeEpoch). */
export const SYSTEM_ADDRESS: Address = '0xffffFFFfFFffffffffffffffFfFFFfffFFFfFFfE'

/** The test network "adiri". */
export const ADIRI_CHAIN_ID = 2017
/** Mainnet (chain id of the node's mainnet genesis). */
export const MAINNET_CHAIN_ID = 487
/** tnv's rehearsal chains (embedded devnet and genesis rehearsals unless --chain-id says otherwise). */
export const DEVNET_CHAIN_ID = 911329 // 0xde7e1
