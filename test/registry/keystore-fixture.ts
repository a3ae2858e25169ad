/** Writes an Ethereum V3 keystore with node:crypto (pbkdf2, aes-128-ctr, keccak MAC), as geth would. */
import { createCipheriv, pbkdf2Sync, randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { privateKeyToAddress } from 'viem/accounts'

export function writeKeystore(path: string, secret: `0x${string}`, password: string): void {
  const salt = randomBytes(16)
  const iv = randomBytes(16)
  const dk = pbkdf2Sync(password, salt, 1000, 32, 'sha256')
  const c = createCipheriv('aes-128-ctr', dk.subarray(0, 16), iv)
  const ct = Buffer.concat([c.update(Buffer.from(secret.slice(2), 'hex')), c.final()])
  const mac = Buffer.from(keccak_256(Buffer.concat([dk.subarray(16, 32), ct])))
  writeFileSync(
    path,
    JSON.stringify({
      address: privateKeyToAddress(secret).slice(2).toLowerCase(),
      crypto: {
        cipher: 'aes-128-ctr',
        ciphertext: ct.toString('hex'),
        cipherparams: { iv: iv.toString('hex') },
        kdf: 'pbkdf2',
        kdfparams: { c: 1000, dklen: 32, prf: 'hmac-sha256', salt: salt.toString('hex') },
        mac: mac.toString('hex'),
      },
      version: 3,
    }),
  )
}
