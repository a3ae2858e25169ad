/**
 * What `keytool export-staking-args` does: reads only node-info.yaml (never the key), checks
 * that its proof of possession verifies for its public key and execution address, and returns
 * the stake() arguments and calldata.
 */
import { readNodeInfo } from '../nodeinfo/read.js'
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
 * @param nodeInfo node-info.yaml or the directory that holds it
 * @throws InvalidProofOfPossessionError when the PoP does not verify
 */
export async function exportStakingArgs({ nodeInfo }: { nodeInfo: string }): Promise<ExportStakingArgsReturnType> {
  const { path, info } = await readNodeInfo(nodeInfo)
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
