/**
 * The public identity of a node as keytool reports it (show, generate, generate pop, recover;
 * text and --json). One rule for every key in tnv's JSON (docs/decisions.md, "One JSON shape for
 * keys"): the plain name holds the bytes in 0x hex (what stake(), explorers and the deployment
 * docs use), `<name>Base58` the same bytes in base58 (what node-info.yaml holds). Identifiers
 * that have one text form (peer ids, multiaddrs, addresses) keep it.
 */
import { encodeBase58, maxBase58Length, tryDecodeBase58 } from '../nodeinfo/base58.js'
import type { Hex, NodeInfo, RpcEndpoints } from '../nodeinfo/types.js'
import { peerIdFromNetworkKey } from './libp2p.js'

export type PeerView = {
  networkAddress: string
  /** The libp2p protobuf public key (08 01 12 20 || ed25519 key, 36 bytes), 0x hex. */
  networkKey: Hex
  /** The same bytes in base58: node-info.yaml's `network_key`. */
  networkKeyBase58: string
  peerId: string
  rpc?: RpcEndpoints
}
export type WorkerView = PeerView & { index: number }

export type IdentityView = {
  name: string
  /** Compressed BLS public key (96 bytes), 0x hex. */
  blsPublicKey: Hex
  /** The same bytes in base58, as in node-info.yaml. */
  blsPublicKeyBase58: string
  executionAddress: Hex
  /** Proof of possession (48 bytes), 0x hex. */
  proofOfPossession: Hex
  /** The same bytes in base58, as in node-info.yaml. */
  proofOfPossessionBase58: string
  primary: PeerView
  workers: WorkerView[]
}

export const toHex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`

/**
 * A key given as 0x hex or base58 (a node's answer), in both forms; null when it is neither or
 * not `length` bytes.
 */
export function keyForms(text: string, length: number): { hex: Hex; base58: string } | null {
  const bytes = /^0x(?:[0-9a-fA-F]{2})+$/.test(text)
    ? Uint8Array.from(Buffer.from(text.slice(2), 'hex'))
    : text.length <= maxBase58Length(length)
      ? tryDecodeBase58(text)
      : undefined
  if (!bytes || bytes.length !== length) return null
  return { hex: toHex(bytes), base58: encodeBase58(bytes) }
}

export function identityView(info: NodeInfo): IdentityView {
  const peer = (p: { networkAddress: string; networkKey: string; rpc?: RpcEndpoints }): PeerView => ({
    networkAddress: p.networkAddress,
    // parsed node-info.yaml has checked it is base58 of 36 bytes
    networkKey: toHex(tryDecodeBase58(p.networkKey) ?? new Uint8Array()),
    networkKeyBase58: p.networkKey,
    peerId: peerIdFromNetworkKey(p.networkKey) ?? '',
    ...(p.rpc ? { rpc: p.rpc } : {}),
  })
  return {
    name: info.name,
    blsPublicKey: toHex(info.blsPublicKey),
    blsPublicKeyBase58: encodeBase58(info.blsPublicKey),
    executionAddress: info.executionAddress,
    proofOfPossession: toHex(info.proofOfPossession),
    proofOfPossessionBase58: encodeBase58(info.proofOfPossession),
    primary: peer(info.primary),
    workers: info.workers.map((w, index) => ({ index, ...peer(w) })),
  }
}

/** Lines for humans: the identity as an aligned two-column list. */
export function formatIdentity(view: IdentityView, extra: [string, string][] = []): string[] {
  const rows: [string, string][] = [
    ['name', view.name],
    ['execution address', view.executionAddress],
    // hex is what stake(), explorers and deployment docs use; base58 is node-info.yaml's form
    ['BLS public key (hex)', view.blsPublicKey],
    ['BLS public key (base58)', view.blsPublicKeyBase58],
    ['proof of possession (hex)', view.proofOfPossession],
    ['proof of possession (base58)', view.proofOfPossessionBase58],
    ['primary address', view.primary.networkAddress],
    ['primary peer id', view.primary.peerId],
    ['primary network key', view.primary.networkKeyBase58],
  ]
  if (view.primary.rpc)
    rows.push([
      'primary rpc',
      view.primary.rpc.ws ? `${view.primary.rpc.http} (ws ${view.primary.rpc.ws})` : view.primary.rpc.http,
    ])
  for (const w of view.workers) {
    rows.push(
      [`worker ${w.index} address`, w.networkAddress],
      [`worker ${w.index} peer id`, w.peerId],
      [`worker ${w.index} network key`, w.networkKeyBase58],
    )
    if (w.rpc) rows.push([`worker ${w.index} rpc`, w.rpc.ws ? `${w.rpc.http} (ws ${w.rpc.ws})` : w.rpc.http])
  }
  rows.push(...extra)
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`)
}
