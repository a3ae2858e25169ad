/**
 * The offline path through the built CLI on the REAL next registry code (the rehearsal engine
 * booted from the shipped genesis): the whole lifecycle (stake → activate → rewards claim →
 * exit → unstake) through bundles, judged by the registry's own views; signing in a network
 * namespace with no interfaces; every changed precondition refused and named (nonce used by
 * another transaction, status moved, stake version changed by governance, registry code
 * replaced, expiry passed, fee spike) with nothing sent; a tampered or truncated bundle
 * refused; a broadcast killed at any step (signed, journaled, sent, mined, recorded) sends exactly once.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  numberToHex,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { ExitCode } from '../../src/lib/errors.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { BIN, type CliResult, definedEnv, generateKeysArgs, ROOT, runCli, testStateDir } from '../helpers/cli.js'
import { startTestChain, type TestChain } from '../registry/devnet-fixture.js'
import { writeKeystore } from '../registry/keystore-fixture.js'
import { runBare } from '../ship/sea.js'
import { ENTER, PYTHON, spawnPty } from '../wizard/pty.js'

const abi = registryAbis.next
const schema = JSON.parse(readFileSync(join(ROOT, 'docs/offline-bundle.schema.json'), 'utf8'))
const validateBundle = new Ajv({ allErrors: true, strict: false }).compile(schema)

type ErrorJson = { error: { code: string; message: string; fix?: string; details?: string[]; exitCode: number } }

describe('tnv offline prepare / sign / broadcast (CLI, real next code)', { timeout: 600_000 }, () => {
  let t: TestChain
  let realCode: Hex
  const acct = (i: number) => t.accounts[i] as { address: Address; privateKey: Hex }
  const net = () => ['--rpc-url', t.url, '--chain-id', String(t.engine.chainId)]
  const tnv = (args: string[], env: Record<string, string | undefined> = {}) =>
    runCli([...args, '--json'], {
      env: {
        TN_CHAIN: undefined,
        TN_RPC_URL: undefined,
        TN_REGISTRY: undefined,
        TN_DATADIR: undefined,
        // rehearsing the offline path, not the backup step (test/keys-recovery covers the gate)
        TN_DEVNET_RELAXED: '1',
        ...env,
      },
      timeoutMs: 240_000,
    })
  const file = (name: string) => join(t.datadir, name)
  const onChain = (a: Address) =>
    t.engine.client.readContract({ address: REGISTRY_ADDRESS, abi, functionName: 'getValidator', args: [a] })
  const nonceOf = (a: Address) => t.engine.client.getTransactionCount({ address: a })
  const ok = (r: CliResult) => {
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`)
    return JSON.parse(r.stdout) as Record<string, unknown>
  }
  const refused = (r: CliResult, code: string, exitCode: number) => {
    assert.equal(r.code, exitCode, `${r.stdout}\n${r.stderr}`)
    const e = (JSON.parse(r.stdout) as ErrorJson).error
    assert.equal(e.code, code, r.stdout)
    return e
  }
  const prepare = async (step: string, name: string, args: string[]) => {
    const out = file(name)
    const r = ok(await tnv(['offline', 'prepare', step, ...args, '--out', out, ...net()]))
    assert.equal(r.outcome, 'prepared')
    const bundle = JSON.parse(readFileSync(out, 'utf8'))
    assert.ok(validateBundle(bundle), JSON.stringify(validateBundle.errors))
    return out
  }
  const sign = async (bundle: string, i: number) =>
    ok(await tnv(['offline', 'sign', bundle, '--yes'], { TN_PRIVATE_KEY: acct(i).privateKey }))
  const broadcast = (bundle: string, extra: string[] = []) => tnv(['offline', 'broadcast', bundle, ...extra, ...net()])
  /** prepare → sign → broadcast, the broadcast's result. */
  const through = async (step: string, name: string, i: number, args: string[]) => {
    const b = await prepare(step, name, args)
    await sign(b, i)
    return ok(await broadcast(b))
  }
  const changedNames = (e: ErrorJson['error']) => (e.details ?? []).map((d) => d.split(':')[0])

  before(async () => {
    t = await startTestChain('next', { accounts: 6 })
    realCode = (await t.engine.client.getCode({ address: REGISTRY_ADDRESS })) as Hex
    for (const i of [0, 1, 2, 3, 4]) await t.mint(acct(i).address)
    for (const i of [0, 1, 2, 3, 4])
      ok(await tnv(generateKeysArgs(file(`v${i}`), acct(i).address).filter((a) => a !== '--json')))
  })
  after(async () => {
    await t?.stop()
  })

  it('the stake lifecycle through bundles: stake, activate, rewards claim, exit, unstake, judged by the registry', async () => {
    const a = acct(0)
    const stakeBundle = await prepare('stake', 's0.json', ['--datadir', file('v0')])
    const bundle = JSON.parse(readFileSync(stakeBundle, 'utf8'))
    assert.equal(bundle.step, 'stake')
    assert.equal(bundle.transaction.value, parseEther('1000000').toString())
    assert.equal(bundle.transaction.valueTel, '1,000,000 TEL')
    assert.equal(bundle.registry.codeHash, keccak256(realCode))
    assert.equal(bundle.registry.generation, 'next')
    assert.equal(bundle.call.function, 'stake(bytes,(bytes))')
    assert.equal(bundle.preconditions.status, 'Undefined')
    assert.equal(bundle.keyBinding.keyOnDisk, 'match')
    assert.equal(bundle.transaction.from, a.address)
    assert.ok(bundle.intent.irreversible.some((l: string) => /bound to .* for good/.test(l)))

    const before = await nonceOf(a.address)
    const signed = await sign(stakeBundle, 0)
    assert.equal(await nonceOf(a.address), before, 'signing sends nothing')
    assert.equal(statSync(String(signed.file)).mode & 0o777, 0o600)
    const sent = ok(await broadcast(stakeBundle))
    assert.equal(sent.outcome, 'sent')
    assert.equal((await onChain(a.address)).currentStatus, 1) // Staked
    // once more: already done, nothing sent
    const again = ok(await broadcast(stakeBundle))
    assert.equal(again.outcome, 'already-sent')
    assert.equal(await nonceOf(a.address), before + 1)

    const activate = await prepare('activate', 'a0.json', ['--from', a.address])
    await sign(activate, 0)
    // an epoch boundary between prepare and broadcast: sent, with what it changes said
    await t.engine.closeEpoch()
    const human = await runCli(['offline', 'broadcast', activate, ...net()], {
      env: { TN_CHAIN: undefined, TN_RPC_URL: undefined },
    })
    assert.equal(human.code, 0, human.stderr)
    assert.match(human.stderr, /it is epoch 1 now, so the validator becomes Active from epoch 2, not 1/)
    assert.match(human.stdout, /^Activate validator .*: transaction 0x[0-9a-f]{64} in block \d+\.$/m)
    assert.equal((await onChain(a.address)).currentStatus, 2) // PendingActivation
    await t.engine.closeEpoch()
    assert.equal((await onChain(a.address)).currentStatus, 3) // Active
    // a step the chain shows done: said so, no bundle written
    const again2 = ok(
      await tnv(['offline', 'prepare', 'activate', '--from', a.address, '--out', file('a0-again.json'), ...net()]),
    )
    assert.equal(again2.outcome, 'already-done')
    assert.equal(existsSync(file('a0-again.json')), false)

    await t.engine.closeEpoch({ headerCounts: [{ validatorAddress: a.address, consensusHeaderCount: 10n }] })
    await t.fundPool(parseEther('100000'))
    const rewards = await t.engine.client.readContract({
      address: REGISTRY_ADDRESS,
      abi,
      functionName: 'getRewards',
      args: [a.address],
    })
    assert.ok(rewards > 0n)
    // carried as a QR code: shown by sign --qr, scanned into broadcast --signed-raw -
    const claim = await prepare('rewards-claim', 'r0.json', ['--from', a.address])
    const qr = await tnv(['offline', 'sign', claim, '--yes', '--qr'], { TN_PRIVATE_KEY: a.privateKey })
    assert.equal(qr.code, 0, qr.stderr)
    assert.match(qr.stderr, /█▀|▀█|▄█/)
    const scanned = JSON.parse(readFileSync(file('r0.signed.json'), 'utf8')).raw as string
    const viaQr = await runCli(['offline', 'broadcast', claim, '--signed-raw', '-', '--json', ...net()], {
      input: `${scanned}\n`,
      env: { TN_CHAIN: undefined, TN_RPC_URL: undefined },
    })
    assert.equal(ok(viaQr).outcome, 'sent')
    assert.equal(
      await t.engine.client.readContract({
        address: REGISTRY_ADDRESS,
        abi,
        functionName: 'getRewards',
        args: [a.address],
      }),
      0n,
    )

    assert.equal((await through('exit', 'e0.json', 0, ['--from', a.address])).outcome, 'sent')
    assert.equal((await onChain(a.address)).currentStatus, 4) // PendingExit
    for (let i = 0; i < 8 && (await onChain(a.address)).currentStatus !== 5; i++) await t.engine.closeEpoch()
    assert.equal((await onChain(a.address)).currentStatus, 5) // Exited
    await t.engine.closeEpoch()
    assert.equal(
      (await through('unstake', 'u0.json', 0, ['--from', a.address, '--accept-reward-shortfall'])).outcome,
      'sent',
    )
    assert.equal(
      await t.engine.client.readContract({
        address: REGISTRY_ADDRESS,
        abi,
        functionName: 'isRetired',
        args: [a.address],
      }),
      true,
    )
  })

  it('delegation: the validator signs the digest offline, then the delegator signs the delegateStake offline', async () => {
    const v = acct(4)
    const d = acct(5)
    // the validator's key is offline: the digest and its inputs travel in a bundle
    const sigBundle = await prepare('delegation-signature', 'ds4.json', [
      '--datadir',
      file('v4'),
      '--delegator',
      d.address,
      '--deadline',
      '2h',
    ])
    const sb = JSON.parse(readFileSync(sigBundle, 'utf8'))
    assert.equal(sb.step, 'delegationSignature')
    assert.equal(sb.delegation.validator, v.address)
    assert.equal(sb.delegation.delegator, d.address)
    assert.ok(Date.parse(sb.expiresAt) <= Number(sb.delegation.deadline) * 1000)
    // the delegator's key cannot sign the validator's delegation
    refused(
      await tnv(['offline', 'sign', sigBundle, '--yes'], { TN_PRIVATE_KEY: d.privateKey }),
      'BundleSignerMismatch',
      ExitCode.BadKeys,
    )
    const signedSig = await sign(sigBundle, 4)
    assert.equal(signedSig.nonce, null)
    assert.equal(signedSig.hash, sb.delegation.digest)
    // nothing to broadcast: said so, with where the signature goes
    const e = refused(await broadcast(sigBundle), 'Usage', ExitCode.Usage)
    assert.match(e.message, /nothing to broadcast/)

    // the delegator's key is offline too: the file the validator signed goes into its bundle
    const bundle = await prepare('delegation-stake', 'd4.json', ['--signature', String(signedSig.file)])
    const b = JSON.parse(readFileSync(bundle, 'utf8'))
    assert.equal(b.step, 'delegateStake')
    assert.equal(b.transaction.from, d.address)
    assert.equal(b.preconditions.validator, v.address)
    assert.ok(
      Date.parse(b.expiresAt) <= Number(sb.delegation.deadline) * 1000,
      'the bundle never outlives the signature',
    )
    await sign(bundle, 5)
    assert.equal(ok(await broadcast(bundle)).outcome, 'sent')
    assert.equal((await onChain(v.address)).currentStatus, 1)
    assert.equal(
      await t.engine.client.readContract({
        address: REGISTRY_ADDRESS,
        abi,
        functionName: 'isDelegated',
        args: [v.address],
      }),
      true,
    )
  })

  it('signing with a keystore in a network namespace with no interfaces works and sends nothing', async () => {
    const b = acct(1)
    const bundle = await prepare('stake', 's1.json', ['--datadir', file('v1')])
    const keystore = file('v1-keystore.json')
    writeKeystore(keystore, b.privateKey, 'offline password')
    const before = await nonceOf(b.address)
    const r = await runBare(
      'unshare',
      ['-n', '--', process.execPath, BIN, 'offline', 'sign', bundle, '--keystore', keystore, '--yes', '--json'],
      {
        cwd: ROOT,
        env: definedEnv({
          ...process.env,
          TN_PRIVATE_KEY: undefined,
          TN_KEYSTORE_PASSWORD: 'offline password',
          TNV_STATE_DIR: testStateDir(),
        }),
        timeoutMs: 300_000,
      },
    )
    const signed = ok(r)
    assert.equal(signed.from, b.address)
    assert.equal(await nonceOf(b.address), before)
    const sent = ok(await broadcast(bundle))
    assert.equal(sent.outcome, 'sent')
    assert.equal((await onChain(b.address)).currentStatus, 1)
  })

  it('a tampered or truncated bundle, or a signed file of another bundle, is refused; nothing signed or sent', async () => {
    const c = acct(2)
    // the backup gate of `tnv stake` runs before a stake bundle exists (with --devnet-relaxed it reports)
    const human = await runCli(
      ['offline', 'prepare', 'stake', '--datadir', file('v2'), '--out', file('s2-human.json'), ...net()],
      {
        env: { TN_CHAIN: undefined, TN_RPC_URL: undefined, TN_DEVNET_RELAXED: '1' },
      },
    )
    assert.equal(human.code, 0, human.stderr)
    assert.match(human.stderr, /--devnet-relaxed: .*on every real network\) tnv stops here until `tnv keytool backup`/)
    assert.match(
      human.stdout,
      /^Wrote .*s2-human\.json: Stake 1,000,000 TEL \(1000000000000000000000000 wei\) for validator/,
    )
    const bundle = await prepare('stake', 's2.json', ['--datadir', file('v2')])
    const text = readFileSync(bundle, 'utf8')
    const tampered = file('s2-tampered.json')
    writeFileSync(tampered, text.replace(/"value": "(\d+)"/, '"value": "1$1"'))
    const e = refused(
      await tnv(['offline', 'sign', tampered, '--yes'], { TN_PRIVATE_KEY: c.privateKey }),
      'BundleDigestMismatch',
      ExitCode.BadInput,
    )
    assert.match(e.message, /changed after tnv wrote it/)
    const truncated = file('s2-truncated.json')
    writeFileSync(truncated, text.slice(0, Math.floor(text.length / 2)))
    refused(
      await tnv(['offline', 'sign', truncated, '--yes'], { TN_PRIVATE_KEY: c.privateKey }),
      'InvalidBundle',
      ExitCode.BadInput,
    )
    // a key that is not the bundle's sender
    refused(
      await tnv(['offline', 'sign', bundle, '--yes'], { TN_PRIVATE_KEY: acct(3).privateKey }),
      'BundleSignerMismatch',
      ExitCode.BadKeys,
    )
    // no terminal and no --yes: nothing signed
    refused(
      await tnv(['offline', 'sign', bundle], { TN_PRIVATE_KEY: c.privateKey }),
      'ConfirmationRequired',
      ExitCode.Usage,
    )
    // a signed file whose bytes were changed
    await sign(bundle, 2)
    const signedPath = file('s2.signed.json')
    const signed = JSON.parse(readFileSync(signedPath, 'utf8'))
    writeFileSync(signedPath, JSON.stringify({ ...signed, raw: `${signed.raw.slice(0, -2)}00` }))
    refused(await broadcast(bundle), 'BundleDigestMismatch', ExitCode.BadInput)
    // the signed file of another bundle
    const e2 = refused(
      await broadcast(bundle, ['--signed', file('s1.signed.json')]),
      'SignedTransactionMismatch',
      ExitCode.BadInput,
    )
    assert.match(e2.message, /signed for bundle sha256:/)
    assert.equal(await nonceOf(c.address), 0)
    assert.equal((await onChain(c.address)).currentStatus, 0)
  })

  it('each changed precondition is refused and named, with the command that prepares a new bundle; nothing sent', async () => {
    const c = acct(2)
    // expiry passed
    const short = await prepare('stake', 's2-short.json', ['--datadir', file('v2'), '--expires-in', '2s'])
    await sign(short, 2)
    await new Promise((r) => setTimeout(r, 2500))
    let e = refused(await broadcast(short), 'StaleBundle', ExitCode.WrongState)
    assert.deepEqual(changedNames(e), ['expiry'])
    assert.match(e.fix ?? '', /tnv offline prepare stake --datadir .*--expires-in 2s/)

    // registry code replaced
    const bundle = await prepare('stake', 's2b.json', ['--datadir', file('v2')])
    await sign(bundle, 2)
    await t.anvil('anvil_setCode', [REGISTRY_ADDRESS, `${realCode}00`])
    e = refused(await broadcast(bundle), 'StaleBundle', ExitCode.WrongState)
    assert.deepEqual(changedNames(e), ['registry code'])
    assert.match(e.details?.[0] ?? '', new RegExp(keccak256(`${realCode}00`)))
    await t.anvil('anvil_setCode', [REGISTRY_ADDRESS, realCode])

    // fee spike: the base fee above what the signed max fee can pay
    const b = JSON.parse(readFileSync(bundle, 'utf8'))
    const spike = BigInt(b.preconditions.maxBaseFeePerGas) * 4n
    await t.anvil('anvil_setNextBlockBaseFeePerGas', [numberToHex(spike)])
    await t.anvil('evm_mine', [])
    e = refused(await broadcast(bundle), 'StaleBundle', ExitCode.WrongState)
    assert.deepEqual(changedNames(e), ['fees'])
    await t.anvil('anvil_setNextBlockBaseFeePerGas', [numberToHex(BigInt(b.preconditions.baseFeePerGas ?? '1'))])
    await t.anvil('evm_mine', [])

    // stake version changed by governance (a new stake config applies from the next epoch)
    await t.engine.asOwner({
      data: encodeFunctionData({
        abi,
        functionName: 'upgradeStakeVersion',
        args: [
          {
            stakeAmount: parseEther('1000000'),
            minWithdrawAmount: parseEther('1000'),
            epochIssuance: parseEther('25806'),
            epochDuration: 86400,
          },
        ],
      }),
    })
    await t.engine.closeEpoch()
    e = refused(await broadcast(bundle), 'StaleBundle', ExitCode.WrongState)
    assert.ok(changedNames(e).includes('stake version'), JSON.stringify(e))
    assert.equal(await nonceOf(c.address), 0)
    assert.equal((await onChain(c.address)).currentStatus, 0)
  })

  it('nonce used by another transaction and status moved: both named, nothing sent', async () => {
    const d = acct(3)
    const stake = await prepare('stake', 's3.json', ['--datadir', file('v3')])
    await sign(stake, 3)
    ok(await broadcast(stake))
    const bundle = await prepare('activate', 'a3.json', ['--from', d.address])
    await sign(bundle, 3)
    // another transaction of the account takes the nonce
    const wallet = createWalletClient({ account: privateKeyToAccount(d.privateKey), transport: http(t.url) })
    const before = await nonceOf(d.address)
    const other = await wallet.sendTransaction({ to: d.address, value: 1n, chain: null })
    await t.engine.client.waitForTransactionReceipt({ hash: other })
    let e = refused(await broadcast(bundle), 'StaleBundle', ExitCode.WrongState)
    assert.deepEqual(changedNames(e), ['nonce'])
    // …and the validator activates from another host meanwhile
    ok(await tnv(['activate', '--skip-node-check', '--yes', ...net()], { TN_PRIVATE_KEY: d.privateKey }))
    e = refused(await broadcast(bundle), 'StaleBundle', ExitCode.WrongState)
    assert.deepEqual(changedNames(e), ['nonce', 'validator status'])
    assert.equal(await nonceOf(d.address), before + 2)
    assert.match(e.fix ?? '', /tnv offline prepare activate --from/)
  })

  it('a broadcast killed at every step (signed, journaled, sent, mined, recorded) sends exactly one transaction', async () => {
    const d = acct(3)
    await t.engine.closeEpoch()
    assert.equal((await onChain(d.address)).currentStatus, 3)
    await t.fundPool(parseEther('1000000'))
    for (const point of ['tx:signed', 'tx:journaled', 'tx:sent', 'tx:mined', 'tx:recorded']) {
      const name = `r3-${point.replace(':', '-')}.json`
      await t.engine.closeEpoch({ headerCounts: [{ validatorAddress: d.address, consensusHeaderCount: 10n }] })
      const bundle = await prepare('rewards-claim', name, ['--from', d.address])
      await sign(bundle, 3)
      const before = await nonceOf(d.address)
      const k = await tnv(['offline', 'broadcast', bundle, ...net()], { TNV_KILL_AT: point })
      assert.notEqual(k.code, 0, `killed at ${point}`)
      const r = ok(await broadcast(bundle))
      // killed before the journal write: nothing left the process, this run sends it
      assert.equal(
        r.outcome,
        point === 'tx:signed' ? 'sent' : 'already-sent',
        `after a kill at ${point}: ${JSON.stringify(r)}`,
      )
      assert.equal(await nonceOf(d.address), before + 1, `exactly one transaction after a kill at ${point}`)
    }
  })

  it('offline wizard on a terminal: prepares, says what to run offline, waits for the signed file, broadcasts', {
    skip: PYTHON ? false : 'python3 is missing (the PTY relay)',
  }, async () => {
    const b = acct(1)
    assert.equal((await onChain(b.address)).currentStatus, 1) // Staked by the namespace test
    const out = file('w1.json')
    const w = spawnPty(['offline', 'wizard', 'activate', '--from', b.address, '--out', out, ...net()], {
      TNV_STATE_DIR: testStateDir(),
      TN_CHAIN: undefined,
      TN_RPC_URL: undefined,
    })
    await w.expect(`tnv offline sign ${out}`)
    await w.expect('Path of the signed file')
    // meanwhile, on the offline host
    await sign(out, 1)
    w.type(ENTER)
    await w.expect('transaction 0x')
    assert.equal(await w.exited, 0)
    assert.equal((await onChain(b.address)).currentStatus, 2) // PendingActivation
  })
})
