/**
 * node-info.yaml as tnv holds it in memory (real-network/node.md §3; spec: Key material). The
 * file is public: it holds no secret. Byte fields are decoded and length-checked; text fields
 * keep the exact text of the file (base58 network keys, multiaddrs); RPC URLs are kept in the
 * form the node writes them (normalised like the `url` crate).
 */

export type Hex = `0x${string}`

export const NODE_INFO_FILE = 'node-info.yaml'

/**
 * The two shapes of `p2p_info` (docs/decisions.md, "The specification and the release operators run"):
 * - `worker`: one `p2p_info.worker:` map, what the released node (v0.14.0-adiri and main) reads
 *   and writes; the specification's release reads it too. tnv writes it by default.
 * - `workers`: the `p2p_info.workers:` list of the specification (unmerged branch
 *   554-multi-worker-config-foundation); the released node refuses it (missing field `worker`).
 */
export type NodeInfoForm = 'worker' | 'workers'

export const NODE_INFO_FORMS: readonly NodeInfoForm[] = ['worker', 'workers']

/** RPC endpoints a P2pNode advertises (`rpc: {http, ws}`): http/https, ws/wss; normalised URLs. */
export type RpcEndpoints = { http: string; ws?: string }

/**
 * A P2pNode: `network_address` (multiaddr ending in `/p2p/<peer id>`), `network_key` (base58
 * libp2p protobuf public key) and the optional `rpc` (written `rpc: ~` when unset).
 */
export type PeerInfo = { networkAddress: string; networkKey: string; rpc?: RpcEndpoints }

export type WorkerInfo = PeerInfo

export type NodeInfo = {
  name: string
  /** Compressed G2 public key, 96 bytes. */
  blsPublicKey: Uint8Array
  /** Compressed G1 signature over the 119-byte PoP message, 48 bytes. */
  proofOfPossession: Uint8Array
  /** EIP-55 checksummed here; written lower-case, as the node writes it. */
  executionAddress: Hex
  primary: PeerInfo
  /** `p2p_info.worker` (one) or `p2p_info.workers` (one or more), worker 0 first. */
  workers: WorkerInfo[]
  /**
   * The form the file was read in, or the form it is to be written in. The parser always sets
   * it; absent means the released node's `worker` form (several workers: `workers`).
   */
  form?: NodeInfoForm
}
