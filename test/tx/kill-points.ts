/**
 * Kill tests: every transaction command killed (SIGKILL, as a power cut: no finally, no exit
 * handler) at every step of the step runner, then run again; judged by the chain: the sender has
 * exactly one transaction for the step (nonce count), and the registry shows the step done. The
 * points (TNV_KILL_AT, src/lib/fs/atomic.ts `killPoint`): after the checks, after the
 * simulation, after the confirmation, after signing, after journaling, after the send returned,
 * after the receipt, after the outcome was recorded. The kill between the send and its answer is
 * test/tx/double-send.test.ts.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Address } from 'viem'
import { DEVNET_CHAIN_ID, REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { generateNodeKeys } from '../../src/lib/keys/generate-node-keys.js'
import { activate } from '../../src/lib/registry/activate.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { stake } from '../../src/lib/registry/stake.js'
import { runCli } from '../helpers/cli.js'
import {
  localSigner,
  newValidatorKeys,
  stakeMaterial,
  startTestChain,
  type TestAccount,
  type TestChain,
} from '../registry/devnet-fixture.js'
import { spawnCli } from './helpers.js'

/**
 * The points before anything leaves the process send nothing, so they are taken in a row on one
 * state (a kill at each, one after the other, then a clean run): every point is killed, and
 * repeated kills are covered too. From the journal on, each point gets a state of its own.
 */
export const KILL_GROUPS: readonly (readonly string[])[] = [
  ['tx:checked', 'tx:simulated', 'tx:confirmed', 'tx:signed'],
  ['tx:journaled'],
  ['tx:sent'],
  ['tx:mined'],
  ['tx:recorded'],
]

/** Registry status codes (registry-next.md): Staked 1, PendingActivation 2, Active 3, PendingExit 4. */
const STATUS = { Staked: 1, PendingActivation: 2, Active: 3, PendingExit: 4 } as const

type Case = {
  name: string
  /** Makes the state the command needs; returns the command, its signer and what to check. */
  setup: (
    t: TestChain,
    a: TestAccount,
    b: TestAccount,
    point: string,
  ) => Promise<{
    args: string[]
    key: `0x${string}`
    sender: Address
    /** The sender's transactions once the step is done. */
    expectedTxs: number
    check: () => Promise<void>
  }>
}

const chainArgs = (t: TestChain) => ['--rpc-url', t.url, '--chain-id', String(DEVNET_CHAIN_ID), '--yes']

const statusOf = async (t: TestChain, a: Address) =>
  (
    (await t.engine.client.readContract({
      address: REGISTRY_ADDRESS,
      abi: registryAbis.next,
      functionName: 'getValidator',
      args: [a],
    } as never)) as { currentStatus: number }
  ).currentStatus

/** Staked through the library (no journal): the state the command starts from. */
async function libraryStake(t: TestChain, a: TestAccount): Promise<void> {
  await t.mint(a.address)
  const signer = localSigner(a.privateKey)
  const r = await stake(t.ctx(), {
    signer,
    ...stakeMaterial(t, newValidatorKeys(), a.address),
    confirm: async () => true,
  })
  assert.equal(r.outcome, 'sent')
}

/** Validator keys in a data directory (unencrypted, made in process: the command under test is what runs as a CLI). */
async function keysFor(t: TestChain, a: TestAccount, name: string): Promise<string> {
  const dir = join(t.datadir, name)
  await generateNodeKeys({ datadir: dir, address: a.address, passphrase: async () => undefined })
  return dir
}

export const CASES: Case[] = [
  {
    name: 'stake',
    setup: async (t, a, _b, point) => {
      await t.mint(a.address)
      const dir = await keysFor(t, a, `stake-${point}`)
      return {
        args: ['stake', '--datadir', dir, ...chainArgs(t)],
        key: a.privateKey,
        sender: a.address,
        expectedTxs: 1,
        check: async () => assert.equal(await statusOf(t, a.address), STATUS.Staked),
      }
    },
  },
  {
    name: 'activate',
    setup: async (t, a) => {
      await libraryStake(t, a)
      return {
        args: ['activate', '--skip-node-check', ...chainArgs(t)],
        key: a.privateKey,
        sender: a.address,
        expectedTxs: 2,
        check: async () => assert.equal(await statusOf(t, a.address), STATUS.PendingActivation),
      }
    },
  },
  {
    name: 'exit (beginExit)',
    setup: async (t, a) => {
      await libraryStake(t, a)
      const r = await activate(t.ctx(), { signer: localSigner(a.privateKey), confirm: async () => true })
      assert.equal(r.outcome, 'sent')
      await t.engine.closeEpoch()
      assert.equal(await statusOf(t, a.address), STATUS.Active)
      return {
        args: ['exit', ...chainArgs(t), '--datadir', join(t.datadir, 'none')],
        key: a.privateKey,
        sender: a.address,
        expectedTxs: 3,
        check: async () => assert.equal(await statusOf(t, a.address), STATUS.PendingExit),
      }
    },
  },
  {
    name: 'unstake',
    setup: async (t, a) => {
      await libraryStake(t, a)
      return {
        args: ['unstake', ...chainArgs(t)],
        key: a.privateKey,
        sender: a.address,
        expectedTxs: 2,
        check: async () => {
          const retired = await t.engine.client.readContract({
            address: REGISTRY_ADDRESS,
            abi: registryAbis.next,
            functionName: 'isRetired',
            args: [a.address],
          } as never)
          assert.equal(retired, true)
        },
      }
    },
  },
  {
    name: 'delegation stake',
    setup: async (t, a, b, point) => {
      await t.mint(a.address)
      const dir = await keysFor(t, a, `delegated-${point}`)
      const file = join(t.datadir, `delegation-${point}.json`)
      const signed = await runCli(
        ['delegation', 'sign', '--delegator', b.address, '--datadir', dir, '--out', file, '--rpc-url', t.url],
        { env: { TN_PRIVATE_KEY: a.privateKey, TN_DEVNET_RELAXED: '1' } },
      )
      assert.equal(signed.code, 0, signed.stderr)
      return {
        args: ['delegation', 'stake', '--signature', file, ...chainArgs(t)],
        key: b.privateKey,
        sender: b.address,
        expectedTxs: 1,
        check: async () => assert.equal(await statusOf(t, a.address), STATUS.Staked),
      }
    },
  },
  {
    name: 'delegation revoke (increaseNonce)',
    setup: async (t, a, _b, point) => {
      await t.mint(a.address)
      return {
        args: ['delegation', 'revoke', ...chainArgs(t)],
        key: a.privateKey,
        sender: a.address,
        // each call revokes once more: a rerun after a kill must not add a second one, unless the
        // killed run had finished (its outcome recorded): the rerun is then a new revoke
        expectedTxs: point === 'tx:recorded' ? 2 : 1,
        check: async () => {},
      }
    },
  },
]

/** One describe per case list, so a file can take a share of the cases (test workers run files in parallel). */
export function killPointSuite(title: string, cases: Case[]): void {
  describe(title, { timeout: 600_000 }, () => {
    let t: TestChain
    let next = 0
    const account = () => t.accounts[next++] as TestAccount
    before(async () => {
      t = await startTestChain('next', { accounts: cases.length * KILL_GROUPS.length * 2 })
    })
    after(async () => {
      await t?.stop()
    })
    for (const c of cases)
      for (const group of KILL_GROUPS)
        it(`${c.name}: killed at ${group.join(', then at ')}, then run again: one transaction`, async () => {
          const s = await c.setup(t, account(), account(), group.join('+'))
          for (const point of group) {
            const killed = await spawnCli(s.args, { TN_PRIVATE_KEY: s.key, TNV_KILL_AT: point, TN_DEVNET_RELAXED: '1' })
              .result
            assert.equal(killed.signal, 'SIGKILL', `not killed at ${point}: ${killed.code}\n${killed.stderr}`)
          }
          const again = await spawnCli(s.args, { TN_PRIVATE_KEY: s.key, TN_DEVNET_RELAXED: '1' }).result
          assert.equal(again.code, 0, `${again.stdout}\n${again.stderr}`)
          // transactions per nonce: every transaction of the sender took one nonce; none is pending
          const [mined, pending] = await Promise.all(
            (['latest', 'pending'] as const).map((blockTag) =>
              t.engine.client.getTransactionCount({ address: s.sender, blockTag }),
            ),
          )
          assert.equal(mined, s.expectedTxs, `${s.sender} sent ${mined} transactions\n${again.stderr}`)
          assert.equal(pending, s.expectedTxs, 'nothing else is pending')
          await s.check()
        })
  })
}
