/** Signer resolution: flag before environment, keystores, --unsigned, and no secret ever echoed. */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { privateKeyToAddress } from 'viem/accounts'
import { resolveSigner } from '../../src/lib/chain/signer.js'
import { ExitCode, TnvError } from '../../src/lib/errors.js'
import { tempDir } from '../helpers/cli.js'
import { writeKeystore } from './keystore-fixture.js'

const KEY_A = `0x${'0a'.repeat(32)}` as const
const KEY_B = `0x${'0b'.repeat(32)}` as const
const ADDR_A = privateKeyToAddress(KEY_A)
const ADDR_B = privateKeyToAddress(KEY_B)

describe('signer', () => {
  const { dir, cleanup } = tempDir('tnv-signer-')
  after(cleanup)
  const keystore = join(dir, 'ks.json')
  writeKeystore(keystore, KEY_B, 'secret-pw')

  it('TN_PRIVATE_KEY is used when no flag names a signer; the handed environment is not changed', async () => {
    const env = Object.freeze({ TN_PRIVATE_KEY: KEY_B.slice(2) })
    const { signer } = await resolveSigner({ action: 'stake', env })
    assert.equal(signer.address, ADDR_B)
  })

  it('a malformed key is refused without echoing it', async () => {
    await assert.rejects(
      resolveSigner({ action: 'stake', env: { TN_PRIVATE_KEY: 'deadbeefcafe' } }),
      (err: unknown) => {
        assert.ok(err instanceof Error)
        assert.match(err.message, /from TN_PRIVATE_KEY is not a valid/)
        assert.doesNotMatch(err.message, /deadbeefcafe/)
        return true
      },
    )
    const zero = `0x${'00'.repeat(32)}`
    await assert.rejects(
      resolveSigner({ action: 'stake', env: { TN_PRIVATE_KEY: zero } }),
      /TN_PRIVATE_KEY is not a valid/,
    )
  })

  it('--keystore with the password from TN_KEYSTORE_PASSWORD (the handed environment is not changed)', async () => {
    const env = Object.freeze({ TN_KEYSTORE_PASSWORD: 'secret-pw' })
    const { signer } = await resolveSigner({ action: 'stake', keystore, env })
    assert.equal(signer.type, 'local')
    assert.equal(signer.address, ADDR_B)
  })

  it('--keystore without a password source and without a TTY names the fix', async () => {
    await assert.rejects(resolveSigner({ action: 'stake', keystore, env: {} }), (err: unknown) => {
      assert.ok(err instanceof Error && 'exitCode' in err)
      assert.equal(err.exitCode, ExitCode.Usage)
      assert.match(err.message, /needs a password/)
      return true
    })
  })

  it('no signer at all names every way to give one', async () => {
    await assert.rejects(resolveSigner({ action: 'stake', env: {} }), (err: unknown) => {
      assert.ok(err instanceof TnvError)
      assert.match(err.render(), /needs a signer.*TN_PRIVATE_KEY, pass --keystore FILE, or pass --unsigned --from/)
      return true
    })
  })

  it("--unsigned takes --from, else the key's address, else the command's default, else refuses", async () => {
    const a = await resolveSigner({ action: 'stake', unsigned: true, from: ADDR_A, env: {} })
    assert.deepEqual(a.signer, { type: 'unsigned', address: ADDR_A })
    const b = await resolveSigner({ action: 'stake', unsigned: true, keystore, env: {} }) // no password needed
    assert.deepEqual(b.signer, { type: 'unsigned', address: ADDR_B })
    const c = await resolveSigner({ action: 'stake', unsigned: true, defaultFrom: ADDR_B, env: {} })
    assert.equal(c.signer.address, ADDR_B)
    await assert.rejects(
      resolveSigner({ action: 'stake', unsigned: true, env: {} }),
      /--unsigned needs the sender's address/,
    )
  })

  it('--from must match the key', async () => {
    await assert.rejects(
      resolveSigner({ action: 'stake', from: ADDR_B, env: { TN_PRIVATE_KEY: KEY_A } }),
      /is not the signer's address/,
    )
  })

  it('the fallback key (devnet governance) is used only when nothing else is given', async () => {
    const fallbackKey = { privateKey: KEY_A, source: 'the devnet governance key' }
    assert.equal((await resolveSigner({ action: 'mint', fallbackKey, env: {} })).signer.address, ADDR_A)
    assert.equal(
      (await resolveSigner({ action: 'mint', fallbackKey, env: { TN_PRIVATE_KEY: KEY_B } })).signer.address,
      ADDR_B,
    )
  })
})
