/**
 * `tnv keytool export-staking-args`: for the next registry (default) it reads only node-info.yaml
 * and prints exactly what the real keytool prints (node.md §1: the plain text, `--json` with
 * exactly blsPubkey and signature, `--calldata`), tnv's extras kept apart (--details, stderr);
 * for the adiri registry (--registry-generation adiri, or detected at --rpc-url) it signs the
 * 218-byte proof with the key, checks it is node-info's key, and its calldata stakes on the real
 * adiri code.
 */
import assert from 'node:assert/strict'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createWalletClient, decodeFunctionData, encodeFunctionData, type Hex, http, parseAbi, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { startTestChain, type TestChain } from '../registry/devnet-fixture.js'
import { FIXED, plainDatadir, snapshotTree } from './fixtures.js'

const NO_PASS = ['--bls-passphrase-source', 'no-passphrase']
const PK = `0x${FIXED.publicKeyHex}` as const
const POP = `0x${FIXED.popHex}` as const

describe('keytool export-staking-args', () => {
  let dir: string
  let cleanup: () => void
  let datadir: string
  before(async () => {
    ;({ dir, cleanup } = tempDir())
    datadir = join(dir, 'node')
    await plainDatadir(datadir)
    // the next form must never need the key
    await fs.rename(join(datadir, 'node-keys'), join(dir, 'keys-aside'))
  })
  after(() => cleanup())

  it("prints exactly the real keytool's text, from the directory or the file; which registry form on stderr", async () => {
    for (const target of [datadir, join(datadir, 'node-info.yaml')]) {
      const r = await runCli(['keytool', 'export-staking-args', '--node-info', target, ...NO_PASS])
      assert.equal(r.code, 0, r.stderr)
      assert.equal(
        r.stdout,
        `Staking arguments for ConsensusRegistry.stake():\n\nblsPubkey (compressed, 96 bytes):\n${PK}\n\nproofOfPossession.signature (compressed, 48 bytes):\n${POP}\n`,
      )
      assert.match(
        r.stderr,
        /next-generation registry \(the default: no --chain, TN_CHAIN or --rpc-url names a network; the test network runs the adiri registry, .*--chain testnet.*\): stake\(bytes,\(bytes\)\), selector 0x2fb0d025/,
      )
      assert.match(r.stderr, /verifies for 0x1111111111111111111111111111111111111111/)
    }
    const quiet = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, ...NO_PASS, '-q'])
    assert.equal(quiet.stderr, '')
    // with --json too, which generation was chosen is said (stderr: stdout stays the JSON alone)
    const json = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, ...NO_PASS, '--json'])
    assert.equal(json.code, 0, json.stderr)
    assert.match(json.stderr, /For the next-generation registry \(the default/)
    assert.deepEqual(parseJson(json), { blsPubkey: PK, signature: POP })
  })

  it('TN_CHAIN names the network offline: mainnet runs next; the devnet may run either, so the default stays and it says how to detect', async () => {
    const main = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '--calldata', ...NO_PASS], {
      env: { TN_CHAIN: 'mainnet' },
    })
    assert.equal(main.code, 0, main.stderr)
    assert.ok(main.stdout.startsWith('0x2fb0d025'))
    assert.match(main.stderr, /TN_CHAIN=mainnet: the mainnet runs the next registry generation/)
    const dev = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '--calldata', ...NO_PASS], {
      env: { TN_CHAIN: 'devnet' },
    })
    assert.equal(dev.code, 0, dev.stderr)
    assert.ok(dev.stdout.startsWith('0x2fb0d025'))
    assert.match(dev.stderr, /TN_CHAIN=devnet: a devnet may run either registry generation; pass --chain devnet/)
  })

  it('--calldata prints exactly the stake(bytes,(bytes)) calldata (checked against viem)', async () => {
    const r = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '--calldata', ...NO_PASS])
    assert.equal(r.code, 0, r.stderr)
    const abi = parseAbi(['function stake(bytes blsPubkey, (bytes signature) proofOfPossession) payable'])
    assert.equal(r.stdout, `${encodeFunctionData({ abi, functionName: 'stake', args: [PK, { signature: POP }] })}\n`)
    assert.ok(r.stdout.startsWith('0x2fb0d025'))
  })

  it('--json is exactly {"blsPubkey","signature"} in that order; --details adds tnv’s fields apart; --json and --calldata exclude each other', async () => {
    const r = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '--json', ...NO_PASS])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(Object.keys(parseJson<Record<string, string>>(r)), ['blsPubkey', 'signature'])
    assert.deepEqual(parseJson(r), { blsPubkey: PK, signature: POP })
    assert.equal(r.stdout, `${JSON.stringify({ blsPubkey: PK, signature: POP }, null, 2)}\n`)
    const d = await runCli([
      'keytool',
      'export-staking-args',
      '--node-info',
      datadir,
      '--json',
      '--details',
      ...NO_PASS,
    ])
    const out = parseJson<{ blsPubkey: string; signature: string; tnv: Record<string, string> }>(d)
    assert.deepEqual(Object.keys(out), ['blsPubkey', 'signature', 'tnv'])
    assert.equal(out.tnv.generation, 'next')
    assert.equal(out.tnv.executionAddress, FIXED.address)
    assert.match(out.tnv.calldata ?? '', /^0x2fb0d025[0-9a-f]{640}$/)
    const both = await runCli([
      'keytool',
      'export-staking-args',
      '--node-info',
      datadir,
      '--json',
      '--calldata',
      ...NO_PASS,
    ])
    assert.equal(both.code, 2)
    assert.match(both.stdout, /cannot be used together/)
  })

  it('a PoP that does not verify is an error naming keytool generate pop', async () => {
    const other = join(dir, 'wrong-address')
    await fs.mkdir(other)
    const text = await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8')
    await fs.writeFile(
      join(other, 'node-info.yaml'),
      text.replace(FIXED.address, '0x2222222222222222222222222222222222222222'),
    )
    const before = await snapshotTree(other)
    const r = await runCli(['keytool', 'export-staking-args', '--node-info', other, '--calldata', ...NO_PASS])
    assert.equal(r.code, 4)
    assert.equal(r.stdout, '')
    assert.match(r.stderr, /does not verify/)
    assert.match(r.stderr, /tnv keytool generate pop --address 0x2222222222222222222222222222222222222222/)
    assert.deepEqual(await snapshotTree(other), before)
  })

  it('reads no key, so demands no passphrase source (issue 16 item 1): a fresh shell, a wrong passphrase and no-passphrase all give the same arguments', async () => {
    const fresh = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '--calldata'], {
      env: { TN_BLS_PASSPHRASE: undefined },
    })
    assert.equal(fresh.code, 0, fresh.stderr)
    assert.match(fresh.stdout, /^0x2fb0d025/)
    const wrong = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '--calldata'], {
      env: { TN_BLS_PASSPHRASE: 'not the passphrase' },
    })
    const none = await runCli(['keytool', 'export-staking-args', '--node-info', datadir, '--calldata', ...NO_PASS])
    assert.equal(wrong.stdout, fresh.stdout)
    assert.equal(none.stdout, fresh.stdout)
  })

  it('bad files: missing path, truncated YAML', async () => {
    const missing = await runCli(['keytool', 'export-staking-args', '--node-info', join(dir, 'nope'), ...NO_PASS])
    assert.equal(missing.code, 3)
    assert.match(missing.stderr, /nope does not exist/)
    const cut = join(dir, 'cut.yaml')
    const text = await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8')
    await fs.writeFile(cut, text.slice(0, text.indexOf('proof_of_possession') + 30))
    const r = await runCli(['keytool', 'export-staking-args', '--node-info', cut, ...NO_PASS])
    assert.equal(r.code, 3)
    assert.match(r.stderr, /cut\.yaml: proof_of_possession: expected 48 bytes/)
  })
})

describe('keytool export-staking-args for the adiri registry (real code)', { timeout: 180_000 }, () => {
  let t: TestChain
  let next: TestChain
  const { dir, cleanup } = tempDir()
  const PASS = 'export passphrase'
  const validator = (i: number) => t.accounts[i] as { address: Hex; privateKey: Hex }
  before(async () => {
    ;[t, next] = await Promise.all([startTestChain('adiri', { accounts: 2 }), startTestChain('next', { accounts: 1 })])
    for (const i of [0, 1]) {
      const r = await runCli(
        ['keytool', 'generate', 'validator', '--address', validator(i).address, '--datadir', join(dir, `v${i}`), '-q'],
        { env: { TN_BLS_PASSPHRASE: PASS } },
      )
      assert.equal(r.code, 0, r.stderr)
    }
  })
  after(async () => {
    await Promise.all([t?.stop(), next?.stop()])
    cleanup()
  })

  it('needs the key (the passphrase source is used only here), says why, and its calldata stakes on adiri', async () => {
    const v0 = join(dir, 'v0')
    const noPass = await runCli([
      'keytool',
      'export-staking-args',
      '--node-info',
      v0,
      '--registry-generation',
      'adiri',
      '--calldata',
    ])
    assert.equal(noPass.code, 2)
    assert.match(noPass.stderr, /218-byte message/)
    assert.match(noPass.stderr, /passphrase is required|TN_BLS_PASSPHRASE is not set/)
    assert.equal(noPass.stdout, '')

    const r = await runCli(
      ['keytool', 'export-staking-args', '--node-info', v0, '--registry-generation', 'adiri', '--calldata'],
      {
        env: { TN_BLS_PASSPHRASE: PASS },
      },
    )
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stderr,
      /For the adiri registry \(--registry-generation adiri\): stake\(bytes,\(bytes,bytes\)\), selector 0xb5184324/,
    )
    const calldata = r.stdout.trim() as Hex
    assert.ok(calldata.startsWith('0xb5184324'))
    const call = decodeFunctionData({ abi: registryAbis.adiri, data: calldata })
    const proof = (call.args as readonly unknown[])[1] as { uncompressedPubkey: Hex; uncompressedSignature: Hex }
    assert.equal((proof.uncompressedPubkey.length - 2) / 2, 192)
    assert.equal((proof.uncompressedSignature.length - 2) / 2, 96)

    // the registry's own message for this key and address is what was signed: it stakes
    const message = await t.engine.client.readContract({
      address: REGISTRY_ADDRESS,
      abi: registryAbis.adiri,
      functionName: 'proofOfPossessionMessage',
      args: [proof.uncompressedPubkey, validator(0).address],
    })
    assert.equal((message.length - 2) / 2, 218)
    await t.mint(validator(0).address)
    const wallet = createWalletClient({ account: privateKeyToAccount(validator(0).privateKey), transport: http(t.url) })
    const hash = await wallet.sendTransaction({
      chain: null,
      to: REGISTRY_ADDRESS,
      data: calldata,
      value: parseEther('1000000'),
    })
    assert.equal((await engineReceipt(t.engine.client, hash)).status, 'success')
    const json = await runCli(
      ['keytool', 'export-staking-args', '--node-info', v0, '--registry-generation', 'adiri', '--json'],
      {
        env: { TN_BLS_PASSPHRASE: PASS },
      },
    )
    const out = parseJson<Record<string, Hex>>(json)
    assert.deepEqual(Object.keys(out), ['blsPubkey', 'uncompressedPubkey', 'uncompressedSignature'])
    assert.equal(
      await t.engine.client.readContract({
        address: REGISTRY_ADDRESS,
        abi: registryAbis.adiri,
        functionName: 'getBlsPubkey',
        args: [validator(0).address],
      }),
      out.blsPubkey,
    )
  })

  it('a node-info.yaml whose key is not the key in the directory is refused (exit 4), nothing printed', async () => {
    const mixed = join(dir, 'mixed')
    await fs.cp(join(dir, 'v1'), mixed, { recursive: true })
    await fs.copyFile(join(dir, 'v0', 'node-info.yaml'), join(mixed, 'node-info.yaml'))
    const r = await runCli(
      ['keytool', 'export-staking-args', '--node-info', mixed, '--registry-generation', 'adiri', '--calldata'],
      {
        env: { TN_BLS_PASSPHRASE: PASS },
      },
    )
    assert.equal(r.code, 4, r.stderr)
    assert.equal(r.stdout, '')
    // refused before the key is opened (tnv's record of the key file says whose key it is); the
    // fix names the command that checks the pair
    assert.match(r.stderr, /`tnv keytool verify --datadir [^`]*mixed`/)
  })

  it('the generation of a reachable registry decides the form, and is said', async () => {
    const v1 = join(dir, 'v1')
    const chain = (c: TestChain) => ['--rpc-url', c.url, '--chain-id', String(c.engine.chainId)]
    const a = await runCli(['keytool', 'export-staking-args', '--node-info', v1, '--calldata', ...chain(t)], {
      env: { TN_BLS_PASSPHRASE: PASS },
    })
    assert.equal(a.code, 0, a.stderr)
    assert.ok(a.stdout.startsWith('0xb5184324'))
    assert.match(a.stderr, /For the adiri registry \(found at the registry\)/)
    const n = await runCli(['keytool', 'export-staking-args', '--node-info', v1, '--calldata', ...chain(next)], {
      env: { TN_BLS_PASSPHRASE: PASS },
    })
    assert.equal(n.code, 0, n.stderr)
    assert.ok(n.stdout.startsWith('0x2fb0d025'))
    assert.match(n.stderr, /For the next-generation registry: stake\(bytes,\(bytes\)\)/)
    // --registry-generation and the registry found disagree: an error, nothing printed
    const mismatch = await runCli(
      [
        'keytool',
        'export-staking-args',
        '--node-info',
        v1,
        '--calldata',
        '--registry-generation',
        'adiri',
        ...chain(next),
      ],
      { env: { TN_BLS_PASSPHRASE: PASS } },
    )
    assert.equal(mismatch.code, 12, mismatch.stderr)
    assert.equal(mismatch.stdout, '')
  })

  it("TN_CHAIN=testnet (the README's testnet path) gives the adiri calldata, the generation the test network runs, offline; it stakes on adiri", async () => {
    const v1 = join(dir, 'v1')
    const r = await runCli(['keytool', 'export-staking-args', '--node-info', v1, '--calldata'], {
      env: { TN_BLS_PASSPHRASE: PASS, TN_CHAIN: 'testnet' },
    })
    assert.equal(r.code, 0, r.stderr)
    assert.ok(r.stdout.startsWith('0xb5184324'), r.stdout)
    assert.match(r.stderr, /TN_CHAIN=testnet: the testnet runs the adiri registry generation/)
    assert.match(r.stderr, /For the adiri registry \(TN_CHAIN=testnet\)/)
    const d = await runCli(['keytool', 'export-staking-args', '--node-info', v1, '--json', '--details'], {
      env: { TN_BLS_PASSPHRASE: PASS, TN_CHAIN: 'testnet' },
    })
    const out = parseJson<{ tnv: { generation: string; generationFrom: string } }>(d)
    assert.deepEqual([out.tnv.generation, out.tnv.generationFrom], ['adiri', 'environment'])
    // the calldata is the adiri registry's own: it stakes there
    await t.mint(validator(1).address)
    const wallet = createWalletClient({ account: privateKeyToAccount(validator(1).privateKey), transport: http(t.url) })
    const hash = await wallet.sendTransaction({
      chain: null,
      to: REGISTRY_ADDRESS,
      data: r.stdout.trim() as Hex,
      value: parseEther('1000000'),
    })
    assert.equal((await engineReceipt(t.engine.client, hash)).status, 'success')
  })
})
