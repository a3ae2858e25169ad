/**
 * "Any failure leaves all files as they were": a fault injected between each step of every
 * multi-file write (generate --force, generate pop, set-rpc, change-passphrase) leaves the data
 * directory byte for byte and mode for mode unchanged, with no staging or backup left behind.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { changePassphrase } from '../../src/lib/keys/change-passphrase.js'
import { generateNodeKeys } from '../../src/lib/keys/generate-node-keys.js'
import { openBlsKey } from '../../src/lib/keys/open-key.js'
import { resignProofOfPossession } from '../../src/lib/keys/resign-pop.js'
import { setWorkerRpc } from '../../src/lib/keys/set-rpc.js'
import { tempDir } from '../helpers/cli.js'
import { plainDatadir, snapshotTree } from './fixtures.js'

async function withFault<T>(name: string, f: () => Promise<T>): Promise<unknown> {
  process.env.TNV_INJECT_FAULT = name
  try {
    await f()
    return undefined
  } catch (err) {
    return err
  } finally {
    delete process.env.TNV_INJECT_FAULT
  }
}

describe('a failure between steps changes nothing', () => {
  let dir: string
  let cleanup: () => void
  let datadir: string
  before(async () => {
    ;({ dir, cleanup } = tempDir())
    datadir = join(dir, 'node')
    await plainDatadir(datadir)
  })
  after(() => cleanup())

  const openPlain = () => openBlsKey({ datadir, source: 'no-passphrase', env: {} })
  const operations: [string, string[], () => Promise<unknown>][] = [
    [
      'generate --force',
      ['commit:backup', 'commit:node-keys', 'commit:node-info.yaml'],
      () =>
        generateNodeKeys({
          datadir,
          address: '0x2222222222222222222222222222222222222222',
          force: true,
          passphrase: async () => undefined,
        }),
    ],
    [
      // nothing to back up: the record is written once, in phase swap, and a fault after it is in
      // place is undone too (the data directory the run created is removed again)
      'a first generate',
      ['write', 'commit:backup', 'commit:node-keys', 'commit:tnv-keys.json'],
      () =>
        generateNodeKeys({
          datadir: join(dir, 'first'),
          address: '0x2222222222222222222222222222222222222222',
          passphrase: async () => undefined,
        }),
    ],
    [
      'generate pop',
      ['commit:backup', 'commit:node-info.yaml'],
      () =>
        resignProofOfPossession({ datadir, address: '0x2222222222222222222222222222222222222222', openKey: openPlain }),
    ],
    [
      'set-rpc',
      ['commit:backup', 'commit:node-info.yaml'],
      () => setWorkerRpc({ datadir, worker: 0, rpc: { http: 'https://rpc.example.org' } }),
    ],
    [
      'change-passphrase (bls.key to bls.kw)',
      ['commit:backup', 'commit:bls.kw', 'commit:bls.key'],
      () => changePassphrase({ datadir, openKey: openPlain, newPassphrase: async () => 'new passphrase' }),
    ],
  ]
  for (const [what, faults, operation] of operations)
    for (const fault of faults)
      it(`${what}, fault at ${fault}`, async () => {
        const before = await snapshotTree(dir)
        const err = await withFault(fault, operation)
        assert.ok(
          err instanceof Error && err.message.includes(`injected fault at ${fault}`),
          `expected the injected fault, got ${String(err)}`,
        )
        assert.deepEqual(await snapshotTree(dir), before)
      })

  it('without a fault the same operations do change the files (the test can fail)', async () => {
    const before = await snapshotTree(dir)
    await setWorkerRpc({ datadir, worker: 0, rpc: { http: 'https://rpc.example.org' } })
    assert.notDeepEqual(await snapshotTree(dir), before)
  })
})
