/**
 * The arguments of `ConsensusRegistry.stake(bytes blsPubkey, ProofOfPossession proof)` where
 * ProofOfPossession is the tuple `(bytes signature)` (reference-facts: Registry shapes), and
 * its calldata, encoded by viem from the next-generation registry's ABI (the one ABI encoding
 * path of tnv; the next adapter's `stakeData`). Tests check it against an independent encoding
 * of the specification's signature.
 */

import type { Hex, NodeInfo } from '../nodeinfo/types.js'
import { nextAdapter } from '../registry/generations/next.js'
import { BLS_PUBLIC_KEY_LENGTH, BLS_SIGNATURE_LENGTH } from './bls.js'

export const STAKE_SIGNATURE = 'stake(bytes,(bytes))'

export type StakingArgs = { blsPubkey: Hex; proofOfPossession: Hex }

/** The two stake() arguments in 0x hex: the 96-byte public key and the 48-byte proof. */
export function stakingArgs(info: NodeInfo): StakingArgs {
  return { blsPubkey: toHex(info.blsPublicKey), proofOfPossession: toHex(info.proofOfPossession) }
}

/**
 * Complete calldata of stake(bytes,(bytes)) (324 bytes).
 * @example stakeCalldata(args.blsPubkey, args.proofOfPossession) // '0x2fb0d025…'
 */
export function stakeCalldata(blsPubkey: Hex, proofOfPossession: Hex): Hex {
  checkHex(blsPubkey, 'blsPubkey', BLS_PUBLIC_KEY_LENGTH)
  checkHex(proofOfPossession, 'proofOfPossession', BLS_SIGNATURE_LENGTH)
  return nextAdapter.stakeData(blsPubkey, { format: 'compressed', signature: proofOfPossession })
}

function toHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString('hex')}`
}

function checkHex(hex: Hex, label: string, length: number): void {
  if (!/^0x[0-9a-fA-F]*$/.test(hex) || hex.length !== 2 + 2 * length)
    throw new RangeError(`${label}: expected ${length} bytes of 0x hex`)
}
