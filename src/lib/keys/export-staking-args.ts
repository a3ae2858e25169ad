/**
 * What `keytool export-staking-args` does. For the next-generation registry (the real
 * keytool's only form): reads only node-info.yaml (never the key), checks that its proof of
 * possession verifies for its public key and execution address, and returns the stake()
 * arguments and calldata. For the adiri registry, whose proof is over another message with the
 * uncompressed key (registry.md §6), the proof is signed with the opened BLS key and checked
 * to be the proof of node-info's public key.
 */
import type { Address } from 'viem'
import { type ReadNodeInfoReturnType, readNodeInfo } from '../nodeinfo/read.js'
import type { Hex, NodeInfo } from '../nodeinfo/types.js'
import { InvalidProofOfPossessionError } from './errors.js'
import { verifyProofOfPossession } from './pop.js'
import { type StakingArgs, stakeCalldata, stakingArgs } from './staking-args.js'

export type ExportStakingArgsReturnType = StakingArgs & {
  calldata: Hex
  executionAddress: Hex
  /** The node-info.yaml that was read. */
  nodeInfo: string
  info: NodeInfo
}

/**
 * @param nodeInfo node-info.yaml or the directory that holds it, or the file already read
 * @throws InvalidProofOfPossessionError when the PoP does not verify
 */
export async function exportStakingArgs({
  nodeInfo,
}: {
  nodeInfo: string | Pick<ReadNodeInfoReturnType, 'path' | 'info'>
}): Promise<ExportStakingArgsReturnType> {
  const { path, info } = typeof nodeInfo === 'string' ? await readNodeInfo(nodeInfo) : nodeInfo
  if (
    !verifyProofOfPossession({
      publicKey: info.blsPublicKey,
      proof: info.proofOfPossession,
      address: info.executionAddress,
    })
  )
    throw new InvalidProofOfPossessionError(path, info.executionAddress)
  const args = stakingArgs(info)
  return {
    ...args,
    calldata: stakeCalldata(args.blsPubkey, args.proofOfPossession),
    executionAddress: info.executionAddress,
    nodeInfo: path,
    info,
  }
}

export type AdiriStakingArgs = {
  blsPubkey: Hex
  uncompressedPubkey: Hex
  uncompressedSignature: Hex
  /** stake(bytes,(bytes,bytes)) calldata (selector 0xb5184324). */
  calldata: Hex
}

/**
 * The adiri registry's stake arguments for node-info's key and execution address, signed with
 * the BLS secret (which must be the key of node-info's public key).
 * @throws AdiriProofMismatchError when the secret is not the key of node-info's public key
 */
export async function adiriStakingArgs(info: NodeInfo, secret: Uint8Array): Promise<AdiriStakingArgs> {
  const [{ signAdiriProof, verifyAdiriProof }, { adiriAdapter }, { AdiriProofMismatchError }] = await Promise.all([
    import('../registry/generations/adiri-proof.js'),
    import('../registry/generations/adiri.js'),
    import('../registry/errors.js'),
  ])
  const { blsPubkey } = stakingArgs(info)
  const validator = info.executionAddress as Address
  const proof = signAdiriProof(secret, blsPubkey, validator)
  if (!verifyAdiriProof(blsPubkey, proof, validator))
    throw new AdiriProofMismatchError(
      `The BLS key in this data directory is not the key of node-info.yaml's bls_public_key (${blsPubkey.slice(0, 18)}…): a proof made with it verifies for another key.`,
      'Point --node-info at the node-info.yaml of this data directory’s key, or regenerate node-info.yaml for it.',
    )
  return {
    blsPubkey,
    ...proof,
    calldata: adiriAdapter.stakeData(blsPubkey, { format: 'uncompressed', ...proof }),
  }
}
