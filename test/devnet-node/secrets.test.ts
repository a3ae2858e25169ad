/**
 * Every secret tnv reads stays out of the processes the devnet starts (issue 15, "Secrets"):
 * `tnv devnet start` is run with every secret variable tnv reads set, a JWT secret in the node
 * flags and a fork URL carrying an API key; then the command lines (readable by every local
 * user) and the environments of the reference node and of its engine (anvil) are read from
 * /proc. The node holds the JWT secret and the fork URL in its own environment only (readable
 * by its user alone), anvil holds neither, and no secret is on any command line.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { type GenesisEngine, startGenesisEngine } from '../../src/devnet/chain/genesis-engine.js'
import { SECRET_ENV_VARS } from '../../src/lib/child-env.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const onLinux = process.platform === 'linux' && existsSync('/proc/self/environ')

/** The NUL-separated strings of /proc/<pid>/<file>. */
function procStrings(pid: number, file: 'cmdline' | 'environ'): string[] {
  return readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').filter(Boolean)
}

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const out: number[] = []
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim()
    if (children) out.push(...children.split(/\s+/).map(Number))
  }
  return out
}

describe('the devnet hands no secret to its processes', { skip: !onLinux, timeout: 180_000 }, () => {
  const tmp = tempDir('tnv-devnet-secrets-')
  const dir = join(tmp.dir, 'devnet')
  const jwt = randomBytes(32).toString('hex')
  const apiKey = `key${randomBytes(12).toString('hex')}`
  const secrets: Record<string, string> = {
    TN_PRIVATE_KEY: `0x${randomBytes(32).toString('hex')}`,
    TN_KEYSTORE_PASSWORD: `keystore-${randomBytes(8).toString('hex')}`,
    TN_BLS_PASSPHRASE: `bls-${randomBytes(8).toString('hex')}`,
    TN_NEW_BLS_PASSPHRASE: `new-bls-${randomBytes(8).toString('hex')}`,
    TNV_JWT_SECRET: randomBytes(32).toString('hex'),
  }
  let upstream: GenesisEngine
  let forkUrl: string
  let nodePid: number
  let enginePid: number
  let rpcUrl: string
  let startOutput: string

  before(async () => {
    // the "live" chain to fork, with an API key in its URL (anvil ignores the query string)
    upstream = await startGenesisEngine({ genesis: 'next', dir: join(tmp.dir, 'upstream') })
    forkUrl = `${upstream.httpUrl}/?apikey=${apiKey}`
    const port = await freePort()
    const r = await runCli(
      [
        'devnet',
        'start',
        '--detach',
        '--json',
        '--datadir',
        dir,
        '--fork-url',
        forkUrl,
        '--',
        '--http',
        '--http.port',
        String(port),
        '--rpc.jwtsecret',
        jwt,
      ],
      { env: secrets },
    )
    startOutput = `${r.stdout}${r.stderr}`
    assert.equal(r.code, 0, startOutput)
    const info = parseJson<{ pid: number; rpcUrl: string }>(r)
    nodePid = info.pid
    rpcUrl = info.rpcUrl
    const children = childrenOf(nodePid)
    assert.equal(children.length, 1, 'the node has one child: its engine')
    enginePid = children[0] as number
    assert.match(readFileSync(`/proc/${enginePid}/comm`, 'utf8'), /^anvil/)
  })
  after(async () => {
    await runCli(['devnet', 'stop', '--datadir', dir])
    await upstream?.stop()
    tmp.cleanup()
  })

  const secretValues = () => [...Object.values(secrets), jwt, apiKey]

  it('no secret on the command line of the node or of anvil (ps shows it to every local user)', () => {
    for (const pid of [nodePid, enginePid]) {
      const cmdline = procStrings(pid, 'cmdline').join(' ')
      for (const value of secretValues()) assert.ok(!cmdline.includes(value), `pid ${pid}: ${cmdline}`)
    }
  })

  it("the node's environment has its JWT secret and fork URL (its own), and none of tnv's secrets", () => {
    const env = procStrings(nodePid, 'environ')
    for (const value of Object.values(secrets))
      assert.ok(!env.some((e) => e.includes(value)), 'a secret of tnv reached the node')
    for (const name of Object.keys(secrets))
      assert.ok(!env.some((e) => e.startsWith(`${name}=`)), `${name} reached the node`)
    assert.ok(env.includes(`TNV_NODE_JWT_SECRET=${jwt}`))
    assert.ok(env.includes(`TNV_DEVNET_FORK_URL=${forkUrl}`))
  })

  it("anvil's environment is its own: PATH, HOME, TMPDIR, NO_COLOR, its allocator's options, and no secret at all", () => {
    const env = procStrings(enginePid, 'environ')
    assert.deepEqual(env.map((e) => e.split('=')[0]).sort(), [
      'HOME',
      'NO_COLOR',
      'PATH',
      'TMPDIR',
      '_RJEM_MALLOC_CONF',
    ])
    for (const value of secretValues()) assert.ok(!env.some((e) => e.includes(value)))
    for (const name of SECRET_ENV_VARS) assert.ok(!env.some((e) => e.startsWith(`${name}=`)), name)
  })

  it('the JWT secret did reach the node (a request without a token is refused), and no output shows it', async () => {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
    })
    assert.equal(res.status, 401)
    const written = [
      startOutput,
      readFileSync(join(dir, 'devnet.json'), 'utf8'),
      readFileSync(join(dir, 'node.log'), 'utf8'),
    ]
    for (const text of written) for (const value of secretValues()) assert.ok(!text.includes(value))
  })
})
