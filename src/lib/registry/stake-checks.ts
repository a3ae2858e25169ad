/**
 * The local checks of a stake, before any endpoint is contacted: sizes, the signer against
 * node-info's execution_address, and the proof of possession verified for the address that
 * will own the stake (the registry rebuilds the same 119-byte message on-chain).
 */
import type { Address, Hex } from 'viem'
import { BadInputError } from '../errors.js'
import { verifyProofOfPossession } from '../keys/pop.js'
import { InvalidProofOfPossessionError, SignerMismatchError } from './errors.js'

export const BLS_PUBKEY_BYTES = 96
export const POP_BYTES = 48

export type StakeKeyMaterial = {
  /** 96-byte compressed BLS public key. */
  blsPubkey: Hex
  /** 48-byte compressed proof of possession. */
  proofOfPossession: Hex
}

/** Checks a hex value's size, with a labeled message ("--bls-pubkey: expected 96 bytes, got 95"). */
export function checkHexBytes(value: string, label: string, bytes: number): Hex {
  if (!/^0x[0-9a-fA-F]*$/.test(value) || value.length % 2 !== 0)
    throw new BadInputError(`${label} is not 0x hex.`, {
      fix: `Pass ${bytes} bytes as 0x followed by ${bytes * 2} hex digits.`,
    })
  const got = (value.length - 2) / 2
  if (got !== bytes)
    throw new BadInputError(`${label}: expected ${bytes} bytes, got ${got}.`, {
      fix: `Pass the ${bytes}-byte value (\`tnv keytool export-staking-args\` prints both stake arguments).`,
    })
  return value.toLowerCase() as Hex
}

export type CheckStakeKeyMaterialParameters = StakeKeyMaterial & {
  /** The address that will own the stake (the signer for `stake`, the validator for `delegateStake`). */
  validator: Address
  /** node-info's execution_address, when the key material came from node-info.yaml. */
  executionAddress?: Address | undefined
}

/**
 * @example checkStakeKeyMaterial({ blsPubkey, proofOfPossession, validator: signer.address, executionAddress })
 */
export function checkStakeKeyMaterial({
  blsPubkey,
  proofOfPossession,
  validator,
  executionAddress,
}: CheckStakeKeyMaterialParameters): void {
  const publicKey = Buffer.from(checkHexBytes(blsPubkey, 'bls public key', BLS_PUBKEY_BYTES).slice(2), 'hex')
  const proof = Buffer.from(checkHexBytes(proofOfPossession, 'proof of possession', POP_BYTES).slice(2), 'hex')
  if (executionAddress !== undefined && executionAddress.toLowerCase() !== validator.toLowerCase())
    throw new SignerMismatchError({ signer: validator, executionAddress })
  if (!verifyProofOfPossession({ publicKey, proof, address: validator }))
    throw new InvalidProofOfPossessionError(validator)
}
