/**
 * A file the user named and that is not there (src/lib/fs/read-small-file.ts, explainMissing):
 * one paragraph naming the path and what was expected, exit 3; without the option the OS's error
 * goes to the caller's own explanation.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ExitCode, TnvError } from '../../src/lib/errors.js'
import { readSmallFile } from '../../src/lib/fs/read-small-file.js'

describe('readSmallFile on a missing file', () => {
  it('explainMissing: NamedFileMissing, exit 3, the path and what was expected', async () => {
    await assert.rejects(
      readSmallFile('/nonexistent/bundle.json', { what: 'an offline bundle', maxBytes: 1024, explainMissing: true }),
      (err: unknown) => {
        assert.ok(err instanceof TnvError)
        assert.equal(err.code, 'NamedFileMissing')
        assert.equal(err.exitCode, ExitCode.BadInput)
        assert.match(err.render(), /\/nonexistent\/bundle\.json does not exist: tnv expected an offline bundle there/)
        return true
      },
    )
  })

  it('without it: the OS error (ENOENT) for the caller to explain', async () => {
    await assert.rejects(readSmallFile('/nonexistent/k.json', { what: 'a keystore', maxBytes: 1024 }), {
      code: 'ENOENT',
    })
  })
})
