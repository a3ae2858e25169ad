/**
 * The local checks of a stake, before and after the generation is known: sizes, the signer
 * against node-info's execution_address, and the proof of possession of the generation found
 * (next: node-info's 48-byte proof over the 119-byte message; adiri: a signature over the
 * 218-byte message with the uncompressed key, which tnv signs with the BLS key when it is not
 * given), verified for the address that will own the stake, so a proof that verifies for
 * another key or address is refused before anything is sent.
 */
import type { Address, Hex } from 'viem'
import { BadInputError, UsageError } from '../errors.js'
import { verifyProofOfPossession } from '../keys/pop.js'
import { AdiriProofMismatchError, SignerMismatchError, StakeProofOfPossessionInvalidError } from './errors.js'
import type { RegistryAdapter, StakeProof } from './generations/adapter.js'
import { type AdiriProof, adiriProofFromSignature, verifyAdiriProof } from './generations/adiri-proof.js'

export const BLS_PUBKEY_BYTES = 96
export const POP_BYTES = 48

export type StakeKeyMaterial = {
  /** 96-byte compressed BLS public key. */
  blsPubkey: Hex
  /** node-info's 48-byte compressed proof of possession (119-byte message): what the next registry takes. */
  proofOfPossession?: Hex | undefined
  /** adiri: a signature over the 218-byte message (48 or 96 bytes), when given instead of the key. */
  adiriSignature?: Hex | undefined
}

/** Signs the adiri proof with the BLS key; called only when the registry is adiri and a proof is needed. */
export type SignAdiriProof = (p: { validator: Address; blsPubkey: Hex }) => Promise<AdiriProof>

/** Checks a hex value's size, with a labeled message ("--bls-pubkey: expected 96 bytes, got 95"). */
export function checkHexBytes(value: string, label: string, ...sizes: number[]): Hex {
  const want = sizes.join(' or ')
  if (!/^0x[0-9a-fA-F]*$/.test(value) || value.length % 2 !== 0)
    throw new BadInputError(`${label} is not 0x hex.`, {
      fix: `Pass ${want} bytes as 0x followed by ${sizes.map((b) => b * 2).join(' or ')} hex digits.`,
    })
  const got = (value.length - 2) / 2
  if (!sizes.includes(got))
    throw new BadInputError(`${label}: expected ${want} bytes, got ${got}.`, {
      fix: 'Pass the value `tnv keytool export-staking-args` prints (with --registry-generation adiri for the adiri proof).',
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
 * Before any endpoint is contacted: sizes, the execution address, and node-info's proof when given.
 * @example checkStakeKeyMaterial({ blsPubkey, proofOfPossession, validator: signer.address, executionAddress })
 */
export function checkStakeKeyMaterial({
  blsPubkey,
  proofOfPossession,
  adiriSignature,
  validator,
  executionAddress,
}: CheckStakeKeyMaterialParameters): void {
  const publicKey = Buffer.from(checkHexBytes(blsPubkey, 'bls public key', BLS_PUBKEY_BYTES).slice(2), 'hex')
  if (adiriSignature !== undefined) checkHexBytes(adiriSignature, 'adiri proof of possession', 48, 96)
  if (executionAddress !== undefined && executionAddress.toLowerCase() !== validator.toLowerCase())
    throw new SignerMismatchError({ signer: validator, executionAddress })
  if (proofOfPossession === undefined) return
  const proof = Buffer.from(checkHexBytes(proofOfPossession, 'proof of possession', POP_BYTES).slice(2), 'hex')
  if (!verifyProofOfPossession({ publicKey, proof, address: validator }))
    throw new StakeProofOfPossessionInvalidError(validator)
}

export type ResolveStakeProofParameters = StakeKeyMaterial & {
  adapter: RegistryAdapter
  validator: Address
  signAdiriProof?: SignAdiriProof | undefined
}

/**
 * The proof the detected generation takes, checked for `blsPubkey` and `validator`.
 * @throws StakeProofOfPossessionInvalidError, AdiriProofMismatchError, UsageError (no way to get the adiri proof)
 */
export async function resolveStakeProof({
  adapter,
  validator,
  blsPubkey,
  proofOfPossession,
  adiriSignature,
  signAdiriProof,
}: ResolveStakeProofParameters): Promise<StakeProof> {
  if (adapter.proofFormat === 'compressed') {
    if (proofOfPossession === undefined)
      throw new UsageError(
        `The ${adapter.generation} registry takes the 48-byte proof of possession of node-info.yaml, and none was given.`,
        { fix: 'Pass --node-info (or --datadir) with the validator’s node-info.yaml, or --bls-pubkey with --pop.' },
      )
    const ok = verifyProofOfPossession({
      publicKey: Buffer.from(blsPubkey.slice(2), 'hex'),
      proof: Buffer.from(proofOfPossession.slice(2), 'hex'),
      address: validator,
    })
    if (!ok) throw new StakeProofOfPossessionInvalidError(validator)
    return { format: 'compressed', signature: proofOfPossession }
  }
  if (adiriSignature !== undefined) {
    const proof = adiriProofFromSignature(blsPubkey, adiriSignature, validator)
    if (!proof)
      throw new AdiriProofMismatchError(
        `The adiri proof of possession given does not verify for BLS key ${blsPubkey.slice(0, 18)}… and address ${validator} over the registry's 218-byte message: it was signed by another key, for another address, or over another message.`,
        'Print it where the key is with `tnv keytool export-staking-args --registry-generation adiri --json` (it signs for node-info’s execution address), or let `tnv stake --datadir DIR` sign it.',
      )
    return { format: 'uncompressed', ...proof }
  }
  if (!signAdiriProof)
    throw new UsageError(
      'The adiri registry checks a proof of possession over its own 218-byte message (with the uncompressed key), which node-info.yaml does not hold, and neither the BLS key nor that proof was given.',
      {
        fix: 'Run it where the validator’s keys are (--datadir, with --bls-passphrase-source), or pass --adiri-pop from `tnv keytool export-staking-args --registry-generation adiri --json`.',
      },
    )
  const proof = await signAdiriProof({ validator, blsPubkey })
  // the contract never ties the compressed key it registers to the proof's key: tnv does
  if (!verifyAdiriProof(blsPubkey, proof, validator))
    throw new AdiriProofMismatchError(
      `The BLS key tnv opened does not belong to the public key being registered (${blsPubkey.slice(0, 18)}…): its proof of possession verifies for another key, so the stake would register a key nobody holds.`,
      'Point --datadir at the data directory whose node-info.yaml holds this public key, or regenerate node-info.yaml for the key you hold.',
    )
  return { format: 'uncompressed', ...proof }
}
