/**
 * `tnv offline broadcast --check` end to end (docs/automation.md) on the REAL next registry code:
 * a signed stake bundle says would-change with the decoded transaction; a precondition that
 * changed (the registry's code) is refused as the broadcast refuses it (exit 24); once sent, it
 * says already-done. `offline prepare --check` says the bundle file it would write, then
 * already-done once staked; `offline sign --check` opens no key and says the signed file it would
 * write, then already-done once it holds this bundle's signature. Every check leaves the bundle directory, tnv's state directory (the
 * sender's journal) and the sender's nonce exactly as they were.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { type Address, type Hex, parseEther } from 'viem'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { ExitCode } from '../../src/lib/errors.js'
import { type CliResult, generateKeysArgs, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { treeOf } from '../helpers/tree.js'
import { startTestChain, type TestChain } from '../registry/devnet-fixture.js'

type Check = {
  outcome: string
  check: boolean
  step: string
  txHash?: string
  transaction?: { function: string | null; from: string; to: string; nonce: number; value: string; gasEstimate: string }
}

describe('tnv offline prepare, sign and broadcast --check (CLI, real next code)', { timeout: 600_000 }, () => {
  const { dir, cleanup } = tempDir('tnv-offline-check-')
  const stateDir = join(dir, 'state')
  const work = join(dir, 'work')
  let t: TestChain
  const acct = () => t.accounts[0] as { address: Address; privateKey: Hex }
  const tnv = (args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> =>
    runCli([...args, '--json'], {
      env: {
        TN_CHAIN: undefined,
        TN_RPC_URL: undefined,
        TN_DATADIR: undefined,
        TN_PRIVATE_KEY: undefined,
        TN_DEVNET_RELAXED: '1',
        TNV_STATE_DIR: stateDir,
        ...env,
      },
      timeoutMs: 240_000,
    })
  const net = () => ['--rpc-url', t.url, '--chain-id', String(t.engine.chainId)]
  const snapshot = async () => ({
    files: `${treeOf(work)}\n--\n${treeOf(stateDir)}`,
    nonce: await t.engine.client.getTransactionCount({ address: acct().address }),
  })
  const prepareCheck = (out: string) =>
    tnv(['offline', 'prepare', 'stake', '--datadir', join(work, 'v0'), '--out', out, '--check', ...net()])
  const check = async (bundle: string): Promise<{ r: CliResult; before: unknown; after: unknown }> => {
    const before = await snapshot()
    const r = await tnv(['offline', 'broadcast', bundle, '--check', ...net()])
    return { r, before, after: await snapshot() }
  }

  before(async () => {
    t = await startTestChain('next', { accounts: 1 })
    await t.mint(acct().address)
    const g = await tnv(generateKeysArgs(join(work, 'v0'), acct().address).filter((a) => a !== '--json'))
    assert.equal(g.code, 0, g.stderr)
  })
  after(async () => {
    await t?.stop()
    cleanup()
  })

  it('offline prepare --check: the bundle it would write, nothing written or locked; once staked, already-done', async () => {
    const bundle = join(work, 'p0.json')
    const before = await snapshot()
    const r = await prepareCheck(bundle)
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
    const body = parseJson<Check & { files: unknown[]; transaction: { from: string; value: string } }>(r)
    assert.equal(body.outcome, 'would-change')
    assert.equal(body.check, true)
    assert.equal(body.step, 'stake')
    assert.deepEqual(body.files, [{ path: bundle, mode: '0644', exists: false, action: 'create' }])
    assert.equal(body.transaction.from, acct().address)
    assert.equal(body.transaction.value, parseEther('1000000').toString())
    assert.deepEqual(await snapshot(), before, 'the check wrote the bundle, locked the data directory or sent')
  })

  it('sign --check, then broadcast --check: would-change with the decoded stake; a changed precondition exits 24; once sent, already-done; nothing written or sent', async () => {
    const bundle = join(work, 's0.json')
    const p = await tnv(['offline', 'prepare', 'stake', '--datadir', join(work, 'v0'), '--out', bundle, ...net()])
    assert.equal(p.code, 0, p.stdout + p.stderr)
    // sign --check: no key at all (none is opened), no --yes (nothing is asked), nothing written
    const signed = join(work, 's0.signed.json')
    let before = await snapshot()
    const sc = await tnv(['offline', 'sign', bundle, '--check'])
    assert.equal(sc.code, 0, `${sc.stdout}\n${sc.stderr}`)
    const plan = parseJson<Check & { files: unknown[] }>(sc)
    assert.equal(plan.outcome, 'would-change')
    assert.equal(plan.check, true)
    assert.deepEqual(plan.files, [{ path: signed, mode: '0600', exists: false, action: 'create' }])
    assert.deepEqual(await snapshot(), before, 'sign --check wrote a file')
    const s = await tnv(['offline', 'sign', bundle, '--yes'], { TN_PRIVATE_KEY: acct().privateKey })
    assert.equal(s.code, 0, s.stdout + s.stderr)
    before = await snapshot()
    const signedAgain = await tnv(['offline', 'sign', bundle, '--check'])
    assert.equal(signedAgain.code, 0, signedAgain.stdout)
    assert.deepEqual(
      { ...parseJson<Check & { files: unknown[] }>(signedAgain), message: '' },
      { outcome: 'already-done', check: true, message: '', files: [], bundle, step: 'stake' },
    )
    assert.deepEqual(await snapshot(), before)

    let c = await check(bundle)
    assert.equal(c.r.code, 0, `${c.r.stdout}\n${c.r.stderr}`)
    const body = parseJson<Check>(c.r)
    assert.equal(body.outcome, 'would-change')
    assert.equal(body.check, true)
    assert.equal(body.step, 'stake')
    assert.equal(body.transaction?.function, 'stake(bytes,(bytes))')
    assert.equal(body.transaction?.from, acct().address)
    assert.equal(body.transaction?.to, REGISTRY_ADDRESS)
    assert.equal(body.transaction?.nonce, 0)
    assert.ok(BigInt(body.transaction?.gasEstimate ?? 0) > 21_000n)
    assert.deepEqual(c.after, c.before, 'the check wrote a file, journaled or sent')

    // every precondition is read again: the registry's code replaced is refused as the broadcast refuses it
    const code = (await t.engine.client.getCode({ address: REGISTRY_ADDRESS })) as Hex
    await t.anvil('anvil_setCode', [REGISTRY_ADDRESS, `${code}00`])
    c = await check(bundle)
    await t.anvil('anvil_setCode', [REGISTRY_ADDRESS, code])
    assert.equal(c.r.code, ExitCode.WrongState, c.r.stdout)
    const e = parseJson<{ error: { code: string; details?: string[] } }>(c.r).error
    assert.equal(e.code, 'StaleBundle')
    assert.match(e.details?.[0] ?? '', /^registry code/)
    assert.deepEqual(c.after, c.before)

    const sent = await tnv(['offline', 'broadcast', bundle, ...net()])
    assert.equal(sent.code, 0, sent.stdout + sent.stderr)
    const { txHash } = parseJson<{ txHash: string }>(sent)

    c = await check(bundle)
    assert.equal(c.r.code, 0, c.r.stdout)
    const done = parseJson<Check>(c.r)
    assert.equal(done.outcome, 'already-done')
    assert.equal(done.check, true)
    assert.equal(done.txHash, txHash)
    assert.deepEqual(c.after, c.before)

    const beforePrepare = await snapshot()
    const staked = await prepareCheck(join(work, 'p1.json'))
    assert.equal(staked.code, 0, staked.stdout)
    assert.equal(parseJson<Check>(staked).outcome, 'already-done')
    assert.equal(parseJson<Check>(staked).check, true)
    assert.deepEqual(await snapshot(), beforePrepare)
    // a bundle is never written over another file: refused as the run refuses it
    const over = await tnv([
      'offline',
      'prepare',
      'activate',
      '--from',
      acct().address,
      '--out',
      bundle,
      '--check',
      ...net(),
    ])
    assert.equal(over.code, ExitCode.Usage, over.stdout)

    // the human form says it sent nothing
    const human = await runCli(['offline', 'broadcast', bundle, '--check', ...net()], {
      env: { TN_CHAIN: undefined, TN_RPC_URL: undefined, TNV_STATE_DIR: stateDir },
    })
    assert.equal(human.code, 0, human.stderr)
    assert.match(human.stdout, /already done by transaction 0x[0-9a-f]{64} .*\(check: nothing was sent\)/)
  })
})
