/**
 * --ledger / --trezor, up to the device boundary and never past it: the cast tnv ships, the
 * error without a device (what was looked for, which path), the refusals (two signers; the raw
 * delegation digest), the exact `cast mktx` command tnv would run for the device, and tnv's own
 * check of what comes back. No device signature is faked: the command's arguments are run once
 * more with the device options replaced by a public anvil development key, and the transaction
 * cast signs with it must decode to exactly the fields tnv prepared and recover to that key.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { TransactionSerializable } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { resolveCastBinary, runCast } from '../../src/lib/signers/cast.js'
import { checkSignedTransaction, deviceArgs, mktxArgs } from '../../src/lib/signers/hardware.js'
import { parseJson, runCli } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

// anvil's second public development key (never a real key)
const DEV_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const dev = privateKeyToAccount(DEV_KEY)
const REGISTRY = '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1'
const ACTIVATE = '0x0f15f4c0'

const eip1559: TransactionSerializable = {
  type: 'eip1559',
  chainId: 2017,
  to: REGISTRY,
  data: ACTIVATE,
  value: 0n,
  nonce: 3,
  gas: 100_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
}
const legacy: TransactionSerializable = {
  type: 'legacy',
  chainId: 2017,
  to: REGISTRY,
  data: ACTIVATE,
  value: 1_000_000n * 10n ** 18n,
  nonce: 0,
  gas: 500_000n,
  gasPrice: 7n,
}

describe('hardware wallets through foundry’s cast', () => {
  it('finds the cast of @foundry-rs/cast (foundry 1.7.1)', async () => {
    assert.match(resolveCastBinary(process.env), /@foundry-rs\/cast-[a-z0-9]+-[a-z0-9]+\/bin\/cast(\.exe)?$/)
    const v = await runCast(['--version'], { env: process.env })
    assert.equal(v.code, 0)
    assert.match(v.stdout, /1\.7\.1/)
  })

  it('hands cast none of the secrets tnv reads for itself (it talks to the device only)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tnv-cast-env-'))
    try {
      // a stand-in cast that prints the environment it was given
      const script = join(dir, 'cast')
      writeFileSync(script, '#!/bin/sh\nenv\n', { mode: 0o755 })
      const secrets = { TN_PRIVATE_KEY: '0xfeed', TN_KEYSTORE_PASSWORD: 'pw', TN_BLS_PASSPHRASE: 'bls pass' }
      const r = await runCast(['wallet', 'address'], {
        env: { PATH: process.env.PATH, TNV_CAST_BINARY: script, ...secrets },
      })
      assert.equal(r.code, 0, r.stderr)
      for (const name of Object.keys(secrets)) assert.doesNotMatch(r.stdout, new RegExp(`^${name}=`, 'm'), name)
      assert.match(r.stdout, /^NO_COLOR=1$/m)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('asks the device for exactly what tnv prepared: every field, the account by index or path', () => {
    assert.deepEqual(mktxArgs(eip1559, { device: 'ledger', from: dev.address }), [
      'mktx',
      REGISTRY,
      ACTIVATE,
      '--value',
      '0',
      '--nonce',
      '3',
      '--gas-limit',
      '100000',
      '--gas-price',
      '2000000000',
      '--priority-gas-price',
      '1000000000',
      '--chain',
      '2017',
      '--from',
      dev.address,
      '--ledger',
    ])
    assert.deepEqual(mktxArgs(legacy, { device: 'trezor', index: 2, from: dev.address }).slice(9), [
      '--legacy',
      '--gas-price',
      '7',
      '--chain',
      '2017',
      '--from',
      dev.address,
      '--trezor',
      '--mnemonic-index',
      '2',
    ])
    assert.deepEqual(deviceArgs({ device: 'ledger', hdPath: "m/44'/60'/1'/0/0" }), [
      '--ledger',
      '--mnemonic-derivation-path',
      "m/44'/60'/1'/0/0",
    ])
  })

  for (const [label, tx] of [
    ['EIP-1559', eip1559],
    ['legacy', legacy],
  ] as const) {
    it(`that command, with a software key in place of the device, signs the very ${label} transaction, and tnv's check accepts it and refuses any other`, async () => {
      const args = mktxArgs(tx, { device: 'ledger', from: dev.address })
      const soft = [...args.slice(0, -1), '--private-key', DEV_KEY, '--rpc-url', `http://127.0.0.1:${await freePort()}`]
      const run = await runCast(soft, { env: process.env })
      assert.equal(run.code, 0, run.stderr)
      const raw = run.stdout.trim() as `0x${string}`
      await checkSignedTransaction(raw, tx, dev.address)
      await assert.rejects(
        checkSignedTransaction(raw, { ...tx, nonce: 4 }, dev.address),
        /HardwareSignature|nonce differ/,
      )
      await assert.rejects(
        checkSignedTransaction(raw, tx, '0x000000000000000000000000000000000000bEEF'),
        /signed by 0x70997970C51812dc3A010C7d01b50e0d17dc79C8, not by 0x000000000000000000000000000000000000bEEF/,
      )
    })
  }

  it('without a device: one clear error naming the device and the path looked for (exit 4), before anything is read or signed', async () => {
    const rpc = `http://127.0.0.1:${await freePort()}`
    const ledger = await runCli(['activate', '--ledger', '--rpc-url', rpc, '--chain-id', '911329', '--json'])
    assert.equal(ledger.code, 4, ledger.stderr)
    const e = parseJson<{ error: { code: string; message: string; fix: string } }>(ledger).error
    assert.equal(e.code, 'HardwareWalletUnavailable')
    assert.match(e.message, /^No Ledger answered for the account at m\/44'\/60'\/0'\/0\/0: cast said ".+"\.$/)
    assert.match(e.fix, /Ethereum app/)
    const trezor = await runCli([
      'activate',
      '--trezor',
      '--hd-path',
      "m/44'/60'/7'/0/0",
      '--rpc-url',
      rpc,
      '--chain-id',
      '911329',
    ])
    assert.equal(trezor.code, 4)
    assert.match(trezor.stderr, /No Trezor answered for the account at m\/44'\/60'\/7'\/0\/0/)
    assert.equal(trezor.stderr.split('\n').filter((l) => l.startsWith('Error:')).length, 1, 'one paragraph')
  })

  it('refuses two signers at once, and the raw delegation digest on a device, naming the path that works', async () => {
    const both = await runCli([
      'activate',
      '--ledger',
      '--keystore',
      'x.json',
      '--chain-id',
      '911329',
      '--rpc-url',
      'http://127.0.0.1:1',
    ])
    assert.equal(both.code, 2)
    assert.match(both.stderr, /--keystore=x\.json cannot also be provided when using --ledger/)
    const digest = await runCli([
      'delegation',
      'sign',
      '--trezor',
      '--delegator',
      '0x000000000000000000000000000000000000bEEF',
      '--json',
    ])
    assert.equal(digest.code, 2)
    const e = parseJson<{ error: { code: string; message: string; fix: string } }>(digest).error
    assert.equal(e.code, 'HardwareCannotSignDigest')
    assert.match(e.message, /raw 32-byte digest, which a Trezor does not sign/)
    assert.match(e.fix, /tnv delegation sign --keystore FILE/)
  })
})
