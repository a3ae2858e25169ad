/**
 * Ethereum V3 keystores: the Web3 Secret Storage test vectors (pbkdf2 and scrypt), plus files
 * written here with node:crypto (a second implementation) the way geth writes them.
 */
import assert from 'node:assert/strict'
import { createCipheriv, pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { privateKeyToAddress } from 'viem/accounts'
import { InvalidKeystoreError, WrongKeystorePasswordError } from '../../src/lib/chain/errors.js'
import { decryptKeystore, parseKeystore, readKeystoreFile } from '../../src/lib/chain/keystore.js'
import { tempDir } from '../helpers/cli.js'

// Web3 Secret Storage Definition, version 3, PBKDF2 test vector (password "testpassword").
// (Its scrypt vector is not used: its stated derived key does not follow from its salt, as
// node:crypto's scrypt confirms; scrypt is cross-checked against node:crypto below instead.)
const SECRET = '0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d'
const PBKDF2_VECTOR = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: {
      c: 262144,
      dklen: 32,
      prf: 'hmac-sha256',
      salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd',
    },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
}
/** A geth-style keystore written with node:crypto (scrypt or pbkdf2), with the address field. */
function nodeKeystore(secretHex: string, password: string, kdf: 'scrypt' | 'pbkdf2') {
  const salt = randomBytes(32)
  const iv = randomBytes(16)
  const dk =
    kdf === 'scrypt'
      ? scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 })
      : pbkdf2Sync(password, salt, 1000, 32, 'sha256')
  const cipher = createCipheriv('aes-128-ctr', dk.subarray(0, 16), iv)
  const ciphertext = Buffer.concat([cipher.update(Buffer.from(secretHex.slice(2), 'hex')), cipher.final()])
  const mac = Buffer.from(keccak_256(Buffer.concat([dk.subarray(16, 32), ciphertext])))
  return {
    address: privateKeyToAddress(secretHex as `0x${string}`)
      .slice(2)
      .toLowerCase(),
    crypto: {
      cipher: 'aes-128-ctr',
      ciphertext: ciphertext.toString('hex'),
      cipherparams: { iv: iv.toString('hex') },
      kdf,
      kdfparams:
        kdf === 'scrypt'
          ? { dklen: 32, n: 1024, p: 1, r: 8, salt: salt.toString('hex') }
          : { c: 1000, dklen: 32, prf: 'hmac-sha256', salt: salt.toString('hex') },
      mac: mac.toString('hex'),
    },
    id: 'b0c3a0f2-0000-4000-8000-000000000000',
    version: 3,
  }
}

describe('keystore', () => {
  const { dir, cleanup } = tempDir('tnv-keystore-')
  after(cleanup)

  it("decrypts the pbkdf2 test vector, whose key is the vector's address", async () => {
    const key = await decryptKeystore(parseKeystore(PBKDF2_VECTOR, 'v.json'), 'testpassword', 'v.json')
    assert.equal(key, SECRET)
    assert.equal(privateKeyToAddress(key).toLowerCase(), '0x008aeeda4d805471df9b2a5b0f38a0c3bcba786b')
  })

  it('refuses a wrong password with a MAC error that names the file and no secret', async () => {
    await assert.rejects(decryptKeystore(parseKeystore(PBKDF2_VECTOR, 'v.json'), 'wrong', 'v.json'), (err: unknown) => {
      assert.ok(err instanceof WrongKeystorePasswordError)
      assert.match(err.render(), /v\.json/)
      assert.doesNotMatch(err.render(), /7a28b5ba|wrong/)
      return true
    })
  })

  for (const kdf of ['scrypt', 'pbkdf2'] as const) {
    it(`reads a ${kdf} file written by a second implementation (node:crypto), checking its address`, async () => {
      const secret = `0x${randomBytes(32).toString('hex')}`
      const path = join(dir, `${kdf}.json`)
      writeFileSync(path, JSON.stringify(nodeKeystore(secret, 'pw', kdf)))
      const parsed = await readKeystoreFile(path)
      assert.equal(parsed.address, privateKeyToAddress(secret as `0x${string}`))
      assert.equal(await decryptKeystore(parsed, 'pw', path), secret)
    })
  }

  it('refuses a file whose address does not match its key', async () => {
    const ks = nodeKeystore(SECRET, 'pw', 'pbkdf2')
    ks.address = '00000000000000000000000000000000000000aa'
    await assert.rejects(decryptKeystore(parseKeystore(ks, 'k.json'), 'pw', 'k.json'), InvalidKeystoreError)
  })

  it('detects a tampered ciphertext (MAC)', async () => {
    const ks = nodeKeystore(SECRET, 'pw', 'pbkdf2')
    const flipped = (Number.parseInt(ks.crypto.ciphertext.slice(0, 2), 16) ^ 1).toString(16).padStart(2, '0')
    ks.crypto.ciphertext = flipped + ks.crypto.ciphertext.slice(2)
    await assert.rejects(decryptKeystore(parseKeystore(ks, 'k.json'), 'pw', 'k.json'), WrongKeystorePasswordError)
  })

  const malformed: [string, (k: ReturnType<typeof nodeKeystore>) => unknown, RegExp][] = [
    ['version 1', (k) => ({ ...k, version: 1 }), /version 1 is not 3/],
    ['aes-128-cbc', (k) => ({ ...k, crypto: { ...k.crypto, cipher: 'aes-128-cbc' } }), /cipher aes-128-cbc/],
    ['unknown kdf', (k) => ({ ...k, crypto: { ...k.crypto, kdf: 'argon2' } }), /neither scrypt nor pbkdf2/],
    ['short iv', (k) => ({ ...k, crypto: { ...k.crypto, cipherparams: { iv: 'abcd' } } }), /expected 16 bytes, got 2/],
    [
      'n not a power of two',
      (k) => ({
        ...k,
        crypto: { ...k.crypto, kdf: 'scrypt', kdfparams: { dklen: 32, n: 1000, r: 8, p: 1, salt: 'aa' } },
      }),
      /not a power of two/,
    ],
    ['not an object', () => [], /not a JSON object/],
  ]
  for (const [name, mutate, message] of malformed) {
    it(`refuses a keystore with ${name}`, () => {
      assert.throws(
        () => parseKeystore(mutate(nodeKeystore(SECRET, 'pw', 'pbkdf2')), 'k.json'),
        (err: unknown) => err instanceof InvalidKeystoreError && message.test(err.message),
      )
    })
  }

  it('names a missing file', async () => {
    await assert.rejects(readKeystoreFile(join(dir, 'nope.json')), /cannot be read \(ENOENT\)/)
  })
})
