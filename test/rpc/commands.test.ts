/** `tnv rpc plan` and `tnv rpc jwt` as a user runs them (the built CLI, no TTY). */
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { RpcPlanResult } from '../../src/commands/rpc/plan.js'
import { verifyJwt } from '../../src/lib/rpc/jwt.js'
import type { RpcPlan } from '../../src/lib/rpc/types.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'

const SECRET = '7a'.repeat(32)

describe('tnv rpc plan', () => {
  it('both releases side by side (exact text for a common case), exit 0', async () => {
    const r = await runCli(['rpc', 'plan', '--', '--http', '--http.api', 'eth,net,web3'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(r.stderr, '')
    assert.equal(
      r.stdout.split('\n\nAccess')[0],
      [
        'Released node (v0.14.0-adiri and main): starts with these flags.',
        "Specification's release (not released yet): starts with these flags.",
        '',
        'Worker 0',
        '  HTTP 127.0.0.1:8545',
        '    namespaces   released node: eth net web3 tn',
        '                 specification: eth net web3',
        '    rpc_modules  both: -32601 (rpc not served)',
        '  WS off (127.0.0.1:8546)',
        '  IPC /tmp/tn.ipc',
        '    namespaces   released node: eth net web3 rpc tn debug trace admin txpool reth ots flashbots miner mev testing',
        '                 specification: eth net web3 rpc tn',
        '    rpc_modules  released node: eth net web3 rpc debug trace admin txpool reth ots flashbots miner mev testing (all 1.0)',
        '                 specification: eth net web3 rpc tn (all 1.0)',
      ].join('\n'),
    )
    assert.match(r.stdout, /^ {2}- \(specification\) HTTP does not serve tn/m)
    assert.match(
      r.stdout,
      /^ {2}- --http\.api means different things on the two releases\. To mean the same on both, write --http\.api eth,net,web3,tn \(what the released node serves now\); what the specification's release serves now cannot be had on the released node, which always serves tn\.$/m,
    )
  })

  it("--behaviour spec: the specification's table (exact text), workers included", async () => {
    const r = await runCli([
      'rpc',
      'plan',
      '--behaviour',
      'spec',
      '--',
      '--http',
      '--http.api',
      'eth,net,web3',
      '--ws',
      '--workers',
      '2',
    ])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(
      r.stdout.split('\n\nAccess')[0],
      [
        "Under the rules of the specification's release (not released yet): the node starts with these flags.",
        '',
        'Worker 0',
        '  transport  listens on           namespaces           rpc_modules',
        '  HTTP       127.0.0.1:8545       eth net web3         -32601 (rpc not served)',
        '  WS         127.0.0.1:8546       eth net web3 rpc tn  eth net web3 rpc tn (all 1.0)',
        '  IPC        /tmp/tn.ipc          eth net web3 rpc tn  eth net web3 rpc tn (all 1.0)',
        '',
        'Worker 1',
        '  transport  listens on           namespaces           rpc_modules',
        '  HTTP       127.0.0.1:8547       eth net web3         -32601 (rpc not served)',
        '  WS         127.0.0.1:8548       eth net web3 rpc tn  eth net web3 rpc tn (all 1.0)',
        '  IPC        /tmp/tn-worker1.ipc  eth net web3 rpc tn  eth net web3 rpc tn (all 1.0)',
      ].join('\n'),
    )
    assert.match(r.stdout, /^ {2}--rpc\.max-blocks-per-filter {4}100000 {4}\(default: 100000; 0 = no limit\)$/m)
    assert.match(r.stdout, /^Advice \(tnv\)\n {2}- HTTP does not serve tn/m)
    assert.match(
      r.stdout,
      /The released node \(v0\.14\.0-adiri and main\) reads these flags differently \(starts, workers/,
    )
    // the released node has no --workers: exit 25 for it, and for both
    const released = await runCli(['rpc', 'plan', '--behaviour', 'released', '--', '--http', '--workers', '2'])
    assert.equal(released.code, 25)
    assert.match(released.stdout, /--workers: the released node \(v0\.14\.0-adiri and main\) has no such flag/)
    assert.equal((await runCli(['rpc', 'plan', '--', '--http', '--workers', '2'])).code, 25)
  })

  it('refusal on one release only: the errors section says which, exit 25 (0 for the other with --behaviour)', async () => {
    const flags = ['--', '--http', '--ws', '--ws.port', '8545', '--http.api', 'eth,net,web3']
    const r = await runCli(['rpc', 'plan', ...flags])
    assert.equal(r.code, 25)
    assert.match(r.stdout, /^Released node \(v0\.14\.0-adiri and main\): starts with these flags\.$/m)
    assert.match(
      r.stdout,
      /^Specification's release \(not released yet\): REFUSES TO START with these flags \(see Errors\)\.$/m,
    )
    assert.match(
      r.stdout,
      /^Errors \(the node refuses to start\)\n {2}- \(specification\) HTTP and WS share 127\.0\.0\.1:8545/m,
    )
    assert.match(r.stdout, /^Worker 0 \(HTTP and WS share one server\)$/m)
    assert.equal((await runCli(['rpc', 'plan', '--behaviour', 'released', ...flags])).code, 0)
    assert.equal((await runCli(['rpc', 'plan', '--behaviour', 'spec', ...flags])).code, 25)
  })

  it('warnings as each release logs them: admin on both (its own words), debug only in the specification', async () => {
    const r = await runCli(['rpc', 'plan', '--', '--http', '--http.api', 'eth,admin,debug'])
    assert.equal(r.code, 0)
    assert.match(r.stdout, /^ {2}- \(released node\) HTTP: Attempted to configure unsupported admin RPC module!/m)
    assert.match(r.stdout, /^ {2}- \(specification\) HTTP: namespace "admin" in --http\.api is not supported/m)
    assert.match(r.stdout, /^ {2}- \(specification\) HTTP serves debug \(named in --http\.api\)/m)
    assert.match(r.stdout, /^ {2}- \(released node\) HTTP serves debug: .*logs no warning/m)
  })

  it('flags the released node does not know, and --chain values it refuses, are errors', async () => {
    const r = await runCli(['rpc', 'plan', '--json', '--', '--http', '--chain', 'testnet', '--http.apis', 'eth'])
    assert.equal(r.code, 25)
    const plan = parseJson<RpcPlanResult>(r)
    assert.match(plan.released.errors.join('\n'), /--chain testnet: .*Write --chain adiri\./)
    assert.match(
      plan.released.errors.join('\n'),
      /--http\.apis: not a flag of the node \(neither release has it\).*Did you mean --http\.api\?/,
    )
    const ok = await runCli([
      'rpc',
      'plan',
      '--',
      '--http',
      '--chain',
      'main-net',
      '--metrics',
      '127.0.0.1:9101',
      '-vvv',
    ])
    assert.equal(ok.code, 0, ok.stdout)
  })

  it('--json: exactly one object with the documented fields; exit 25 when not ok', async () => {
    const r = await runCli(['rpc', 'plan', '--json', '--', '--http', '--ws', '--ws.port', '8545', '--ws.api', 'eth'])
    assert.equal(r.code, 25)
    const plan = parseJson<RpcPlanResult>(r)
    assert.equal(plan.ok, false)
    assert.equal(plan.errors.length, 1)
    for (const key of [
      'behaviour',
      'ok',
      'errors',
      'warnings',
      'advice',
      'transports',
      'workers',
      'limits',
      'jwtSecret',
      'jwt',
      'httpCorsDomain',
      'wsOrigins',
      'passthrough',
      'released',
      'differences',
      'equivalents',
    ]) {
      assert.ok(key in plan, key)
    }
    assert.equal(plan.behaviour, 'spec')
    assert.equal(plan.released.behaviour, 'released')
    assert.equal(plan.released.ok, false, 'the released node refuses too: ws.api eth differs from the default')
    assert.deepEqual(Object.keys(plan.transports.http), [
      'enabled',
      'address',
      'port',
      'namespaces',
      'otherModules',
      'rpcModules',
    ])
    assert.deepEqual(Object.keys(plan.transports.ipc), ['enabled', 'path', 'namespaces', 'otherModules', 'rpcModules'])
    assert.deepEqual(Object.keys(plan.workers[0] ?? {}), ['index', 'sharedServer', 'http', 'ws', 'ipc'])
    assert.equal(typeof plan.limits.gasCap, 'number')
    assert.equal(r.stderr, '')
  })

  it('--json with no node flags: the default plan, exit 0', async () => {
    const r = await runCli(['rpc', 'plan', '--json'])
    assert.equal(r.code, 0)
    assert.equal(parseJson<RpcPlan>(r).transports.ipc.enabled, true)
  })

  it('a hex --rpc.jwtsecret is never printed', async () => {
    for (const args of [[], ['--json']]) {
      const r = await runCli(['rpc', 'plan', ...args, '--', '--http', '--rpc.jwtsecret', SECRET])
      assert.equal(r.code, 0)
      assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), args.join(' '))
    }
    const plan = parseJson<RpcPlan>(await runCli(['rpc', 'plan', '--json', '--', '--rpc.jwtsecret', SECRET]))
    assert.equal(plan.jwtSecret, '<redacted>')
    assert.deepEqual(plan.jwt, { required: true, source: 'hex', path: null })
    const fileRun = await runCli(['rpc', 'plan', '--json', '--', '--rpc.jwtsecret', '/etc/tn/jwt.hex'])
    assert.equal(fileRun.code, 25, 'the node takes --rpc.jwtsecret as hex only')
    const file = parseJson<RpcPlan>(fileRun)
    assert.equal(file.jwtSecret, '/etc/tn/jwt.hex')
    assert.match(file.errors.join(), /does not read a file/)
  })

  it("--json after -- is a node flag, not tnv's (and not one the node knows)", async () => {
    const r = await runCli(['rpc', 'plan', '--', '--json'])
    assert.equal(r.code, 25)
    assert.match(r.stdout, /^Released node .*REFUSES TO START/)
    assert.match(r.stdout, /- \(both\) --json: not a flag of/)
    // a flag the node refuses is not "passed through untouched" (issue 16)
    assert.doesNotMatch(r.stdout, /passed through untouched\): --json/)
  })

  it('repeated tokens keep their order (read from the raw argument list)', async () => {
    const plan = parseJson<RpcPlan>(
      await runCli(['rpc', 'plan', '--json', '--', '--http', '--http.api', 'eth', '--ws', '--ws.api', 'eth']),
    )
    assert.deepEqual([plan.transports.http.namespaces, plan.transports.ws.namespaces], [['eth'], ['eth']])
  })

  it('node flags without `--`: a usage error that shows where they go (exit 2)', async () => {
    const r = await runCli(['rpc', 'plan', '--http', '--http.api', 'eth'])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr.trim(),
      'Error: Unknown arguments for `tnv rpc plan`: --http --http.api. Run `tnv rpc plan --help` for its own flags; node flags go after `--`, for example: tnv rpc plan -- --http --http.api eth,net,web3,rpc,tn',
    )
    assert.equal(r.stdout, '')
  })

  it('bad values in every class: one plan, every error, exit 25', async () => {
    const r = await runCli([
      'rpc',
      'plan',
      '--json',
      '--',
      '--http.port',
      '70000',
      '--ws.api',
      'eth,,net',
      '--rpc.jwtsecret',
      'abc',
      '--workers',
      'x',
      '--http',
      '--http',
    ])
    assert.equal(r.code, 25)
    const plan = parseJson<RpcPlan>(r)
    assert.equal(plan.errors.length, 5, plan.errors.join('\n'))
  })
})

describe('tnv rpc jwt', () => {
  it('prints a token the node accepts (iat now), from --secret @FILE, or TNV_JWT_SECRET as hex or @FILE', async () => {
    const { dir, cleanup } = tempDir()
    try {
      const file = join(dir, 'jwt.hex')
      writeFileSync(file, `0x${SECRET}\n`)
      for (const [args, env] of [
        [[], { TNV_JWT_SECRET: SECRET }],
        [['--secret', `@${file}`], {}],
        [[], { TNV_JWT_SECRET: `@${file}` }],
      ] as const) {
        const r = await runCli(['rpc', 'jwt', ...args], { env })
        assert.equal(r.code, 0, r.stderr)
        const token = r.stdout.trim()
        assert.equal(r.stdout, `${token}\n`, 'only the token on stdout')
        assert.equal((await verifyJwt(token, SECRET)).valid, true)
      }
    } finally {
      cleanup()
    }
  })
  it('--iat and --json', async () => {
    const r = await runCli(['rpc', 'jwt', '--iat', '1000', '--json'], { env: { TNV_JWT_SECRET: SECRET } })
    assert.equal(r.code, 0)
    const out = parseJson<{ token: string; iat: number; authorization: string }>(r)
    assert.equal(out.iat, 1000)
    assert.equal(out.authorization, `Bearer ${out.token}`)
    assert.equal((await verifyJwt(out.token, SECRET, { now: 1000 })).valid, true)
    assert.equal((await verifyJwt(out.token, SECRET)).valid, false, 'iat 1000 is long past')
  })
  it('no secret: names the flag (exit 2); hex on the command line: refused (exit 2); a bad one: exit 3; none echoed', async () => {
    const none = await runCli(['rpc', 'jwt'], { env: { TNV_JWT_SECRET: undefined } })
    assert.equal(none.code, 2)
    assert.match(
      none.stderr,
      /The JWT secret is needed .*Pass --secret @FILE \(or set TNV_JWT_SECRET to the hex or @FILE\)\./,
    )
    for (const argv of [['--secret', SECRET], [`--secret=${SECRET}`]]) {
      const literal = await runCli(['rpc', 'jwt', ...argv, '--json'], { env: { TNV_JWT_SECRET: undefined } })
      assert.equal(literal.code, 2, literal.stdout)
      const { error } = parseJson<{ error: { code: string; message: string; fix: string } }>(literal)
      assert.equal(error.code, 'Usage')
      assert.match(error.message, /--secret would put a JWT secret in hex on tnv's command line/)
      assert.match(error.fix, /--secret @FILE.*TNV_JWT_SECRET/)
      assert.ok(!literal.stdout.includes(SECRET) && !literal.stderr.includes(SECRET))
    }
    const bad = await runCli(['rpc', 'jwt'], { env: { TNV_JWT_SECRET: 'deadbeef' } })
    assert.equal(bad.code, 3)
    assert.match(
      bad.stderr,
      /^Error: The JWT secret given is not valid: expected 32 bytes \(64 hex digits\), got 4 bytes\./,
    )
    assert.ok(!bad.stderr.includes('deadbeef'))
  })
})
