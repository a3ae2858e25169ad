/**
 * Several validators living through many epochs: joins, activations and exits on a schedule,
 * with the registry's committees, statuses and rewards checked against the documented rules
 * after every epoch boundary.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Address } from 'viem'
import { devnetGenesisValidators } from '../../src/devnet/chain/accounts.js'
import type { DevnetAccount } from '../../src/devnet/chain/types.js'
import {
  currentEpoch,
  epochInfo,
  rewardsOf,
  STAKE,
  Status,
  stakeArgs,
  startTestDevnet,
  type TestDevnet,
  validatorOf,
} from './helpers.js'

let dn: TestDevnet
const EPOCHS = 30
/** Every validator's account (genesis ones from the public devnet secrets). */
const accounts = new Map<Address, DevnetAccount>()

function must<T>(value: T | undefined, what: string): T {
  assert.ok(value !== undefined, `missing ${what}`)
  return value
}

const byAddress = (a: Address, b: Address) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)

function assertSortedUnique(committee: readonly Address[], label: string) {
  for (let i = 1; i < committee.length; i++) {
    assert.ok(
      BigInt(committee[i - 1] as Address) < BigInt(committee[i] as Address),
      `${label}: committee not strictly ascending`,
    )
  }
}

describe('registry over many epochs', () => {
  before(async () => {
    dn = await startTestDevnet({ protocolLoop: false, epochBlocks: 4 })
  })
  after(async () => {
    await dn?.close()
  })

  it(`keeps committees, statuses and rewards consistent over ${EPOCHS} epochs with joins and exits`, async () => {
    const joiners: DevnetAccount[] = []
    for (let i = 0; i < 6; i++) joiners.push(await dn.newWhitelisted())
    const everyone: Address[] = [...dn.chain.genesisValidators, ...joiners.map((j) => j.address)]
    for (const j of joiners) accounts.set(j.address, j)
    for (const g of devnetGenesisValidators()) accounts.set(g.address, g)
    // schedule: who does what at which epoch
    const stakeAt = new Map<number, number[]>([
      [0, [0, 1]],
      [2, [2]],
      [5, [3, 4]],
      [9, [5]],
    ])
    const activateAt = new Map<number, number[]>([
      [1, [0, 1]],
      [3, [2]],
      [6, [3]],
      [7, [4]],
      [10, [5]],
    ])
    const joiner = (i: number) => must(joiners[i], `joiner ${i}`)
    const accountOf = (a: Address) => must(accounts.get(a), `account of ${a}`)
    const exitAt = new Map<number, Address[]>([
      [8, [joiner(0).address]],
      [12, [must(dn.chain.genesisValidators[1], 'genesis validator 1'), joiner(2).address]],
      [20, [joiner(3).address]],
    ])
    const unstaked = new Set<Address>()

    for (let step = 0; step < EPOCHS; step++) {
      const epoch = await currentEpoch(dn)
      for (const i of stakeAt.get(step) ?? [])
        await dn.registry(joiner(i), 'stake', stakeArgs(joiner(i).address), STAKE)
      for (const i of activateAt.get(step) ?? []) await dn.registry(joiner(i), 'activate', [])
      for (const a of exitAt.get(step) ?? []) await dn.registry(accountOf(a), 'beginExit', [])
      // unstake exited validators as soon as allowed
      for (const a of everyone) {
        const v = await validatorOf(dn, a)
        if (v.currentStatus === Status.Exited && !v.isRetired && epoch >= v.exitEpoch + 1) {
          await dn.registry(accountOf(a), 'unstake', [a, false])
          unstaked.add(a)
        }
      }

      const concluded = await epochInfo(dn)
      const before = new Map(await Promise.all(everyone.map(async (a) => [a, await rewardsOf(dn, a)] as const)))
      const dustBefore = (await dn.read('undistributedIssuance')) as bigint
      const statusBefore = new Map(
        await Promise.all(everyone.map(async (a) => [a, (await validatorOf(dn, a)).currentStatus] as const)),
      )

      const next = await dn.chain.advanceEpoch()
      assert.equal(next, epoch + 1)

      // rewards: the concluded committee shares the issuance (plus carried dust) equally
      let credited = 0n
      for (const a of everyone) {
        const delta = (await rewardsOf(dn, a)) - (before.get(a) ?? 0n)
        if (unstaked.has(a)) continue
        if (concluded.committee.includes(a)) assert.ok(delta > 0n, `epoch ${epoch}: ${a} served and earned`)
        else assert.equal(delta, 0n, `epoch ${epoch}: ${a} did not serve`)
        credited += delta
      }
      const dustAfter = (await dn.read('undistributedIssuance')) as bigint
      assert.equal(
        credited + dustAfter,
        concluded.epochIssuance + dustBefore,
        `epoch ${epoch}: issuance fully accounted`,
      )

      // statuses and committees
      const committees = await Promise.all([0, 1, 2].map((k) => epochInfo(dn, next + k)))
      committees.forEach((c, k) => {
        assert.ok(c.committee.length > 0, `committee of epoch ${next + k} is empty`)
        assertSortedUnique(c.committee, `epoch ${next + k}`)
      })
      const active: Address[] = []
      for (const a of everyone) {
        const v = await validatorOf(dn, a)
        const was = statusBefore.get(a)
        if (was === Status.PendingActivation) {
          assert.equal(v.currentStatus, Status.Active, `${a} activates at the boundary`)
          assert.equal(v.activationEpoch, next)
        }
        if (was === Status.PendingExit) {
          const seated = committees.some((c) => c.committee.includes(a))
          assert.equal(v.currentStatus, seated ? Status.PendingExit : Status.Exited, `${a} at epoch ${next}`)
          if (!seated) assert.equal(v.exitEpoch, next)
        }
        if (v.currentStatus === Status.Active && !v.isRetired) active.push(a)
      }
      assert.deepEqual(
        committees[2]?.committee,
        [...active].sort(byAddress),
        `committee of epoch ${next + 2} = Active set`,
      )
    }
    assert.ok(unstaked.size >= 3, `exits completed and unstaked: ${unstaked.size}`)
  })

  it('committees are never empty: with no Active validator left, the last committee serves on and nobody exits', async () => {
    const actives = ((await dn.read('getValidators', [Status.Active])) as { validatorAddress: Address }[]).map(
      (v) => v.validatorAddress,
    )
    assert.ok(actives.length > 0)
    for (const a of actives) await dn.registry(accounts.get(a) as DevnetAccount, 'beginExit', [])
    const lastCommittee = (await epochInfo(dn, (await currentEpoch(dn)) + 2)).committee
    for (let i = 0; i < 5; i++) await dn.chain.advanceEpoch()
    const epoch = await currentEpoch(dn)
    for (const k of [0, 1, 2])
      assert.deepEqual((await epochInfo(dn, epoch + k)).committee, lastCommittee, `epoch ${epoch + k}`)
    for (const a of actives)
      assert.equal((await validatorOf(dn, a)).currentStatus, Status.PendingExit, `${a} keeps serving`)
  })
})
