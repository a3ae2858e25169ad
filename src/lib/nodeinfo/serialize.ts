/**
 * Writes node-info.yaml text in the reference node's field order: name, bls_public_key,
 * p2p_info {primary, workers}, execution_address, proof_of_possession. The workers are always
 * a `workers:` list (a legacy `worker:` map read from disk becomes a list here).
 */
import { stringify } from 'yaml'
import { encodeBase58 } from './base58.js'
import type { NodeInfo, WorkerInfo } from './types.js'

/** @example await writeFile(p, formatNodeInfo(info)) */
export function formatNodeInfo(info: NodeInfo): string {
  const doc = {
    name: info.name,
    bls_public_key: encodeBase58(info.blsPublicKey),
    p2p_info: {
      primary: { network_address: info.primary.networkAddress, network_key: info.primary.networkKey },
      workers: info.workers.map(formatWorker),
    },
    execution_address: info.executionAddress,
    proof_of_possession: encodeBase58(info.proofOfPossession),
    ...info.extra,
  }
  // Strings that would read back as numbers or booleans (e.g. a 0x… address) are quoted.
  return stringify(doc, { lineWidth: 0 })
}

function formatWorker(w: WorkerInfo) {
  return {
    network_address: w.networkAddress,
    network_key: w.networkKey,
    ...(w.rpc ? { rpc: { http: w.rpc.http, ...(w.rpc.ws !== undefined ? { ws: w.rpc.ws } : {}) } } : {}),
  }
}
