/**
 * The stake arguments from the key-material flags: --bls-pubkey with --pop and/or --adiri-pop,
 * or node-info.yaml (--node-info, else the one in --datadir), which also names the execution
 * address the proof of possession commits to. Reads only node-info.yaml, never the BLS key
 * (the adiri proof, when needed and not given, is signed later: ./adiri-proof-signer.ts).
 */
import { dirname } from 'node:path'
import type { Address } from 'viem'
import { UsageError } from '../errors.js'
import { stakingArgs } from '../keys/staking-args.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import type { KeyMaterialFlagValues } from '../options.js'
import { BLS_PUBKEY_BYTES, checkHexBytes, POP_BYTES, type StakeKeyMaterial } from './stake-checks.js'

export type KeyMaterial = StakeKeyMaterial & {
  /** node-info's execution_address; undefined when given as hex flags. */
  executionAddress: Address | undefined
  /** The node-info.yaml read, if any. */
  nodeInfoPath: string | undefined
  /** Where the BLS key is, for the adiri proof: node-info's directory, else --datadir. */
  keyDir: string
}

export async function keyMaterialFromFlags(flags: KeyMaterialFlagValues): Promise<KeyMaterial> {
  const adiriSignature =
    flags['adiri-pop'] === undefined ? undefined : checkHexBytes(flags['adiri-pop'], '--adiri-pop', 48, 96)
  if (flags['bls-pubkey'] !== undefined) {
    if (flags.pop === undefined && adiriSignature === undefined)
      throw new UsageError('--bls-pubkey needs the proof of possession that goes with it.', {
        fix: 'Pass --pop (node-info’s 48-byte proof, for the next registry) and/or --adiri-pop (for the adiri registry), or use --node-info instead.',
      })
    return {
      blsPubkey: checkHexBytes(flags['bls-pubkey'], '--bls-pubkey', BLS_PUBKEY_BYTES),
      proofOfPossession: flags.pop === undefined ? undefined : checkHexBytes(flags.pop, '--pop', POP_BYTES),
      adiriSignature,
      executionAddress: undefined,
      nodeInfoPath: undefined,
      keyDir: flags.datadir,
    }
  }
  const { path, info } = await readNodeInfo(flags['node-info'] ?? flags.datadir)
  const args = stakingArgs(info)
  return {
    ...args,
    adiriSignature,
    executionAddress: info.executionAddress,
    nodeInfoPath: path,
    keyDir: dirname(path),
  }
}
