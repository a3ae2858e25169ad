/**
 * Parses and checks node-info.yaml text (reference-facts: node-info.yaml). Every scalar is
 * read as a string (YAML failsafe schema), so an unquoted `0x…` address stays text. Each
 * problem is a NodeInfoFieldError naming the file and the field.
 */
import { parse as parseYaml } from 'yaml'
import { peerIdFromNetworkKey } from '../keys/libp2p.js'
import { parseExecutionAddress } from './address.js'
import { decodeBase58Field } from './base58.js'
import {
  InvalidAddressChecksumError,
  InvalidAddressError,
  InvalidMultiaddrError,
  InvalidRpcUrlError,
  NodeInfoFieldError,
  NodeInfoSyntaxError,
} from './errors.js'
import { parseP2pAddress } from './multiaddr.js'
import { checkRpcUrl } from './rpc-url.js'
import type { NodeInfo, PeerInfo, RpcEndpoints, WorkerInfo } from './types.js'

const KNOWN_KEYS = new Set(['name', 'bls_public_key', 'p2p_info', 'execution_address', 'proof_of_possession'])

/**
 * @param text the file's content
 * @param path where it came from (used in every error message)
 * @example const info = parseNodeInfo(await readFile(p, 'utf8'), p)
 */
export function parseNodeInfo(text: string, path: string): NodeInfo {
  let doc: unknown
  try {
    doc = parseYaml(text, { schema: 'failsafe', uniqueKeys: true, prettyErrors: false })
  } catch (err) {
    throw new NodeInfoSyntaxError(
      path,
      err instanceof Error ? (err.message.split('\n')[0] ?? 'parse error') : String(err),
    )
  }
  if (!isMap(doc))
    throw new NodeInfoFieldError(
      path,
      '(top level)',
      'expected a map of fields (the file is empty or not a node-info.yaml)',
    )
  const field = (name: string) => requireString(path, name, doc[name])

  const name = field('name')
  if (name.trim() === '') throw new NodeInfoFieldError(path, 'name', 'is empty')
  const blsPublicKey = decodeBase58Field(path, 'bls_public_key', field('bls_public_key'), 96)
  const proofOfPossession = decodeBase58Field(path, 'proof_of_possession', field('proof_of_possession'), 48)
  const executionAddress = wrap(path, 'execution_address', () =>
    parseExecutionAddress(field('execution_address'), 'execution_address'),
  )

  const p2p = doc.p2p_info
  if (!isMap(p2p))
    throw new NodeInfoFieldError(
      path,
      'p2p_info',
      p2p === undefined ? 'is missing' : 'expected a map with primary and workers',
    )
  const primary = parsePeer(path, 'p2p_info.primary', p2p.primary)
  let workers: WorkerInfo[]
  let legacyWorkerMap = false
  if (p2p.workers !== undefined && p2p.worker !== undefined)
    throw new NodeInfoFieldError(
      path,
      'p2p_info',
      'has both workers: and the legacy worker:; keep only the workers: list',
    )
  if (p2p.workers !== undefined) {
    if (!Array.isArray(p2p.workers) || p2p.workers.length === 0)
      throw new NodeInfoFieldError(
        path,
        'p2p_info.workers',
        'expected a non-empty list of {network_address, network_key}',
      )
    workers = p2p.workers.map((w, i) => parseWorker(path, `p2p_info.workers[${i}]`, w))
  } else if (p2p.worker !== undefined) {
    workers = [parseWorker(path, 'p2p_info.worker', p2p.worker)]
    legacyWorkerMap = true
  } else {
    throw new NodeInfoFieldError(path, 'p2p_info.workers', 'is missing')
  }

  const extra: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(doc)) if (!KNOWN_KEYS.has(k)) extra[k] = v
  return {
    name,
    blsPublicKey,
    proofOfPossession,
    executionAddress,
    primary,
    workers,
    ...(legacyWorkerMap ? { legacyWorkerMap: true } : {}),
    ...(Object.keys(extra).length ? { extra } : {}),
  }
}

function parsePeer(path: string, label: string, value: unknown): PeerInfo {
  if (!isMap(value))
    throw new NodeInfoFieldError(
      path,
      label,
      value === undefined ? 'is missing' : 'expected a map with network_address and network_key',
    )
  const networkKey = requireString(path, `${label}.network_key`, value.network_key)
  const peerId = peerIdFromNetworkKey(networkKey)
  if (!peerId)
    throw new NodeInfoFieldError(
      path,
      `${label}.network_key`,
      `"${networkKey}" is not a base58 libp2p ed25519 public key (36 bytes starting 08 01 12 20)`,
    )
  const networkAddress = requireString(path, `${label}.network_address`, value.network_address)
  const addr = wrap(path, `${label}.network_address`, () => parseP2pAddress(networkAddress, `${label}.network_address`))
  if (addr.peerId && addr.peerId !== peerId)
    throw new NodeInfoFieldError(
      path,
      `${label}.network_address`,
      `carries /p2p/${addr.peerId}, but network_key belongs to peer id ${peerId}`,
    )
  return { networkAddress, networkKey }
}

function parseWorker(path: string, label: string, value: unknown): WorkerInfo {
  const peer = parsePeer(path, label, value)
  const rpc = (value as Record<string, unknown>).rpc
  if (rpc === undefined) return peer
  if (!isMap(rpc)) throw new NodeInfoFieldError(path, `${label}.rpc`, 'expected a map with http (and optionally ws)')
  const http = requireString(path, `${label}.rpc.http`, rpc.http)
  const ws = rpc.ws === undefined ? undefined : requireString(path, `${label}.rpc.ws`, rpc.ws)
  const endpoints: RpcEndpoints = {
    http: wrap(path, `${label}.rpc.http`, () => checkRpcUrl(http, 'http', `${label}.rpc.http`)),
    ...(ws !== undefined ? { ws: wrap(path, `${label}.rpc.ws`, () => checkRpcUrl(ws, 'ws', `${label}.rpc.ws`)) } : {}),
  }
  return { ...peer, rpc: endpoints }
}

/** Re-throws a value error as a field error of this file, so the message names the file. */
function wrap<T>(path: string, label: string, f: () => T): T {
  try {
    return f()
  } catch (err) {
    if (
      err instanceof InvalidAddressError ||
      err instanceof InvalidAddressChecksumError ||
      err instanceof InvalidMultiaddrError ||
      err instanceof InvalidRpcUrlError
    )
      throw new NodeInfoFieldError(path, label, err.message.replace(`${label}: `, '').replace(/\.$/, ''))
    throw err
  }
}

function requireString(path: string, label: string, value: unknown): string {
  if (value === undefined || value === null) throw new NodeInfoFieldError(path, label, 'is missing')
  if (typeof value !== 'string') throw new NodeInfoFieldError(path, label, 'expected a single value, not a list or map')
  return value
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
