/**
 * `tnv delegation sign --check` (docs/automation.md): every read and refusal of the run (the key
 * material, the validator still delegatable on the registry, the registry's digest reproduced,
 * the deadline, the proof of possession, a signature made elsewhere recovering to the validator),
 * then what the run would sign and write. Signs nothing and writes nothing: the digest it reports
 * is the one the run would sign (the same reads, the same inputs). On adiri, the proof the run
 * signs with the BLS key is not made (no passphrase is asked): `proof` is null then and
 * `proofToSign` says so.
 */
import { resolve } from 'node:path'
import type { Address, Hex } from 'viem'
import { UsageError } from '../errors.js'
import { pathExists } from '../fs/atomic.js'
import { datadirPaths } from '../keys/datadir.js'
import { readDelegationFile } from './delegation-file.js'
import type { StakeProof } from './generations/adapter.js'
import type { RegistryGeneration } from './generations/detect.js'
import {
  checkedExternalSignature,
  type DelegationSigner,
  delegationDigest,
  type SignDelegationParameters,
} from './sign-delegation.js'
import { resolveStakeProof } from './stake-checks.js'

export type CheckDelegationSignatureParameters = Omit<SignDelegationParameters, 'signer' | 'signAdiriProof'> & {
  /** The validator's address (the check opens no key), or a signature made elsewhere. */
  signer: { kind: 'address'; validator: Address } | Extract<DelegationSigner, { kind: 'external' }>
  /** The run's --out; null: the run prints the file. */
  out: string | null
  /** The run's --force: an existing --out is replaced (kept as a backup first). */
  force: boolean
  /** The data directory the run would open the BLS key in, for the adiri proof it would sign. */
  keyDir: string
}

export type CheckDelegationSignatureReturnType = {
  /** already-done: --out already holds a signature of this very digest (same validator and delegator). */
  outcome: 'would-change' | 'already-done'
  check: true
  message: string
  /** The file the run would write (mode 0644); empty when it prints to stdout or nothing is to do. */
  files: { path: string; mode: string; exists: boolean; action: 'create' | 'update' }[]
  validator: Address
  delegator: Address
  generation: RegistryGeneration
  chainId: number
  registry: Address
  stakeVersion: number
  nonce: string
  deadline: string | null
  /** The registry's delegation digest the run would sign as a raw 32-byte hash. */
  digest: Hex
  /** The proof of possession the file would carry; null when the run would sign it (adiri, below). */
  proof: StakeProof | null
  /** adiri without --adiri-pop: the run opens the BLS key here to sign the proof; null otherwise. */
  proofToSign: string | null
}

/**
 * @example const r = await checkDelegationSignature({ source, signer: { kind: 'address', validator }, delegator, deadline, blsPubkey, proofOfPossession, out: 'delegation.json', force: false, keyDir })
 * @throws what the run throws before it signs (WrongStatusError, AddressRetiredError, a revert's cause), and UsageError (exit 2) for an existing --out without --force
 */
export async function checkDelegationSignature(
  params: CheckDelegationSignatureParameters,
): Promise<CheckDelegationSignatureReturnType> {
  const { signer, out, force, keyDir } = params
  const nowSeconds = params.nowSeconds ?? BigInt(Math.floor(Date.now() / 1000))
  const { validator } = signer
  const { adapter, inputs, digest } = await delegationDigest(params, validator, nowSeconds)
  let proof: StakeProof | null = null
  let proofToSign: string | null = null
  if (adapter.proofFormat === 'uncompressed' && params.adiriSignature === undefined) {
    if (!(await blsKeyIn(keyDir)))
      // the run's own refusal: no key to sign adiri's proof with, and no proof given
      await resolveStakeProof({ ...params, adapter, validator })
    proofToSign = `the adiri proof of possession with the BLS key in ${keyDir} for ${validator} (the run asks for its passphrase)`
  } else proof = await resolveStakeProof({ ...params, adapter, validator })
  if (signer.kind === 'external') await checkedExternalSignature(signer, digest, validator)

  const base = {
    validator,
    delegator: inputs.delegator,
    generation: adapter.generation,
    chainId: inputs.chainId,
    registry: inputs.registry,
    stakeVersion: inputs.validatorVersion,
    nonce: inputs.nonce.toString(),
    deadline: inputs.deadline === null ? null : inputs.deadline.toString(),
    digest,
    proof,
    proofToSign,
  }
  if (out === null)
    return {
      outcome: 'would-change',
      check: true,
      message: `would sign digest ${digest} and print the file`,
      files: [],
      ...base,
    }
  const path = resolve(out)
  const exists = await pathExists(path)
  if (exists) {
    const held = await readDelegationFile(path).catch(() => null)
    if (
      held?.digest === digest &&
      held.validator.toLowerCase() === validator.toLowerCase() &&
      held.delegator.toLowerCase() === inputs.delegator.toLowerCase()
    )
      return {
        outcome: 'already-done',
        check: true,
        message: `${out} already holds the signature of digest ${digest}`,
        files: [],
        ...base,
      }
    if (!force)
      throw new UsageError(`${out} exists already.`, {
        fix: 'Pass another --out path, or --force to replace it (the old file is kept as a timestamped backup).',
      })
  }
  return {
    outcome: 'would-change',
    check: true,
    message: exists
      ? `would sign digest ${digest} and replace ${out} (the old file kept as ${out}.<time>.bak)`
      : `would sign digest ${digest} and write ${out}`,
    files: [{ path, mode: '0644', exists, action: exists ? 'update' : 'create' }],
    ...base,
  }
}

/** Whether the data directory holds a BLS key (encrypted or not) the run could sign with. */
async function blsKeyIn(keyDir: string): Promise<boolean> {
  const { blsKw, blsKey } = datadirPaths(keyDir)
  return (await pathExists(blsKw)) || (await pathExists(blsKey))
}
