/**
 * The devnet's fixed economics and sizes (docs/devnet-chain.md, docs/decisions.md). Amounts
 * in wei of TEL (18 decimals).
 */

export const TEL = 10n ** 18n

/** Blocks per epoch when the caller gives none. */
export const DEFAULT_EPOCH_BLOCKS = 10
/** Seconds between blocks when idle (transactions are still mined at once). */
export const DEFAULT_BLOCK_TIME = 1
/** The smallest epoch the protocol loop can run (one block plus the concludeEpoch block). */
export const MIN_EPOCH_BLOCKS = 2

/** Stake config version 0 of a fresh devnet: the test network's stake amount, so rehearsals show real figures. */
export const GENESIS_STAKE_CONFIG = {
  stakeAmount: 1_000_000n * TEL,
  minWithdrawAmount: 1_000n * TEL,
  epochIssuance: 10_000n * TEL,
} as const

export const DEV_ACCOUNT_COUNT = 10
/** Each dev account can stake ten times. */
export const DEV_ACCOUNT_BALANCE = 10_000_000n * TEL
export const GENESIS_VALIDATOR_COUNT = 4
/** Gas money for the system and genesis validator accounts. */
export const OPERATOR_GAS_BALANCE = 1_000_000n * TEL
/** The Issuance pool at genesis: 100,000 epochs of rewards at the genesis issuance. */
export const ISSUANCE_POOL_BALANCE = 1_000_000_000n * TEL
