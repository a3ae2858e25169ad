/**
 * The staking commands end to end on the REAL registry code of both generations: the built
 * CLI, spawned without a TTY, against the rehearsal engine (`--rpc-url <engine> --chain-id`).
 * Keys come from `tnv keytool generate validator`; signers from TN_PRIVATE_KEY, --keystore and
 * --unsigned (whose output is decoded and sent by another signer); governance by impersonating
 * the registry's owner. On adiri the stake's proof is signed with the BLS key (the passphrase
 * source is asked for only then) or taken from --adiri-pop. Exit codes and --json shapes are
 * asserted, and stdout carries nothing but the result.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createWalletClient, decodeFunctionData, type Hex, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { ExitCode } from '../../src/lib/errors.js'
import { stakingArgs } from '../../src/lib/keys/staking-args.js'
import { readNodeInfo } from '../../src/lib/nodeinfo/read.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { type CliResult, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { GENERATIONS, newValidatorKeys, startTestChain, type TestChain } from './devnet-fixture.js'
import { writeKeystore } from './keystore-fixture.js'

type ErrorJson = { error: { code: string; message: string; fix?: string; exitCode: number } }
const PASS = 'test passphrase'

for (const generation of GENERATIONS) {
  describe(`staking commands on the real ${generation} code (CLI)`, { timeout: 600_000 }, () => {
    const { dir, cleanup } = tempDir(`tnv-registry-cli-${generation}-`)
    let t: TestChain
    const abi = registryAbis[generation]
    const key = (i: number) => (t.accounts[i] as { privateKey: Hex }).privateKey
    const addr = (i: number) => (t.accounts[i] as { address: Hex }).address
    const datadir = (i: number) => join(dir, `validator-${i}`)
    const net = () => ['--rpc-url', t.url, '--chain-id', String(t.engine.chainId)]
    const tnv = (args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<CliResult> =>
      runCli([...args, ...net()], {
        env: {
          TN_CHAIN: undefined,
          TN_RPC_URL: undefined,
          TN_BLS_PASSPHRASE: undefined,
          TN_DEVNET_RELAXED: '1',
          ...env,
        },
        input,
      })
    const expectError = (r: CliResult, code: string, exitCode: number) => {
      assert.equal(r.code, exitCode, `${r.stdout}\n${r.stderr}`)
      const body = parseJson<ErrorJson>(r)
      assert.equal(body.error.code, code)
      assert.equal(body.error.exitCode, exitCode)
      return body.error
    }
    const txCount = (i: number) => t.engine.client.getTransactionCount({ address: addr(i) })
    const onChainStatus = async (i: number) =>
      (
        (await t.engine.client.readContract({
          address: REGISTRY_ADDRESS,
          abi,
          functionName: 'getValidator',
          args: [addr(i)],
        } as never)) as { currentStatus: number }
      ).currentStatus
    /** adiri signs its proof with the key: the stake needs the passphrase there, never on next. */
    const keyEnv = generation === 'adiri' ? { TN_BLS_PASSPHRASE: PASS } : {}

    before(async () => {
      t = await startTestChain(generation, { accounts: 6 })
      for (const i of [0, 2, 4]) {
        const r = await runCli(
          ['keytool', 'generate', 'validator', '--address', addr(i), '--datadir', datadir(i), '-q'],
          {
            env: { TN_BLS_PASSPHRASE: PASS },
          },
        )
        assert.equal(r.code, 0, r.stderr)
      }
    })
    after(async () => {
      await t?.stop()
      cleanup()
    })

    it('validator status --json: the documented fields and the generation found', async () => {
      const r = await tnv(['validator', 'status', '--datadir', datadir(0), '--json'])
      assert.equal(r.code, 0, r.stderr)
      const s = parseJson<Record<string, unknown>>(r)
      for (const k of [
        'registry',
        'address',
        'whitelisted',
        'status',
        'activationEpoch',
        'exitEpoch',
        'currentEpoch',
        'unstakeEpoch',
        'retired',
        'delegated',
        'delegationNonce',
        'rewards',
        'rewardPool',
        'refund',
        'stakeAmount',
      ])
        assert.ok(k in s, `missing ${k}`)
      assert.equal((s.registry as { generation: string }).generation, generation)
      assert.equal(s.address, addr(0))
      assert.equal(s.whitelisted, false)
      assert.equal(s.status, 'Undefined')
      assert.equal(s.activationEpoch, null)
      assert.equal(s.stakeAmount, parseEther('1000000').toString())
      assert.equal((s.chain as { name: string }).name, 'devnet')
    })

    it('stake without a signer names every way to give one (exit 2)', async () => {
      const e = expectError(await tnv(['stake', '--datadir', datadir(0), '--json']), 'SignerRequired', ExitCode.Usage)
      assert.match(e.fix ?? '', /TN_PRIVATE_KEY.*--keystore.*--unsigned/)
    })

    it('stake --mint without --through: refused before anything is read or sent, saying why (exit 2)', async () => {
      const r = await tnv(['stake', '--datadir', datadir(0), '--mint', '--yes', '--json'], { TN_PRIVATE_KEY: key(0) })
      const e = expectError(r, 'MintNeedsFlow', ExitCode.Usage)
      assert.match(e.message, /onboarding flow.*--through/)
      assert.match(e.fix ?? '', /--through staked/)
      assert.equal(await txCount(0), 0)
    })

    it('stake before governance approval: NotWhitelisted (exit 20), JSON only on stdout', async () => {
      const r = await tnv(['stake', '--datadir', datadir(0), '--json'], { TN_PRIVATE_KEY: key(0) })
      const e = expectError(r, 'NotWhitelisted', ExitCode.NotWhitelisted)
      assert.match(e.fix ?? '', /governance mint/)
      assert.equal(r.stderr, '')
    })

    it('governance mint --unsigned --from the owner prints the transaction; governance sends it', async () => {
      const r = await tnv(['governance', 'mint', addr(0), '--unsigned', '--from', t.engine.owner, '--json'])
      assert.equal(r.code, 0, r.stderr)
      const out = parseJson<{ outcome: string; unsigned: { data: Hex; from: string } }>(r)
      assert.equal(out.outcome, 'unsigned')
      assert.deepEqual(decodeFunctionData({ abi, data: out.unsigned.data }), { functionName: 'mint', args: [addr(0)] })
      await t.engine.asOwner({ data: out.unsigned.data })
      for (const i of [2, 4]) await t.mint(addr(i))
      const again = await tnv(['governance', 'mint', addr(0), '--unsigned', '--from', t.engine.owner])
      assert.equal(again.code, 0, again.stderr)
      assert.match(again.stdout, /already whitelisted; nothing was sent/)
    })

    it("stake with a signer that is not node-info's execution address (exit 4)", async () => {
      const e = expectError(
        await tnv(['stake', '--datadir', datadir(0), '--json'], { TN_PRIVATE_KEY: key(1) }),
        'SignerMismatch',
        ExitCode.BadKeys,
      )
      assert.match(e.fix ?? '', /keytool generate pop --address/)
    })

    it('a proof of possession that verifies for another key: exit 4, nothing sent', async () => {
      const other = newValidatorKeys()
      const { info } = await readNodeInfo(datadir(0))
      const { blsPubkey } = stakingArgs(info)
      const flags =
        generation === 'adiri'
          ? ['--bls-pubkey', blsPubkey, '--adiri-pop', other.adiriProofFor(addr(0)).uncompressedSignature]
          : ['--bls-pubkey', blsPubkey, '--pop', other.popFor(addr(0))]
      const before = await txCount(0)
      expectError(
        await tnv(['stake', ...flags, '--yes', '--json'], { TN_PRIVATE_KEY: key(0) }),
        generation === 'adiri' ? 'AdiriProofMismatch' : 'InvalidProofOfPossession',
        ExitCode.BadKeys,
      )
      assert.equal(await txCount(0), before)
    })

    if (generation === 'adiri')
      it('adiri: the stake asks for the passphrase source only now, saying why; nothing is sent without it', async () => {
        const r = await tnv(['stake', '--datadir', datadir(0), '--unsigned'])
        assert.equal(r.code, ExitCode.Usage, `${r.stdout}\n${r.stderr}`)
        assert.match(r.stderr, /218-byte message/)
        assert.match(r.stderr, /TN_BLS_PASSPHRASE is not set/)
        assert.equal(r.stdout, '')
        const wrong = await tnv(['stake', '--datadir', datadir(0), '--unsigned', '--json'], {
          TN_BLS_PASSPHRASE: 'wrong',
        })
        expectError(wrong, 'WrongPassphrase', ExitCode.BadKeys)
      })
    else
      it('next: the stake reads only node-info.yaml (no passphrase needed)', async () => {
        const r = await tnv(['stake', '--datadir', datadir(0), '--unsigned', '--json'])
        assert.equal(r.code, 0, r.stderr)
      })

    it('--unsigned prints the transaction in the generation’s form; sent by another signer, it stakes', async () => {
      const human = await tnv(['stake', '--datadir', datadir(0), '--unsigned'], keyEnv)
      assert.equal(human.code, 0, human.stderr)
      assert.match(
        human.stdout,
        /\ncast send 0x07E17e17E17e17E17e17E17E17E17e17e17E17e1 0x[0-9a-f]+ --value 1000000000000000000000000 --gas-limit \d+ --nonce 0 --chain 911329 --rpc-url http/,
      )
      const r = await tnv(['stake', '--datadir', datadir(0), '--unsigned', '--json'], keyEnv)
      assert.equal(r.code, 0, r.stderr)
      const out = parseJson<{
        outcome: string
        registry: { generation: string }
        unsigned: { from: Hex; to: Hex; value: string; data: Hex; chainId: number; gas: string; nonce: number }
      }>(r)
      assert.equal(out.outcome, 'unsigned')
      assert.equal(out.registry.generation, generation)
      const u = out.unsigned
      assert.equal(u.from, addr(0))
      assert.equal(u.chainId, 911329)
      const call = decodeFunctionData({ abi, data: u.data })
      assert.equal(call.functionName, 'stake')
      const { info } = await readNodeInfo(datadir(0))
      const args = stakingArgs(info)
      assert.equal((call.args as readonly unknown[])[0], args.blsPubkey)
      const proof = (call.args as readonly unknown[])[1] as Record<string, Hex>
      if (generation === 'next') assert.deepEqual(proof, { signature: args.proofOfPossession })
      else {
        assert.equal((proof.uncompressedPubkey?.length ?? 0) - 2, 384)
        assert.equal((proof.uncompressedSignature?.length ?? 0) - 2, 192)
      }
      assert.equal(await txCount(0), 0, 'nothing was sent')
      const wallet = createWalletClient({ account: privateKeyToAccount(key(0)), transport: http(t.url) })
      const hash = await wallet.sendTransaction({
        chain: null,
        to: u.to,
        value: BigInt(u.value),
        data: u.data,
        gas: BigInt(u.gas),
        nonce: u.nonce,
      })
      assert.equal((await engineReceipt(t.engine.client, hash)).status, 'success')
      assert.equal(await onChainStatus(0), 1)
    })

    it('stake again: says it is done, sends nothing, exit 0 (no passphrase needed for that)', async () => {
      const r = await tnv(['stake', '--datadir', datadir(0)], { TN_PRIVATE_KEY: key(0) })
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stdout, /already staked with this BLS key \(status Staked\); nothing was sent\./)
      assert.equal(await txCount(0), 1)
    })

    it('activate with a keystore (password from TN_KEYSTORE_PASSWORD); a wrong password is exit 4', async () => {
      const ks = join(dir, 'validator-0.keystore.json')
      writeKeystore(ks, key(0), 'ks password')
      const wrong = await tnv(['activate', '--keystore', ks, '--json'], { TN_KEYSTORE_PASSWORD: 'nope' })
      expectError(wrong, 'WrongKeystorePassword', ExitCode.BadKeys)
      // the node check is on by default: no node runs for the (empty) data directory, nothing is sent
      const nonce = await txCount(0)
      const noNode = await tnv(['activate', '--keystore', ks, '--datadir', join(dir, 'no-node'), '--json'], {
        TN_KEYSTORE_PASSWORD: 'ks password',
      })
      const n = expectError(noNode, 'NoNodeToCheck', ExitCode.NodeNotSynced)
      assert.match(n.fix ?? '', /--node-rpc-url <url>.*--skip-node-check/)
      assert.equal(await txCount(0), nonce)
      const r = await tnv(['activate', '--keystore', ks, '--skip-node-check'], { TN_KEYSTORE_PASSWORD: 'ks password' })
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stdout, /^Activated 0x[0-9a-fA-F]{40}: PendingActivation, Active from epoch 1\./)
    })

    it('exit is irreversible: refused without --yes and without a TTY, sent with --yes; unstake then waits', async () => {
      await t.engine.closeEpoch()
      const r = await tnv(['exit', '--json'], { TN_PRIVATE_KEY: key(0) })
      const e = expectError(r, 'ConfirmationRequired', ExitCode.Usage)
      assert.match(`${e.message} ${e.fix}`, /beginExit cannot be undone.*--yes/)
      const nonce = await txCount(0)
      const ok = await tnv(['exit', '--yes', '--json'], { TN_PRIVATE_KEY: key(0) })
      assert.equal(ok.code, 0, ok.stderr)
      assert.equal(parseJson<{ outcome: string }>(ok).outcome, 'sent')
      assert.equal(await txCount(0), nonce + 1)
      const u = expectError(
        await tnv(['unstake', '--yes', '--json'], { TN_PRIVATE_KEY: key(0) }),
        'UnstakeNotEligible',
        ExitCode.WrongState,
      )
      assert.match(u.message, /PendingExit/)
      const s = await tnv(['validator', 'status', '--address', addr(0)])
      assert.equal(s.code, 0, s.stderr)
      assert.match(s.stdout, /^status +PendingExit$/m)
      assert.match(s.stdout, /^exit epoch +not set \(PendingExit\)$/m)
      assert.match(s.stdout, new RegExp(`^registry +${generation}$`, 'm'))
    })

    it('a chain-id mismatch stops everything (exit 11)', async () => {
      const r = await runCli(
        ['validator', 'status', '--address', addr(0), '--chain', 'adiri', '--rpc-url', t.url, '--json'],
        { env: { TN_CHAIN: undefined } },
      )
      const e = expectError(r, 'WrongChain', ExitCode.WrongChain)
      assert.match(e.message, /serves chain id 911329, but --chain testnet \(adiri\) is chain id 2017/)
    })

    it('nothing to claim: rewards and refunds say so and send nothing', async () => {
      const rewards = await tnv(['rewards', 'claim', '--json'], { TN_PRIVATE_KEY: key(1) })
      assert.equal(rewards.code, 0, rewards.stderr)
      assert.equal(parseJson<{ outcome: string }>(rewards).outcome, 'nothing-to-do')
      const refund = await tnv(['refund', 'claim'], { TN_PRIVATE_KEY: key(1) })
      assert.equal(refund.code, 0, refund.stderr)
      assert.match(
        refund.stdout,
        generation === 'next'
          ? /No refund is credited to 0x[0-9a-fA-F]{40}; nothing was sent\./
          : /The adiri registry keeps no refunds: .*nothing was sent\./,
      )
      assert.equal(await txCount(1), 0)
    })

    it('delegation: digest online and offline, sign (file), stake by the delegator, revoke', async () => {
      const digest = await tnv([
        'delegation',
        'digest',
        '--delegator',
        addr(3),
        '--deadline',
        '1900000000',
        '--datadir',
        datadir(2),
        '--json',
      ])
      assert.equal(digest.code, 0, digest.stderr)
      const d = parseJson<{
        digest: Hex
        generation: string
        checkedOnChain: boolean
        inputs: { nonce: string; deadline: string | null }
      }>(digest)
      assert.equal(d.generation, generation)
      assert.equal(d.checkedOnChain, true)
      assert.equal(d.inputs.nonce, '0')
      assert.equal(d.inputs.deadline, generation === 'next' ? '1900000000' : null)
      // offline, nothing contacted: the same digest
      const offline = await runCli([
        'delegation',
        'digest',
        '--delegator',
        addr(3),
        '--deadline',
        '1900000000',
        '--datadir',
        datadir(2),
        '--registry-generation',
        generation,
        '--stake-version',
        '0',
        '--nonce',
        '0',
        '--chain-id',
        String(t.engine.chainId),
        '--json',
      ])
      assert.equal(offline.code, 0, offline.stderr)
      assert.equal(parseJson<{ digest: Hex; checkedOnChain: boolean }>(offline).digest, d.digest)

      const file = join(dir, 'delegation.json')
      const signed = await tnv(
        ['delegation', 'sign', '--delegator', addr(3), '--deadline', '1h', '--datadir', datadir(2), '--out', file],
        {
          TN_PRIVATE_KEY: key(2),
          ...keyEnv,
        },
      )
      assert.equal(signed.code, 0, signed.stderr)
      assert.match(
        signed.stdout,
        new RegExp(
          `^Wrote the delegation signature for delegator 0x[0-9a-fA-F]{40} to .*delegation\\.json \\(${generation} registry`,
        ),
      )
      const wrongSigner = await tnv(['delegation', 'sign', '--delegator', addr(3), '--datadir', datadir(2), '--json'], {
        TN_PRIVATE_KEY: key(4),
      })
      expectError(wrongSigner, 'SignerMismatch', ExitCode.BadKeys)
      const staked = await tnv(['delegation', 'stake', '--signature', file, '--yes', '--json'], {
        TN_PRIVATE_KEY: key(3),
      })
      assert.equal(staked.code, 0, staked.stderr)
      const s = parseJson<{ outcome: string; delegator: Hex; validator: Hex }>(staked)
      assert.deepEqual([s.outcome, s.delegator, s.validator], ['sent', addr(3), addr(2)])
      assert.equal(await onChainStatus(2), 1)

      const revoke = await tnv(['delegation', 'revoke', '--json'], { TN_PRIVATE_KEY: key(4) })
      if (generation === 'next') {
        assert.equal(revoke.code, 0, revoke.stderr)
        assert.deepEqual(
          (({ previousNonce, newNonce }) => [previousNonce, newNonce])(
            parseJson<{ previousNonce: string; newNonce: string }>(revoke),
          ),
          ['0', '1'],
        )
      } else {
        const e = expectError(revoke, 'NotInThisGeneration', ExitCode.Usage)
        assert.match(e.message, /no increaseNonce\(\) and its delegation signatures carry no deadline/)
        assert.equal(await txCount(4), 0)
      }
      const noFile = await tnv(['delegation', 'stake', '--json'], { TN_PRIVATE_KEY: key(3) })
      expectError(noFile, 'DelegationSignatureRequired', ExitCode.Usage)
    })

    it('--unsigned without funds: the transaction is printed with a warning, not refused', async () => {
      const r = await tnv(['exit', '--unsigned', '--from', addr(5), '--json'])
      // addr(5) is not a validator: refused for its state, not for its (zero) balance
      expectError(r, 'NotWhitelisted', ExitCode.NotWhitelisted)
      await t.mint(addr(5))
      const gen = await runCli(
        ['keytool', 'generate', 'validator', '--address', addr(5), '--datadir', datadir(5), '-q'],
        {
          env: { TN_BLS_PASSPHRASE: PASS },
        },
      )
      assert.equal(gen.code, 0, gen.stderr)
      const { setBalance } = await import('./devnet-fixture.js')
      await setBalance(t, addr(5), 0n)
      const u = await tnv(['stake', '--datadir', datadir(5), '--unsigned', '--json'], keyEnv)
      assert.equal(u.code, 0, u.stderr)
      assert.equal(parseJson<{ outcome: string }>(u).outcome, 'unsigned')
      const human = await tnv(['stake', '--datadir', datadir(5), '--unsigned'], keyEnv)
      assert.match(human.stderr, /Warning: .* holds 0 TEL .* Fund it before the transaction is signed and sent\./)
    })
  })
}
