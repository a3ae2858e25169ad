/**
 * When activation takes effect (spec: "eligible … from the next epoch boundary"): the boundary
 * after the epoch the activate() transaction is mined in. The preview says so (the epoch it
 * names holds only if the transaction is mined in the current epoch), and the result reports the
 * epoch the registry recorded, also when an epoch turned between the preview and the block.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { activate } from '../../src/lib/registry/activate.js'
import { readValidatorStatus } from '../../src/lib/registry/read-validator-status.js'
import { stake } from '../../src/lib/registry/stake.js'
import { localSigner, newValidatorKeys, stakeMaterial, startTestChain, type TestChain } from './devnet-fixture.js'

describe('activate: the epoch it takes effect in', { timeout: 180_000 }, () => {
  let t: TestChain
  before(async () => {
    t = await startTestChain('next', { accounts: 1 })
  })
  after(async () => {
    await t?.stop()
  })

  it('an epoch turning between the preview and the block: the result is the recorded epoch, not the preview’s', async () => {
    const a = localSigner((t.accounts[0] as { privateKey: `0x${string}` }).privateKey)
    await t.mint(a.address)
    await stake(t.ctx(), { signer: a, ...stakeMaterial(t, newValidatorKeys(), a.address) })
    const epoch = (await readValidatorStatus(t.ctx(), { address: a.address })).currentEpoch
    let title = ''
    const r = await activate(t.ctx(), {
      signer: a,
      confirm: async (plan) => {
        title = plan.title
        // the operator reads the plan while the epoch ends
        await t.engine.closeEpoch()
        return true
      },
    })
    assert.equal(r.outcome, 'sent')
    assert.match(
      title,
      new RegExp(
        `Active from the epoch after the one it is mined in: epoch ${epoch + 1} if mined in the current epoch ${epoch}`,
      ),
    )
    const s = await readValidatorStatus(t.ctx(), { address: a.address })
    assert.equal(s.status, 'PendingActivation')
    assert.equal(r.activeFromEpoch, epoch + 2)
    assert.equal(s.activationEpoch, r.activeFromEpoch)
    // the rerun says the same
    assert.equal((await activate(t.ctx(), { signer: a })).activeFromEpoch, epoch + 2)
    await t.engine.closeEpoch()
    const active = await readValidatorStatus(t.ctx(), { address: a.address })
    assert.equal(active.status, 'Active')
    assert.equal(active.currentEpoch, r.activeFromEpoch)
  })
})
