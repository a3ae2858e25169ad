/**
 * Byte compatibility with the reference formats (reference-facts), each checked against a
 * published vector or a second, independent implementation.
 */
import assert from 'node:assert/strict'
import { pbkdf2Sync } from 'node:crypto'
import { describe, it } from 'node:test'
import { peerIdFromString } from '@libp2p/peer-id'
import { gcmsiv } from '@noble/ciphers/aes.js'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { ed25519 } from '@noble/curves/ed25519.js'
import { blake3 } from '@noble/hashes/blake3.js'
import { expand, extract } from '@noble/hashes/hkdf.js'
import { pbkdf2 } from '@noble/hashes/pbkdf2.js'
import { sha256 } from '@noble/hashes/sha2.js'
import bs58 from 'bs58'
import { encodeFunctionData, getAddress, parseAbi, toFunctionSelector } from 'viem'
import { BLS_CURVE_ORDER, BLS_DST, blsKeyGen, blsPublicKey, blsSign, blsVerify } from '../../src/lib/keys/bls.js'
import { formatBlsKey, parseBlsKey } from '../../src/lib/keys/bls-key.js'
import {
  decryptBlsKw,
  encryptBlsSecret,
  formatBlsKw,
  KW_LENGTH,
  parseBlsKw,
  sealBlsSecret,
} from '../../src/lib/keys/bls-kw.js'
import {
  decodeNetworkKey,
  encodeNetworkKey,
  peerIdFromNetworkKey,
  peerIdFromPublicKey,
  publicKeyFromPeerId,
} from '../../src/lib/keys/libp2p.js'
import { deriveNetworkKeypair, ed25519PublicKey } from '../../src/lib/keys/network-key.js'
import { popMessage, signProofOfPossession, verifyProofOfPossession } from '../../src/lib/keys/pop.js'
import { PRIMARY_SEED_TEXT, workerSeed } from '../../src/lib/keys/seeds.js'
import { STAKE_SIGNATURE, stakeCalldata } from '../../src/lib/keys/staking-args.js'
import { FIXED, hex, PREVIOUS_TNV_KW, TESTNET_VECTOR, unhex } from './fixtures.js'

const { G1, G2, fields } = bls12_381

describe('BLS keys and signatures', () => {
  it('uses the DST of the facts page', () => {
    assert.equal(BLS_DST, 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_')
  })

  it('KeyGen matches the EIP-2333 master key vector (same HKDF_mod_r as IETF KeyGen)', () => {
    // EIP-2333 test case 0: seed -> master_SK
    const seed = unhex(
      'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04',
    )
    assert.equal(
      BigInt(`0x${hex(blsKeyGen(seed))}`),
      6083874454709270928345386274498605044986640685124978867557563392430687146096n,
    )
  })

  it('KeyGen (blst_keygen) equals the draft written out with @noble/hashes HKDF', () => {
    const salt = sha256(new TextEncoder().encode('BLS-SIG-KEYGEN-SALT-'))
    const prk = extract(sha256, new Uint8Array([...FIXED.ikm, 0]), salt)
    const okm = expand(sha256, prk, Uint8Array.of(0, 48), 48)
    const sk = BigInt(`0x${hex(okm)}`) % BLS_CURVE_ORDER
    assert.equal(hex(blsKeyGen(FIXED.ikm)), sk.toString(16).padStart(64, '0'))
    assert.equal(hex(blsKeyGen(FIXED.ikm)), FIXED.secretHex)
  })

  it('hash-to-curve is RFC 9380 BLS12381G1_XMD:SHA-256_SSWU_RO_ (Appendix J.9.1, msg "")', () => {
    const p = G1.hashToCurve(new Uint8Array(), { DST: 'QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_' }).toAffine()
    assert.equal(
      p.x.toString(16),
      '52926add2207b76ca4fa57a8734416c8dc95e24501772c814278700eed6d1e4e8cf62d9c09db0fac349612b759e79a1',
    )
    assert.equal(
      p.y.toString(16),
      '8ba738453bfed09cb546dbb0783dbb3a5f1f566ed67bb6be0e8c67e2e81a4cc68ee29813bb7994998f3eae0c9c6a265',
    )
  })

  it('public key: compressed G2 (96 bytes), equal to noble shortSignatures.getPublicKey', () => {
    const pk = blsPublicKey(unhex(FIXED.secretHex))
    assert.equal(hex(pk), FIXED.publicKeyHex)
    assert.equal(hex(bls12_381.shortSignatures.getPublicKey(unhex(FIXED.secretHex)).toBytes(true)), FIXED.publicKeyHex)
    const flags = (pk[0] ?? 0) & 0xe0
    assert.equal(flags & 0xc0, 0x80, 'compressed flag set, infinity flag clear')
  })

  it('rejects secrets outside [1, r)', () => {
    assert.throws(() => blsPublicKey(new Uint8Array(32)), /range/)
    assert.throws(() => blsPublicKey(unhex(BLS_CURVE_ORDER.toString(16).padStart(64, '0'))), /range/)
    assert.throws(() => blsPublicKey(new Uint8Array(31).fill(1)), /32 bytes/)
  })
})

describe('proof of possession', () => {
  const secret = unhex(FIXED.secretHex)
  const pk = unhex(FIXED.publicKeyHex)

  it('message is 00 00 00 || public key || address (119 bytes)', () => {
    const msg = popMessage(pk, FIXED.address)
    assert.equal(msg.length, 119)
    assert.equal(hex(msg), `000000${FIXED.publicKeyHex}${'11'.repeat(20)}`)
  })

  it('is deterministic: fixed secret, address and DST give fixed bytes', () => {
    assert.equal(hex(signProofOfPossession(secret, FIXED.address)), FIXED.popHex)
    assert.equal(hex(signProofOfPossession(secret, FIXED.address)), FIXED.popHex)
  })

  it('verifies with tnv (pairing) and with noble shortSignatures.verify (second path)', () => {
    const proof = unhex(FIXED.popHex)
    assert.equal(verifyProofOfPossession({ publicKey: pk, proof, address: FIXED.address }), true)
    const s = bls12_381.shortSignatures
    assert.equal(s.verify(proof, s.hash(popMessage(pk, FIXED.address), BLS_DST), pk), true)
    // the plain pairing equation e(sig, g2) == e(H(m), pk), with noble's own final exponentiation
    const lhs = bls12_381.pairing(G1.Point.fromBytes(proof), G2.Point.BASE)
    const rhs = bls12_381.pairing(
      G1.hashToCurve(popMessage(pk, FIXED.address), { DST: BLS_DST }),
      G2.Point.fromBytes(pk),
    )
    assert.equal(fields.Fp12.eql(lhs, rhs), true)
  })

  it('does not verify for another address, another key or a changed proof', () => {
    const proof = unhex(FIXED.popHex)
    assert.equal(
      verifyProofOfPossession({ publicKey: pk, proof, address: '0x2222222222222222222222222222222222222222' }),
      false,
    )
    const otherPk = blsPublicKey(blsKeyGen(new Uint8Array(32).fill(7)))
    assert.equal(verifyProofOfPossession({ publicKey: otherPk, proof, address: FIXED.address }), false)
    const flipped = proof.slice()
    flipped[47] = (flipped[47] ?? 0) ^ 1
    assert.equal(verifyProofOfPossession({ publicKey: pk, proof: flipped, address: FIXED.address }), false)
    assert.equal(verifyProofOfPossession({ publicKey: pk, proof: proof.slice(0, 47), address: FIXED.address }), false)
  })

  it('rejects the identity and points outside the prime-order subgroup', () => {
    const proof = unhex(FIXED.popHex)
    const infinityG2 = new Uint8Array(96)
    infinityG2[0] = 0xc0
    const infinityG1 = new Uint8Array(48)
    infinityG1[0] = 0xc0
    assert.equal(blsVerify(proof, infinityG2, new Uint8Array(1)), false)
    assert.equal(blsVerify(infinityG1, unhex(FIXED.publicKeyHex), new Uint8Array(1)), false)
    // a point on y^2 = x^3 + 4 that is not in G1 (cofactor not cleared)
    const { Fp } = fields
    let x = 1n
    let y: bigint | undefined
    for (; ; x++) {
      try {
        y = Fp.sqrt(Fp.add(Fp.pow(x, 3n), 4n))
      } catch {
        continue
      }
      const p = new G1.Point(x, y, 1n)
      if (!p.isTorsionFree()) break
    }
    const bytes = unhex(x.toString(16).padStart(96, '0'))
    bytes[0] = (bytes[0] ?? 0) | 0x80 | (y !== undefined && y > Fp.neg(y) ? 0x20 : 0)
    assert.equal(blsVerify(bytes, unhex(FIXED.publicKeyHex), new Uint8Array(1)), false)
  })

  it('signatures verify with tnv and with noble for random keys and messages', () => {
    for (let i = 0; i < 3; i++) {
      const sk = blsKeyGen(crypto.getRandomValues(new Uint8Array(32)))
      const msg = crypto.getRandomValues(new Uint8Array(40 + i))
      const sig = blsSign(sk, msg)
      const pk = blsPublicKey(sk)
      assert.equal(blsVerify(sig, pk, msg), true)
      const s = bls12_381.shortSignatures
      assert.equal(s.verify(sig, s.hash(msg, BLS_DST), pk), true)
    }
  })
})

describe('network keys', () => {
  it('the testnet committee vector: network_key 4XTTM47… has peer id 12D3KooWCnizjv…', () => {
    assert.equal(peerIdFromNetworkKey(TESTNET_VECTOR.networkKey), TESTNET_VECTOR.peerId)
    const pub = decodeNetworkKey(TESTNET_VECTOR.networkKey)
    assert.ok(pub)
    assert.equal(encodeNetworkKey(pub), TESTNET_VECTOR.networkKey)
    assert.deepEqual(publicKeyFromPeerId(TESTNET_VECTOR.peerId), pub)
  })

  it('encodings agree with @libp2p/peer-id', () => {
    const peer = peerIdFromString(TESTNET_VECTOR.peerId)
    assert.equal(
      hex(peer.publicKey?.raw ?? new Uint8Array()),
      hex(decodeNetworkKey(TESTNET_VECTOR.networkKey) ?? new Uint8Array()),
    )
    const pub = ed25519PublicKey(new Uint8Array(32).fill(9))
    assert.equal(peerIdFromPublicKey(pub), peerIdFromString(peerIdFromPublicKey(pub)).toString())
    assert.equal(hex(bs58.decode(encodeNetworkKey(pub))), `08011220${hex(pub)}`)
  })

  it('rejects text that is not a network key or peer id', () => {
    assert.equal(decodeNetworkKey('not base58 0OIl'), undefined)
    assert.equal(decodeNetworkKey(bs58.encode(new Uint8Array(36))), undefined)
    assert.equal(publicKeyFromPeerId('QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N'), undefined)
  })

  it('ed25519 public key from node:crypto equals @noble/curves ed25519', () => {
    for (const fill of [0, 1, 0xff]) {
      const seed = new Uint8Array(32).fill(fill)
      assert.equal(hex(ed25519PublicKey(seed)), hex(ed25519.getPublicKey(seed)))
    }
  })

  it('derivation is BLAKE3(BLS-sign(seed text)) as the ed25519 seed; fixed vectors per seed file', () => {
    const secret = unhex(FIXED.secretHex)
    const primary = deriveNetworkKeypair(secret, new TextEncoder().encode(PRIMARY_SEED_TEXT))
    assert.equal(
      hex(primary.secretKey),
      hex(blake3(blsSign(secret, new TextEncoder().encode('primary network keypair')))),
    )
    assert.equal(primary.networkKey, FIXED.primary.networkKey)
    assert.equal(primary.peerId, FIXED.primary.peerId)
    const w0 = deriveNetworkKeypair(secret, new TextEncoder().encode(workerSeed(0).text))
    assert.deepEqual(workerSeed(0), { file: 'worker.seed', text: 'worker network keypair' })
    assert.equal(w0.networkKey, FIXED.worker0.networkKey)
    assert.equal(w0.peerId, FIXED.worker0.peerId)
    assert.deepEqual(workerSeed(1), { file: 'worker-1.seed', text: 'worker network keypair 1' })
    const w1 = deriveNetworkKeypair(secret, new TextEncoder().encode(workerSeed(1).text))
    assert.equal(w1.networkKey, FIXED.worker1.networkKey)
    assert.equal(w1.peerId, FIXED.worker1.peerId)
  })
})

describe('key files', () => {
  const secret = unhex(FIXED.secretHex)

  it('AES-256-GCM-SIV is RFC 8452 (Appendix C.2 vectors)', () => {
    const key = new Uint8Array(32)
    key[0] = 1
    const nonce = new Uint8Array(12)
    nonce[0] = 3
    assert.equal(hex(gcmsiv(key, nonce).encrypt(new Uint8Array())), '07f5f4169bbf55a8400cd47ea6fd400f')
    const pt = new Uint8Array(8)
    pt[0] = 1
    assert.equal(hex(gcmsiv(key, nonce).encrypt(pt)), 'c2ef328e5c71c83b843122130f7364b761e0b97427e3df28')
  })

  it('PBKDF2-HMAC-SHA256: node:crypto equals @noble/hashes', () => {
    const salt = new Uint8Array(12).fill(5)
    for (const c of [1, 1000])
      assert.equal(
        hex(pbkdf2Sync('pässwörd', salt, c, 32, 'sha256')),
        hex(pbkdf2(sha256, 'pässwörd', salt, { c, dkLen: 32 })),
      )
  })

  it('bls.kw is base58(salt 12 | nonce 12 | AES-256-GCM-SIV(PBKDF2 key, secret)), 72 bytes', () => {
    const salt = new Uint8Array(12).fill(0xa1)
    const nonce = new Uint8Array(12).fill(0xb2)
    const wrappingKey = pbkdf2(sha256, 'correct horse', salt, { c: 1, dkLen: 32 })
    const text = sealBlsSecret({ secret, wrappingKey, salt, nonce })
    const bytes = bs58.decode(text)
    assert.equal(bytes.length, KW_LENGTH)
    assert.equal(KW_LENGTH, 72)
    assert.equal(hex(bytes.slice(0, 12)), hex(salt))
    assert.equal(hex(bytes.slice(12, 24)), hex(nonce))
    assert.equal(hex(bytes.slice(24)), hex(gcmsiv(wrappingKey, nonce).encrypt(secret)))
    const parts = parseBlsKw(text)
    assert.ok('salt' in parts)
    assert.equal(formatBlsKw(parts), text)
  })

  it('a reader tries 1 iteration first and reports it', async () => {
    const salt = new Uint8Array(12).fill(3)
    const nonce = new Uint8Array(12).fill(4)
    const weak = sealBlsSecret({ secret, wrappingKey: pbkdf2Sync('pw', salt, 1, 32, 'sha256'), salt, nonce })
    const r = await decryptBlsKw(weak, 'pw')
    assert.ok(r.ok)
    assert.equal(r.iterations, 1)
    assert.equal(hex(r.secret), FIXED.secretHex)
  })

  it('encrypts at 1,000,000 iterations with a fresh salt and nonce; wrong passphrase and tampering never yield a key', async () => {
    const a = await encryptBlsSecret({ secret, passphrase: 'correct horse' })
    const b = await encryptBlsSecret({ secret, passphrase: 'correct horse' })
    assert.notEqual(a, b, 'fresh salt and nonce each time')
    const parts = parseBlsKw(a)
    assert.ok('salt' in parts)
    const key = pbkdf2Sync('correct horse', parts.salt, 1_000_000, 32, 'sha256')
    assert.equal(hex(gcmsiv(key, parts.nonce).decrypt(parts.ciphertext)), FIXED.secretHex)
    const opened = await decryptBlsKw(a, 'correct horse')
    assert.ok(opened.ok)
    assert.equal(opened.iterations, 1_000_000)
    assert.deepEqual(await decryptBlsKw(a, 'correct horse '), { ok: false, reason: 'authentication' })
    const tampered = bs58.decode(a)
    tampered[40] = (tampered[40] ?? 0) ^ 0x01
    assert.deepEqual(await decryptBlsKw(bs58.encode(tampered), 'correct horse'), {
      ok: false,
      reason: 'authentication',
    })
    assert.deepEqual(await decryptBlsKw(bs58.encode(bs58.decode(a).slice(0, 70)), 'correct horse'), {
      ok: false,
      reason: 'length',
      length: 70,
    })
    assert.deepEqual(await decryptBlsKw('0OIl', 'correct horse'), { ok: false, reason: 'not-base58' })
  })

  it('a bls.kw written by an earlier tnv (fixture) still opens, to the fixed key, and not with another passphrase', async () => {
    const r = await decryptBlsKw(PREVIOUS_TNV_KW.text, PREVIOUS_TNV_KW.passphrase)
    assert.ok(r.ok)
    assert.equal(r.iterations, PREVIOUS_TNV_KW.iterations)
    assert.equal(hex(blsPublicKey(r.secret)), PREVIOUS_TNV_KW.publicKeyHex)
    assert.deepEqual(await decryptBlsKw(PREVIOUS_TNV_KW.text, `${PREVIOUS_TNV_KW.passphrase}!`), {
      ok: false,
      reason: 'authentication',
    })
  })

  it('bls.key is base58 of the 32-byte secret', () => {
    const text = formatBlsKey(secret)
    assert.equal(hex(bs58.decode(text)), FIXED.secretHex)
    assert.deepEqual(parseBlsKey(`${text}\n`), { ok: true, secret })
    assert.equal(parseBlsKey(bs58.encode(secret.slice(0, 31))).ok, false)
  })
})

describe('stake calldata', () => {
  const abi = parseAbi(['function stake(bytes blsPubkey, (bytes signature) proofOfPossession) payable'])

  it('selector is keccak256("stake(bytes,(bytes))")[0:4]', () => {
    assert.equal(STAKE_SIGNATURE, 'stake(bytes,(bytes))')
    const pk = `0x${FIXED.publicKeyHex}` as const
    assert.equal(stakeCalldata(pk, `0x${FIXED.popHex}`).slice(0, 10), toFunctionSelector('stake(bytes,(bytes))'))
  })

  it('equals viem encodeFunctionData', () => {
    const pk = `0x${FIXED.publicKeyHex}` as const
    const pop = `0x${FIXED.popHex}` as const
    const expected = encodeFunctionData({ abi, functionName: 'stake', args: [pk, { signature: pop }] })
    assert.equal(stakeCalldata(pk, pop), expected)
    assert.equal((stakeCalldata(pk, pop).length - 2) / 2, 324)
  })

  it('refuses wrong lengths', () => {
    assert.throws(() => stakeCalldata('0x00', `0x${FIXED.popHex}`), /96 bytes/)
  })

  it('addresses are EIP-55 checksummed like viem getAddress', async () => {
    const { toChecksumAddress } = await import('../../src/lib/nodeinfo/address.js')
    for (const a of [
      '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
      '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359',
      '0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb',
    ])
      assert.equal(toChecksumAddress(a), getAddress(a))
  })
})
