/**
 * The devnet's fixed sizes and defaults (docs/devnet-chain.md, docs/decisions.md). Amounts in
 * wei of TEL (18 decimals). Everything else (stake amount, issuance, epoch length, committee)
 * is the real registry's, from the genesis or the forked chain.
 */

import { ADIRI_CHAIN_ID, MAINNET_CHAIN_ID } from '../../lib/chain/addresses.js'

export const TEL = 10n ** 18n

/** Chain ids of real networks: a rehearsal under one of them gets a warning (its signatures are valid there). */
export const REAL_NETWORK_CHAIN_IDS: Readonly<Record<number, string>> = {
  [ADIRI_CHAIN_ID]: 'the test network adiri',
  [MAINNET_CHAIN_ID]: 'mainnet',
}

/** Seconds without a block before the epoch clock mines an idle block. */
export const DEFAULT_BLOCK_TIME = 1
/**
 * Epoch length of the embedded default devnet (a rehearsal setting: the registry's own is
 * 86400 s). `--genesis` and `--fork-url` rehearsals use the registry's unless told otherwise.
 */
export const EMBEDDED_EPOCH_SECONDS = 10
/** The longest rehearsal epoch (seconds; uint32 like `epochDuration`). */
export const MAX_EPOCH_SECONDS = 4_294_967_295

export const DEV_ACCOUNT_COUNT = 10
/** Each dev account can stake ten times. */
export const DEV_ACCOUNT_BALANCE = 10_000_000n * TEL
