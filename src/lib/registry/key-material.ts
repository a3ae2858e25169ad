/**
 * The stake arguments from the key-material flags: --bls-pubkey with --pop, or node-info.yaml
 * (--node-info, else the one in --datadir), which also names the execution address the proof
 * of possession commits to. Reads only node-info.yaml, never the BLS key.
 */
import type { Address } from 'viem'
import { stakingArgs } from '../keys/staking-args.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import type { KeyMaterialFlagValues } from './flags.js'
import { BLS_PUBKEY_BYTES, checkHexBytes, POP_BYTES, type StakeKeyMaterial } from './stake-checks.js'

export type KeyMaterial = StakeKeyMaterial & {
  /** node-info's execution_address; undefined when given as hex flags. */
  executionAddress: Address | undefined
  /** The node-info.yaml read, if any. */
  nodeInfoPath: string | undefined
}

export async function keyMaterialFromFlags(flags: KeyMaterialFlagValues): Promise<KeyMaterial> {
  if (flags['bls-pubkey'] !== undefined && flags.pop !== undefined)
    return {
      blsPubkey: checkHexBytes(flags['bls-pubkey'], '--bls-pubkey', BLS_PUBKEY_BYTES),
      proofOfPossession: checkHexBytes(flags.pop, '--pop', POP_BYTES),
      executionAddress: undefined,
      nodeInfoPath: undefined,
    }
  const { path, info } = await readNodeInfo(flags['node-info'] ?? flags.datadir)
  const args = stakingArgs(info)
  return { ...args, executionAddress: info.executionAddress, nodeInfoPath: path }
}
