/**
 * `tnv stake` and `tnv exit` as wizards, driven through a pseudo-terminal with answers typed
 * at their prompts, against a reference devnet. The first stake run is declined at the stake
 * confirmation (default No): nothing is staked, and the keys and the devnet mint it made are
 * kept; the second run continues from there to Active. Then the exit wizard takes the
 * validator through Exited to unstaked.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ExitCode } from '../../src/lib/errors.js'
import { JOURNAL_FILE, type JournalFile as Journal } from '../../src/lib/tx/journal.js'
import { parseJson } from '../helpers/cli.js'
import { startTestDevnet, stopNode, type TestDevnet } from './devnet.js'
import { ENTER, PYTHON, spawnPty } from './pty.js'

const skip = PYTHON ? false : 'python3 is not installed: the pseudo-terminal helper needs its pty module'

describe('the stake and exit wizards on a terminal', { skip }, () => {
  let t: TestDevnet
  let datadir: string
  const journal = () => JSON.parse(readFileSync(join(datadir, JOURNAL_FILE), 'utf8')) as Journal
  const status = async () =>
    parseJson<{ status: string; whitelisted: boolean; retired: boolean }>(
      await t.tnv(['validator', 'status', '--address', t.address(3), '--json']),
    )

  before(async () => {
    t = await startTestDevnet('tnv-wizard-pty-')
    datadir = join(t.dir, 'validator')
  })
  after(async () => {
    await stopNode(t, datadir)
    await t.stop()
  })

  it('Ctrl-C at a prompt stops cleanly (exit 30) and says nothing is lost', async () => {
    const w = spawnPty(['stake', '--datadir', join(t.dir, 'interrupted')], t.env)
    await w.expect('Network')
    w.type('\u0003')
    assert.equal(await w.exited, ExitCode.Aborted, w.screen())
    assert.match(w.screen(), /Nothing is lost/)
    assert.ok(!existsSync(join(t.dir, 'interrupted', 'node-info.yaml')))
  })

  it('the devnet rehearses the real path: without --devnet-relaxed the wizard offers the recovery phrase and the backup step asks before the stake', async () => {
    const dir = join(t.dir, 'real-path')
    // keys made in a first run from random bytes, then the backup step of a second run
    const env = { ...t.env, TN_DEVNET_RELAXED: undefined }
    const first = spawnPty(['stake', '--datadir', dir, '--chain', 'devnet'], { ...env, TN_PRIVATE_KEY: t.key(9) })
    await first.expect('Generate validator keys there')
    first.type(ENTER)
    await first.expect('Public IP address or DNS name')
    first.type(ENTER)
    await first.expect('How should the BLS key be made?')
    await first.expect('recovery phrase (recommended)')
    first.type('\u0003')
    assert.equal(await first.exited, ExitCode.Aborted, first.screen())
    assert.ok(!existsSync(join(dir, 'node-info.yaml')), 'nothing is written before the question is answered')
    const keys = await t.tnv(['keytool', 'generate', 'validator', '--address', t.address(9), '--datadir', dir, '-q'], {
      TN_BLS_PASSPHRASE: 'x',
    })
    assert.equal(keys.code, 0, keys.stderr)
    const second = spawnPty(['stake', '--datadir', dir, '--chain', 'devnet'], { ...env, TN_PRIVATE_KEY: t.key(9) })
    await second.expect('How far should tnv take this validator now?')
    second.type(ENTER)
    await second.expect('How do you want to prove this key can be restored?')
    await second.expect('Stop here')
    second.type('\u001b[B\u001b[B\u001b[B') // down to the fourth choice: stop
    second.type(ENTER)
    assert.equal(await second.exited, ExitCode.BadKeys, second.screen())
    assert.match(second.screen(), /tnv keytool backup/)
  })

  it('not whitelisted and no devnet mint: prints what governance needs, waits under a spinner; Ctrl-C exits 130 with nothing lost', async () => {
    const dir = join(t.dir, 'waiting')
    const keys = await t.tnv(['keytool', 'generate', 'validator', '--address', t.address(8), '--datadir', dir, '-q'], {
      TN_BLS_PASSPHRASE: 'x',
    })
    assert.equal(keys.code, 0, keys.stderr)
    // --chain names the network, so the wizard does not ask for it
    const w = spawnPty(['stake', '--datadir', dir, '--chain', 'devnet'], { ...t.env, TN_PRIVATE_KEY: t.key(8) })
    await w.expect('How far should tnv take this validator now?')
    w.type(ENTER)
    await w.expect('mint its ConsensusNFT now')
    w.type(`n${ENTER}`)
    await w.expect(`${t.address(8)} is not whitelisted yet. Send governance:`)
    await w.expect(`node-info.yaml: ${join(dir, 'node-info.yaml')}`)
    await w.expect('Waiting for governance to whitelist')
    w.type('\u0003')
    assert.equal(await w.exited, 130, w.screen())
    assert.match(w.screen(), /Nothing is lost/)
  })

  it('first run: creates the keys (passphrase twice, hidden), mints on the devnet, and No at the stake prompt stakes nothing', async () => {
    const w = spawnPty(['stake', '--datadir', datadir], t.env)
    await w.expect('Network')
    w.type(ENTER) // devnet, the default
    await w.expect('Who signs the transactions?')
    w.type(ENTER) // a private key
    await w.expect('Private key of the validator address')
    w.type(`${t.key(3)}${ENTER}`)
    await w.expect('Generate validator keys there')
    w.type(ENTER) // default Yes
    await w.expect('Public IP address or DNS name')
    w.type(ENTER) // local-only, for the devnet
    await w.expect('New BLS key passphrase')
    w.type(`wizard passphrase${ENTER}`)
    await w.expect('Repeat the new BLS key passphrase')
    // a typo in the repeat: said, then both asked again
    w.type(`wizard passphrasf${ENTER}`)
    await w.expect('Passphrases do not match, retry.')
    await w.expect('New BLS key passphrase')
    w.type(`wizard passphrase${ENTER}`)
    await w.expect('Repeat the new BLS key passphrase')
    w.type(`wizard passphrase${ENTER}`)
    await w.expect('Prerequisites:')
    await w.expect('How far should tnv take this validator now?')
    w.type(ENTER) // to Active
    await w.expect('mint its ConsensusNFT now')
    w.type(ENTER) // default Yes
    await w.expect('1,000,000 TEL')
    await w.expect('Send it?')
    w.type(ENTER) // default No
    const code = await w.exited
    assert.equal(code, ExitCode.Aborted, w.screen())
    const screen = w.screen()
    assert.ok(!screen.includes(t.key(3).slice(2)), 'the private key is never echoed')
    assert.ok(!screen.includes('wizard passphrase'), 'the passphrase is never echoed')
    assert.ok(existsSync(join(datadir, 'node-info.yaml')))
    const s = await status()
    assert.equal(s.status, 'Undefined')
    assert.equal(s.whitelisted, true)
    // the mint is the devnet's rehearsal (it impersonates the registry owner), not a tnv transaction
    assert.ok(!existsSync(join(datadir, JOURNAL_FILE)), 'nothing was sent by tnv, so no journal')
  })

  it('second run: continues at the stake, starts the node, waits for sync, activates and follows to Active', async () => {
    const w = spawnPty(['stake', '--datadir', datadir, '--chain', 'devnet'], t.env)
    await w.expect('Who signs the transactions?')
    w.type(ENTER)
    await w.expect('Private key of the validator address')
    // a key of another address is explained and asked again, not the end of the wizard
    w.type(`${t.key(4)}${ENTER}`)
    await w.expect(`That key is for ${t.address(4)}`)
    await w.expect('Try again (2 left)')
    w.type(`${t.key(3)}${ENTER}`)
    await w.expect('How far should tnv take this validator now?')
    w.type(ENTER)
    await w.expect('Send it?')
    w.type(`y${ENTER}`)
    await w.expect('Start one now')
    w.type(ENTER)
    await w.expect('Node synced', 120_000)
    await w.expect('Send it?')
    w.type(ENTER) // activate: default Yes
    const code = await w.exited
    assert.equal(code, 0, w.screen())
    assert.match(w.screen(), /is Active from epoch \d+/)
    assert.equal((await status()).status, 'Active')
    assert.deepEqual(
      journal().entries.map((e) => [e.step, e.outcome]),
      [
        ['stake', 'success'],
        ['activate', 'success'],
      ],
    )
  })

  it('third run: an Active validator is told so before any question, and nothing is asked', async () => {
    const w = spawnPty(['stake', '--datadir', datadir, '--chain', 'devnet'], t.env)
    await w.expect('is already Active')
    assert.equal(await w.exited, 0, w.screen())
    assert.doesNotMatch(w.screen(), /Who signs|How far/)
  })

  it('exit wizard: asks how far, confirms each irreversible step (default No), and shows what was paid', async () => {
    const w = spawnPty(['exit', '--datadir', datadir, '--chain', 'devnet'], t.env)
    await w.expect('Who signs the transactions?')
    w.type(ENTER)
    await w.expect('Private key of the validator address')
    w.type(`${t.key(3)}${ENTER}`)
    await w.expect('How far should tnv take the exit now?')
    w.type(ENTER) // through unstake
    await w.expect('This cannot be undone. Send it?')
    w.type(`y${ENTER}`)
    await w.expect('PendingExit from epoch')
    await w.expect('This cannot be undone. Send it?', 180_000)
    w.type(`y${ENTER}`)
    const code = await w.exited
    assert.equal(code, 0, w.screen())
    assert.match(w.screen(), new RegExp(`Paid to ${t.address(3)}`))
    assert.match(w.screen(), /stake\s+1,000,000 TEL/)
    assert.equal((await status()).retired, true)
    // paid out and retired: the status no longer shows a stake it does not hold
    const human = await t.tnv(['validator', 'status', '--address', t.address(3)])
    assert.equal(human.code, 0, human.stderr)
    assert.match(human.stdout, /\nstake\s+none: paid out at unstake/)
    assert.doesNotMatch(human.stdout, /\nstake\s+1,000,000 TEL/)
  })
})
