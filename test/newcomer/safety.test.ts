/** Issue 16 item 3: a weak passphrase is warned about, never refused (the node accepts any). */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { MIN_PASSPHRASE_LENGTH, weakPassphraseWarning } from '../../src/lib/passphrase/strength.js'
import { runCli, tempDir } from '../helpers/cli.js'

describe('weak passphrase', () => {
  it('short or repetitive passphrases are warned about; long varied ones are not', () => {
    assert.match(weakPassphraseWarning('a') ?? '', /weak \(it has 1 character\)/)
    assert.match(weakPassphraseWarning('aaaaaaaaaaaaaaaa') ?? '', /repeats 1 distinct character/)
    assert.equal(weakPassphraseWarning('correct horse battery staple'), null)
    assert.equal(weakPassphraseWarning(`${'x'.repeat(MIN_PASSPHRASE_LENGTH - 1)}y`)?.includes('weak'), true)
    assert.equal(weakPassphraseWarning(undefined), null)
  })

  it('keytool generate warns on stderr and still writes the keys (exit 0)', async () => {
    const { dir, cleanup } = tempDir()
    try {
      const r = await runCli(
        ['keytool', 'generate', 'validator', '--address', '0', '--datadir', join(dir, 'v'), '-q'],
        { env: { TN_BLS_PASSPHRASE: 'x' } },
      )
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stderr, /passphrase is weak \(it has 1 character\)/)
      assert.match(r.stderr, /not refused/)
    } finally {
      cleanup()
    }
  })
})
