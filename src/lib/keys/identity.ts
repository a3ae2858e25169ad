/** The public identity of a node as keytool reports it (show, generate, generate pop; text and --json). */
import { encodeBase58 } from '../nodeinfo/base58.js'
import type { Hex, NodeInfo, RpcEndpoints } from '../nodeinfo/types.js'
import { peerIdFromNetworkKey } from './libp2p.js'

export type PeerView = { networkAddress: string; networkKey: string; peerId: string; rpc?: RpcEndpoints }
export type WorkerView = PeerView & { index: number }

export type IdentityView = {
  name: string
  /** base58, as in node-info.yaml */
  blsPublicKey: string
  blsPublicKeyHex: Hex
  executionAddress: Hex
  /** base58, as in node-info.yaml */
  proofOfPossession: string
  proofOfPossessionHex: Hex
  primary: PeerView
  workers: WorkerView[]
}

export function identityView(info: NodeInfo): IdentityView {
  const peer = (p: { networkAddress: string; networkKey: string; rpc?: RpcEndpoints }): PeerView => ({
    networkAddress: p.networkAddress,
    networkKey: p.networkKey,
    peerId: peerIdFromNetworkKey(p.networkKey) ?? '',
    ...(p.rpc ? { rpc: p.rpc } : {}),
  })
  return {
    name: info.name,
    blsPublicKey: encodeBase58(info.blsPublicKey),
    blsPublicKeyHex: `0x${Buffer.from(info.blsPublicKey).toString('hex')}`,
    executionAddress: info.executionAddress,
    proofOfPossession: encodeBase58(info.proofOfPossession),
    proofOfPossessionHex: `0x${Buffer.from(info.proofOfPossession).toString('hex')}`,
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
    ['BLS public key (hex)', view.blsPublicKeyHex],
    ['BLS public key (base58)', view.blsPublicKey],
    ['proof of possession (hex)', view.proofOfPossessionHex],
    ['proof of possession (base58)', view.proofOfPossession],
    ['primary address', view.primary.networkAddress],
    ['primary peer id', view.primary.peerId],
    ['primary network key', view.primary.networkKey],
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
      [`worker ${w.index} network key`, w.networkKey],
    )
    if (w.rpc) rows.push([`worker ${w.index} rpc`, w.rpc.ws ? `${w.rpc.http} (ws ${w.rpc.ws})` : w.rpc.http])
  }
  rows.push(...extra)
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`)
}
