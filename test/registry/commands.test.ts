// @ts-nocheck -- written for the retired devnet registry contract (its governance key and ABI are gone); issue 12 rewrites it for the real registries. Left compiling only by issue 11.
/**
 * The staking commands end to end: the built CLI, spawned without a TTY, against the
 * reference devnet (`tnv devnet start --detach`: the reference node's JSON-RPC gateway in
 * front of the devnet chain), found through `--chain devnet` (the default) and the runtime
 * file the node writes. Keys come from
 * `tnv keytool generate validator`; signers from TN_PRIVATE_KEY, --keystore and --unsigned
 * (whose output is decoded and sent by another signer). Exit codes and --json shapes are
 * asserted, and stdout carries nothing but the result.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createWalletClient, decodeFunctionData, type Hex, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { DevnetRuntimeInfo } from '../../src/devnet/paths.js'
import { type ChainClient, createChainClient } from '../../src/lib/chain/client.js'
import { ExitCode } from '../../src/lib/errors.js'
import { stakingArgs } from '../../src/lib/keys/staking-args.js'
import { readNodeInfo } from '../../src/lib/nodeinfo/read.js'
import { registryAbi } from '../../src/lib/registry/abi.js'
import { type CliResult, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { writeKeystore } from './keystore-fixture.js'

type ErrorJson = { error: { code: string; message: string; fix?: string; exitCode: number } }

describe('staking commands (CLI, reference devnet node)', () => {
  const { dir, cleanup } = tempDir('tnv-registry-cli-')
  const devnetDir = join(dir, 'devnet')
  let devnet: DevnetRuntimeInfo
  let client: ChainClient
  const key = (i: number) => (devnet.accounts[i] as { privateKey: Hex }).privateKey
  const addr = (i: number) => (devnet.accounts[i] as { address: Hex }).address
  const datadir = (i: number) => join(dir, `validator-${i}`)
  const tnv = (args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<CliResult> =>
    runCli(args, { env: { TNV_DEVNET_DIR: devnetDir, TN_CHAIN: undefined, TN_RPC_URL: undefined, ...env }, input })
  const expectError = (r: CliResult, code: string, exitCode: number) => {
    assert.equal(r.code, exitCode, `${r.stdout}\n${r.stderr}`)
    const body = parseJson<ErrorJson>(r)
    assert.equal(body.error.code, code)
    assert.equal(body.error.exitCode, exitCode)
    return body.error
  }
  const advanceEpoch = async () => {
    const r = await tnv(['devnet', 'advance-epoch', '--datadir', devnetDir])
    assert.equal(r.code, 0, r.stderr)
  }

  before(async () => {
    const port = await freePort()
    const started = await tnv([
      'devnet',
      'start',
      '--detach',
      '--datadir',
      devnetDir,
      '--epoch-blocks',
      '100',
      '--block-time',
      '0',
      '--',
      '--http',
      '--http.port',
      String(port),
    ])
    assert.equal(started.code, 0, `${started.stdout}\n${started.stderr}`)
    devnet = JSON.parse(readFileSync(join(devnetDir, 'devnet.json'), 'utf8')) as DevnetRuntimeInfo
    client = createChainClient({ rpcUrl: devnet.rpcUrl as string })
    for (const i of [0, 2]) {
      const r = await runCli(
        ['keytool', 'generate', 'validator', '--address', addr(i), '--datadir', datadir(i), '-q'],
        {
          env: { TN_BLS_PASSPHRASE: 'test passphrase' },
        },
      )
      assert.equal(r.code, 0, r.stderr)
    }
  })
  after(async () => {
    await tnv(['devnet', 'stop', '--datadir', devnetDir])
    cleanup()
  })

  it('validator status --json: the documented fields, wei as decimal strings', async () => {
    const r = await tnv(['validator', 'status', '--datadir', datadir(0), '--json'])
    assert.equal(r.code, 0, r.stderr)
    const s = parseJson<Record<string, unknown>>(r)
    for (const k of [
      'address',
      'whitelisted',
      'status',
      'activationEpoch',
      'exitEpoch',
      'currentEpoch',
      'unstakeEpoch',
      'retired',
      'delegated',
      'rewards',
      'stakeAmount',
    ])
      assert.ok(k in s, `missing ${k}`)
    assert.equal(s.address, addr(0))
    assert.equal(s.whitelisted, false)
    assert.equal(s.status, 'Undefined')
    assert.equal(s.stakeAmount, parseEther('1000000').toString())
    assert.equal(s.rewards, '0')
    assert.equal((s.chain as { name: string }).name, 'devnet')
  })

  it('stake without a signer names every way to give one (exit 2)', async () => {
    const e = expectError(await tnv(['stake', '--datadir', datadir(0), '--json']), 'SignerRequired', ExitCode.Usage)
    assert.match(e.fix ?? '', /TN_PRIVATE_KEY.*--keystore.*--unsigned/)
  })

  it('validator status with neither --address nor node-info.yaml says to pass --address (exit 3)', async () => {
    const e = expectError(
      await tnv(['validator', 'status', '--datadir', join(dir, 'no-such-dir'), '--json']),
      'NodeInfoMissing',
      ExitCode.BadInput,
    )
    assert.match(e.fix ?? '', /--address/)
  })

  it("delegation sign without the validator's key asks for it, not for --unsigned (exit 2)", async () => {
    const r = await tnv(['delegation', 'sign', '--delegator', addr(2), '--datadir', datadir(0), '--json'], {
      TN_PRIVATE_KEY: undefined,
    })
    assert.equal(r.code, ExitCode.Usage, r.stderr)
    const e = parseJson<ErrorJson>(r).error
    assert.match(e.fix ?? '', /TN_PRIVATE_KEY.*--keystore/)
    assert.doesNotMatch(`${e.message} ${e.fix}`, /--unsigned|Sending/)
  })

  it('stake before governance approval: NotWhitelisted (exit 20), JSON only on stdout', async () => {
    const r = await tnv(['stake', '--datadir', datadir(0), '--json'], { TN_PRIVATE_KEY: key(0) })
    const e = expectError(r, 'NotWhitelisted', ExitCode.NotWhitelisted)
    assert.match(e.fix ?? '', /governance mint/)
    assert.equal(r.stderr, '')
  })

  it('governance mint on the devnet signs with the devnet governance key', async () => {
    const r = await tnv(['governance', 'mint', addr(0)])
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stdout,
      new RegExp(
        `^Whitelisted ${addr(0)} \\(ConsensusNFT minted\\)\\. Transaction 0x[0-9a-f]{64} in block \\d+\\.\\n$`,
      ),
    )
    assert.match(r.stderr, /devnet governance key/)
    assert.doesNotMatch(r.stdout + r.stderr, new RegExp(devnet.governance.privateKey.slice(2)))
  })

  it("stake with a signer that is not node-info's execution address (exit 4)", async () => {
    const e = expectError(
      await tnv(['stake', '--datadir', datadir(0), '--json'], { TN_PRIVATE_KEY: key(1) }),
      'SignerMismatch',
      ExitCode.BadKeys,
    )
    assert.match(e.fix ?? '', /keytool generate pop --address/)
  })

  it('--unsigned prints the transaction; decoded back and sent by another signer, it stakes', async () => {
    const human = await tnv(['stake', '--datadir', datadir(0), '--unsigned'])
    assert.equal(human.code, 0, human.stderr)
    assert.match(
      human.stdout,
      /\ncast send 0x07E17e17E17e17E17e17E17E17E17e17e17E17e1 0x[0-9a-f]+ --value 1000000000000000000000000 --gas-limit \d+ --nonce 0 --chain 911329 --rpc-url http/,
    )
    const r = await tnv(['stake', '--datadir', datadir(0), '--unsigned', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const out = parseJson<{
      outcome: string
      unsigned: { from: Hex; to: Hex; value: string; data: Hex; chainId: number; gas: string; nonce: number }
    }>(r)
    assert.equal(out.outcome, 'unsigned')
    const u = out.unsigned
    assert.equal(u.from, addr(0))
    assert.equal(u.chainId, 911329)
    const call = decodeFunctionData({ abi: registryAbi, data: u.data })
    assert.equal(call.functionName, 'stake')
    const { info } = await readNodeInfo(datadir(0))
    const args = stakingArgs(info)
    assert.deepEqual(call.args, [args.blsPubkey, { signature: args.proofOfPossession }])
    assert.equal(u.value, parseEther('1000000').toString())
    assert.equal(await client.getTransactionCount({ address: addr(0) }), 0, 'nothing was sent')
    // another signer (a viem wallet holding the key) sends exactly these fields
    const wallet = createWalletClient({
      account: privateKeyToAccount(key(0)),
      transport: http(devnet.rpcUrl as string),
    })
    const hash = await wallet.sendTransaction({
      chain: null,
      to: u.to,
      value: BigInt(u.value),
      data: u.data,
      gas: BigInt(u.gas),
      nonce: u.nonce,
    })
    assert.equal((await client.waitForTransactionReceipt({ hash })).status, 'success')
    const s = parseJson<{ status: string }>(await tnv(['validator', 'status', '--address', addr(0), '--json']))
    assert.equal(s.status, 'Staked')
  })

  it('stake again: says it is done, sends nothing, exit 0', async () => {
    const r = await tnv(['stake', '--datadir', datadir(0)], { TN_PRIVATE_KEY: key(0) })
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /already staked with this BLS key \(status Staked\); nothing was sent\./)
    assert.equal(await client.getTransactionCount({ address: addr(0) }), 1)
  })

  it('activate with a keystore (password from TN_KEYSTORE_PASSWORD)', async () => {
    const ks = join(dir, 'validator-0.keystore.json')
    writeKeystore(ks, key(0), 'ks password')
    const r = await tnv(['activate', '--keystore', ks], { TN_KEYSTORE_PASSWORD: 'ks password' })
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^Activated 0x[0-9a-fA-F]{40}: PendingActivation, Active from epoch 1\./)
    const wrong = await tnv(['activate', '--keystore', ks, '--json'], { TN_KEYSTORE_PASSWORD: 'nope' })
    expectError(wrong, 'WrongKeystorePassword', ExitCode.BadKeys)
  })

  it('exit is irreversible: refused without --yes and without a TTY, sent with --yes', async () => {
    await advanceEpoch()
    const r = await tnv(['exit', '--json'], { TN_PRIVATE_KEY: key(0) })
    const e = expectError(r, 'ConfirmationRequired', ExitCode.Usage)
    assert.match(`${e.message} ${e.fix}`, /beginExit cannot be undone.*--yes/)
    const nonce = await client.getTransactionCount({ address: addr(0) })
    const ok = await tnv(['exit', '--yes', '--json'], { TN_PRIVATE_KEY: key(0) })
    assert.equal(ok.code, 0, ok.stderr)
    assert.equal(parseJson<{ outcome: string }>(ok).outcome, 'sent')
    assert.equal(await client.getTransactionCount({ address: addr(0) }), nonce + 1)
  })

  it('unstake while PendingExit is explained (exit 24); status shows it as a table', async () => {
    const e = expectError(
      await tnv(['unstake', '--yes', '--json'], { TN_PRIVATE_KEY: key(0) }),
      'UnstakeNotEligible',
      ExitCode.WrongState,
    )
    assert.match(e.message, /PendingExit/)
    const r = await tnv(['validator', 'status', '--address', addr(0)])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^validator +0x/m)
    assert.match(r.stdout, /^status +PendingExit$/m)
    assert.match(r.stdout, /^current epoch +1 \(block \d+; next epoch in \d+ blocks, at block \d+\)$/m)
  })

  it('a chain-id mismatch stops everything (exit 11)', async () => {
    const e = expectError(
      await tnv([
        'validator',
        'status',
        '--address',
        addr(0),
        '--chain',
        'testnet',
        '--rpc-url',
        devnet.rpcUrl as string,
        '--json',
      ]),
      'WrongChain',
      ExitCode.WrongChain,
    )
    assert.match(e.message, /serves chain id 911329, but --chain testnet is chain id 2017/)
  })

  it('nothing to claim: rewards and refunds say so and send nothing', async () => {
    const rewards = await tnv(['rewards', 'claim', '--json'], { TN_PRIVATE_KEY: key(1) })
    assert.equal(rewards.code, 0, rewards.stderr)
    assert.equal(parseJson<{ outcome: string }>(rewards).outcome, 'already-done')
    const refund = await tnv(['refund', 'claim'], { TN_PRIVATE_KEY: key(1) })
    assert.equal(refund.code, 0, refund.stderr)
    assert.match(refund.stdout, /No refund is credited to 0x[0-9a-fA-F]{40}; nothing was sent\./)
  })

  it('delegation: digest, sign (file), stake by the delegator, revoke', async () => {
    assert.equal((await tnv(['governance', 'mint', addr(2), '--json'])).code, 0)
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
    const d = parseJson<{ digest: Hex; inputs: { nonce: string; stakeVersion: number } }>(digest)
    assert.equal(d.inputs.nonce, '0')
    const file = join(dir, 'delegation.json')
    const signed = await tnv(
      ['delegation', 'sign', '--delegator', addr(3), '--deadline', '1h', '--datadir', datadir(2), '--out', file],
      {
        TN_PRIVATE_KEY: key(2),
      },
    )
    assert.equal(signed.code, 0, signed.stderr)
    assert.match(signed.stdout, /^Wrote the delegation signature for delegator 0x[0-9a-fA-F]{40} to .*delegation\.json/)
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
    const revoke = await tnv(['delegation', 'revoke', '--json'], { TN_PRIVATE_KEY: key(2) })
    assert.equal(revoke.code, 0, revoke.stderr)
    assert.deepEqual(
      (({ previousNonce, newNonce }) => [previousNonce, newNonce])(
        parseJson<{ previousNonce: string; newNonce: string }>(revoke),
      ),
      ['1', '2'],
    )
    const noFile = await tnv(['delegation', 'stake', '--json'], { TN_PRIVATE_KEY: key(3) })
    expectError(noFile, 'DelegationSignatureRequired', ExitCode.Usage)
  })

  it('no devnet running: the default chain says how to start one (exit 10)', async () => {
    const r = await runCli(['validator', 'status', '--address', addr(0), '--json'], {
      env: { TNV_DEVNET_DIR: join(dir, 'none') },
    })
    const e = expectError(r, 'DevnetNotRunning', ExitCode.RpcUnreachable)
    assert.match(e.fix ?? '', /tnv devnet start/)
  })
})
