/**
 * The stake wizard's offline path (docs/wizard.md, docs/offline.md), against a reference devnet:
 * on a pseudo-terminal the operator says the funding key is on an offline machine; the wizard
 * writes the stake bundle beside the data directory and stops with exit 32 (waiting for the
 * offline signature); `tnv offline sign` signs it with a keystore in a network namespace with no
 * interfaces; the next `tnv stake` offers the remembered offline path, finds the signed file and
 * broadcasts it: the registry shows the validator Staked. Without a terminal, the missing signer
 * names --offline-bundle, and --offline-bundle runs the same path (exit 32, then 0). A signed
 * bundle gone stale is refused without a terminal (exit 24) and replaced by a new one on a terminal.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createWalletClient, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChainClient } from '../../src/lib/chain/client.js'
import { ExitCode } from '../../src/lib/errors.js'
import { SIGNER_CHOICE_FILE } from '../../src/lib/onboard/signer-memory.js'
import { eventProblems } from '../../src/lib/wizard/event-schema.js'
import { BIN, type CliResult, definedEnv, generateKeysArgs, parseJson, ROOT, testStateDir } from '../helpers/cli.js'
import { writeKeystore } from '../registry/keystore-fixture.js'
import { runBare } from '../ship/sea.js'
import { jsonLines, startTestDevnet, type TestDevnet } from '../wizard/devnet.js'
import { DOWN, ENTER, PYTHON, spawnPty } from '../wizard/pty.js'

const skip = PYTHON ? false : 'python3 is not installed: the pseudo-terminal helper needs its pty module'

describe('tnv stake with the funding key on an offline machine', { skip, timeout: 600_000 }, () => {
  let t: TestDevnet
  const ok = (r: CliResult) => {
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
    return r
  }
  const status = async (address: string) =>
    parseJson<{ status: string }>(await t.tnv(['validator', 'status', '--address', address, '--json'])).status
  /** `tnv offline sign` with a keystore (password from TN_KEYSTORE_PASSWORD) in a network namespace with no interfaces. */
  const signOffline = (bundle: string, env: Record<string, string>, extra: string[] = []) =>
    runBare('unshare', ['-n', '--', process.execPath, BIN, 'offline', 'sign', bundle, ...extra, '--yes', '--json'], {
      cwd: ROOT,
      env: definedEnv({ ...process.env, ...t.env, ...env, TNV_STATE_DIR: testStateDir() }),
      timeoutMs: 300_000,
    })

  before(async () => {
    t = await startTestDevnet('tnv-offline-wizard-')
  })
  after(async () => {
    await t?.stop()
  })

  it('on a terminal: offline signer → bundle written, exit 32; signed with a keystore offline; the rerun broadcasts it: Staked', async () => {
    const v = t.address(4)
    const datadir = join(t.dir, 'validator')
    ok(await t.tnv([...generateKeysArgs(datadir, v), '--json']))
    const bundle = `${datadir}.stake.bundle.json`

    const first = spawnPty(['stake', '--datadir', datadir, '--chain', 'devnet'], t.env)
    await first.expect('Who signs the transactions?')
    await first.expect('the funding key is on an offline machine')
    first.type(`${DOWN.repeat(5)}${ENTER}`)
    await first.expect('How far should tnv take this validator now?')
    first.type(`${DOWN}${ENTER}`) // to Staked only
    await first.expect('mint its ConsensusNFT now')
    first.type(ENTER)
    await first.expect('Where should the stake bundle be written')
    first.type(ENTER) // the default: beside the data directory
    await first.expect(`Wrote ${bundle}: Stake 1,000,000 TEL`)
    await first.expect('tnv offline sign validator.stake.bundle.json')
    await first.expect(`tnv stake --chain devnet --datadir ${datadir} --offline-bundle ${bundle}`)
    assert.equal(await first.exited, ExitCode.AwaitingOfflineSignature, first.screen())
    assert.match(first.screen(), /waiting for the offline signature \(exit 32\)/)
    assert.ok(existsSync(bundle))
    assert.equal(await status(v), 'Undefined', 'nothing was sent')
    assert.deepEqual(JSON.parse(readFileSync(join(datadir, SIGNER_CHOICE_FILE), 'utf8')), { kind: 'offline', bundle })

    const keystore = join(t.dir, 'validator-4.json')
    writeKeystore(keystore, t.key(4), 'keystore password')
    const signed = await signOffline(bundle, { TN_KEYSTORE_PASSWORD: 'keystore password' }, ['--keystore', keystore])
    assert.equal(signed.code, 0, `${signed.stdout}\n${signed.stderr}`)
    assert.ok(existsSync(`${datadir}.stake.bundle.signed.json`))

    const second = spawnPty(['stake', '--datadir', datadir, '--chain', 'devnet'], t.env)
    await second.expect('Who signs the transactions?')
    // the remembered offline path is the default: Enter takes it
    await second.expect('❯ the funding key is on an offline machine')
    second.type(ENTER)
    await second.expect('How far should tnv take this validator now?')
    second.type(`${DOWN}${ENTER}`)
    await second.expect('The signed stake is back')
    second.type(ENTER)
    await second.expect(`${v} is Staked.`)
    assert.equal(await second.exited, 0, second.screen())
    assert.equal(await status(v), 'Staked')
  })

  it('without a terminal: the missing signer names --offline-bundle; --offline-bundle waits (exit 32), then broadcasts once signed', async () => {
    const v = t.address(7)
    const datadir = join(t.dir, 'ci')
    ok(await t.tnv([...generateKeysArgs(datadir, v), '--json']))
    const none = await t.tnv(['stake', '--datadir', datadir, '--chain', 'devnet'])
    assert.equal(none.code, ExitCode.Usage, none.stderr)
    assert.match(none.stderr, /--offline-bundle FILE when the funding key is on an offline machine/)

    const bundle = join(t.dir, 'ci.bundle.json')
    const args = ['stake', '--datadir', datadir, '--chain', 'devnet', '--offline-bundle', bundle]
    const waiting = await t.tnv([...args, '--through', 'staked', '--mint', '--json'])
    assert.equal(waiting.code, ExitCode.AwaitingOfflineSignature, waiting.stderr)
    const lines = jsonLines(waiting.stdout)
    const result = lines.at(-1) as { status: string; offline: { outcome: string; bundle: string; signed: string } }
    assert.equal(result.status, 'Undefined')
    assert.deepEqual(
      { outcome: result.offline.outcome, bundle: result.offline.bundle, signed: result.offline.signed },
      { outcome: 'waiting', bundle, signed: join(t.dir, 'ci.bundle.signed.json') },
    )
    assert.ok(lines.some((l) => l.event === 'offline-bundle'))
    for (const l of lines) if ('event' in l) assert.deepEqual(eventProblems(l), [], JSON.stringify(l))
    // run again before it is signed: still waiting, nothing written over
    const again = await t.tnv(args)
    assert.equal(again.code, ExitCode.AwaitingOfflineSignature, again.stderr)
    assert.match(again.stderr, /is prepared and not signed yet/)

    const signed = await signOffline(bundle, { TN_PRIVATE_KEY: t.key(7) })
    assert.equal(signed.code, 0, `${signed.stdout}\n${signed.stderr}`)
    const sent = await t.tnv(args)
    assert.equal(sent.code, 0, `${sent.stdout}\n${sent.stderr}`)
    assert.equal(await status(v), 'Staked')
  })

  it('a signed bundle whose nonce another transaction used: refused without a terminal (exit 24), said and prepared anew on a terminal', async () => {
    const v = t.address(8)
    const datadir = join(t.dir, 'stale')
    ok(await t.tnv([...generateKeysArgs(datadir, v), '--json']))
    const bundle = join(t.dir, 'stale.bundle.json')
    const args = ['stake', '--datadir', datadir, '--chain', 'devnet', '--offline-bundle', bundle]
    const waiting = await t.tnv([...args, '--through', 'staked', '--mint'])
    assert.equal(waiting.code, ExitCode.AwaitingOfflineSignature, waiting.stderr)
    const signed = await signOffline(bundle, { TN_PRIVATE_KEY: t.key(8) })
    assert.equal(signed.code, 0, `${signed.stdout}\n${signed.stderr}`)
    // another transaction from the validator address takes the bundle's nonce
    const rpcUrl = t.info.rpcUrl as string
    const wallet = createWalletClient({ account: privateKeyToAccount(t.key(8)), transport: http(rpcUrl) })
    const hash = await wallet.sendTransaction({ to: v, value: 1n, chain: null })
    await createChainClient({ rpcUrl }).waitForTransactionReceipt({ hash })

    const stale = await t.tnv(args)
    assert.equal(stale.code, ExitCode.WrongState, stale.stderr)
    assert.match(stale.stderr, /nonce: prepared with nonce 0/)
    assert.match(stale.stderr, /--offline-bundle NEW_FILE\.json/)
    assert.equal(await status(v), 'Undefined')

    const w = spawnPty(args, t.env)
    await w.expect('How far should tnv take this validator now?')
    w.type(`${DOWN}${ENTER}`)
    await w.expect('The signed stake is back')
    w.type(ENTER)
    await w.expect('The bundle no longer matches the chain, so nothing was sent')
    await w.expect('A new bundle is prepared in its place')
    await w.expect('Where should the stake bundle be written')
    w.type(ENTER)
    await w.expect(`Wrote ${datadir}.stake.bundle.json`)
    assert.equal(await w.exited, ExitCode.AwaitingOfflineSignature, w.screen())
    assert.equal(await status(v), 'Undefined')
  })
})
