/**
 * `--check` end to end (docs/automation.md): the built CLI without a TTY against the rehearsal
 * engine on the real registry code of both generations (adiri's stake check signs adiri's own
 * proof with the key, so it reads the passphrase there). For a keytool writer, the stake and later steps
 * (activate, rewards claim, exit): a check where work is needed says would-change (with the
 * decoded transaction or the files) and leaves the data directory, tnv's state directory (the
 * journals) and the chain (nonce, status) exactly as they were; once the step is done it says
 * already-done with exit 0; a step whose simulation reverts exits 22 with the decoded reason.
 */
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { type AbiFunction, encodeFunctionData, type Hex, parseEther, toFunctionSignature } from 'viem'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { ExitCode } from '../../src/lib/errors.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { type CliResult, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { treeOf } from '../helpers/tree.js'
import { GENERATIONS, startTestChain, type TestChain } from './devnet-fixture.js'

type CheckedTx = {
  outcome: 'would-change'
  transaction: {
    chainId: number
    from: string
    to: string
    function: string | null
    inputs: Record<string, unknown> | null
    value: string
    valueTel: string
    nonce: number
    gasEstimate: string
    gasLimit: string
  }
}
type ErrorJson = { error: { code: string; exitCode: number; message: string; details?: string[] } }
type FilesCheck = {
  outcome: string
  check: true
  files: { path: string; mode: string; exists: boolean; action: string }[]
}

const PASS = 'check test passphrase'

for (const generation of GENERATIONS)
  describe(`--check on the keytool writers and the transaction commands (CLI, ${generation} registry)`, {
    timeout: 600_000,
  }, () => {
    const { dir, cleanup } = tempDir(`tnv-check-${generation}-`)
    const stateDir = join(dir, 'state')
    const datadir = join(dir, 'validator')
    let t: TestChain
    const abi = registryAbis[generation]
    /** The deployed ABI's own signature of a registry function, and its parameter names. */
    const fn = (name: string) => abi.find((x) => x.type === 'function' && x.name === name) as AbiFunction
    const signature = (name: string) => toFunctionSignature(fn(name))
    const inputNames = (name: string) => fn(name).inputs.map((i) => i.name)
    const v = () => (t.accounts[0] as { address: Hex }).address
    const key = () => (t.accounts[0] as { privateKey: Hex }).privateKey
    const tnv = (args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> =>
      runCli([...args, '--rpc-url', t.url, '--chain-id', String(t.engine.chainId), '--json'], {
        env: {
          TN_CHAIN: undefined,
          TN_RPC_URL: undefined,
          // adiri's stake signs adiri's own proof with the key; next never opens it
          TN_BLS_PASSPHRASE: generation === 'adiri' ? PASS : undefined,
          TN_DEVNET_RELAXED: '1',
          TNV_STATE_DIR: stateDir,
          TN_PRIVATE_KEY: key(),
          ...env,
        },
      })
    const snapshot = async () => ({
      files: `${treeOf(datadir)}\n--\n${treeOf(stateDir)}`,
      nonce: await t.engine.client.getTransactionCount({ address: v() }),
      status: await onChainStatus(),
    })
    /** The validator's status, or null before it staked (getValidator reverts then). */
    const onChainStatus = () =>
      t.engine.client
        .readContract({ address: REGISTRY_ADDRESS, abi, functionName: 'getValidator', args: [v()] } as never)
        .then(
          (r) => (r as { currentStatus: number }).currentStatus,
          () => null,
        )
    /** A check that would send: the decoded transaction, and nothing changed anywhere. */
    const expectWouldSend = async (args: string[], fn: string): Promise<CheckedTx['transaction']> => {
      const before = await snapshot()
      const r = await tnv([...args, '--check'])
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
      const body = parseJson<CheckedTx>(r)
      assert.equal(body.outcome, 'would-change')
      assert.equal(body.transaction.function, fn)
      assert.equal(body.transaction.from, v())
      assert.equal(body.transaction.to, REGISTRY_ADDRESS)
      assert.equal(body.transaction.nonce, before.nonce)
      assert.ok(BigInt(body.transaction.gasEstimate) > 21_000n)
      assert.ok(BigInt(body.transaction.gasLimit) > BigInt(body.transaction.gasEstimate))
      assert.deepEqual(await snapshot(), before, 'a check wrote a file, sent a transaction or changed the chain')
      return body.transaction
    }
    const expectAlreadyDone = async (args: string[], outcome = 'already-done') => {
      const before = await snapshot()
      const r = await tnv([...args, '--check'])
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
      assert.equal(parseJson<{ outcome: string }>(r).outcome, outcome)
      assert.deepEqual(await snapshot(), before)
    }
    const expectFails = async (args: string[], code: string, exitCode: number) => {
      const before = await snapshot()
      const r = await tnv([...args, '--check'])
      assert.equal(r.code, exitCode, `${r.stdout}\n${r.stderr}`)
      const e = parseJson<ErrorJson>(r).error
      assert.equal(e.code, code)
      assert.deepEqual(await snapshot(), before)
      return e
    }
    const send = async (args: string[]) => {
      const r = await tnv([...args, '--yes'])
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
      assert.equal(parseJson<{ outcome: string }>(r).outcome, 'sent')
    }

    before(async () => {
      t = await startTestChain(generation, { accounts: 2 })
    })
    after(async () => {
      await t?.stop()
      cleanup()
    })

    it('keytool generate validator --check: the files it would write, none written; once there, already-done', async () => {
      const gen = (extra: string[]) =>
        runCli(['keytool', 'generate', 'validator', '--address', v(), '--datadir', datadir, ...extra], {
          env: { TN_BLS_PASSPHRASE: undefined },
        })
      // no passphrase is asked (none is given, and no terminal: the real run would need one)
      const r = await gen(['--check', '--json'])
      assert.equal(r.code, 0, r.stderr)
      const plan = parseJson<FilesCheck>(r)
      assert.equal(plan.outcome, 'would-change')
      assert.deepEqual(
        plan.files.map((f) => [f.path.slice(dir.length), f.mode, f.exists, f.action]),
        [
          ['/validator', '0700', false, 'create'],
          ['/validator/node-keys', '0700', false, 'create'],
          ['/validator/node-keys/bls.kw', '0600', false, 'create'],
          ['/validator/node-keys/primary.seed', '0600', false, 'create'],
          ['/validator/node-keys/worker.seed', '0600', false, 'create'],
          ['/validator/node-info.yaml', '0644', false, 'create'],
          ['/validator/tnv-keys.json', '0600', false, 'create'],
        ],
      )
      assert.equal(readdirSync(dir).includes('validator'), false, 'the check created the data directory')

      const made = await runCli(['keytool', 'generate', 'validator', '--address', v(), '--datadir', datadir, '-q'], {
        env: { TN_BLS_PASSPHRASE: PASS },
      })
      assert.equal(made.code, 0, made.stderr)
      const before = treeOf(datadir)
      const again = await gen(['--check', '--json'])
      assert.equal(again.code, 0, again.stderr)
      assert.deepEqual(parseJson<FilesCheck>(again).files, [])
      assert.equal(parseJson<FilesCheck>(again).outcome, 'already-done')
      // other keys over these: refused as the run refuses (exit 2), and --force says what it replaces
      const other = await runCli(
        [
          'keytool',
          'generate',
          'validator',
          '--address',
          t.accounts[1]?.address ?? '',
          '--datadir',
          datadir,
          '--check',
          '--json',
        ],
        {},
      )
      assert.equal(other.code, ExitCode.Usage)
      assert.equal(parseJson<ErrorJson>(other).error.code, 'NodeKeysExist')
      assert.equal(treeOf(datadir), before)
    })

    it('stake --check: would-change with the decoded stake; a paused registry: the simulation reverts, decoded (exit 24); staked: already-done', async () => {
      await expectFails(['stake', '--datadir', datadir], 'NotWhitelisted', 20)
      await t.mint(v())
      const call = (functionName: 'pause' | 'unpause') => encodeFunctionData({ abi, functionName })
      await t.engine.asOwner({ data: call('pause') })
      try {
        // the simulation's revert, decoded with the registry's error table: the class of its cause (wrong state)
        const e = await expectFails(['stake', '--datadir', datadir], 'RegistryReverted', ExitCode.WrongState)
        assert.match(e.message, /paused/)
        assert.deepEqual(e.details, ['revert: EnforcedPause()'])
      } finally {
        await t.engine.asOwner({ data: call('unpause') })
      }
      const tx = await expectWouldSend(['stake', '--datadir', datadir], signature('stake'))
      assert.equal(tx.value, parseEther('1000000').toString())
      assert.equal(tx.valueTel, '1,000,000 TEL')
      // the call's arguments under the ABI's own names, untouched by the JSON key scheme
      assert.deepEqual(Object.keys(tx.inputs ?? {}), inputNames('stake'))
      // human mode: the same answer in lines
      const human = await runCli(
        ['stake', '--datadir', datadir, '--check', '--rpc-url', t.url, '--chain-id', String(t.engine.chainId)],
        {
          env: {
            TN_CHAIN: undefined,
            TN_RPC_URL: undefined,
            TN_BLS_PASSPHRASE: generation === 'adiri' ? PASS : undefined,
            TN_DEVNET_RELAXED: '1',
            TNV_STATE_DIR: stateDir,
            TN_PRIVATE_KEY: key(),
          },
        },
      )
      assert.equal(human.code, 0, human.stderr)
      assert.ok(human.stdout.startsWith(`would send ${signature('stake')} `), human.stdout)
      await send(['stake', '--datadir', datadir])
      await expectAlreadyDone(['stake', '--datadir', datadir])
    })

    it('activate, rewards claim and exit --check: would-change, a reverting claim exits 22, and already-done once sent', async () => {
      await expectWouldSend(['activate', '--datadir', datadir, '--skip-node-check'], signature('activate'))
      await send(['activate', '--datadir', datadir, '--skip-node-check'])
      await expectAlreadyDone(['activate', '--datadir', datadir, '--skip-node-check'])
      await t.engine.closeEpoch()
      // rewards accrued, and the Issuance pool is empty: the claim's simulation reverts
      await t.engine.closeEpoch({ headerCounts: [{ validatorAddress: v(), consensusHeaderCount: 10n }] })
      const e = await expectFails(['rewards', 'claim', '--datadir', datadir], 'RewardPoolShort', ExitCode.Reverted)
      assert.match(e.message, /empty/)
      await t.fundPool(parseEther('1000000'))
      await expectWouldSend(['rewards', 'claim', '--datadir', datadir], signature('claimStakeRewards'))
      await send(['rewards', 'claim', '--datadir', datadir])
      await expectAlreadyDone(['rewards', 'claim', '--datadir', datadir], 'nothing-to-do')

      await expectWouldSend(['exit', '--datadir', datadir], signature('beginExit'))
      await send(['exit', '--datadir', datadir])
      await expectAlreadyDone(['exit', '--datadir', datadir])
    })

    it('unstake --check (a Staked validator that never activated): would-change, then already-done once retired', async () => {
      const w = t.accounts[1] as { address: Hex; privateKey: Hex }
      const dd = join(dir, 'validator-2')
      const made = await runCli(['keytool', 'generate', 'validator', '--address', w.address, '--datadir', dd, '-q'], {
        env: { TN_BLS_PASSPHRASE: PASS },
      })
      assert.equal(made.code, 0, made.stderr)
      await t.mint(w.address)
      const as2 = (args: string[]) => tnv(args, { TN_PRIVATE_KEY: w.privateKey })
      const staked = await as2(['stake', '--datadir', dd, '--yes'])
      assert.equal(staked.code, 0, staked.stderr)
      const state = async () => ({
        files: `${treeOf(dd)}\n--\n${treeOf(stateDir)}`,
        nonce: await t.engine.client.getTransactionCount({ address: w.address }),
      })
      const before = await state()
      const r = await as2(['unstake', '--datadir', dd, '--check'])
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
      const body = parseJson<CheckedTx>(r)
      assert.equal(body.outcome, 'would-change')
      assert.equal(body.transaction.function, signature('unstake'))
      assert.deepEqual(await state(), before)
      const sent = await as2(['unstake', '--datadir', dd, '--yes'])
      assert.equal(sent.code, 0, sent.stderr)
      const again = await as2(['unstake', '--datadir', dd, '--check'])
      assert.equal(again.code, 0, again.stderr)
      assert.equal(parseJson<{ outcome: string }>(again).outcome, 'already-done')
    })

    it('--check with --through or --unsigned is a usage error', async () => {
      for (const args of [
        ['stake', '--datadir', datadir, '--through', 'active', '--check'],
        ['exit', '--datadir', datadir, '--through', 'exited', '--check'],
        ['activate', '--unsigned', '--from', v(), '--check'],
      ]) {
        const r = await tnv(args)
        assert.equal(r.code, ExitCode.Usage, `${args.join(' ')}: ${r.stdout}\n${r.stderr}`)
      }
    })
  })
