/**
 * `tnv facts` and `tnv fleet status` on one devnet with several validators (separate data
 * directories): v1 and v2 onboarded to Active by the scripted flow (each with its node), v3 with
 * keys and no node. Judged by what the devnet's registry and the nodes say, and by promtool for
 * the textfile `node check --prometheus` writes.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import type { Facts } from '../../src/lib/fleet/facts.js'
import type { FleetStatus } from '../../src/lib/fleet/status.js'
import { parseJson, ROOT } from '../helpers/cli.js'
import { jsonLines, startTestDevnet, stopNode, type TestDevnet } from '../wizard/devnet.js'

const ajv = new Ajv({ allErrors: true, strict: true })
const factsShape = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'docs/facts.schema.json'), 'utf8')))
const fleetShape = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'docs/fleet-status.schema.json'), 'utf8')))
/** Every --json document of these commands is checked against its published schema. */
function parseFacts(r: { stdout: string; stderr: string; code: number }): Facts {
  const doc = parseJson<Facts>(r)
  assert.ok(factsShape(doc), JSON.stringify(factsShape.errors, null, 1))
  return doc
}
function parseFleet(r: { stdout: string; stderr: string; code: number }): FleetStatus {
  const doc = parseJson<FleetStatus>(r)
  assert.ok(fleetShape(doc), JSON.stringify(fleetShape.errors, null, 1))
  return doc
}

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' })
const noPromtool = promtool.status === 0 ? false : 'promtool is not installed (apt-get install prometheus)'

describe('facts and fleet status on one devnet', () => {
  let t: TestDevnet
  const dir = (name: string) => join(t.dir, name)
  const address: Record<string, string> = {}

  before(async () => {
    t = await startTestDevnet('tnv-fleet-')
    // v1 and v2 in parallel: separate data directories, signers and nodes
    await Promise.all(
      (['v1', 'v2'] as const).map(async (name, i) => {
        const r = await t.tnv(
          [
            'stake',
            '--chain',
            'devnet',
            '--datadir',
            dir(name),
            '--create-keys',
            '--mint',
            '--start-node',
            '--through',
            'active',
            '--timeout',
            '120',
            '--yes',
            '--json',
          ],
          { TN_PRIVATE_KEY: t.key(i + 1), TN_BLS_PASSPHRASE: `passphrase of ${name}` },
        )
        const last = jsonLines(r.stdout).at(-1) as { status?: string; validator?: string }
        assert.equal(last.status, 'Active', r.stdout + r.stderr)
        address[name] = last.validator as string
      }),
    )
    const v3 = await t.tnv(
      ['keytool', 'generate', 'validator', '--datadir', dir('v3'), '--address', t.address(3), '--json'],
      { TN_BLS_PASSPHRASE: 'passphrase of v3' },
    )
    assert.equal(v3.code, 0, v3.stderr)
  })
  after(async () => {
    if (!t) return
    await stopNode(t, dir('v1'))
    await stopNode(t, dir('v2'))
    await t.stop()
  })

  it('facts: identity, registry status, node and epoch from the devnet; the key checks only with a passphrase', async () => {
    const r = await t.tnv(['facts', '--datadir', dir('v1'), '--chain', 'devnet', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const f = parseFacts(r)
    assert.equal(f.schema, 'tnv-facts/1')
    assert.ok('executionAddress' in f.identity)
    assert.equal(f.identity.executionAddress, address.v1)
    assert.equal(f.registry?.status, 'Active')
    assert.equal(f.registry?.whitelisted, true)
    assert.ok('running' in f.node && f.node.running && f.node.answering)
    assert.ok(f.epoch && f.epoch.current >= 1)
    assert.ok('verified' in f.keys)
    assert.equal(f.keys.verified.ok, null)
    assert.ok('ok' in f.backup && f.backup.ok === false)
    assert.ok(['ok', 'warn', 'fail'].includes(f.attention))
    // the passphrase from the environment, then from a systemd credential: the checks run and pass
    const withEnv = parseFacts(
      await t.tnv(['facts', '--datadir', dir('v1'), '--chain', 'devnet', '--json'], {
        TN_BLS_PASSPHRASE: 'passphrase of v1',
      }),
    )
    assert.ok('verified' in withEnv.keys && withEnv.keys.verified.ok === true)
    const creds = dir('creds-v1')
    mkdirSync(creds, { mode: 0o700 })
    writeFileSync(join(creds, 'tn-bls-passphrase'), 'passphrase of v1\n', { mode: 0o400 })
    const withCred = await t.tnv(['facts', '--datadir', dir('v1'), '--chain', 'devnet', '--json'], {
      CREDENTIALS_DIRECTORY: creds,
    })
    const fc = parseFacts(withCred)
    assert.ok('verified' in fc.keys && fc.keys.verified.ok === true)
    assert.doesNotMatch(withCred.stdout + withCred.stderr, /passphrase of v1/)
  })

  it('facts of a directory without a node or keys: sections in error, still one document, exit 0', async () => {
    const none = await t.tnv(['facts', '--datadir', dir('nothing-here'), '--chain', 'devnet', '--json'])
    assert.equal(none.code, 0, none.stderr)
    const f = parseFacts(none)
    assert.ok('error' in f.identity)
    assert.equal(f.attention, 'fail')
    const v3 = parseFacts(await t.tnv(['facts', '--datadir', dir('v3'), '--chain', 'devnet', '--json']))
    assert.ok('running' in v3.node && v3.node.running === false)
    assert.equal(v3.registry?.status, 'Undefined')
  })

  it('node check --prometheus writes a file promtool accepts, naming the validator', { skip: noPromtool }, async () => {
    const file = dir('tnv-v1.prom')
    const r = await t.tnv([
      'node',
      'check',
      '--datadir',
      dir('v1'),
      '--chain',
      'devnet',
      '--prometheus',
      file,
      '--json',
    ])
    assert.ok([0, 1, 2].includes(r.code), r.stderr)
    const text = readFileSync(file, 'utf8')
    assert.ok(text.includes(`tnv_validator_info{validator="${address.v1}"} 1`), text)
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
    // promtool check metrics lints too (exit 3 for lint only); a parse error is exit 1
    assert.notEqual(check.status, 1, check.stdout + check.stderr)
    assert.doesNotMatch(check.stdout + check.stderr, /error while linting|text format parsing error/)
  })

  it('fleet status over an INI inventory: one row each, problems first, exit code by the worst row', async () => {
    const ini = join(t.dir, 'hosts.ini')
    writeFileSync(
      ini,
      `[validators]\nv1 tnv_datadir=${dir('v1')}\nv2 tnv_datadir=${dir('v2')}\nv3 tnv_datadir=${dir('v3')}\n\n[validators:vars]\ntnv_chain=devnet\n\n[monitoring]\ngrafana ansible_host=10.0.0.9\n`,
    )
    const r = await t.tnv(['fleet', 'status', '--inventory', ini, '--concurrency', '2', '--json'])
    const fleet = parseFleet(r)
    assert.deepEqual(fleet.rows.map((x) => x.name).sort(), ['v1', 'v2', 'v3'])
    // v3 has no node: its check fails, and it comes first
    assert.equal(fleet.rows[0]?.name, 'v3')
    assert.equal(fleet.rows[0]?.level, 'fail')
    const rank = { fail: 0, warn: 1, ok: 2 }
    for (let i = 1; i < fleet.rows.length; i++)
      assert.ok(rank[fleet.rows[i - 1]?.level ?? 'ok'] <= rank[fleet.rows[i]?.level ?? 'ok'])
    for (const name of ['v1', 'v2']) {
      const row = fleet.rows.find((x) => x.name === name)
      assert.equal(row?.status, 'Active')
      assert.equal(row?.validator, address[name])
      assert.notEqual(row?.blockNumber, null)
    }
    assert.equal(fleet.exitCode, 2)
    assert.equal(r.code, 2)
    // the human table: the same order
    const table = await t.tnv(['fleet', 'status', '--inventory', ini])
    assert.equal(table.code, 2)
    assert.match(table.stdout.split('\n')[1] ?? '', /^FAIL\s+v3 /)
  })

  it('fleet status over an Ansible YAML inventory and over tnv YAML: the same validators', async () => {
    const yml = join(t.dir, 'hosts.yml')
    writeFileSync(
      yml,
      `all:\n  children:\n    validators:\n      vars: { tnv_chain: devnet }\n      hosts:\n        v1: { tnv_datadir: ${dir('v1')} }\n        v2: { tnv_datadir: ${dir('v2')} }\n`,
    )
    const a = parseFleet(await t.tnv(['fleet', 'status', '--inventory', yml, '--json']))
    assert.deepEqual(a.rows.map((x) => x.name).sort(), ['v1', 'v2'])
    assert.ok(a.rows.every((x) => x.status === 'Active'))
    const own = join(t.dir, 'validators.yml')
    writeFileSync(
      own,
      `validators:\n  - { name: one, datadir: ${dir('v1')}, chain: devnet }\n  - { name: remote, node_rpc_url: 'http://127.0.0.1:1', address: '${address.v2}', chain: devnet }\n`,
    )
    const b = parseFleet(await t.tnv(['fleet', 'status', '--inventory', own, '--json']))
    // a node that does not answer is a failing row, named by its address, not a crash
    assert.equal(b.rows[0]?.name, 'remote')
    assert.equal(b.rows[0]?.level, 'fail')
    assert.equal(b.rows[0]?.status, 'Active')
    assert.equal(b.exitCode, 2)
  })
})
