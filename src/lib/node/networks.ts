/**
 * The public networks as the node sees them (real-network/node.md §4 and §7): the `--chain`
 * value that makes the node load each network's embedded genesis, its chain id, and the public
 * endpoints tnv compares a local node with. Each fact says where it comes from and whether it
 * is known or a placeholder; the node's own chain-configs call themselves placeholders, and
 * mainnet's committee visibly is one.
 *
 * tnv's own network names (`--chain testnet|adiri|devnet` on tnv's commands, src/lib/chain)
 * are not the node's: `nodeChainFor` maps them.
 */
import type { NodeChainValue } from './released-flags.js'

export type NodeNetworkPreset = {
  /** tnv's name for the network. */
  name: 'adiri' | 'mainnet'
  chainId: number
  /**
   * The `--chain` value tnv passes: one that both node releases accept and that means the same
   * in both (docs/decisions.md). `test-net` is accepted too and means the same as `adiri`.
   */
  nodeChain: NodeChainValue
  /** Other `--chain` values of the node for this network. */
  alsoAccepted: NodeChainValue[]
  /** The public JSON-RPC endpoint `node sync` compares with; null when none is published. */
  publicRpc: string | null
  /** Other endpoints a source names for it. */
  otherRpcs: string[]
  explorer: string | null
  /** What is known, with the source. */
  known: string[]
  /** What is a placeholder or not published. */
  placeholders: string[]
}

export const NODE_NETWORKS: Readonly<Record<'adiri' | 'mainnet', NodeNetworkPreset>> = {
  adiri: {
    name: 'adiri',
    chainId: 2017,
    nodeChain: 'adiri',
    alsoAccepted: ['test-net'],
    publicRpc: 'https://rpc.adiri.tel',
    otherRpcs: ['https://rpc.telcoin.network'],
    explorer: 'https://telscan.io',
    known: [
      'chain id 2017 (0x7e1): chain-configs/testnet/genesis.yaml of the node; tn-docs networks-and-rpc-endpoints.md',
      '--chain adiri (or test-net) loads the embedded test-network genesis; the binary must be built with the adiri feature',
      'public RPC https://rpc.adiri.tel (tn-docs; rate-limited, no WebSocket); the deployment scripts use https://rpc.telcoin.network',
      'explorer https://telscan.io (tn-docs); the deployment scripts name https://scan.telcoin.network',
      'ConsensusRegistry 0x07e17e17e17e17e17e17e17e17e17e17e17e17e1, Issuance 0x07a07a07a07a07a07a07a07a07a07a07a07a07a0',
    ],
    placeholders: [
      "the node's chain-configs README calls its network configs placeholders, not the actual network configs",
    ],
  },
  mainnet: {
    name: 'mainnet',
    chainId: 487,
    nodeChain: 'main-net',
    alsoAccepted: [],
    publicRpc: null,
    otherRpcs: [],
    explorer: null,
    known: [
      'chain id 487: chain-configs/mainnet/genesis.yaml of the node; tn-docs evm-compatibility.md',
      '--chain main-net loads the embedded mainnet genesis (an adiri or faucet build refuses it)',
      'ConsensusRegistry and Issuance at the same addresses as the test network (genesis alloc)',
    ],
    placeholders: [
      'no public RPC endpoint and no explorer are published: give --network-url to compare with',
      'the embedded committee has placeholder execution addresses (0x1111…, 0x2222…, …) and bootstrap peers on 127.0.0.1',
      'basefee address 0x9999…9999 is a placeholder; the deployment scripts still say "Mainnet has not launched yet" (and chain id 2017)',
    ],
  },
}

/**
 * The node's `--chain` value for one of tnv's network names, or null for a network the node
 * has no preset for (the devnet is tnv's reference node: `--chain devnet`).
 * @example nodeChainFor('testnet') // 'adiri'
 */
export function nodeChainFor(network: string): NodeChainValue | null {
  switch (network) {
    case 'testnet':
    case 'adiri':
    case 'test-net':
      return NODE_NETWORKS.adiri.nodeChain
    case 'mainnet':
    case 'main-net':
      return NODE_NETWORKS.mainnet.nodeChain
    default:
      return null
  }
}

/** The preset of a node `--chain` value or a tnv network name, or null. */
export function nodeNetworkPreset(name: string): NodeNetworkPreset | null {
  const chain = nodeChainFor(name)
  if (chain === null) return null
  return chain === 'main-net' ? NODE_NETWORKS.mainnet : NODE_NETWORKS.adiri
}

/** The namespace list tnv gives a node it starts: it means the same on both releases (it names tn). */
export const STARTED_NODE_HTTP_API = 'eth,net,web3,rpc,tn'

/**
 * The node flags tnv uses when it starts a node for a network itself (the staking wizard):
 * only flags both node releases accept and read the same way: the node's own `--chain` value,
 * an explicit namespace list that names tn, HTTP on the given loopback port, IPC off (so it
 * never takes the default /tmp/tn.ipc of another node on the host). The devnet is tnv's
 * reference node: `--chain devnet`.
 * @example nodeStartFlags('testnet', 40123) // ['--chain', 'adiri', '--http', '--http.port', '40123', '--http.api', 'eth,net,web3,rpc,tn', '--ipcdisable']
 */
export function nodeStartFlags(network: string, port: number): string[] {
  const chain = network === 'devnet' ? 'devnet' : nodeChainFor(network)
  if (chain === null) throw new RangeError(`no node --chain value for network ${network}`)
  return ['--chain', chain, '--http', '--http.port', String(port), '--http.api', STARTED_NODE_HTTP_API, '--ipcdisable']
}
