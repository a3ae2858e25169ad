/** Found on the newcomer's journey (issue 16): on the devnet, an empty reward pool names the command that fills it. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { RewardPoolShortError, RewardShortfallError } from '../../src/lib/registry/errors.js'

const TEL = 10n ** 18n

describe('reward pool errors on the devnet', () => {
  it('unstake: the shortfall in whole TEL, rounded up, as a ready `tnv devnet governance fund` line', () => {
    const amounts = { rewards: 25_805n * TEL + TEL / 2n, pool: 0n }
    const devnet = new RewardShortfallError(amounts, {}, { devnet: true })
    assert.match(devnet.fix ?? '', /`tnv devnet governance fund 25806` fills the pool \(REHEARSAL-ONLY\)\.$/)
    const adiri = new RewardShortfallError(amounts, {}, { canForfeit: false, devnet: true })
    assert.match(adiri.fix ?? '', /fund 25806/)
    // on a real network no such line: only governance funds the pool
    assert.doesNotMatch(new RewardShortfallError(amounts).fix ?? '', /devnet/)
  })

  it('claims: the same line, for what the pool lacks', () => {
    const e = new RewardPoolShortError({ rewards: 100n * TEL, pool: 40n * TEL }, {}, { devnet: true })
    assert.match(e.fix ?? '', /`tnv devnet governance fund 60`/)
    assert.doesNotMatch(new RewardPoolShortError({ rewards: 100n * TEL, pool: 40n * TEL }).fix ?? '', /devnet/)
  })
})
