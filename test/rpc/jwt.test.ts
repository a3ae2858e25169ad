/** JWT helpers: HS256 with the decoded 32-byte secret, iat within ±60 s, secret parsing, cross-checked with node:crypto. */
import assert from 'node:assert/strict'
import { createHmac, randomBytes } from 'node:crypto'
import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { TnvError } from '../../src/lib/errors.js'
import {
  createJwt,
  parseJwtSecretHex,
  readJwtSecret,
  verifyAuthorizationHeader,
  verifyJwt,
} from '../../src/lib/rpc/jwt.js'
import { tempDir } from '../helpers/cli.js'

const SECRET = '0f'.repeat(32)

describe('createJwt / verifyJwt', () => {
  it('signs HS256 over the 32 decoded bytes (checked with node:crypto)', async () => {
    const token = await createJwt(SECRET, { iat: 1_700_000_000 })
    const [header, payload, signature] = token.split('.') as [string, string, string]
    assert.deepEqual(JSON.parse(Buffer.from(header, 'base64url').toString()), { alg: 'HS256', typ: 'JWT' })
    assert.deepEqual(JSON.parse(Buffer.from(payload, 'base64url').toString()), { iat: 1_700_000_000 })
    const expected = createHmac('sha256', Buffer.from(SECRET, 'hex')).update(`${header}.${payload}`).digest('base64url')
    assert.equal(signature, expected)
  })
  it('iat defaults to now', async () => {
    const before = Math.floor(Date.now() / 1000)
    const token = await createJwt(SECRET)
    const result = await verifyJwt(token, SECRET)
    assert.ok(result.valid && result.iat >= before && result.iat <= before + 5)
  })
  it('accepts iat within 60 s either side, refuses beyond', async () => {
    const token = await createJwt(SECRET, { iat: 1000 })
    for (const now of [940, 1000, 1060])
      assert.deepEqual(await verifyJwt(token, SECRET, { now }), { valid: true, iat: 1000 })
    for (const now of [939, 1061, 5000]) {
      const r = await verifyJwt(token, SECRET, { now })
      assert.equal(r.valid, false, `now ${now}`)
      if (!r.valid) assert.match(r.reason, /iat is -?\d+ s from the server's clock/)
    }
    assert.equal((await verifyJwt(token, SECRET, { now: 1100, skewSeconds: 120 })).valid, true)
  })
  it('refuses another secret, a tampered payload, another algorithm and a missing iat', async () => {
    const token = await createJwt(SECRET, { iat: 1000 })
    assert.equal((await verifyJwt(token, 'f0'.repeat(32), { now: 1000 })).valid, false)
    const [h, , s] = token.split('.')
    const forged = `${h}.${Buffer.from('{"iat":1001}').toString('base64url')}.${s}`
    assert.equal((await verifyJwt(forged, SECRET, { now: 1000 })).valid, false)
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"iat":1000}').toString('base64url')}.`
    assert.equal((await verifyJwt(none, SECRET, { now: 1000 })).valid, false)
    const h512 = Buffer.from('{"alg":"HS512","typ":"JWT"}').toString('base64url')
    const p = Buffer.from('{"iat":1000}').toString('base64url')
    const sig512 = createHmac('sha512', Buffer.from(SECRET, 'hex')).update(`${h512}.${p}`).digest('base64url')
    assert.equal((await verifyJwt(`${h512}.${p}.${sig512}`, SECRET, { now: 1000 })).valid, false)
    const noIatPayload = Buffer.from('{}').toString('base64url')
    const h256 = Buffer.from('{"alg":"HS256"}').toString('base64url')
    const sig = createHmac('sha256', Buffer.from(SECRET, 'hex')).update(`${h256}.${noIatPayload}`).digest('base64url')
    assert.deepEqual(await verifyJwt(`${h256}.${noIatPayload}.${sig}`, SECRET, { now: 1000 }), {
      valid: false,
      reason: 'the token has no iat claim',
    })
    assert.equal((await verifyJwt('garbage', SECRET)).valid, false)
  })
  it('round-trips random secrets', async () => {
    for (let i = 0; i < 5; i++) {
      const secret = randomBytes(32).toString('hex')
      assert.equal((await verifyJwt(await createJwt(secret), secret)).valid, true)
    }
  })
  it('verifyAuthorizationHeader takes "Bearer <token>" (scheme in any case)', async () => {
    const token = await createJwt(SECRET, { iat: 1000 })
    assert.equal((await verifyAuthorizationHeader(`Bearer ${token}`, SECRET, { now: 1000 })).valid, true)
    assert.equal((await verifyAuthorizationHeader(`bearer ${token}`, SECRET, { now: 1000 })).valid, true)
    assert.deepEqual(await verifyAuthorizationHeader(undefined, SECRET), {
      valid: false,
      reason: 'no Authorization header',
    })
    assert.equal((await verifyAuthorizationHeader(token, SECRET, { now: 1000 })).valid, false)
    assert.equal((await verifyAuthorizationHeader(`Basic ${token}`, SECRET, { now: 1000 })).valid, false)
  })
})

describe('JWT secret parsing', () => {
  it('normalises hex: 0x optional, any case, surrounding whitespace', () => {
    assert.equal(parseJwtSecretHex(`0x${SECRET.toUpperCase()}\n`), SECRET)
  })
  for (const [value, fragment] of [
    ['', 'it is empty'],
    ['0x', 'it is empty'],
    ['ab'.repeat(31), 'got 31 bytes'],
    ['ab'.repeat(33), 'got 33 bytes'],
    ['abc', 'got 3 hex digits'],
    [`${'ab'.repeat(31)}zz`, 'not hex digits'],
  ] as const) {
    it(`refuses ${JSON.stringify(value.slice(0, 12))}… (${fragment}) without echoing it`, () => {
      assert.throws(
        () => parseJwtSecretHex(value),
        (err: unknown) => {
          assert.ok(err instanceof TnvError)
          assert.equal(err.code, 'InvalidJwtSecret')
          assert.equal(err.exitCode, 3)
          assert.ok(err.message.includes(fragment), err.message)
          if (value.length > 4) assert.ok(!err.render().includes(value))
          return true
        },
      )
    })
  }
  it('readJwtSecret takes HEX or @FILE', async () => {
    const { dir, cleanup } = tempDir()
    try {
      const file = join(dir, 'jwt.hex')
      writeFileSync(file, `0x${SECRET}\n`)
      assert.equal(await readJwtSecret(`@${file}`), SECRET)
      assert.equal(await readJwtSecret(SECRET), SECRET)
      await assert.rejects(readJwtSecret(`@${join(dir, 'missing')}`), (err: unknown) => {
        assert.ok(err instanceof TnvError)
        assert.equal(err.code, 'JwtSecretFile')
        assert.match(err.message, /Cannot read the JWT secret file .*missing \(ENOENT\)/)
        return true
      })
      writeFileSync(file, 'not a secret')
      await assert.rejects(
        readJwtSecret(`@${file}`),
        (err: unknown) =>
          err instanceof TnvError && /in .*jwt\.hex/.test(err.message) && !err.message.includes('not a secret'),
      )
      if (process.getuid?.() !== 0) {
        chmodSync(file, 0o000)
        await assert.rejects(readJwtSecret(`@${file}`), /EACCES/)
      }
    } finally {
      cleanup()
    }
  })
})
