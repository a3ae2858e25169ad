/**
 * The lifecycle through tnv's OWN commands on both shipped genesis files, judged by chain state
 * (read through the devnet node's tn_* methods): the rehearsal's own commands (devnet start,
 * governance mint routed to the rehearsal mint, advance-epoch) and the registry client's
 * (validator status, stake, activate, exit, unstake, rewards claim, delegation sign and stake).
 * The steps run in order, each on the state the previous one left.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Address, Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { engineCallOnce } from '../../src/devnet/chain/engine-rpc.js'
import { call, freePorts } from '../devnet-node/helpers.js'
import { type CliResult, generateKeysArgs, parseJson, runCli, tempDir } from '../helpers/cli.js'

for (const generation of ['next', 'adiri'] as const) {
  describe(`the lifecycle through tnv's commands on the ${generation} genesis`, { timeout: 300_000 }, () => {
    const tmp = tempDir(`tnv-commands-${generation}-`)
    const devnetDir = join(tmp.dir, 'devnet')
    const keys = join(tmp.dir, 'validator')
    let rpcUrl: string
    let account: { address: Address; privateKey: Hex }
    let delegator: { address: Address; privateKey: Hex }
    // the devnet's safety steps relaxed explicitly: these tests rehearse the commands, not the backup
    const env = () => ({
      TNV_DEVNET_DIR: devnetDir,
      TN_CHAIN: 'devnet',
      TN_PRIVATE_KEY: account.privateKey,
      TN_DEVNET_RELAXED: '1',
    })
    const tnv = (args: string[], extra: Record<string, string | undefined> = {}): Promise<CliResult> =>
      runCli(args, { env: { ...env(), ...extra }, timeoutMs: 90_000 })
    const status = async (a: Address = account.address) =>
      ((await call(rpcUrl, 'tn_getValidator', [a])) as { currentStatus: string; exitEpoch: number }).currentStatus
    const epoch = async () => (await call(rpcUrl, 'tn_getCurrentEpoch')) as number
    const advance = async () => assert.equal((await tnv(['devnet', 'advance-epoch', '--datadir', devnetDir])).code, 0)

    before(async () => {
      const [port] = await freePorts(1)
      const started = await runCli(
        [
          'devnet',
          'start',
          '--detach',
          '--json',
          '--datadir',
          devnetDir,
          '--genesis',
          generation,
          '--block-time',
          '0',
          '--epoch-seconds',
          '3600',
          '--',
          '--http',
          '--http.port',
          String(port),
          '--ipcdisable',
        ],
        { timeoutMs: 120_000 },
      )
      assert.equal(started.code, 0, started.stderr)
      const info = parseJson<{ rpcUrl: string; accounts: { address: Address; privateKey: Hex }[] }>(started)
      rpcUrl = info.rpcUrl
      account = info.accounts[0] as (typeof info.accounts)[number]
      delegator = info.accounts[1] as (typeof info.accounts)[number]
      const gen = await tnv(generateKeysArgs(keys, account.address))
      assert.equal(gen.code, 0, gen.stderr)
    })
    after(async () => {
      await runCli(['devnet', 'stop', '--datadir', devnetDir])
      tmp.cleanup()
    })

    it('whitelist: `tnv governance mint` on the devnet is the rehearsal mint', async () => {
      const r = await tnv(['governance', 'mint', account.address, '--json'], { TN_PRIVATE_KEY: undefined })
      assert.equal(r.code, 0, `${r.stdout}${r.stderr}`)
      assert.equal(parseJson<{ rehearsalOnly: boolean }>(r).rehearsalOnly, true)
      assert.equal(await status(), 'Undefined', 'minted, not staked: the all-zero record')
    })

    it('validator status reads the real registry', async () => {
      const r = await tnv(['validator', 'status', '--address', account.address, '--json'])
      assert.equal(r.code, 0, `${r.stdout}${r.stderr}`)
      assert.equal(parseJson<{ whitelisted: boolean }>(r).whitelisted, true)
    })

    it('stake from node-info.yaml', async () => {
      const r = await tnv(['stake', '--datadir', keys, '--through', 'staked', '--yes', '--non-interactive', '--json'])
      assert.equal(r.code, 0, `${r.stdout}${r.stderr}`)
      assert.equal(await status(), 'Staked')
    })

    it('activate, then Active at the epoch boundary', async () => {
      assert.equal(await status(), 'Staked', 'the stake step left the validator Staked')
      // the node check: the devnet's own node stands for the validator's here (synced by construction)
      const r = await tnv(['activate', '--yes', '--json', '--node-rpc-url', rpcUrl])
      assert.equal(r.code, 0, `${r.stdout}${r.stderr}`)
      assert.equal(await status(), 'PendingActivation')
      await advance()
      assert.equal(await status(), 'Active')
    })

    it('exit, then Exited over the node rule, then unstake pays the stake back and retires', async () => {
      const r = await tnv(['exit', '--yes', '--json'])
      assert.equal(r.code, 0, `${r.stdout}${r.stderr}`)
      assert.equal(await status(), 'PendingExit')
      for (let i = 0; i < 6 && (await status()) === 'PendingExit'; i++) await advance()
      assert.equal(await status(), 'Exited')
      await advance()
      const u = await tnv(['unstake', '--yes', '--json'])
      assert.equal(u.code, 0, `${u.stdout}${u.stderr}`)
      assert.equal(await status(), 'Any')
      assert.equal(await call(rpcUrl, 'tn_isRetired', [account.address]), true)
    })

    it('rewards claim after governance funds the pool (unsigned, for the most rewarded genesis validator)', async () => {
      assert.equal((await tnv(['devnet', 'governance', 'fund', '100000', '--datadir', devnetDir])).code, 0)
      const committee = ((await call(rpcUrl, 'tn_getCurrentEpochInfo')) as { committee: Address[] }).committee
      const rewards = await Promise.all(
        committee.map(async (a) => BigInt((await call(rpcUrl, 'tn_getRewards', [a])) as string)),
      )
      // biome-ignore lint/complexity/useMathMinMax: Math.max does not take bigints
      const most = rewards.reduce((a, b) => (a < b ? b : a), 0n)
      const best = committee[rewards.indexOf(most)] as Address
      // a genesis validator of the file holds no TEL for gas: give it some on the devnet's engine
      const runtime = JSON.parse(readFileSync(join(devnetDir, 'devnet.json'), 'utf8')) as {
        engine: { ipcPath: string }
      }
      // over the engine's IPC socket, the one way to it (it listens on no port another process reaches)
      await engineCallOnce(runtime.engine.ipcPath, 'anvil_setBalance', [best, '0xde0b6b3a7640000'])
      const r = await tnv(['rewards', 'claim', '--validator', best, '--unsigned', '--from', best, '--json'], {
        TN_PRIVATE_KEY: undefined,
      })
      assert.equal(r.code, 0, `${r.stdout}${r.stderr}`)
      assert.equal(parseJson<{ outcome: string }>(r).outcome, 'unsigned')
    })

    it('delegated stake signed by the validator (delegation sign, then delegation stake)', async () => {
      const v = (await (await import('viem/accounts')).generatePrivateKey()) as Hex
      const validator = { privateKey: v, address: privateKeyToAccount(v).address }
      const vKeys = join(tmp.dir, 'delegated')
      assert.equal((await tnv(generateKeysArgs(vKeys, validator.address))).code, 0)
      assert.equal((await tnv(['devnet', 'governance', 'mint', validator.address, '--datadir', devnetDir])).code, 0)
      const file = join(tmp.dir, 'delegation.json')
      const sign = await tnv(
        ['delegation', 'sign', '--delegator', delegator.address, '--datadir', vKeys, '--out', file, '--json'],
        { TN_PRIVATE_KEY: validator.privateKey },
      )
      assert.equal(sign.code, 0, `${sign.stdout}${sign.stderr}`)
      const stake = await tnv(['delegation', 'stake', '--signature', file, '--datadir', vKeys, '--yes', '--json'], {
        TN_PRIVATE_KEY: delegator.privateKey,
      })
      assert.equal(stake.code, 0, `${stake.stdout}${stake.stderr}`)
      assert.equal(await status(validator.address), 'Staked')
      assert.equal(await call(rpcUrl, 'tn_isDelegated', [validator.address]), true)
    })

    it('epoch advances through the devnet command, judged by the chain', async () => {
      const before = await epoch()
      await advance()
      assert.equal(await epoch(), before + 1)
    })
  })
}
