/** Shared fixtures of the keytool tests: fixed vectors, quick data directories, file-tree snapshots. */
import { promises as fs } from 'node:fs'
import { join, relative } from 'node:path'
import bs58 from 'bs58'
import { generateNodeKeys } from '../../src/lib/keys/generate-node-keys.js'
import type { Hex } from '../../src/lib/nodeinfo/types.js'

export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
export const unhex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/^0x/, ''), 'hex'))

/** Fixed key: IETF KeyGen of 32 bytes of 0x2a. Values computed once by tnv and cross-checked in vectors.test.ts. */
export const FIXED = {
  ikm: new Uint8Array(32).fill(0x2a),
  secretHex: '25aa74f11f7a2f36b3911256d2f4eaaef652b64460da8e0eeed6009b2b97297e',
  publicKeyHex:
    'a57565542eaa01ef2b910bf0eaba4d98a1e5b8b79cc425db08f8780732d0ea9bc85fc6175f272b2344bb27bc572ebf14022e52689dcedfccf44a00e5bd1aa59db44517217d6b0f21b372169ee761938c28914ddcb9663de54db288e760a8e14f',
  address: '0x1111111111111111111111111111111111111111' as Hex,
  popHex: '911fdc2f4d2a583f83eb267226c69242ac34097a611f4849738844f03ff3b3eb24e7d51626d413c5c6b8033017f59d92',
  primary: {
    networkKey: '4XTTM94gkf3pZEQpqHsM3j6jSHxbHAqzMnQrERXY3ZsHow7tQ',
    peerId: '12D3KooWHk16ouMUd3hBGCtdc4qc9MwchAzufCEzhK8HXdgGyM7J',
  },
  worker0: {
    networkKey: '4XTTM9cWqkQdAXEE97bVnHRbbP4vzfsNwAPzSXTFrACjckuTz',
    peerId: '12D3KooWJHqBuGA5us6V5w3NAPhmEUHLCCPV3BPCoEr67y85o8gt',
  },
  worker1: {
    networkKey: '4XTTMCYCdBbtC4Dzuy9H1dDynTrHcVoTwK2VMX4nD2r2X6JZ3',
    peerId: '12D3KooWMDWyLTR7SrsFwUpbWC5xKFdx28UVBot7nrNSzcQz8Xmw',
  },
}

/**
 * A bls.kw written by tnv 0.1.0 at commit 4b9b1d6, whose AES-256-GCM-SIV was composed from
 * OpenSSL's AES-ECB and @noble/ciphers' POLYVAL (`encryptBlsSecret`, 1,000,000 PBKDF2 iterations,
 * random salt and nonce), of the FIXED secret. Every later cipher must still open it.
 */
export const PREVIOUS_TNV_KW = {
  text: '2gQ48mMrpBzZN6gjjYtYHKY3UeotUpgcPzeVTnCi3QMvCYTzp7jtQr1ZaJDaPhJ6BX6kQ7iH25RKzrsiEoB3cnxvDAZmmjApmJj',
  passphrase: 'fixture passphrase: tnv 0.1.0 before OpenSSL GCM-SIV',
  iterations: 1_000_000,
  publicKeyHex: FIXED.publicKeyHex,
}

/** The public test network's committee vector (issue 2). */
export const TESTNET_VECTOR = {
  networkKey: '4XTTM47Qeb4XhWEK7ybzj5bGsnVraHKaknpMFPgpg8jHYbGFo',
  peerId: '12D3KooWCnizjv4ctsBTwwYJxZP3duCuoebJfbk1fUQv6Vg1dVUh',
}

/** A data directory with the FIXED key stored unencrypted (bls.key), made without PBKDF2. */
export async function plainDatadir(datadir: string, options: { address?: Hex; workers?: number } = {}) {
  return generateNodeKeys({
    datadir,
    address: options.address ?? FIXED.address,
    workers: options.workers ?? 1,
    ikm: FIXED.ikm,
    externalPrimaryAddr: '/ip4/203.0.113.10/udp/49590/quic-v1',
    externalWorkerAddrs: Array.from(
      { length: options.workers ?? 1 },
      (_, i) => `/ip4/203.0.113.10/udp/${49594 + i}/quic-v1`,
    ),
    passphrase: async () => undefined,
  })
}

export const PK58 = bs58.encode(unhex(FIXED.publicKeyHex))
export const POP58 = bs58.encode(unhex(FIXED.popHex))
export const PRIMARY_ADDR = `/ip4/203.0.113.10/udp/49590/quic-v1/p2p/${FIXED.primary.peerId}`
export const WORKER_ADDR = `/ip4/203.0.113.10/udp/49594/quic-v1/p2p/${FIXED.worker0.peerId}`

/**
 * A node-info.yaml the node still reads though it would not write it so: no `---`, no `rpc`
 * keys, the address unquoted and in checksum case, network_key before network_address (serde
 * reads fields in any order; YAML reads `0x…` as text where the field is a string).
 */
export const HAND_EDITED = `name: node-reference
bls_public_key: ${PK58}
p2p_info:
  primary:
    network_key: ${FIXED.primary.networkKey}
    network_address: ${PRIMARY_ADDR}
  worker:
    network_key: ${FIXED.worker0.networkKey}
    network_address: ${WORKER_ADDR}
execution_address: ${FIXED.address}
proof_of_possession: ${POP58}
`

export type TreeSnapshot = Record<string, { mode: string; content?: string }>

/** Every file and directory under `dir` with its mode and (for files) content. */
export async function snapshotTree(dir: string): Promise<TreeSnapshot> {
  const out: TreeSnapshot = {}
  async function walk(d: string): Promise<void> {
    for (const name of (await fs.readdir(d)).sort()) {
      const p = join(d, name)
      const st = await fs.lstat(p)
      const mode = (st.mode & 0o777).toString(8)
      if (st.isSymbolicLink()) out[relative(dir, p)] = { mode: 'link', content: await fs.readlink(p) }
      else if (st.isDirectory()) {
        out[`${relative(dir, p)}/`] = { mode }
        await walk(p)
      } else out[relative(dir, p)] = { mode, content: await fs.readFile(p, 'latin1') }
    }
  }
  await walk(dir)
  return out
}

export type P2pNodeText = { address: string; key: string; rpc?: { http: string; ws?: string } }

/**
 * node-info.yaml as the node writes it, built from the rules of real-network/node.md §3 (not
 * from tnv's writer): `---` first; field order name, bls_public_key, p2p_info {primary,
 * worker|workers}, execution_address, proof_of_possession; every P2pNode with network_address,
 * network_key, rpc (`rpc: ~` when unset, else `http: "<url>"` and `ws: "<url>"` or `ws: ~`);
 * execution_address double-quoted lower-case hex; base58 and multiaddrs bare; URLs quoted
 * (they contain `:`). For values that need no other quoting (plain names, base58, multiaddrs).
 */
export function nodeWritesText(o: {
  name: string
  publicKey58: string
  primary: P2pNodeText
  workers: P2pNodeText[]
  address: string
  pop58: string
  form?: 'worker' | 'workers'
}): string {
  const node = (n: P2pNodeText, first: string, indent: string) => [
    `${first}network_address: ${n.address}`,
    `${indent}network_key: ${n.key}`,
    ...(n.rpc
      ? [`${indent}rpc:`, `${indent}  http: "${n.rpc.http}"`, `${indent}  ws: ${n.rpc.ws ? `"${n.rpc.ws}"` : '~'}`]
      : [`${indent}rpc: ~`]),
  ]
  const form = o.form ?? 'worker'
  return `${[
    '---',
    `name: ${o.name}`,
    `bls_public_key: ${o.publicKey58}`,
    'p2p_info:',
    '  primary:',
    ...node(o.primary, '    ', '    '),
    ...(form === 'worker'
      ? ['  worker:', ...node(o.workers[0] as P2pNodeText, '    ', '    ')]
      : ['  workers:', ...o.workers.flatMap((w) => node(w, '    - ', '      '))]),
    `execution_address: "${o.address.toLowerCase()}"`,
    `proof_of_possession: ${o.pop58}`,
  ].join('\n')}\n`
}

/** node-info.yaml of the FIXED key exactly as the released node writes it (built from the rules, see nodeWritesText). */
export const RELEASED_STYLE = nodeWritesText({
  name: 'node-reference',
  publicKey58: PK58,
  primary: { address: PRIMARY_ADDR, key: FIXED.primary.networkKey },
  workers: [{ address: WORKER_ADDR, key: FIXED.worker0.networkKey }],
  address: FIXED.address,
  pop58: POP58,
})
