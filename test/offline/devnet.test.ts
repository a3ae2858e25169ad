/**
 * The offline path on the devnet (the reference node on the real registry code, as an operator
 * rehearses): stake and activate through bundles, each signed in a network namespace with no
 * interfaces, judged by the registry's own views; Active at the next epoch boundary.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Address } from 'viem'
import { createChainClient } from '../../src/lib/chain/client.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { BIN, type CliResult, definedEnv, generateKeysArgs, ROOT, testStateDir } from '../helpers/cli.js'
import { runBare } from '../ship/sea.js'
import { startTestDevnet, type TestDevnet } from '../wizard/devnet.js'

describe('tnv offline on the devnet (reference node)', { timeout: 600_000 }, () => {
  let t: TestDevnet
  const ok = (r: CliResult) => {
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
    return JSON.parse(r.stdout) as Record<string, unknown>
  }
  /** `tnv offline sign` in a network namespace with no interfaces. */
  const signOffline = (bundle: string, key: string) =>
    runBare('unshare', ['-n', '--', process.execPath, BIN, 'offline', 'sign', bundle, '--yes', '--json'], {
      cwd: ROOT,
      env: definedEnv({
        ...process.env,
        ...t.env,
        TN_PRIVATE_KEY: key,
        TN_DEVNET_RELAXED: '1',
        TNV_STATE_DIR: testStateDir(),
      }),
      timeoutMs: 300_000,
    })

  before(async () => {
    t = await startTestDevnet('tnv-offline-devnet-')
  })
  after(async () => {
    await t?.stop()
  })

  it('stake and activate through bundles signed with no network; the registry shows Staked, then Active', async () => {
    const v = t.address(3)
    const datadir = join(t.dir, 'v')
    ok(await t.tnv([...generateKeysArgs(datadir, v), '--json']))
    ok(await t.tnv(['governance', 'mint', v, '--chain', 'devnet', '--json']))
    const client = createChainClient({ rpcUrl: t.info.rpcUrl as string })
    const abi = registryAbis[t.info.generation]
    const status = async (a: Address) =>
      (await client.readContract({
        address: t.info.registry,
        abi,
        functionName: 'getValidator',
        args: [a],
      } as never)) as {
        currentStatus: number
      }

    const stake = join(t.dir, 'stake.bundle.json')
    const prepared = ok(
      await t.tnv([
        'offline',
        'prepare',
        'stake',
        '--chain',
        'devnet',
        '--datadir',
        datadir,
        '--bls-passphrase-source',
        'no-passphrase',
        '--out',
        stake,
        '--json',
      ]),
    )
    assert.equal(prepared.outcome, 'prepared')
    const nonce = await client.getTransactionCount({ address: v })
    ok(await signOffline(stake, t.key(3)))
    assert.equal(await client.getTransactionCount({ address: v }), nonce, 'signing sent nothing')
    assert.equal(
      (ok(await t.tnv(['offline', 'broadcast', stake, '--chain', 'devnet', '--json'])) as { outcome: string }).outcome,
      'sent',
    )
    assert.equal((await status(v)).currentStatus, 1) // Staked

    const activate = join(t.dir, 'activate.bundle.json')
    ok(await t.tnv(['offline', 'prepare', 'activate', '--chain', 'devnet', '--from', v, '--out', activate, '--json']))
    ok(await signOffline(activate, t.key(3)))
    // no --chain: the network the bundle was prepared on
    ok(await t.tnv(['offline', 'broadcast', activate, '--json']))
    assert.ok([2, 3].includes((await status(v)).currentStatus)) // PendingActivation (or Active already)
    const deadline = Date.now() + 60_000
    while ((await status(v)).currentStatus !== 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1000))
    assert.equal((await status(v)).currentStatus, 3) // Active
  })
})
