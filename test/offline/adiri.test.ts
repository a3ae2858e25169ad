/**
 * The offline path on the REAL adiri registry code (the test network's): its stake takes a proof
 * over its own 218-byte message with the uncompressed key, signed with the BLS key in the data
 * directory when the bundle is prepared; the offline host signs only the transaction. Stake and
 * activate through bundles, judged by the registry's views; a bundle of the adiri call is
 * decoded and checked by sign like any other.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Address, Hex } from 'viem'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { type CliResult, generateKeysArgs, ROOT, runCli } from '../helpers/cli.js'
import { startTestChain, type TestChain } from '../registry/devnet-fixture.js'

const schema = JSON.parse(readFileSync(join(ROOT, 'docs/offline-bundle.schema.json'), 'utf8'))

describe('tnv offline on the real adiri registry code', { timeout: 300_000 }, () => {
  let t: TestChain
  const acct = (i: number) => t.accounts[i] as { address: Address; privateKey: Hex }
  const net = () => ['--rpc-url', t.url, '--chain-id', String(t.engine.chainId)]
  const tnv = (args: string[], env: Record<string, string | undefined> = {}) =>
    runCli([...args, '--json'], { env: { TN_CHAIN: undefined, TN_RPC_URL: undefined, TN_DATADIR: undefined, ...env } })
  const ok = (r: CliResult) => {
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
    return JSON.parse(r.stdout) as Record<string, unknown>
  }
  const status = async (a: Address) =>
    (
      await t.engine.client.readContract({
        address: REGISTRY_ADDRESS,
        abi: registryAbis.adiri,
        functionName: 'getValidator',
        args: [a],
      })
    ).currentStatus

  before(async () => {
    t = await startTestChain('adiri', { accounts: 1 })
    await t.mint(acct(0).address)
  })
  after(async () => {
    await t?.stop()
  })

  it('stake (adiri proof signed with the BLS key when prepared) and activate through bundles', async () => {
    const v = acct(0)
    const datadir = join(t.datadir, 'v0')
    ok(await runCli([...generateKeysArgs(datadir, v.address), '--json']))
    const stake = join(t.datadir, 'stake.json')
    ok(
      await tnv([
        'offline',
        'prepare',
        'stake',
        '--datadir',
        datadir,
        '--bls-passphrase-source',
        'no-passphrase',
        '--out',
        stake,
        ...net(),
      ]),
    )
    const bundle = JSON.parse(readFileSync(stake, 'utf8'))
    assert.equal(bundle.registry.generation, 'adiri')
    assert.equal(bundle.call.function, 'stake(bytes,(bytes,bytes))')
    const { Ajv } = await import('ajv')
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema)
    assert.ok(validate(bundle), JSON.stringify(validate.errors))
    ok(await tnv(['offline', 'sign', stake, '--yes'], { TN_PRIVATE_KEY: v.privateKey }))
    assert.equal((ok(await tnv(['offline', 'broadcast', stake, ...net()])) as { outcome: string }).outcome, 'sent')
    assert.equal(await status(v.address), 1) // Staked

    const activate = join(t.datadir, 'activate.json')
    ok(await tnv(['offline', 'prepare', 'activate', '--from', v.address, '--out', activate, ...net()]))
    ok(await tnv(['offline', 'sign', activate, '--yes'], { TN_PRIVATE_KEY: v.privateKey }))
    ok(await tnv(['offline', 'broadcast', activate, ...net()]))
    assert.equal(await status(v.address), 2) // PendingActivation
    await t.engine.closeEpoch()
    assert.equal(await status(v.address), 3) // Active
  })
})
