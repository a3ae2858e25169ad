/**
 * The checks of node-info.yaml's fields (./parse.ts), on the document as the YAML library reads it
 * (or as ./read-canonical.ts reads a file in the node's layout): a missing field, a value of the
 * wrong type, a malformed value and an unknown key are each a NodeInfoFieldError naming the file,
 * the field, the form the file is in and the command that repairs it.
 */
import { peerIdFromNetworkKey } from '../keys/libp2p.js'
import { parseExecutionAddress, ZERO_ADDRESS } from './address.js'
import { decodeBase58Field } from './base58.js'
import {
  InvalidAddressChecksumError,
  InvalidAddressError,
  InvalidMultiaddrError,
  InvalidWorkerRpcUrlError,
  NodeInfoFieldError,
  type NodeInfoRepair,
} from './errors.js'
import { parseP2pAddress } from './multiaddr.js'
import { checkRpcUrl } from './rpc-url.js'
import type { NodeInfo, NodeInfoForm, PeerInfo, RpcEndpoints } from './types.js'

const TOP_KEYS = ['name', 'bls_public_key', 'p2p_info', 'execution_address', 'proof_of_possession'] as const
const P2P_NODE_KEYS = ['network_address', 'network_key', 'rpc'] as const
const RPC_KEYS = ['http', 'ws'] as const

export type ParseNodeInfoOptions = {
  /**
   * Fields the caller is about to replace, so problems in them do not stop the read:
   * `pop` = execution_address and proof_of_possession (generate pop); `workerRpc` = the `rpc`
   * of that worker (set-rpc). Their values are then placeholders.
   */
  replacing?: { pop?: boolean; workerRpc?: number }
  /** Filled with the fields whose problems were tolerated (each with its problem). */
  skipped?: { field: string; problem: string }[]
}

/**
 * @param doc the file's document (maps, lists, text and null)
 * @param path where it came from (used in every error message)
 */
export function nodeInfoFromDoc(
  doc: unknown,
  path: string,
  { replacing = {}, skipped }: ParseNodeInfoOptions = {},
): NodeInfo {
  // The form first, so that every later error can name it.
  const p2pRaw = isMap(doc) ? doc.p2p_info : undefined
  const form: NodeInfoForm | null = isMap(p2pRaw)
    ? p2pRaw.worker !== undefined && p2pRaw.workers === undefined
      ? 'worker'
      : p2pRaw.workers !== undefined && p2pRaw.worker === undefined
        ? 'workers'
        : null
    : null
  const fail = (field: string, problem: string, repair: NodeInfoRepair = 'restore'): never => {
    throw new NodeInfoFieldError(path, field, problem, { form, repair })
  }
  if (!isMap(doc))
    return fail(
      '(top level)',
      doc === null || doc === undefined
        ? 'the file is empty'
        : `expected a map of fields (name, bls_public_key, p2p_info, execution_address, proof_of_possession), found ${typeName(doc)}`,
    )
  rejectUnknownKeys(doc, TOP_KEYS, '', fail)

  const str = (value: unknown, field: string, repair?: NodeInfoRepair): string => {
    if (value === undefined || value === null) return fail(field, 'is missing', repair)
    if (typeof value !== 'string') return fail(field, `expected a text value, found ${typeName(value)}`, repair)
    return value
  }
  /** Runs a field's check; with `tolerate`, a problem yields the placeholder instead. */
  const field = <T>(tolerate: boolean, placeholder: T, read: () => T): T => {
    if (!tolerate) return read()
    try {
      return read()
    } catch (err) {
      if (err instanceof NodeInfoFieldError) {
        skipped?.push({ field: err.field, problem: err.message })
        return placeholder
      }
      throw err
    }
  }

  const name = str(doc.name, 'name')
  if (name.trim() === '') fail('name', 'is empty')
  const blsPublicKey = decodeBase58Field(path, 'bls_public_key', str(doc.bls_public_key, 'bls_public_key'), 96, form)
  const p2p = doc.p2p_info
  if (p2p === undefined || p2p === null) fail('p2p_info', 'is missing')
  if (!isMap(p2p))
    return fail('p2p_info', `expected a map with primary and worker (or workers), found ${typeName(p2p)}`)
  rejectUnknownKeys(p2p, ['primary', 'worker', 'workers'], 'p2p_info.', fail)
  if (p2p.worker !== undefined && p2p.workers !== undefined)
    fail('p2p_info', "has both worker: (the released form) and workers: (the specification's form); keep one")
  if (p2p.worker === undefined && p2p.workers === undefined)
    fail('p2p_info.worker', 'missing field `worker` (and no workers: list either)')

  const peer = (value: unknown, label: string, tolerateRpc: boolean, isPrimary: boolean): PeerInfo => {
    if (value === undefined || value === null) return fail(label, 'is missing')
    if (!isMap(value))
      return fail(label, `expected a map with network_address, network_key and rpc, found ${typeName(value)}`)
    rejectUnknownKeys(value, P2P_NODE_KEYS, `${label}.`, fail)
    const networkKey = str(value.network_key, `${label}.network_key`)
    const peerId = peerIdFromNetworkKey(networkKey)
    if (!peerId)
      fail(
        `${label}.network_key`,
        `"${shorten(networkKey)}" is not a base58 libp2p ed25519 public key (36 bytes starting 08 01 12 20)`,
      )
    const networkAddress = str(value.network_address, `${label}.network_address`)
    const addr = wrap(
      `${label}.network_address`,
      () => parseP2pAddress(networkAddress, `${label}.network_address`),
      fail,
    )
    if (addr.peerId && addr.peerId !== peerId)
      fail(`${label}.network_address`, `carries /p2p/${addr.peerId}, but network_key belongs to peer id ${peerId}`)
    const rpcRepair: NodeInfoRepair = isPrimary ? 'primary-rpc' : 'rpc'
    const rpc = field(tolerateRpc, undefined, () => readRpc(value.rpc, `${label}.rpc`, rpcRepair))
    return { networkAddress, networkKey, ...(rpc ? { rpc } : {}) }
  }
  const readRpc = (value: unknown, label: string, repair: NodeInfoRepair): RpcEndpoints | undefined => {
    if (value === undefined || value === null) return undefined
    if (!isMap(value)) return fail(label, `expected a map with http and ws (or ~), found ${typeName(value)}`, repair)
    rejectUnknownKeys(value, RPC_KEYS, `${label}.`, fail)
    const http = str(value.http, `${label}.http`, repair)
    const ws = value.ws === undefined || value.ws === null ? undefined : str(value.ws, `${label}.ws`, repair)
    return {
      http: wrap(`${label}.http`, () => checkRpcUrl(http, 'http', `${label}.http`), fail, repair),
      ...(ws !== undefined
        ? { ws: wrap(`${label}.ws`, () => checkRpcUrl(ws, 'ws', `${label}.ws`), fail, repair) }
        : {}),
    }
  }

  const primary = peer(p2p.primary, 'p2p_info.primary', false, true)
  let workers: PeerInfo[]
  if (form === 'worker') {
    workers = [peer(p2p.worker, 'p2p_info.worker', replacing.workerRpc === 0, false)]
  } else {
    const list = p2p.workers
    if (!Array.isArray(list)) return fail('p2p_info.workers', `expected a list of workers, found ${typeName(list)}`)
    if (list.length === 0) fail('p2p_info.workers', 'is an empty list (it needs at least one worker)')
    workers = list.map((w, i) => peer(w, `p2p_info.workers[${i}]`, replacing.workerRpc === i, false))
  }
  const pop = replacing.pop === true
  const executionAddress = field(pop, ZERO_ADDRESS, () =>
    wrap(
      'execution_address',
      () => parseExecutionAddress(str(doc.execution_address, 'execution_address', 'pop'), 'execution_address'),
      fail,
      'pop',
    ),
  )

  const proofOfPossession = field(pop, new Uint8Array(48), () =>
    decodeBase58Field(
      path,
      'proof_of_possession',
      str(doc.proof_of_possession, 'proof_of_possession', 'pop'),
      48,
      form,
      'pop',
    ),
  )
  return {
    name,
    blsPublicKey,
    proofOfPossession,
    executionAddress,
    primary,
    workers,
    form: form as NodeInfoForm,
  }
}

type Fail = (field: string, problem: string, repair?: NodeInfoRepair) => never

function rejectUnknownKeys(map: Record<string, unknown>, known: readonly string[], prefix: string, fail: Fail): void {
  for (const key of Object.keys(map))
    if (!known.includes(key))
      fail(`${prefix}${key}`, `is not a field of node-info.yaml (known here: ${known.join(', ')})`, 'unknown-key')
}

/** Re-throws a value error as a field error of this file, so the message names the file and its form. */
function wrap<T>(label: string, f: () => T, fail: Fail, repair: NodeInfoRepair = 'restore'): T {
  try {
    return f()
  } catch (err) {
    if (err instanceof InvalidWorkerRpcUrlError) return fail(label, err.problem, repair)
    if (
      err instanceof InvalidAddressError ||
      err instanceof InvalidAddressChecksumError ||
      err instanceof InvalidMultiaddrError
    )
      return fail(label, err.message.replace(`${label}: `, '').replace(/\.$/, ''), repair)
    throw err
  }
}

function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a map'
  return 'a text value'
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
