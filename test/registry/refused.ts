/** Test helper: a promise that must fail with a given TnvError. */
import assert from 'node:assert/strict'
import type { TnvError } from '../../src/lib/errors.js'

/** Asserts the promise fails with a TnvError of this code and exit code, and returns it. */
export async function refused(p: Promise<unknown>, code: string, exitCode: number): Promise<TnvError> {
  let caught: unknown
  await p.then(
    (v) => assert.fail(`expected ${code}, got ${JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}` : x))}`),
    (e: unknown) => {
      caught = e
    },
  )
  const err = caught as TnvError
  assert.equal(err.code, code, err.message)
  assert.equal(err.exitCode, exitCode, err.message)
  return err
}
