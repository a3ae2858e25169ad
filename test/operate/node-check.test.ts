/**
 * `tnv node check` end to end, as an operator runs it, against the reference devnet node in each
 * health state it can be put in: in step in the committee (a node holding a genesis committee
 * member's public key: the devnet's registry says Active and seated, its node says CvvActive), not
 * whitelisted / not in the committee, wrong chain, unreachable, stalled (a node on a second,
 * idle devnet far behind the first) and lagging while it catches up (the same node while that
 * devnet mines). Every --json report is validated against docs/node-check.schema.json;
 * the Prometheus file is parsed back; --watch is interrupted like a service manager does.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import bs58 from 'bs58'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import type { NodeCheckReport } from '../../src/lib/health/types.js'
import { BIN, parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const schema = JSON.parse(readFileSync(join(ROOT, 'docs/node-check.schema.json'), 'utf8'))
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema)

function valid(report: unknown): NodeCheckReport {
  assert.ok(validate(report), JSON.stringify(validate.errors, null, 2))
  return report as NodeCheckReport
}
const finding = (r: NodeCheckReport, id: string) => r.findings.find((f) => f.id === id)

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: unknown; error?: unknown }
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
  return body.result
}

describe('tnv node check against the reference devnet node', () => {
  const tmp = tempDir('tnv-check-')
  const devA = join(tmp.dir, 'devnet-a')
  const devB = join(tmp.dir, 'devnet-b')
  const env = { TNV_DEVNET_DIR: devA, TNV_STATE_DIR: join(tmp.dir, 'state') }
  const envB = { ...env, TNV_DEVNET_DIR: devB }
  const seat = join(tmp.dir, 'seat')
  const validator = join(tmp.dir, 'validator')
  const behind = join(tmp.dir, 'behind')
  let urlA = ''
  let urlB = ''
  let keyB = ''
  const common = ['--min-free-gib', '0', '--json']

  const startNode = async (datadir: string, e: Record<string, string>) => {
    const port = await freePort()
    const r = await runCli(
      [
        'node',
        'start',
        '--detach',
        '--datadir',
        datadir,
        // the seat's key is a genesis member's, which the devnet runs itself (docs/node.md)
        '--skip-doppelganger-check',
        '--',
        '--chain',
        'devnet',
        '--http',
        '--http.port',
        String(port),
        '--ipcdisable',
      ],
      { env: e },
    )
    assert.equal(r.code, 0, r.stderr)
  }

  before(async () => {
    const a = await runCli(['devnet', 'start', '--detach', '--json', '--datadir', devA], { env })
    assert.equal(a.code, 0, a.stderr)
    const devnet = parseJson<{ rpcUrl: string; accounts: { address: string }[] }>(a)
    urlA = devnet.rpcUrl
    // idle: blocks only for transactions, and no epoch boundary during the test
    const b = await runCli(
      ['devnet', 'start', '--detach', '--json', '--datadir', devB, '--block-time', '0', '--epoch-seconds', '100000'],
      { env: envB },
    )
    assert.equal(b.code, 0, b.stderr)
    const devnetB = parseJson<{ rpcUrl: string; accounts: { privateKey: string }[] }>(b)
    urlB = devnetB.rpcUrl
    keyB = devnetB.accounts[0]?.privateKey as string

    // keys for the validator's address (no passphrase: the nodes start unattended)
    const generate = async (datadir: string) => {
      const r = await runCli(
        [
          'keytool',
          'generate',
          'validator',
          '--datadir',
          datadir,
          '--address',
          devnet.accounts[0]?.address as string,
          '--bls-passphrase-source',
          'no-passphrase',
          '--external-primary-addr',
          '/ip4/127.0.0.1/udp/49590/quic-v1',
          '--external-worker-addrs',
          '/ip4/127.0.0.1/udp/49594/quic-v1',
        ],
        { env },
      )
      assert.equal(r.code, 0, r.stderr)
    }
    await generate(validator)
    // a node that holds a genesis committee member's public key (taken from the registry that runs)
    const { committee } = (await rpc(urlA, 'tn_getCurrentEpochInfo')) as { committee: string[] }
    const member = committee[0] as string
    const key = (await rpc(urlA, 'tn_getBlsPubkey', [member])) as string
    mkdirSync(seat)
    writeFileSync(
      join(seat, 'node-info.yaml'),
      readFileSync(join(validator, 'node-info.yaml'), 'utf8')
        .replace(/^bls_public_key: .*$/m, `bls_public_key: ${bs58.encode(Buffer.from(key.slice(2), 'hex'))}`)
        .replace(/^execution_address: .*$/m, `execution_address: "${member.toLowerCase()}"`),
    )
    // the same validator address behind on another devnet, with a key of its own: one key runs on
    // one node of a host, and tnv refuses a second (docs/node.md, "One key, one node")
    await generate(behind)
    await Promise.all([startNode(seat, env), startNode(validator, env), startNode(behind, envB)])
  })

  after(async () => {
    await Promise.all(
      [seat, validator, behind].map((d) =>
        runCli(['node', 'stop', '--datadir', d], { env: d === behind ? envB : env }),
      ),
    )
    await runCli(['devnet', 'stop', '--datadir', devA], { env })
    await runCli(['devnet', 'stop', '--datadir', devB], { env: envB })
    tmp.cleanup()
  })

  it('in step, in the committee, voting: every finding ok, exit 0, five round trips, the Prometheus file parsed back', async () => {
    const prom = join(tmp.dir, 'textfile', 'tnv.prom')
    mkdirSync(join(tmp.dir, 'textfile'))
    const r = await runCli(['node', 'check', '--datadir', seat, '--chain', 'devnet', '--prometheus', prom, ...common], {
      env,
    })
    const report = valid(parseJson(r))
    assert.equal(r.code, 0, JSON.stringify(report.findings, null, 2))
    assert.equal(report.exitCode, 0)
    assert.deepEqual(
      report.findings.filter((f) => f.level !== 'ok' && f.level !== 'skip').map((f) => f.id),
      [],
    )
    for (const id of [
      'node.rpc',
      'node.chain',
      'node.sync',
      'node.consensus',
      'node.identity',
      'node.mode',
      'validator.committee',
      'node.rpc-exposure',
    ])
      assert.equal(finding(report, id)?.level, 'ok', id)
    assert.equal(finding(report, 'node.mode')?.message, 'CvvActive: voting in the committee')
    assert.equal(finding(report, 'host.p2p')?.level, 'skip', 'the reference node has no p2p stack')
    assert.equal(report.figures.validator?.status, 'Active')
    assert.equal(report.figures.validator?.inCommittee, true)
    // it leads blocks in the devnet's round robin; in the epoch's first blocks its turn may not have come yet
    const authoring = finding(report, 'validator.authoring')
    assert.equal(authoring?.level, 'ok')
    if ((report.figures.validator?.reputationScore ?? 0) === 0)
      assert.match(authoring?.message ?? '', /early in the epoch/)
    assert.deepEqual(
      [report.roundTrips.local, report.roundTrips.network, report.roundTrips.registry],
      [1, 1, 3],
      'one batch each end, the registry in three',
    )
    const families = parsePrometheusTextFormat(readFileSync(prom, 'utf8'))
    const value = (name: string) => families.find((f) => f.name === name)?.metrics[0]?.value
    assert.equal(value('tnv_node_check_status'), '0')
    assert.equal(value('tnv_node_up'), '1')
    assert.equal(value('tnv_node_chain_id'), '911329')
    assert.equal(value('tnv_validator_in_committee'), '1')
    assert.equal(value('tnv_node_block_number'), report.figures.local?.blockNumber)
  })

  it('human output: one line per finding and the next step; exit code the same', async () => {
    // no --chain: the network is the one of the local node's chain id
    const r = await runCli(['node', 'check', '--datadir', seat, '--min-free-gib', '0', '--no-exposure'], { env })
    assert.equal(r.code, 0, r.stdout)
    assert.match(r.stdout, /^ok {4}node\.sync +in step: block \d+, network \d+$/m)
    assert.match(r.stdout, /^OK: Healthy/m)
    assert.match(
      r.stdout,
      /network\.rpc +the network endpoint \S+ answers \(network: devnet, from the local node's chain id 911329\)$/m,
    )
    assert.match(r.stderr, /5 round trips \(local 1, network 1, registry 3\) \+ 0 exposure probes, \d+ ms/)
  })

  it('not whitelisted, not in the committee: warnings with the next step, exit 1', async () => {
    const r = await runCli(['node', 'check', '--datadir', validator, '--chain', 'devnet', ...common], { env })
    const report = valid(parseJson(r))
    assert.equal(r.code, 1)
    assert.equal(finding(report, 'validator.status')?.level, 'warn')
    assert.equal(finding(report, 'node.mode')?.message, 'Observer (not in the committee this epoch)')
    assert.equal(report.figures.validator?.inCommittee, false)
    assert.match(report.next, /whitelist/)
  })

  it('wrong chain: the node and the endpoint are not the chain asked for: failures, exit 2, no crash', async () => {
    const r = await runCli(
      ['node', 'check', '--datadir', seat, '--rpc-url', urlA, '--chain-id', '2017', '--no-exposure', ...common],
      { env },
    )
    const report = valid(parseJson(r))
    assert.equal(r.code, 2)
    assert.equal(finding(report, 'node.chain')?.level, 'fail')
    assert.match(finding(report, 'node.chain')?.message ?? '', /chain id 911329, the network is 2017/)
    assert.equal(finding(report, 'network.chain')?.level, 'fail')
    assert.equal(finding(report, 'validator.registry')?.level, 'fail')
  })

  it('unreachable node and unreachable network: findings, not crashes (exit 2 for the node, a warning for the network)', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`
    const r = await runCli(
      ['node', 'check', '--datadir', seat, '--chain', 'devnet', '--node-rpc-url', dead, '--no-exposure', ...common],
      { env },
    )
    const report = valid(parseJson(r))
    assert.equal(r.code, 2)
    assert.equal(finding(report, 'node.rpc')?.level, 'fail')
    assert.match(finding(report, 'node.rpc')?.message ?? '', /does not answer: ECONNREFUSED/)
    assert.equal(report.figures.local?.reachable, false)

    const n = await runCli(
      ['node', 'check', '--datadir', seat, '--rpc-url', dead, '--chain-id', '911329', '--no-exposure', ...common],
      { env },
    )
    const net = valid(parseJson(n))
    assert.equal(n.code, 1, JSON.stringify(net.findings, null, 2))
    assert.equal(finding(net, 'network.rpc')?.level, 'warn')
    assert.equal(finding(net, 'node.sync')?.level, 'skip')
    assert.equal(finding(net, 'validator.registry')?.level, 'warn')
  })

  it('stalled: far behind the network and not moving: fail, exit 2', async () => {
    const r = await runCli(['node', 'check', '--datadir', behind, '--chain', 'devnet', '--no-exposure', ...common], {
      env,
    })
    const report = valid(parseJson(r))
    assert.equal(r.code, 2, JSON.stringify(report.findings, null, 2))
    assert.equal(finding(report, 'node.sync')?.level, 'fail')
    assert.match(finding(report, 'node.sync')?.message ?? '', /^stalled: block \d+, \d+ blocks/)
    assert.equal(report.figures.advancing, false)
    assert.ok((report.figures.lagBlocks ?? 0) > 2)
    assert.deepEqual([report.roundTrips.local, report.roundTrips.network], [2, 2], 'a second read on both ends')
  })

  it('lagging but catching up (its devnet mining meanwhile): warn, exit 1', async () => {
    const { createWalletClient, http } = await import('viem')
    const { privateKeyToAccount } = await import('viem/accounts')
    const account = privateKeyToAccount(keyB as `0x${string}`)
    const wallet = createWalletClient({ account, transport: http(urlB) })
    let pumping = true
    const pump = (async () => {
      while (pumping) {
        await wallet.sendTransaction({ to: account.address, value: 0n, chain: undefined }).catch(() => {})
        await new Promise((r) => setTimeout(r, 200))
      }
    })()
    try {
      const r = await runCli(['node', 'check', '--datadir', behind, '--chain', 'devnet', '--no-exposure', ...common], {
        env,
      })
      const report = valid(parseJson(r))
      assert.equal(finding(report, 'node.sync')?.level, 'warn', JSON.stringify(report.findings, null, 2))
      assert.match(finding(report, 'node.sync')?.message ?? '', /^lagging \d+ blocks .*catching up/)
      assert.equal(report.figures.advancing, true)
      assert.equal(r.code, 1)
    } finally {
      pumping = false
      await pump
    }
  })

  it('--watch: one JSON line per check until SIGTERM, then the last check’s exit code', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'node', 'check', '--datadir', validator, '--chain', 'devnet', '--no-exposure', '--watch', '1', ...common],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    const code = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    const deadline = Date.now() + 30_000
    while (out.split('\n').filter(Boolean).length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100))
    child.kill('SIGTERM')
    const exit = await code
    const lines = out.split('\n').filter(Boolean)
    assert.ok(lines.length >= 2, out)
    const reports = lines.map((l) => valid(JSON.parse(l)))
    assert.ok(Date.parse(reports[1]?.checkedAt as string) - Date.parse(reports[0]?.checkedAt as string) >= 900)
    assert.equal(exit, reports.at(-1)?.exitCode)
  })

  it('--watch over a minute on a healthy seated validator: no finding changes level, exit 0 throughout', async () => {
    // a check every 5 s across devnet epoch boundaries (reputation scores restart each epoch);
    // the run ends after 13 reports (about a minute), counted, never timed
    const child = spawn(
      process.execPath,
      [BIN, 'node', 'check', '--datadir', seat, '--chain', 'devnet', '--no-exposure', '--watch', '5', ...common],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    const enough = new Promise<void>((resolve) => {
      child.stdout.on('data', (d) => {
        out += d
        if (out.split('\n').filter(Boolean).length >= 13) resolve()
      })
    })
    const code = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    await Promise.race([enough, code])
    child.kill('SIGTERM')
    const exit = await code
    const reports = out
      .split('\n')
      .filter(Boolean)
      .map((l) => valid(JSON.parse(l)))
    assert.ok(reports.length >= 13, out)
    const levels = new Map<string, Set<string>>()
    for (const r of reports) for (const f of r.findings) levels.set(f.id, (levels.get(f.id) ?? new Set()).add(f.level))
    const changed = [...levels].filter(([, s]) => s.size > 1).map(([id, s]) => `${id}: ${[...s].join(' → ')}`)
    assert.deepEqual(
      changed,
      [],
      JSON.stringify(
        reports.map((r) => r.findings),
        null,
        1,
      ),
    )
    assert.deepEqual(
      reports.map((r) => r.exitCode),
      reports.map(() => 0),
      JSON.stringify(reports.at(-1)?.findings, null, 2),
    )
    assert.equal(exit, 0)
  })
})
