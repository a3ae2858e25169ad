/**
 * The exit wizard's reward-shortfall question on a pseudo-terminal (issue 35, item 8), on the
 * real next-generation registry: a validator owed rewards by an empty Issuance pool. How to be
 * paid in full is said BEFORE the question, and declining it exits 30 (a declined prompt,
 * docs/ci.md) with nothing sent. The devnet's own wording (`tnv devnet governance fund N`) is
 * checked on the error that carries it.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parseEther } from 'viem'
import { ExitCode } from '../../src/lib/errors.js'
import { activate } from '../../src/lib/registry/activate.js'
import { beginExit } from '../../src/lib/registry/begin-exit.js'
import { RewardShortfallError } from '../../src/lib/registry/errors.js'
import { readValidatorStatus } from '../../src/lib/registry/read-validator-status.js'
import { stake } from '../../src/lib/registry/stake.js'
import {
  localSigner,
  newValidatorKeys,
  stakeMaterial,
  startTestChain,
  type TestChain,
} from '../registry/devnet-fixture.js'
import { ENTER, PYTHON, spawnPty } from './pty.js'

const skip = PYTHON ? false : 'python3 is not installed: the pseudo-terminal helper needs its pty module'

describe('the exit wizard when the pool cannot cover the rewards', { skip, timeout: 300_000 }, () => {
  let t: TestChain
  before(async () => {
    t = await startTestChain('next')
  })
  after(async () => {
    await t.stop()
  })

  it('says how to be paid in full before asking to forfeit; No exits 30 and sends nothing', async () => {
    const a = localSigner((t.accounts[0] as { privateKey: `0x${string}` }).privateKey)
    await t.mint(a.address)
    assert.equal(
      (await stake(t.ctx(), { signer: a, ...stakeMaterial(t, newValidatorKeys(), a.address) })).outcome,
      'sent',
    )
    await activate(t.ctx(), { signer: a })
    await t.engine.closeEpoch()
    // rewards credited at a boundary; the pool (empty at genesis) cannot pay them
    await t.engine.closeEpoch({ headerCounts: [{ validatorAddress: a.address, consensusHeaderCount: 10n }] })
    await beginExit(t.ctx(), { signer: a })
    for (let i = 0; i < 8 && !(await readValidatorStatus(t.ctx(), { address: a.address })).canUnstake; i++)
      await t.engine.closeEpoch()
    const before = await readValidatorStatus(t.ctx(), { address: a.address })
    assert.equal(before.canUnstake, true)
    assert.ok(BigInt(before.rewards) > 0n)

    const w = spawnPty(['exit', '--rpc-url', t.url, '--chain-id', String(t.engine.chainId)], {
      TN_PRIVATE_KEY: (t.accounts[0] as { privateKey: string }).privateKey,
      TN_CHAIN: undefined,
      TN_RPC_URL: undefined,
    })
    try {
      await w.expect('How far should tnv take the exit now?')
      w.type(ENTER) // through unstake
      // the rehearsal chain id: the devnet's way to fill the pool, with the TEL missing
      await w.expect('On the devnet, `tnv devnet governance fund ')
      await w.expect('nothing is forfeited')
      await w.expect('Forfeit the rewards the pool cannot cover')
      w.type(ENTER) // default No
      assert.equal(await w.exited, ExitCode.Aborted, w.screen())
    } finally {
      w.child.kill('SIGKILL')
    }
    const screen = w.screen()
    assert.ok(
      screen.indexOf('governance fund') < screen.indexOf('Forfeit the rewards'),
      'the way to be paid in full comes before the question',
    )
    assert.match(screen, /Declined: .*Nothing was sent\./s)
    assert.equal((await readValidatorStatus(t.ctx(), { address: a.address })).status, 'Exited')
  })

  it('on the devnet the error names `tnv devnet governance fund` with the TEL missing', () => {
    const e = new RewardShortfallError({ rewards: parseEther('2.5'), pool: parseEther('1') }, {}, { devnet: true })
    assert.equal(e.devnetFund, 'On the devnet, `tnv devnet governance fund 2` fills the pool (REHEARSAL-ONLY).')
    assert.equal(new RewardShortfallError(null).devnetFund, null)
  })
})
