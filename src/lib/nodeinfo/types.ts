/**
 * node-info.yaml as tnv holds it in memory (reference-facts: node-info.yaml). The file is
 * public: it holds no secret. Byte fields are decoded and length-checked; text fields keep
 * the exact text of the file (base58 network keys, multiaddrs, URLs).
 */

export type Hex = `0x${string}`

export const NODE_INFO_FILE = 'node-info.yaml'

/** RPC endpoints a worker advertises (`rpc: {http, ws}`): http/https, ws/wss (needs http). */
export type RpcEndpoints = { http: string; ws?: string }

/** A p2p identity: `network_address` (multiaddr ending in `/p2p/<peer id>`) and `network_key` (base58 libp2p protobuf public key). */
export type PeerInfo = { networkAddress: string; networkKey: string }

export type WorkerInfo = PeerInfo & { rpc?: RpcEndpoints }

export type NodeInfo = {
  name: string
  /** Compressed G2 public key, 96 bytes. */
  blsPublicKey: Uint8Array
  /** Compressed G1 signature over the 119-byte PoP message, 48 bytes. */
  proofOfPossession: Uint8Array
  /** EIP-55 checksummed. */
  executionAddress: Hex
  primary: PeerInfo
  /** `p2p_info.workers` (a legacy single `worker:` map is read as a list of one). */
  workers: WorkerInfo[]
  /** The file held the legacy `p2p_info.worker:` map; the next write turns it into a `workers:` list. */
  legacyWorkerMap?: boolean
  /** Top-level keys tnv does not know, kept as read and written back unchanged. */
  extra?: Record<string, unknown>
}
