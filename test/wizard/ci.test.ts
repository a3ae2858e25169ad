/**
 * Scripted onboarding (no terminal): the whole flow from flags and env with --json as JSON
 * lines, the exit code of each failure class, a second run that sends nothing, and resume
 * after the process is killed at each step: right after a transaction was sent (the rerun
 * waits for it and never sends a second one), and while waiting for the node.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { generatePrivateKey } from 'viem/accounts'
import { ExitCode } from '../../src/lib/errors.js'
import { JOURNAL_FILE, type JournalFile as Journal } from '../../src/lib/tx/journal.js'
import { eventProblems } from '../../src/lib/wizard/event-schema.js'
import { BIN, type CliResult, ROOT } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { jsonLines, startTestDevnet, stopNode, type TestDevnet } from './devnet.js'

type Line = Record<string, unknown>

describe('tnv stake / tnv exit without a terminal (CI)', () => {
  let t: TestDevnet
  const datadir = (name: string) => join(t.dir, name)
  const journal = (dir: string) => JSON.parse(readFileSync(join(dir, JOURNAL_FILE), 'utf8')) as Journal
  const flow = (dir: string, extra: string[] = []) => [
    'stake',
    '--datadir',
    dir,
    '--chain',
    'devnet',
    '--through',
    'active',
    '--json',
    // stake moves money: without a terminal it needs --yes (the one confirmation policy)
    '--yes',
    ...(extra.includes('--timeout') ? [] : ['--timeout', '120']),
    ...extra,
  ]
  const withKey = (i: number | `0x${string}`) => ({
    TN_PRIVATE_KEY: typeof i === 'number' ? t.key(i) : i,
    TN_BLS_PASSPHRASE: 'ci passphrase',
  })
  /** The last line is the result (or the error); every line is JSON. */
  const lines = (r: CliResult): Line[] => {
    let all: Line[]
    try {
      all = jsonLines(r.stdout)
    } catch (err) {
      throw new Error(`stdout is not JSON lines (exit ${r.code}): ${err}\n${r.stdout}\n${r.stderr}`)
    }
    // every event line matches its documented schema (docs/ci.md, src/lib/wizard/event-schema.ts)
    const problems = all.filter((l) => 'event' in l).flatMap((l) => eventProblems(l as Record<string, unknown>))
    assert.deepEqual(problems, [], `events off their schema:\n${r.stdout}`)
    return all
  }
  const expectError = (r: CliResult, code: string, exitCode: number) => {
    assert.equal(r.code, exitCode, `${r.stdout}\n${r.stderr}`)
    const last = lines(r).at(-1) as { error: { code: string; exitCode: number; fix?: string } }
    assert.equal(last.error.code, code)
    assert.equal(last.error.exitCode, exitCode)
    return last.error
  }
  /** Runs the CLI and SIGKILLs it once a JSON line matches. */
  const killAt = (args: string[], env: Record<string, string>, match: (l: Line) => boolean) =>
    new Promise<Line>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: ROOT,
        env: { ...process.env, ...t.env, ...env } as NodeJS.ProcessEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      let hit: Line | null = null
      child.stdout.setEncoding('utf8')
      child.stdout.on('data', (d: string) => {
        out += d
        for (const l of out.split('\n').slice(0, -1)) {
          const parsed = JSON.parse(l) as Line
          if (!hit && match(parsed)) {
            hit = parsed
            child.kill('SIGKILL')
          }
        }
      })
      child.on('close', () => (hit ? resolve(hit) : reject(new Error(`never matched; output:\n${out}`))))
    })

  before(async () => {
    t = await startTestDevnet('tnv-wizard-ci-')
  })
  after(async () => {
    for (const name of ['full', 'resume', 'attach']) await stopNode(t, datadir(name))
    await t.stop()
  })

  it('from nothing to Active: keys, devnet mint, stake, node, sync, activate, Active; JSON lines with the result last', async () => {
    const dir = datadir('full')
    const r = await t.tnv(flow(dir, ['--create-keys', '--mint', '--start-node']), withKey(0))
    assert.equal(r.code, 0, r.stderr)
    const all = lines(r)
    const events = all.slice(0, -1).map((l) => l.event)
    for (const e of [
      'keys-created',
      'identity',
      'whitelisted',
      'plan',
      'sent',
      'confirmed',
      'staked',
      'node-started',
      'synced',
      'active',
    ])
      assert.ok(events.includes(e), `event ${e} in ${events.join(',')}`)
    const result = all.at(-1) as { status: string; validator: string; steps: { step: string; outcome: string }[] }
    assert.equal(result.status, 'Active')
    assert.equal(result.validator, t.address(0))
    assert.deepEqual(
      result.steps.map((s) => `${s.step}:${s.outcome}`),
      ['keys:done', 'mint:sent', 'stake:sent', 'sync:done', 'activate:sent', 'active:done'],
    )
    // one JSON key per plan row: the function and the registry's address both kept
    const plan = all.find((l) => l.event === 'plan' && l.step === 'stake') as { rows: Record<string, string> }
    assert.equal(plan.rows.function, 'stake(bytes,(bytes)) (the next registry)')
    assert.match(plan.rows.registry ?? '', /^0x[0-9a-fA-F]{40}$/)
    const identity = all.find((l) => l.event === 'identity') as { prerequisites: { name: string }[] }
    assert.deepEqual(
      identity.prerequisites.map((p) => p.name),
      ['public-ip', 'udp-ports', 'node-binary', 'balance'],
    )
  })

  it('running it twice is safe: the second run sends nothing and succeeds', async () => {
    const dir = datadir('full')
    const before = journal(dir).entries.length
    const r = await t.tnv(flow(dir, ['--create-keys', '--mint', '--start-node']), withKey(0))
    assert.equal(r.code, 0, r.stderr)
    const result = lines(r).at(-1) as { status: string; steps: unknown[] }
    assert.equal(result.status, 'Active')
    assert.deepEqual(result.steps, [])
    assert.equal(journal(dir).entries.length, before)
    assert.ok(!lines(r).some((l) => l.event === 'sent'))
  })

  it('exit codes: missing signer and keys 2, keys of another address 4, not whitelisted 20, insufficient funds 21, RPC unreachable 10', async () => {
    const noSigner = expectError(await t.tnv(flow(datadir('e1'))), 'SignerRequired', ExitCode.Usage)
    assert.match(noSigner.fix ?? '', /TN_PRIVATE_KEY/)
    const noKeys = expectError(await t.tnv(flow(datadir('e1')), withKey(1)), 'MissingInput', ExitCode.Usage)
    assert.match(noKeys.fix ?? '', /--create-keys/)
    // keys made for account 1, signer account 2
    const r1 = await t.tnv(
      ['keytool', 'generate', 'validator', '--address', t.address(1), '--datadir', datadir('e1'), '-q'],
      {
        TN_BLS_PASSPHRASE: 'x',
      },
    )
    assert.equal(r1.code, 0, r1.stderr)
    expectError(await t.tnv(flow(datadir('e1')), withKey(2)), 'SignerMismatch', ExitCode.BadKeys)
    // account 1 is not whitelisted: what governance needs, then exit 20
    const nw = await t.tnv(flow(datadir('e1')), withKey(1))
    expectError(nw, 'NotWhitelisted', ExitCode.NotWhitelisted)
    const needed = lines(nw).find((l) => l.event === 'whitelist-needed')
    assert.equal(needed?.validator, t.address(1))
    assert.equal(needed?.nodeInfo, join(datadir('e1'), 'node-info.yaml'))
    // an empty wallet, whitelisted on the devnet
    expectError(
      await t.tnv(flow(datadir('e2'), ['--create-keys', '--mint']), withKey(generatePrivateKey())),
      'InsufficientFunds',
      ExitCode.InsufficientFunds,
    )
    const port = await freePort()
    expectError(
      await t.tnv(
        ['stake', '--datadir', datadir('e1'), '--rpc-url', `http://127.0.0.1:${port}`, '--through', 'staked', '--json'],
        withKey(1),
      ),
      'RpcUnreachable',
      ExitCode.RpcUnreachable,
    )
    // the plain stake (no --through) too: one JSON document
    const plain = await t.tnv(
      ['stake', '--datadir', datadir('e1'), '--rpc-url', `http://127.0.0.1:${port}`, '--json'],
      withKey(1),
    )
    assert.equal(plain.code, ExitCode.RpcUnreachable, plain.stderr)
    assert.equal((JSON.parse(plain.stdout) as { error: { code: string } }).error.code, 'RpcUnreachable')
  })

  it('without a terminal and without --yes, nothing is sent at all: refused before the devnet mint, not at the stake', async () => {
    const dir = datadir('no-yes')
    const args = flow(dir, ['--create-keys', '--mint', '--start-node']).filter((a) => a !== '--yes')
    const r = await t.tnv(args, withKey(3))
    const err = expectError(r, 'ConfirmationRequired', ExitCode.Usage)
    assert.match(err.fix ?? '', /--yes/)
    const events = lines(r).map((l) => l.event)
    for (const e of ['whitelisted', 'plan', 'sent'])
      assert.ok(!events.includes(e), `no ${e} event: ${events.join(',')}`)
    // the chain says the same: account 3 was not whitelisted by the refused run
    const status = await t.tnv(['validator', 'status', '--chain', 'devnet', '--address', t.address(3), '--json'])
    assert.equal(status.code, 0, status.stderr)
    assert.equal((JSON.parse(status.stdout) as { whitelisted: boolean }).whitelisted, false)
  })

  it('no node and no --start-node: stakes, then names the flags (exit 2); a rerun with --node-rpc-url attaches and finishes', async () => {
    const dir = datadir('attach')
    const first = await t.tnv(flow(dir, ['--create-keys', '--mint']), withKey(4))
    const err = expectError(first, 'MissingInput', ExitCode.Usage)
    assert.match(err.fix ?? '', /--node-rpc-url/)
    assert.match(err.fix ?? '', /--start-node/)
    assert.ok(lines(first).some((l) => l.event === 'staked'))
    const second = await t.tnv(flow(dir, ['--node-rpc-url', t.info.rpcUrl as string]), withKey(4))
    assert.equal(second.code, 0, second.stderr)
    const result = lines(second).at(-1) as { status: string; node: { how: string } }
    assert.equal(result.status, 'Active')
    assert.equal(result.node.how, 'flag')
  })

  it('resume: killed right after each sent transaction and while starting the node, each rerun continues and nothing is sent twice', async () => {
    const dir = datadir('resume')
    const env = withKey(5)
    const args = flow(dir, ['--create-keys', '--mint', '--start-node'])
    const stakeSent = await killAt(args, env, (l) => l.event === 'sent' && l.step === 'stake')
    const open = journal(dir).entries.find((e) => e.step === 'stake')
    assert.equal(open?.hash, stakeSent.hash, 'the submission was journaled before the kill')

    const nodeStarted = await killAt(args, env, (l) => l.event === 'node-started')
    assert.ok(nodeStarted.pid)
    const activateSent = await killAt(args, env, (l) => l.event === 'sent' && l.step === 'activate')

    const r = await t.tnv(args, env)
    assert.equal(r.code, 0, r.stderr)
    const all = lines(r)
    const result = all.at(-1) as {
      status: string
      node: { how: string } | null
      steps: { step: string; resumedHash?: string }[]
    }
    assert.equal(result.status, 'Active')
    // the activate sent by the killed run was waited for, not sent again
    assert.ok(all.some((l) => l.event === 'resume' && l.hash === activateSent.hash))
    assert.ok(!all.some((l) => l.event === 'sent'))
    const steps = journal(dir).entries.map((e) => `${e.step}:${e.outcome}`)
    assert.deepEqual(steps, ['stake:success', 'activate:success'])
    assert.equal(journal(dir).entries.find((e) => e.step === 'stake')?.hash, stakeSent.hash)
    assert.equal(journal(dir).entries.find((e) => e.step === 'activate')?.hash, activateSent.hash)
  })

  it('a node that stays behind the network: exit 23 once --timeout runs out, after the stake', async () => {
    // a node stuck at block 1
    const server = createServer((req, res) => {
      let body = ''
      req.on('data', (d) => {
        body += d
      })
      req.on('end', () => {
        const { id, method } = JSON.parse(body) as { id: number; method: string }
        const result = method === 'eth_chainId' ? `0x${t.info.chainId.toString(16)}` : '0x1'
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result }))
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    try {
      const r = await t.tnv(
        flow(datadir('behind'), [
          '--create-keys',
          '--mint',
          '--node-rpc-url',
          `http://127.0.0.1:${port}`,
          '--timeout',
          '3',
        ]),
        withKey(7),
      )
      expectError(r, 'NotSynced', ExitCode.NodeNotSynced)
      assert.ok(lines(r).some((l) => l.event === 'staked'))
    } finally {
      server.close()
    }
  })

  it('a journaled transaction the chain never saw is marked dropped, and the step is sent once', async () => {
    const dir = datadir('dropped')
    const keys = await t.tnv(['keytool', 'generate', 'validator', '--address', t.address(6), '--datadir', dir, '-q'], {
      TN_BLS_PASSPHRASE: 'x',
    })
    assert.equal(keys.code, 0, keys.stderr)
    const ghost = `0x${'ab'.repeat(32)}` as const
    // an entry as an older tnv wrote it (after the send, without its bytes or nonce)
    writeFileSync(
      join(dir, JOURNAL_FILE),
      JSON.stringify({
        version: 1,
        entries: [
          {
            step: 'stake',
            chainId: t.info.chainId,
            from: t.address(6),
            to: t.info.registry,
            hash: ghost,
            nonce: null,
            submittedAt: new Date().toISOString(),
          },
        ],
      }),
    )
    const r = await t.tnv(
      ['stake', '--datadir', dir, '--chain', 'devnet', '--through', 'staked', '--mint', '--json', '--yes'],
      withKey(6),
    )
    assert.equal(r.code, 0, r.stderr)
    const all = lines(r)
    assert.ok(all.some((l) => l.event === 'resumed' && l.hash === ghost && l.outcome === 'dropped'))
    assert.equal(all.filter((l) => l.event === 'sent' && l.step === 'stake').length, 1)
    assert.equal((all.at(-1) as { status: string }).status, 'Staked')
    assert.deepEqual(
      journal(dir).entries.map((e) => `${e.step}:${e.outcome}`),
      ['stake:dropped', 'stake:success'],
    )
  })

  it('exit without a terminal: --through needs --yes (exit 2); with it, the mirror path to unstaked, and a rerun is a no-op', async () => {
    const dir = datadir('full')
    const exitArgs = [
      'exit',
      '--datadir',
      dir,
      '--chain',
      'devnet',
      '--through',
      'unstaked',
      '--json',
      '--timeout',
      '180',
    ]
    expectError(await t.tnv(exitArgs, withKey(0)), 'ConfirmationRequired', ExitCode.Usage)
    const r = await t.tnv([...exitArgs, '--yes'], withKey(0))
    assert.equal(r.code, 0, r.stderr)
    const all = lines(r)
    for (const e of ['pending-exit', 'exited', 'paid'])
      assert.ok(
        all.some((l) => l.event === e),
        `event ${e}`,
      )
    const result = all.at(-1) as {
      status: string
      exitEpoch: number
      paid: { recipient: string; stake: string }
      steps: { step: string; outcome: string }[]
    }
    assert.equal(result.status, 'Retired')
    assert.equal(result.paid.recipient, t.address(0))
    assert.equal(result.paid.stake, '1000000000000000000000000')
    assert.deepEqual(
      result.steps.map((s) => `${s.step}:${s.outcome}`),
      ['beginExit:sent', 'exited:done', 'unstake:sent'],
    )
    const again = await t.tnv([...exitArgs, '--yes'], withKey(0))
    assert.equal(again.code, 0, again.stderr)
    assert.deepEqual(
      (lines(again).at(-1) as { steps: { step: string; outcome: string }[] }).steps.map(
        (s) => `${s.step}:${s.outcome}`,
      ),
      ['unstake:already-done'],
    )
  })
})
