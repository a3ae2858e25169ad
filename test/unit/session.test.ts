/** The session's one terminal predicate, the passphrase variables it hands the library, and the one confirmation policy. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isInteractive, Session } from '../../src/cli/session.js'
import type { TransactionPlan } from '../../src/lib/registry/types.js'
import { confirmKind, createConfirm } from '../../src/lib/tx/confirm-policy.js'

const tty = { isTTY: true }
const pipe = { isTTY: false }
const all = { stdin: tty, stdout: tty, stderr: tty }

describe('isInteractive: the one predicate', () => {
  it('needs stdin, stdout and stderr to be terminals', () => {
    assert.equal(isInteractive({ env: {}, streams: all }), true)
    for (const k of ['stdin', 'stdout', 'stderr'] as const)
      assert.equal(isInteractive({ env: {}, streams: { ...all, [k]: pipe } }), false, k)
  })
  it('--non-interactive and TN_NON_INTERACTIVE switch prompts off everywhere; 0 or empty does not', () => {
    assert.equal(isInteractive({ nonInteractive: true, env: {}, streams: all }), false)
    assert.equal(isInteractive({ env: { TN_NON_INTERACTIVE: '1' }, streams: all }), false)
    assert.equal(isInteractive({ env: { TN_NON_INTERACTIVE: 'true' }, streams: all }), false)
    assert.equal(isInteractive({ env: { TN_NON_INTERACTIVE: '0' }, streams: all }), true)
    assert.equal(isInteractive({ env: { TN_NON_INTERACTIVE: '' }, streams: all }), true)
  })
})

const plan = (action: string, irreversible = false) =>
  ({ action, irreversible, title: action, rows: [['x', 'y']] }) as unknown as TransactionPlan

describe('the confirmation policy: one default per action', () => {
  it('money and irreversible steps default No; harmless ones Yes', () => {
    for (const a of ['stake', 'delegateStake']) assert.equal(confirmKind(plan(a)), 'money')
    for (const a of ['beginExit', 'unstake']) assert.equal(confirmKind(plan(a, true)), 'irreversible')
    for (const a of ['activate', 'claimStakeRewards', 'claimRefund', 'mint', 'increaseNonce'])
      assert.equal(confirmKind(plan(a)), 'harmless')
    assert.equal(confirmKind(plan('somethingNew')), 'money', 'an unlisted action is treated as moving money')
  })

  it('on a terminal it asks with that default; --yes never asks', async () => {
    const asked: [string, boolean][] = []
    const ask = async (m: string, d: boolean) => {
      asked.push([m, d])
      return d
    }
    const confirm = createConfirm({ yes: false, interactive: true, show: () => {}, ask })
    assert.equal(await confirm(plan('stake')), false)
    assert.equal(await confirm(plan('unstake', true)), false)
    assert.equal(await confirm(plan('activate')), true)
    assert.deepEqual(asked, [
      ['Send it?', false],
      ['This cannot be undone. Send it?', false],
      ['Send it?', true],
    ])
    const yes = createConfirm({ yes: true, interactive: true, show: () => {}, ask })
    assert.equal(await yes(plan('stake')), true)
    assert.equal(asked.length, 3)
  })

  it('without a terminal, money and irreversible steps need --yes (exit 2, naming it); harmless ones proceed', async () => {
    const confirm = createConfirm({
      yes: false,
      interactive: false,
      show: () => {},
      ask: async () => assert.fail('never asks without a terminal'),
    })
    for (const p of [plan('stake'), plan('delegateStake'), plan('beginExit', true), plan('unstake', true)])
      await assert.rejects(confirm(p), (err: Error & { code?: string; exitCode?: number; fix?: string }) => {
        assert.equal(err.code, 'ConfirmationRequired')
        assert.equal(err.exitCode, 2)
        assert.match(err.fix ?? '', /--yes/)
        return true
      })
    assert.equal(await confirm(plan('activate')), true)
  })
})

describe('passphraseEnv: the session takes the passphrase variable out of the environment for the library', () => {
  const session = new Session({ nonInteractive: true, output: 'json', command: 'tnv test' })
  const saved = {
    TN_BLS_PASSPHRASE: process.env.TN_BLS_PASSPHRASE,
    TN_NEW_BLS_PASSPHRASE: process.env.TN_NEW_BLS_PASSPHRASE,
  }
  const restore = () => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
  }

  it('source env: the value is handed over and removed from the process environment', () => {
    try {
      process.env.TN_BLS_PASSPHRASE = ' pw '
      assert.deepEqual(session.passphraseEnv('env'), { TN_BLS_PASSPHRASE: ' pw ' })
      assert.equal('TN_BLS_PASSPHRASE' in process.env, false)
      // asked again in the same run (the key check, then the adiri proof): the same value
      assert.deepEqual(session.passphraseEnv('env'), { TN_BLS_PASSPHRASE: ' pw ' })
      assert.equal(session.takeEnvSecret('TN_BLS_PASSPHRASE'), ' pw ')
      process.env.TN_NEW_BLS_PASSPHRASE = 'new'
      assert.deepEqual(session.passphraseEnv('env', 'TN_NEW_BLS_PASSPHRASE'), { TN_NEW_BLS_PASSPHRASE: 'new' })
      assert.equal('TN_NEW_BLS_PASSPHRASE' in process.env, false)
    } finally {
      restore()
    }
  })

  it('an empty value counts as not set and stays; other sources take nothing', () => {
    const session = new Session({ nonInteractive: true, output: 'json', command: 'tnv test' })
    try {
      process.env.TN_BLS_PASSPHRASE = ''
      assert.deepEqual(session.passphraseEnv('env'), { TN_BLS_PASSPHRASE: '' })
      assert.equal(process.env.TN_BLS_PASSPHRASE, '')
      process.env.TN_BLS_PASSPHRASE = 'pw'
      for (const source of ['stdin', 'ask', 'no-passphrase'] as const) {
        assert.deepEqual(session.passphraseEnv(source), {})
        assert.equal(process.env.TN_BLS_PASSPHRASE, 'pw')
      }
    } finally {
      restore()
    }
  })
})

describe('signerEnv: the signer secrets leave the process environment and are handed in a copy', () => {
  it('TN_PRIVATE_KEY and TN_KEYSTORE_PASSWORD are taken out; every call of the run hands them again', () => {
    const session = new Session({ nonInteractive: true, output: 'json', command: 'tnv test' })
    const saved = { TN_PRIVATE_KEY: process.env.TN_PRIVATE_KEY, TN_KEYSTORE_PASSWORD: process.env.TN_KEYSTORE_PASSWORD }
    try {
      process.env.TN_PRIVATE_KEY = 'key'
      process.env.TN_KEYSTORE_PASSWORD = 'pw'
      const env = session.signerEnv()
      assert.equal(env.TN_PRIVATE_KEY, 'key')
      assert.equal(env.TN_KEYSTORE_PASSWORD, 'pw')
      assert.equal(env.PATH, process.env.PATH)
      assert.equal('TN_PRIVATE_KEY' in process.env, false)
      assert.equal('TN_KEYSTORE_PASSWORD' in process.env, false)
      assert.equal(session.signerEnv().TN_PRIVATE_KEY, 'key')
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
    }
  })
})
