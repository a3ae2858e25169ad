/**
 * The reference node's tn_* methods over the real registry code of both generations, with the
 * shapes of node.md §5 (checked field by field), read through the generation's ABI: statuses by
 * name ("Any" = all, "Undefined" reverts), the simulated consensus header whose reputation scores
 * are exactly what applyIncentives credits at the boundary, tn_nodeMode from the node's keys.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { type Address, type Hex, hexToBytes } from 'viem'
import { authorityId } from '../../src/devnet/chain/consensus.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import type { DevnetChain } from '../../src/devnet/chain/types.js'
import { type Gateway, startGateway } from '../../src/devnet/node/gateway.js'
import type { NodeIdentity } from '../../src/devnet/node/tn-methods.js'
import { resolveRpcPlan } from '../../src/lib/rpc/resolve.js'
import { engineClient } from '../devnet-chain/helpers.js'
import { tempDir } from '../helpers/cli.js'
import { call, freePorts, httpRpc } from './helpers.js'

/** Fact sheets: registry.md §1 (adiri), registry-next.md §2 (next). */
const FACTS = {
  adiri: { committee: 5, nextCommitteeSize: 5, epochDuration: 21600 },
  next: { committee: 4, nextCommitteeSize: 4, epochDuration: 86400 },
} as const

for (const generation of ['next', 'adiri'] as const) {
  describe(`tn_* over the ${generation} registry`, { timeout: 120_000 }, () => {
    const tmp = tempDir(`tnv-tn-${generation}-`)
    let chain: DevnetChain
    const gateways: Gateway[] = []
    let url: string

    async function gateway(identity: NodeIdentity | null): Promise<string> {
      const [port] = await freePorts(1)
      const plan = resolveRpcPlan(['--http', '--http.port', String(port), '--http.api', 'eth,tn', '--ipcdisable'])
      const g = await startGateway({
        plan,
        engine: { ipcPath: chain.engineIpcPath },
        chainId: chain.chainId,
        registry: chain.registry,
        issuance: chain.issuance,
        jwtSecretHex: null,
        maxSubscriptions: 4,
        clientVersion: 'tnv-reference-node/test',
        tn: { generation, identity, genesisFile: `${tmp.dir}/anvil-genesis.json` },
      })
      gateways.push(g)
      return g.endpoints[0]?.http as string
    }

    before(async () => {
      chain = await startDevnetChain({
        datadir: tmp.dir,
        source: { kind: 'genesis', genesis: generation },
        blockTime: 0,
        protocolLoop: false,
      })
      url = await gateway(null)
    })
    after(async () => {
      for (const g of gateways) await g.close()
      await chain?.stop()
      tmp.cleanup()
    })

    it('registry views: epoch info, validators by status name, committee, keys, rewards, sizes', async () => {
      const info = (await call(url, 'tn_getCurrentEpochInfo')) as Record<string, unknown>
      assert.deepEqual(Object.keys(info), [
        'committee',
        'epochIssuance',
        'blockHeight',
        'epochId',
        'epochDuration',
        'stakeVersion',
      ])
      assert.equal(info.epochDuration, FACTS[generation].epochDuration)
      assert.equal(info.epochIssuance, `0x${(25_806n * 10n ** 18n).toString(16)}`)
      const committee = info.committee as Address[]
      assert.equal(committee.length, FACTS[generation].committee)
      assert.equal(await call(url, 'tn_getCurrentEpoch'), 0)
      assert.equal(await call(url, 'tn_getNextCommitteeSize'), FACTS[generation].nextCommitteeSize)
      assert.equal(await call(url, 'tn_getCurrentStakeVersion'), 0)
      assert.equal(await call(url, 'tn_undistributedIssuance'), '0x0')

      const active = (await call(url, 'tn_getValidators', ['Active'])) as Record<string, unknown>[]
      assert.equal(active.length, committee.length)
      assert.deepEqual(Object.keys(active[0] ?? {}), [
        'validatorAddress',
        'activationEpoch',
        'exitEpoch',
        'currentStatus',
        'isRetired',
        'stakeVersion',
        'region',
      ])
      assert.equal(active[0]?.currentStatus, 'Active')
      assert.equal(((await call(url, 'tn_getValidators', ['Any'])) as unknown[]).length, committee.length)
      assert.equal(((await call(url, 'tn_getValidators', ['Staked'])) as unknown[]).length, 0)
      const undefinedStatus = await httpRpc(url, 'tn_getValidators', ['Undefined'])
      assert.match(undefinedStatus.error?.message ?? '', /reverted: InvalidStatus\(0\)/)
      assert.equal((await httpRpc(url, 'tn_getValidators', ['active'])).error?.code, -32602, 'names are exact')
      const members = (await call(url, 'tn_getCommitteeValidators', [0])) as { validatorAddress: string }[]
      assert.deepEqual(
        members.map((m) => m.validatorAddress),
        committee,
      )
      const keys = (await call(url, 'tn_getCommitteeBlsPubkeys', [0])) as Hex[]
      assert.equal(keys.length, committee.length)
      assert.equal(await call(url, 'tn_getBlsPubkey', [committee[0]]), keys[0])
      assert.equal(await call(url, 'tn_isValidator', [keys[0]]), true)
      assert.equal(await call(url, 'tn_isDelegated', [committee[0]]), false)
      assert.equal(await call(url, 'tn_isRetired', [committee[0]]), false)
      assert.equal(await call(url, 'tn_getRewards', [committee[0]]), '0x0')
      assert.deepEqual(await call(url, 'tn_getBalanceBreakdown', [committee[0]]), {
        balance: `0x${(10n ** 24n).toString(16)}`,
        stakeAmount: `0x${(10n ** 24n).toString(16)}`,
        rewards: '0x0',
      })
      assert.match((await httpRpc(url, 'tn_getEpochInfo', [3])).error?.message ?? '', /InvalidEpoch\(3\)/)
      assert.match(
        (await httpRpc(url, 'tn_getValidator', ['0x000000000000000000000000000000000000dEaD'])).error?.message ?? '',
        /InvalidTokenId/,
      )
      assert.equal(((await call(url, 'tn_genesis')) as { config: { chainId: number } }).config.chainId, 911329)
    })

    it('tn_delegationDigest is the registry’s own delegationDigest', async () => {
      const committee = ((await call(url, 'tn_getCurrentEpochInfo')) as { committee: Address[] }).committee
      const key = (await call(url, 'tn_getBlsPubkey', [committee[0]])) as Hex
      const delegator = '0x1234567890123456789012345678901234567890'
      const digest = await call(url, 'tn_delegationDigest', [key, committee[0], delegator, 1_900_000_000])
      const { registryAbis } = await import('../../src/lib/registry/generations/detect.js')
      const client = engineClient(chain)
      const expected = await client.readContract({
        address: chain.registry,
        abi: registryAbis[generation],
        functionName: 'delegationDigest',
        args: (generation === 'next'
          ? [key, committee[0], delegator, 1_900_000_000n]
          : [key, committee[0], delegator]) as never,
      } as never)
      assert.equal(digest, expected)
    })

    it('tn_latestConsensusHeader (and its alias): leader, commit timestamp, and scores = what applyIncentives credits', async () => {
      await chain.mine(7)
      const header = (await call(url, 'tn_latestConsensusHeader')) as {
        parent_hash: Hex
        number: number
        extra: Hex
        sub_dag: {
          leader: { author: string; execution_address: Address } | null
          commit_timestamp: number
          reputation_score: { scores_per_authority: Record<string, number>; final_of_schedule: boolean }
        }
      }
      assert.deepEqual(Object.keys(header).sort(), ['extra', 'number', 'parent_hash', 'sub_dag'])
      assert.deepEqual(await call(url, 'tn_latestHeader'), header, 'the deprecated alias answers the same')
      const client = engineClient(chain)
      const latest = await client.getBlock()
      assert.equal(header.number, Number(latest.number))
      assert.equal(header.sub_dag.commit_timestamp, Number(latest.timestamp))
      const scores = header.sub_dag.reputation_score.scores_per_authority
      assert.equal(
        Object.values(scores).reduce((a, b) => a + b, 0),
        Number(latest.number),
        'one commit per block since genesis',
      )
      assert.ok(header.sub_dag.leader && scores[header.sub_dag.leader.author] !== undefined)

      // the boundary credits exactly the header counts the node reports for the closing block
      const r = await chain.advanceEpoch()
      const closing = (await call(url, 'tn_latestConsensusHeader')) as typeof header
      assert.equal(closing.number, Number(r.blockNumber))
      const byAddress: Record<string, number> = {}
      for (const i of r.incentives) {
        const key = (await call(url, 'tn_getBlsPubkey', [i.validatorAddress])) as Hex
        byAddress[authorityId(hexToBytes(key))] = Number(i.consensusHeaderCount)
      }
      assert.deepEqual(closing.sub_dag.reputation_score.scores_per_authority, byAddress)
    })

    it('tn_info and tn_nodeMode speak for the node’s keys: Observer without, CvvActive for a committee seat', async () => {
      const observer = (await call(url, 'tn_info')) as Record<string, unknown>
      assert.deepEqual(Object.keys(observer), [
        'chain_id',
        'version',
        'name',
        'bls_public_key',
        'authority_id',
        'execution_address',
        'primary_network_key',
        'worker_network_key',
        'primary_external_address',
        'worker_external_address',
      ])
      assert.equal(observer.chain_id, 911329)
      assert.equal(await call(url, 'tn_nodeMode'), 'Observer')

      const committee = ((await call(url, 'tn_getCurrentEpochInfo')) as { committee: Address[] }).committee
      const seat = committee[0] as Address
      const key = (await call(url, 'tn_getBlsPubkey', [seat])) as Hex
      const identity: NodeIdentity = {
        name: 'validator-under-test',
        blsPublicKey: key,
        executionAddress: seat,
        primaryNetworkKey: 'primary-key',
        workerNetworkKey: 'worker-key',
        primaryExternalAddress: '/ip4/127.0.0.1/udp/49590/quic-v1',
        workerExternalAddress: '/ip4/127.0.0.1/udp/49594/quic-v1',
      }
      const validatorNode = await gateway(identity)
      assert.equal(await call(validatorNode, 'tn_nodeMode'), 'CvvActive')
      const info = (await call(validatorNode, 'tn_info')) as Record<string, unknown>
      assert.equal(info.execution_address, seat)
      assert.equal(info.authority_id, authorityId(hexToBytes(key)))
      const otherKey = `0x${'a'.repeat(192)}` as Hex
      assert.equal(await call(await gateway({ ...identity, blsPublicKey: otherKey }), 'tn_nodeMode'), 'Observer')
      const outsider = '0x000000000000000000000000000000000000bEEF'
      assert.equal(await call(await gateway({ ...identity, executionAddress: outsider }), 'tn_nodeMode'), 'Observer')
    })
  })
}
