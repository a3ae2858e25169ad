/**
 * The node's identity for `tn_info` and `tn_nodeMode`: the public keys of the node-info.yaml in
 * its data directory (a validator's node joining the devnet has one), or none (the devnet's own
 * node, an observer without keys).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { bytesToHex } from 'viem'
import { readNodeInfo } from '../../lib/nodeinfo/read.js'
import { NODE_INFO_FILE } from '../../lib/nodeinfo/types.js'
import type { NodeIdentity } from './tn-methods.js'

/** The multiaddr without its `/p2p/<peer id>` suffix. */
function externalAddress(networkAddress: string): string {
  const i = networkAddress.indexOf('/p2p/')
  return i >= 0 ? networkAddress.slice(0, i) : networkAddress
}

/**
 * @returns the identity, or null when the directory has no node-info.yaml
 * @throws the node-info reader's errors for a file that is there but unreadable
 */
export async function readNodeIdentity(datadir: string): Promise<NodeIdentity | null> {
  if (!existsSync(join(datadir, NODE_INFO_FILE))) return null
  const { info } = await readNodeInfo(datadir)
  const worker = info.workers[0]
  return {
    name: info.name,
    blsPublicKey: bytesToHex(info.blsPublicKey),
    executionAddress: info.executionAddress,
    primaryNetworkKey: info.primary.networkKey,
    workerNetworkKey: worker?.networkKey ?? '',
    primaryExternalAddress: externalAddress(info.primary.networkAddress),
    workerExternalAddress: worker ? externalAddress(worker.networkAddress) : '',
  }
}
