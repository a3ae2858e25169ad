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
  const form = formOf(doc)
  const fail = (field: string, problem: string, repair: NodeInfoRepair = 'restore'): never => {
    throw new NodeInfoFieldError(path, field, problem, { form, repair })
  }
  const r: DocReader = { path, form, fail, skipped }
  if (!isMap(doc))
    return fail(
      '(top level)',
      doc === null || doc === undefined
        ? 'the file is empty'
        : `expected a map of fields (name, bls_public_key, p2p_info, execution_address, proof_of_possession), found ${typeName(doc)}`,
    )
  rejectUnknownKeys(doc, TOP_KEYS, '', fail)

  const name = text(r, doc.name, 'name')
  if (name.trim() === '') fail('name', 'is empty')
  const blsPublicKey = decodeBase58Field(
    path,
    'bls_public_key',
    text(r, doc.bls_public_key, 'bls_public_key'),
    96,
    form,
  )
  const p2p = readP2pInfo(r, doc.p2p_info)
  const primary = readPeer(r, p2p.primary, 'p2p_info.primary', false, true)
  const workers = readWorkers(r, p2p, replacing.workerRpc)
  const { executionAddress, proofOfPossession } = readPopFields(r, doc, replacing.pop === true)
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

/** One file's reading: `fail` throws the field error naming the file and its form; `skipped` collects tolerated problems. */
type DocReader = {
  path: string
  form: NodeInfoForm | null
  fail: Fail
  skipped: ParseNodeInfoOptions['skipped']
}

/** execution_address and proof_of_possession; placeholders for problems when `pop` (generate pop replaces them). */
function readPopFields(
  r: DocReader,
  doc: Record<string, unknown>,
  pop: boolean,
): { executionAddress: NodeInfo['executionAddress']; proofOfPossession: Uint8Array } {
  const { path, form, fail } = r
  const executionAddress = tolerated(r, pop, ZERO_ADDRESS, () =>
    wrap(
      'execution_address',
      () => parseExecutionAddress(text(r, doc.execution_address, 'execution_address', 'pop'), 'execution_address'),
      fail,
      'pop',
    ),
  )
  const proofOfPossession = tolerated(r, pop, new Uint8Array(48), () =>
    decodeBase58Field(
      path,
      'proof_of_possession',
      text(r, doc.proof_of_possession, 'proof_of_possession', 'pop'),
      48,
      form,
      'pop',
    ),
  )
  return { executionAddress, proofOfPossession }
}

/** `worker` (the released form) or `workers` (the specification's), from p2p_info; null when neither or both. */
function formOf(doc: unknown): NodeInfoForm | null {
  const p2pRaw = isMap(doc) ? doc.p2p_info : undefined
  if (!isMap(p2pRaw)) return null
  if (p2pRaw.worker !== undefined && p2pRaw.workers === undefined) return 'worker'
  if (p2pRaw.workers !== undefined && p2pRaw.worker === undefined) return 'workers'
  return null
}

/** A present text value. */
function text({ fail }: DocReader, value: unknown, field: string, repair?: NodeInfoRepair): string {
  if (value === undefined || value === null) return fail(field, 'is missing', repair)
  if (typeof value !== 'string') return fail(field, `expected a text value, found ${typeName(value)}`, repair)
  return value
}

/** Runs a field's check; with `tolerate`, a problem yields the placeholder instead. */
function tolerated<T>({ skipped }: DocReader, tolerate: boolean, placeholder: T, read: () => T): T {
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

/** p2p_info: a map of primary and exactly one of worker and workers, nothing else. */
function readP2pInfo({ fail }: DocReader, p2p: unknown): Record<string, unknown> {
  if (p2p === undefined || p2p === null) fail('p2p_info', 'is missing')
  if (!isMap(p2p))
    return fail('p2p_info', `expected a map with primary and worker (or workers), found ${typeName(p2p)}`)
  rejectUnknownKeys(p2p, ['primary', 'worker', 'workers'], 'p2p_info.', fail)
  if (p2p.worker !== undefined && p2p.workers !== undefined)
    fail('p2p_info', "has both worker: (the released form) and workers: (the specification's form); keep one")
  if (p2p.worker === undefined && p2p.workers === undefined)
    fail('p2p_info.worker', 'missing field `worker` (and no workers: list either)')
  return p2p
}

/** The worker (released form) or the non-empty workers list; `workerRpc` names the worker whose rpc is tolerated. */
function readWorkers(r: DocReader, p2p: Record<string, unknown>, workerRpc: number | undefined): PeerInfo[] {
  if (r.form === 'worker') return [readPeer(r, p2p.worker, 'p2p_info.worker', workerRpc === 0, false)]
  const list = p2p.workers
  if (!Array.isArray(list)) return r.fail('p2p_info.workers', `expected a list of workers, found ${typeName(list)}`)
  if (list.length === 0) r.fail('p2p_info.workers', 'is an empty list (it needs at least one worker)')
  return list.map((w, i) => readPeer(r, w, `p2p_info.workers[${i}]`, workerRpc === i, false))
}

/** A peer: its network key is a libp2p ed25519 key, its address a p2p multiaddr of that peer, its rpc checked. */
function readPeer(r: DocReader, value: unknown, label: string, tolerateRpc: boolean, isPrimary: boolean): PeerInfo {
  const { fail } = r
  if (value === undefined || value === null) return fail(label, 'is missing')
  if (!isMap(value))
    return fail(label, `expected a map with network_address, network_key and rpc, found ${typeName(value)}`)
  rejectUnknownKeys(value, P2P_NODE_KEYS, `${label}.`, fail)
  const networkKey = text(r, value.network_key, `${label}.network_key`)
  const peerId = peerIdFromNetworkKey(networkKey)
  if (!peerId)
    fail(
      `${label}.network_key`,
      `"${shorten(networkKey)}" is not a base58 libp2p ed25519 public key (36 bytes starting 08 01 12 20)`,
    )
  const networkAddress = text(r, value.network_address, `${label}.network_address`)
  const addr = wrap(`${label}.network_address`, () => parseP2pAddress(networkAddress, `${label}.network_address`), fail)
  if (addr.peerId && addr.peerId !== peerId)
    fail(`${label}.network_address`, `carries /p2p/${addr.peerId}, but network_key belongs to peer id ${peerId}`)
  const rpcRepair: NodeInfoRepair = isPrimary ? 'primary-rpc' : 'rpc'
  const rpc = tolerated(r, tolerateRpc, undefined, () => readRpc(r, value.rpc, `${label}.rpc`, rpcRepair))
  return { networkAddress, networkKey, ...(rpc ? { rpc } : {}) }
}

/** A peer's rpc: absent, or a map of an http URL and an optional ws URL. */
function readRpc(r: DocReader, value: unknown, label: string, repair: NodeInfoRepair): RpcEndpoints | undefined {
  const { fail } = r
  if (value === undefined || value === null) return undefined
  if (!isMap(value)) return fail(label, `expected a map with http and ws (or ~), found ${typeName(value)}`, repair)
  rejectUnknownKeys(value, RPC_KEYS, `${label}.`, fail)
  const http = text(r, value.http, `${label}.http`, repair)
  const ws = value.ws === undefined || value.ws === null ? undefined : text(r, value.ws, `${label}.ws`, repair)
  return {
    http: wrap(`${label}.http`, () => checkRpcUrl(http, 'http', `${label}.http`), fail, repair),
    ...(ws !== undefined ? { ws: wrap(`${label}.ws`, () => checkRpcUrl(ws, 'ws', `${label}.ws`), fail, repair) } : {}),
  }
}

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
