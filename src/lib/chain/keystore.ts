import { ctr } from '@noble/ciphers/aes.js'
import { pbkdf2Async } from '@noble/hashes/pbkdf2.js'
import { scryptAsync } from '@noble/hashes/scrypt.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js'
import { type Address, getAddress, type Hex } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { TnvError } from '../errors.js'
import { readSmallFile } from '../fs/read-small-file.js'
import { InvalidKeystoreError, WrongKeystorePasswordError } from './errors.js'

type KdfParams =
  | { kdf: 'scrypt'; n: number; r: number; p: number; dklen: number; salt: Uint8Array }
  | { kdf: 'pbkdf2'; c: number; dklen: number; salt: Uint8Array }

type ParsedKeystore = {
  address: Address | null
  iv: Uint8Array
  ciphertext: Uint8Array
  mac: Uint8Array
  kdf: KdfParams
}

/** Reads and checks the shape of a keystore file; no password needed yet. */
export async function readKeystoreFile(path: string): Promise<ParsedKeystore> {
  let text: string
  try {
    text = await readSmallFile(path, { what: 'a keystore', maxBytes: 64 * 1024 })
  } catch (err) {
    if (err instanceof TnvError) throw err
    throw new InvalidKeystoreError(path, `it cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new InvalidKeystoreError(path, 'it is not JSON')
  }
  return parseKeystore(json, path)
}

export function parseKeystore(json: unknown, path: string): ParsedKeystore {
  const bad = (problem: string) => new InvalidKeystoreError(path, problem)
  if (!isRecord(json)) throw bad('it is not a JSON object')
  if (json.version !== 3) throw bad(`version ${String(json.version)} is not 3`)
  const crypto = json.crypto ?? json.Crypto
  if (!isRecord(crypto)) throw bad('it has no "crypto" section')
  if (crypto.cipher !== 'aes-128-ctr') throw bad(`cipher ${String(crypto.cipher)} is not aes-128-ctr`)
  const hex = (value: unknown, field: string, length?: number): Uint8Array => {
    if (typeof value !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(value)) throw bad(`${field} is not hex`)
    const bytes = hexToBytes(value.replace(/^0x/, ''))
    if (length !== undefined && bytes.length !== length)
      throw bad(`${field}: expected ${length} bytes, got ${bytes.length}`)
    return bytes
  }
  const iv = hex(isRecord(crypto.cipherparams) ? crypto.cipherparams.iv : undefined, 'cipherparams.iv', 16)
  const ciphertext = hex(crypto.ciphertext, 'ciphertext', 32)
  const mac = hex(crypto.mac, 'mac', 32)
  const params = crypto.kdfparams
  if (!isRecord(params)) throw bad('it has no kdfparams')
  const int = (value: unknown, field: string, min: number, max: number): number => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      throw bad(`kdfparams.${field} ${String(value)} is out of range [${min}, ${max}]`)
    return value
  }
  const dklen = int(params.dklen, 'dklen', 32, 64)
  const salt = hex(params.salt, 'kdfparams.salt')
  let kdf: KdfParams
  if (crypto.kdf === 'scrypt') {
    const n = int(params.n, 'n', 2, 2 ** 22)
    if ((n & (n - 1)) !== 0) throw bad(`kdfparams.n ${n} is not a power of two`)
    kdf = { kdf: 'scrypt', n, r: int(params.r, 'r', 1, 64), p: int(params.p, 'p', 1, 64), dklen, salt }
  } else if (crypto.kdf === 'pbkdf2') {
    if (params.prf !== 'hmac-sha256') throw bad(`kdfparams.prf ${String(params.prf)} is not hmac-sha256`)
    kdf = { kdf: 'pbkdf2', c: int(params.c, 'c', 1, 100_000_000), dklen, salt }
  } else throw bad(`kdf ${String(crypto.kdf)} is neither scrypt nor pbkdf2`)
  let address: Address | null = null
  if (typeof json.address === 'string' && json.address.length > 0) {
    const a = json.address.startsWith('0x') ? json.address : `0x${json.address}`
    if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw bad('address is not a 20-byte hex address')
    address = getAddress(a.toLowerCase())
  }
  return { address, iv, ciphertext, mac, kdf }
}

/**
 * Decrypts the secp256k1 secret. Throws WrongKeystorePasswordError on a MAC mismatch.
 * @example const key = await decryptKeystore(await readKeystoreFile(path), password, path)
 */
export async function decryptKeystore(keystore: ParsedKeystore, password: string, path: string): Promise<Hex> {
  const { kdf } = keystore
  let dk: Uint8Array
  try {
    dk =
      kdf.kdf === 'scrypt'
        ? await scryptAsync(password, kdf.salt, { N: kdf.n, r: kdf.r, p: kdf.p, dkLen: kdf.dklen })
        : await pbkdf2Async(sha256, password, kdf.salt, { c: kdf.c, dkLen: kdf.dklen })
  } catch (err) {
    throw new InvalidKeystoreError(path, `its KDF parameters are unusable (${(err as Error).message})`)
  }
  const mac = keccak_256(concatBytes(dk.subarray(16, 32), keystore.ciphertext))
  if (!constantTimeEqual(mac, keystore.mac)) {
    dk.fill(0)
    throw new WrongKeystorePasswordError(path)
  }
  const secret = ctr(dk.subarray(0, 16), keystore.iv).decrypt(keystore.ciphertext)
  dk.fill(0)
  const privateKey: Hex = `0x${bytesToHex(secret)}`
  secret.fill(0)
  if (keystore.address !== null) {
    let derived: Address
    try {
      derived = privateKeyToAddress(privateKey)
    } catch {
      throw new InvalidKeystoreError(path, 'the decrypted secret is not a valid secp256k1 key')
    }
    if (derived !== keystore.address)
      throw new InvalidKeystoreError(path, `it says address ${keystore.address} but its key is for ${derived}`)
  }
  return privateKey
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number)
  return diff === 0
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
