/**
 * The offline errors operators see most, as rendered (one paragraph: what is wrong, then what
 * to do; one line per changed precondition), and their exit codes.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ExitCode } from '../../src/lib/errors.js'
import { BundleDigestMismatchError, StaleBundleError } from '../../src/lib/offline/errors.js'

describe('offline errors as operators read them', () => {
  it('a stale bundle names each change and the command that prepares a new one', () => {
    const err = new StaleBundleError(
      [
        {
          name: 'nonce',
          prepared: 'nonce 7 of 0xabc',
          now: "used by another transaction (the account's next nonce is 8)",
        },
        { name: 'validator status', prepared: '0xabc Staked', now: 'PendingActivation' },
      ],
      'tnv offline prepare activate --from 0xabc --out a.json',
    )
    assert.equal(err.exitCode, ExitCode.WrongState)
    assert.equal(
      err.render(),
      [
        'The bundle no longer matches the chain, so nothing was sent: nonce, validator status changed since it was prepared. Prepare a new bundle on the networked host with `tnv offline prepare activate --from 0xabc --out a.json` (remove the stale bundle first, or pass another --out), sign it offline, then broadcast it.',
        "  nonce: prepared with nonce 7 of 0xabc; now used by another transaction (the account's next nonce is 8)",
        '  validator status: prepared with 0xabc Staked; now PendingActivation',
      ].join('\n'),
    )
  })

  it('a stale bundle of the stake wizard says to run `tnv stake` with a new file, then again to broadcast', () => {
    const err = new StaleBundleError(
      [{ name: 'expiry', prepared: 'valid until 2026-01-01T00:00:00.000Z', now: 'expired' }],
      'tnv stake --chain testnet --datadir ./v --offline-bundle NEW_FILE.json',
    )
    assert.equal(
      err.render().split('\n')[0],
      'The bundle no longer matches the chain, so nothing was sent: expiry changed since it was prepared. Prepare a new bundle on the networked host with `tnv stake --chain testnet --datadir ./v --offline-bundle NEW_FILE.json` (a new file), sign it offline, then run that command again to broadcast it.',
    )
  })

  it('a changed bundle is refused with what to do', () => {
    const err = new BundleDigestMismatchError('stake.bundle.json', {
      recorded: `sha256:${'a'.repeat(64)}`,
      computed: `sha256:${'b'.repeat(64)}`,
    })
    assert.equal(err.exitCode, ExitCode.BadInput)
    assert.equal(
      err.render(),
      `stake.bundle.json was changed after tnv wrote it: its contents hash to sha256:${'b'.repeat(64)}, but it records sha256:${'a'.repeat(64)}. Nothing was signed or sent. Do not use it. Prepare a new bundle on the networked host with \`tnv offline prepare\` and carry that file.`,
    )
  })
})
