/**
 * BLS12-381 on blst compiled to WebAssembly: blst 0.3.10 as published and tnv's operations on it
 * (wasm/blst/tnv-blst.c), built by scripts/build-blst-wasm.mjs into wasm/blst/tnv-blst.wasm
 * (docs/decisions.md, "BLS on blst 0.3.10 in WebAssembly, compiled as published"). One module instance per process, made on
 * the first operation from the package file (the single executable extracts it with its other
 * files), checked against the SHA-256 recorded at its build.
 *
 * Inputs are copied into the module's I/O buffer at the offsets below (the C file's OFF_*), the
 * operation runs, and results are copied out. After an operation on a secret key the secret's
 * slot and the module's whole stack are zeroed.
 */

import { hash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { TnvError } from '../errors.js'
import { findPackageFile } from '../package-file.js'
import { BLST_WASM_FILE, BLST_WASM_SHA256 } from './blst-wasm.generated.js'

const OFF_SK = 0
const OFF_PK = 32
const OFF_PK_RAW = 128
const OFF_SIG = 320
const OFF_SIG_RAW = 368
const OFF_MSG = 464

const OK = 0
const BAD_SECRET = 1
const BAD_LENGTH = 3

type Exports = {
  memory: WebAssembly.Memory
  __data_end: WebAssembly.Global
  __heap_base: WebAssembly.Global
  tnv_io(): number
  tnv_msg_max(): number
  tnv_sk_to_pk(): number
  tnv_sign(msgLen: number): number
  tnv_verify(msgLen: number): number
  tnv_g2_decompress(): number
  tnv_g1_forms(uncompressed: number): number
  tnv_keygen(ikmLen: number, infoLen: number): number
  tnv_derive_master_eip2333(len: number): number
  tnv_derive_child_eip2333(index: number): number
}

/** The instantiated module and its I/O buffer. */
type Blst = { x: Exports; io: Uint8Array; msgMax: number }

let instance: Blst | undefined

function blst(): Blst {
  if (instance) return instance
  const x = new WebAssembly.Instance(new WebAssembly.Module(blstWasmBytes()), {}).exports as unknown as Exports
  const base = x.tnv_io()
  const msgMax = x.tnv_msg_max()
  instance = { x, io: new Uint8Array(x.memory.buffer, base, OFF_MSG + msgMax), msgMax }
  return instance
}

/** The module's bytes: the package file (or `path`), which must have the SHA-256 recorded at its build. */
export function blstWasmBytes(path: string | null = findPackageFile(BLST_WASM_FILE)): Uint8Array {
  let bytes: Buffer | undefined
  try {
    bytes = path === null ? undefined : readFileSync(path)
  } catch {
    bytes = undefined
  }
  if (bytes === undefined || hash('sha256', bytes) !== BLST_WASM_SHA256)
    throw new BlsModuleUnavailableError(bytes === undefined ? 'missing' : 'damaged')
  return bytes
}

/** The BLS module cannot be had: wasm/blst/tnv-blst.wasm is missing from the installation or is not the file its build recorded. */
export class BlsModuleUnavailableError extends TnvError {
  override readonly code: string = 'BlsModuleUnavailable'
  constructor(state: 'missing' | 'damaged') {
    super(
      `tnv's BLS module (${BLST_WASM_FILE}) is ${state === 'missing' ? 'missing' : 'damaged: its SHA-256 is not the one recorded at its build'}, so no BLS key can be made, used or checked.`,
      { fix: 'Reinstall tnv (or, in a clone, `git checkout wasm/blst`), then run the command again.' },
    )
  }
}

/** Zeroes the secret's slot and the module's stack (between the static data and the heap base). */
function wipeSecret(b: Blst): void {
  b.io.fill(0, OFF_SK, OFF_SK + 32)
  new Uint8Array(b.x.memory.buffer).fill(0, b.x.__data_end.value as number, b.x.__heap_base.value as number)
}

function putMessage(b: Blst, message: Uint8Array): void {
  if (message.length > b.msgMax) throw new RangeError(`BLS message: at most ${b.msgMax} bytes, got ${message.length}`)
  b.io.set(message, OFF_MSG)
}

function withSecret(secret: Uint8Array, op: (b: Blst) => number): Blst {
  if (secret.length !== 32) throw new RangeError(`BLS secret key: expected 32 bytes, got ${secret.length}`)
  const b = blst()
  b.io.set(secret, OFF_SK)
  let rc: number
  try {
    rc = op(b)
  } finally {
    wipeSecret(b)
  }
  if (rc === BAD_SECRET) throw new RangeError('BLS secret key: not in the range [1, r)')
  if (rc === BAD_LENGTH) throw new RangeError('BLS message: too long')
  if (rc !== OK) throw new Error(`blst: unexpected result ${rc}`)
  return b
}

/** The 96-byte compressed G2 public key of a 32-byte big-endian secret in [1, r). */
export function blstPublicKey(secret: Uint8Array): Uint8Array {
  const b = withSecret(secret, (b) => b.x.tnv_sk_to_pk())
  return b.io.slice(OFF_PK, OFF_PK + 96)
}

/** The 48-byte compressed G1 signature of `message` (hash_to_curve with tnv's DST). */
export function blstSign(secret: Uint8Array, message: Uint8Array): Uint8Array {
  const b = withSecret(secret, (b) => {
    putMessage(b, message)
    return b.x.tnv_sign(message.length)
  })
  return b.io.slice(OFF_SIG, OFF_SIG + 48)
}

/**
 * Core verify of a 48-byte compressed signature over `message` for a 96-byte compressed public
 * key, both checked (encoding, curve, subgroup, not the identity). False for any bad input.
 */
export function blstVerify(signature: Uint8Array, publicKey: Uint8Array, message: Uint8Array): boolean {
  if (signature.length !== 48 || publicKey.length !== 96) return false
  const b = blst()
  if (message.length > b.msgMax) return false
  b.io.set(signature, OFF_SIG)
  b.io.set(publicKey, OFF_PK)
  b.io.set(message, OFF_MSG)
  return b.x.tnv_verify(message.length) === OK
}

/** The 192-byte uncompressed form (x.c1‖x.c0‖y.c1‖y.c0) of a checked compressed G2 key; null when invalid. */
export function g2Uncompressed(publicKey: Uint8Array): Uint8Array | null {
  if (publicKey.length !== 96) return null
  const b = blst()
  b.io.set(publicKey, OFF_PK)
  return b.x.tnv_g2_decompress() === OK ? b.io.slice(OFF_PK_RAW, OFF_PK_RAW + 192) : null
}

/** Both forms of a checked G1 point given as 48 (compressed) or 96 (uncompressed) bytes; null when invalid. */
export function g1Forms(point: Uint8Array): { compressed: Uint8Array; uncompressed: Uint8Array } | null {
  if (point.length !== 48 && point.length !== 96) return null
  const b = blst()
  b.io.set(point, point.length === 48 ? OFF_SIG : OFF_SIG_RAW)
  if (b.x.tnv_g1_forms(point.length === 96 ? 1 : 0) !== OK) return null
  return { compressed: b.io.slice(OFF_SIG, OFF_SIG + 48), uncompressed: b.io.slice(OFF_SIG_RAW, OFF_SIG_RAW + 96) }
}

/**
 * A secret key made by blst from secret input in the message area (`op` runs the module's
 * function); the key is copied out and the secret slot, the input and the stack are wiped.
 */
function secretFromModule(input: Uint8Array, op: (b: Blst) => number): Uint8Array {
  const b = blst()
  try {
    putMessage(b, input)
    const rc = op(b)
    if (rc === BAD_LENGTH) throw new RangeError('BLS key material: wrong length')
    if (rc !== OK) throw new Error(`blst: unexpected result ${rc}`)
    return b.io.slice(OFF_SK, OFF_SK + 32)
  } finally {
    b.io.fill(0, OFF_MSG, OFF_MSG + input.length)
    wipeSecret(b)
  }
}

/** IETF KeyGen (blst_keygen): the 32-byte big-endian secret key for `ikm` (at least 32 bytes) and `keyInfo`. */
export function blstKeyGen(ikm: Uint8Array, keyInfo: Uint8Array): Uint8Array {
  const input = new Uint8Array(ikm.length + keyInfo.length)
  input.set(ikm)
  input.set(keyInfo, ikm.length)
  try {
    return secretFromModule(input, (b) => b.x.tnv_keygen(ikm.length, keyInfo.length))
  } finally {
    input.fill(0)
  }
}

/** EIP-2333 derive_master_SK (blst_derive_master_eip2333) of a seed of at least 32 bytes. */
export function blstDeriveMasterEip2333(seed: Uint8Array): Uint8Array {
  return secretFromModule(seed, (b) => b.x.tnv_derive_master_eip2333(seed.length))
}

/** EIP-2333 derive_child_SK (blst_derive_child_eip2333) of a 32-byte big-endian parent key. */
export function blstDeriveChildEip2333(parent: Uint8Array, index: number): Uint8Array {
  if (parent.length !== 32) throw new RangeError(`BLS secret key: expected 32 bytes, got ${parent.length}`)
  const b = blst()
  try {
    b.io.set(parent, OFF_SK)
    const rc = b.x.tnv_derive_child_eip2333(index >>> 0)
    if (rc !== OK) throw new Error(`blst: unexpected result ${rc}`)
    return b.io.slice(OFF_SK, OFF_SK + 32)
  } finally {
    wipeSecret(b)
  }
}

/** A copy of the module's whole linear memory, for tests and audits (no secret is left in it after an operation). */
export function blstMemory(): Uint8Array {
  return new Uint8Array(blst().x.memory.buffer).slice()
}
