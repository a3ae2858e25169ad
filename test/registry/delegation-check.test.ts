/**
 * `tnv delegation sign --check` end to end (docs/automation.md) on the real registry code of both
 * generations: the built CLI without a TTY, no BLS passphrase and (for the first checks) no key
 * given. A check says would-change with the digest the run then signs, the file it would write,
 * and leaves the data directory, the output directory and tnv's state directory exactly as they
 * were (modes and times included); once --out holds that signature it says already-done; an
 * existing other --out is refused as the run refuses it (exit 2), and a refusal of the run
 * (the delegator is the validator) exits with the run's code.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Hex } from 'viem'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { ExitCode } from '../../src/lib/errors.js'
import { readNodeInfo } from '../../src/lib/nodeinfo/read.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { type CliResult, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { treeOf } from '../helpers/tree.js'
import { GENERATIONS, startTestChain, type TestChain } from './devnet-fixture.js'

type SignCheck = {
  outcome: string
  check: true
  validator: string
  delegator: string
  generation: string
  stakeVersion: number
  nonce: string
  deadline: string | null
  digest: Hex
  proof: { format: string } | null
  proofToSign: string | null
  files: { path: string; mode: string; exists: boolean; action: string }[]
}
type ErrorJson = { error: { code: string; exitCode: number; message: string } }
const PASS = 'delegation check passphrase'

for (const generation of GENERATIONS)
  describe(`delegation sign --check (CLI, ${generation} registry)`, { timeout: 300_000 }, () => {
    const { dir, cleanup } = tempDir(`tnv-delegation-check-${generation}-`)
    const stateDir = join(dir, 'state')
    const datadir = join(dir, 'validator')
    const outDir = join(dir, 'out')
    const out = join(outDir, 'delegation.json')
    let t: TestChain
    const addr = (i: number) => (t.accounts[i] as { address: Hex }).address
    const key = (i: number) => (t.accounts[i] as { privateKey: Hex }).privateKey
    // an absolute deadline: the check and the run sign the same digest
    const deadline = String(Math.floor(Date.now() / 1000) + 3600)
    const sign = (args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> =>
      runCli(
        [
          'delegation',
          'sign',
          '--datadir',
          datadir,
          '--deadline',
          deadline,
          ...args,
          '--rpc-url',
          t.url,
          '--chain-id',
          String(t.engine.chainId),
          '--json',
        ],
        {
          env: {
            TN_CHAIN: undefined,
            TN_RPC_URL: undefined,
            TN_DEVNET_RELAXED: '1',
            TNV_STATE_DIR: stateDir,
            TN_BLS_PASSPHRASE: undefined,
            TN_PRIVATE_KEY: undefined,
            ...env,
          },
        },
      )
    const snapshot = () => `${treeOf(datadir)}\n--\n${treeOf(outDir)}\n--\n${treeOf(stateDir)}`
    const check = async (args: string[], env: Record<string, string | undefined> = {}) => {
      const before = snapshot()
      const r = await sign([...args, '--check'], env)
      assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
      assert.equal(snapshot(), before, 'a check wrote, moved or touched a file')
      return parseJson<SignCheck>(r)
    }

    before(async () => {
      t = await startTestChain(generation, { accounts: 3 })
      await t.mint(addr(0))
      const made = await runCli(
        ['keytool', 'generate', 'validator', '--address', addr(0), '--datadir', datadir, '-q'],
        {
          env: { TN_BLS_PASSPHRASE: PASS },
        },
      )
      assert.equal(made.code, 0, made.stderr)
      mkdirSync(outDir, { mode: 0o700 })
    })
    after(async () => {
      await t?.stop()
      cleanup()
    })

    it('would-change with the registry digest the run then signs, nothing written; then already-done', async () => {
      // no key and no passphrase: the validator is node-info's execution address, nothing is opened
      const plan = await check(['--delegator', addr(1), '--out', out])
      assert.equal(plan.outcome, 'would-change')
      assert.equal(plan.check, true)
      assert.equal(plan.validator, addr(0))
      assert.equal(plan.delegator, addr(1))
      assert.equal(plan.generation, generation)
      assert.deepEqual(plan.files, [{ path: out, mode: '0644', exists: false, action: 'create' }])
      assert.equal(existsSync(out), false)
      // the registry's own digest for this request
      const abi = registryAbis[generation]
      const { info } = await readNodeInfo(datadir)
      const blsPubkey = `0x${Buffer.from(info.blsPublicKey).toString('hex')}` as Hex
      const onChain = (await t.engine.client.readContract({
        address: REGISTRY_ADDRESS,
        abi,
        functionName: 'delegationDigest',
        args: generation === 'next' ? [blsPubkey, addr(0), addr(1), BigInt(deadline)] : [blsPubkey, addr(0), addr(1)],
      } as never)) as Hex
      assert.equal(plan.digest, onChain)
      assert.equal(plan.deadline, generation === 'next' ? deadline : null)
      // adiri's proof is signed with the BLS key by the run only: the check says so and asks nothing
      if (generation === 'adiri') {
        assert.equal(plan.proof, null)
        assert.match(plan.proofToSign ?? '', /BLS key in .*validator/)
      } else {
        assert.equal(plan.proof?.format, 'compressed')
        assert.equal(plan.proofToSign, null)
      }

      // the signer flags give the same address (the key is not used to sign)
      const withKey = await check(['--delegator', addr(1), '--out', out], { TN_PRIVATE_KEY: key(0) })
      assert.equal(withKey.digest, plan.digest)

      const run = await sign(['--delegator', addr(1), '--out', out], {
        TN_PRIVATE_KEY: key(0),
        TN_BLS_PASSPHRASE: PASS,
      })
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`)
      const written = JSON.parse(readFileSync(out, 'utf8')) as { digest: Hex }
      assert.equal(written.digest, plan.digest, 'the run signed another digest than the check reported')

      const again = await check(['--delegator', addr(1), '--out', out])
      assert.equal(again.outcome, 'already-done')
      assert.deepEqual(again.files, [])
    })

    it('an existing other --out: refused as the run (exit 2); with --force: would-change, update', async () => {
      const before = snapshot()
      const refused = await sign(['--delegator', addr(2), '--out', out, '--check'])
      assert.equal(refused.code, ExitCode.Usage, `${refused.stdout}\n${refused.stderr}`)
      assert.equal(parseJson<ErrorJson>(refused).error.code, 'Usage')
      assert.equal(snapshot(), before)
      const forced = await check(['--delegator', addr(2), '--out', out, '--force'])
      assert.equal(forced.outcome, 'would-change')
      assert.deepEqual(forced.files, [{ path: out, mode: '0644', exists: true, action: 'update' }])
    })

    it('a refusal of the run exits with the run’s code, nothing written (the delegator is the validator)', async () => {
      const other = join(outDir, 'self.json')
      const before = snapshot()
      const checked = await sign(['--delegator', addr(0), '--out', other, '--check'])
      assert.equal(checked.code, ExitCode.BadInput, `${checked.stdout}\n${checked.stderr}`)
      assert.equal(snapshot(), before)
      // the run refuses with the same error (it locks the data directory while it runs: only --out is compared)
      const ran = await sign(['--delegator', addr(0), '--out', other], { TN_PRIVATE_KEY: key(0) })
      assert.equal(ran.code, checked.code)
      assert.equal(parseJson<ErrorJson>(checked).error.code, parseJson<ErrorJson>(ran).error.code)
      assert.equal(existsSync(other), false)
    })
  })
