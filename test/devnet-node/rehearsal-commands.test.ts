/**
 * The rehearsal through the built CLI: `tnv devnet start --genesis adiri|next|FILE`, `--fork-url`
 * (forking a local devnet, never a public network), `--chain-id`, REHEARSAL-ONLY governance
 * (`tnv devnet governance …`, and `tnv governance mint --chain devnet` routed to it), and every
 * bad input of `devnet start`: one paragraph, its exit code, nothing left running, no file
 * written or changed.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { parse, stringify } from 'yaml'
import { generateKeysArgs, parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { call, freePorts } from './helpers.js'

const tmp = tempDir('tnv-rehearsal-cmd-')
const running: string[] = []
after(async () => {
  for (const dir of running) await runCli(['devnet', 'stop', '--datadir', dir])
  tmp.cleanup()
})

async function startDetached(name: string, args: string[], port: number) {
  const dir = join(tmp.dir, name)
  const r = await runCli([
    'devnet',
    'start',
    '--detach',
    '--json',
    '--datadir',
    dir,
    '--block-time',
    '0',
    ...args,
    '--',
    '--http',
    '--http.port',
    String(port),
    '--ipcdisable',
  ])
  assert.equal(r.code, 0, r.stderr)
  running.push(dir)
  return { dir, info: parseJson<Record<string, unknown> & { rpcUrl: string; warnings: string[] }>(r), stderr: r.stderr }
}

/** Processes whose command line names `path`. */
function processesUsing(path: string): number[] {
  const found: number[] = []
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path)) found.push(Number(pid))
    } catch {
      // gone
    }
  }
  return found
}

describe('rehearsal governance through the CLI (embedded devnet)', { timeout: 180_000 }, () => {
  let dir: string
  let rpcUrl: string
  const validator = '0xEFF49f2E7801AaC2d51A059c103D151e012db893' // dev account 0 (public key)

  before(async () => {
    const [p] = await freePorts(1)
    const s = await startDetached('embedded', ['--epoch-seconds', '3600'], p as number)
    dir = s.dir
    rpcUrl = s.info.rpcUrl
  })

  it('mint: `tnv governance mint --chain devnet` without a signer is the rehearsal mint; idempotent', async () => {
    const env = { TNV_DEVNET_DIR: dir }
    const r = await runCli(['governance', 'mint', validator, '--chain', 'devnet', '--json'], { env })
    assert.equal(r.code, 0, r.stderr)
    const j = parseJson<{
      outcome: string
      rehearsalOnly: boolean
      owner: string
      txHash: string
      chain: { name: string }
    }>(r)
    assert.equal(j.outcome, 'sent')
    assert.equal(j.rehearsalOnly, true)
    assert.equal(j.owner, '0x3DCc9a6f3A71F0A6C8C659c65558321c374E917a')
    assert.match(j.txHash, /^0x[0-9a-f]{64}$/)
    assert.equal(j.chain.name, 'devnet')
    // chain state, read through the node's tn_ and eth_ methods
    const nft = await call(rpcUrl, 'eth_call', [
      { to: '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1', data: `0x70a08231${validator.slice(2).padStart(64, '0')}` },
      'latest',
    ])
    assert.equal(BigInt(nft as string), 1n)
    const again = await runCli(['devnet', 'governance', 'mint', validator, '--datadir', dir])
    assert.equal(again.code, 0)
    assert.match(again.stdout, /REHEARSAL-ONLY governance .*already holds its ConsensusNFT.*nothing was sent/)
  })

  it('fund, pause/unpause (idempotent), burn of an unknown address refused by the simulation (exit 22)', async () => {
    const fund = await runCli(['devnet', 'governance', 'fund', '250000', '--json', '--datadir', dir])
    assert.equal(fund.code, 0, fund.stderr)
    assert.equal(parseJson<{ issuancePoolWei: string }>(fund).issuancePoolWei, (250_000n * 10n ** 18n).toString())
    const status = parseJson<{ rewards: { issuancePoolWei: string } }>(
      await runCli(['devnet', 'status', '--json', '--datadir', dir]),
    )
    assert.equal(status.rewards.issuancePoolWei, (250_000n * 10n ** 18n).toString())
    const badAmount = await runCli(['devnet', 'governance', 'fund', 'lots', '--datadir', dir])
    assert.equal(badAmount.code, 3)

    assert.equal((await runCli(['devnet', 'governance', 'pause', '--datadir', dir])).code, 0)
    const paused = parseJson<{ paused: boolean }>(await runCli(['devnet', 'status', '--json', '--datadir', dir]))
    assert.equal(paused.paused, true)
    const twice = await runCli(['devnet', 'governance', 'pause', '--json', '--datadir', dir])
    assert.equal(parseJson<{ outcome: string }>(twice).outcome, 'already-done')
    assert.equal((await runCli(['devnet', 'governance', 'unpause', '--datadir', dir])).code, 0)

    const burn = await runCli([
      'devnet',
      'governance',
      'burn',
      '0x000000000000000000000000000000000000dEaD',
      '--datadir',
      dir,
    ])
    assert.equal(burn.code, 22)
    assert.match(burn.stderr, /would revert with InvalidTokenId\(57005\).*nothing was sent/)
  })

  it('delegate: owner-delegation with the key and proof of a node-info.yaml', async () => {
    const keys = join(tmp.dir, 'validator-keys')
    const address = '0x37b6835f358e7164A93465c7C47Da31AD74125F4' // dev account 1
    const gen = await runCli(generateKeysArgs(keys, address))
    assert.equal(gen.code, 0, gen.stderr)
    assert.equal((await runCli(['devnet', 'governance', 'mint', address, '--datadir', dir])).code, 0)
    const wrong = await runCli(['devnet', 'governance', 'delegate', validator, '--node-info', keys, '--datadir', dir])
    assert.equal(wrong.code, 3, 'node-info.yaml of another address')
    const r = await runCli([
      'devnet',
      'governance',
      'delegate',
      address,
      '--node-info',
      keys,
      '--json',
      '--datadir',
      dir,
    ])
    assert.equal(r.code, 0, r.stderr)
    const j = parseJson<{ outcome: string; valueWei: string }>(r)
    assert.equal(j.outcome, 'sent')
    assert.equal(j.valueWei, (10n ** 24n).toString())
    const v = (await call(rpcUrl, 'tn_getValidator', [address])) as { currentStatus: string }
    assert.equal(v.currentStatus, 'Staked')
    assert.equal(await call(rpcUrl, 'tn_isDelegated', [address]), true)
  })
})

describe('rehearsals of a genesis file and of a fork, through the CLI', { timeout: 180_000 }, () => {
  it('--genesis adiri under --chain-id genesis warns; a fork of it runs adiri code under 911329', async () => {
    const [p1, p2] = await freePorts(2)
    const up = await startDetached('adiri', ['--genesis', 'adiri', '--chain-id', 'genesis'], p1 as number)
    assert.equal(up.info.chainId, 2017)
    assert.equal(up.info.generation, 'adiri')
    assert.equal(up.info.blsVerifier, null)
    assert.match(up.info.warnings.join(' '), /chain id of the test network adiri \(2017\)/)

    const fork = await startDetached('fork', ['--fork-url', up.info.rpcUrl], p2 as number)
    assert.equal(fork.info.chainId, 911329)
    assert.equal(fork.info.generation, 'adiri')
    assert.equal((fork.info.source as { kind: string }).kind, 'fork')
    assert.deepEqual(fork.info.warnings, [])
    assert.doesNotMatch(JSON.stringify(fork.info.nodeArgs), /fork-url/, 'the URL is not on the node command line')
    const status = parseJson<{ fork: { upstreamRequests: number; blockNumber: string } }>(
      await runCli(['devnet', 'status', '--json', '--datadir', fork.dir]),
    )
    assert.ok(status.fork.upstreamRequests > 0)
    assert.equal(await call(fork.info.rpcUrl, 'tn_getNextCommitteeSize'), 5)
    // governance on the fork: the adiri owner is the Safe 0x…07a0
    const mint = await runCli([
      'devnet',
      'governance',
      'mint',
      '0xEFF49f2E7801AaC2d51A059c103D151e012db893',
      '--json',
      '--datadir',
      fork.dir,
    ])
    assert.equal(parseJson<{ owner: string }>(mint).owner, '0x00000000000000000000000000000000000007A0')
    const upstreamNft = await call(up.info.rpcUrl, 'eth_call', [
      {
        to: '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1',
        data: `0x70a08231${'EFF49f2E7801AaC2d51A059c103D151e012db893'.padStart(64, '0')}`,
      },
      'latest',
    ])
    assert.equal(BigInt(upstreamNft as string), 0n, 'nothing reached upstream')
  })
})

describe('bad input to `devnet start`: one paragraph, exit code, nothing running, no file written', {
  timeout: 120_000,
}, () => {
  let server: Server
  let url: string
  before(async () => {
    server = createServer((_req, res) => res.writeHead(429, { 'retry-after': '60' }).end('rate limited'))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })
  after(() => new Promise<void>((r) => server.close(() => r())))

  async function refused(args: string[], code: number, message: RegExp) {
    const dir = join(tmp.dir, `refused-${Math.random().toString(36).slice(2)}`)
    const r = await runCli(['devnet', 'start', '--detach', '--datadir', dir, ...args])
    assert.equal(r.code, code, `${args.join(' ')}\n${r.stderr}`)
    assert.match(r.stderr, message)
    const paragraph = r.stderr.split('\n').filter((l) => /Error:/.test(l))
    assert.equal(paragraph.length, 1, r.stderr)
    assert.ok(!existsSync(dir), 'no directory was made')
    assert.deepEqual(processesUsing(dir), [], 'nothing left running')
    const json = await runCli(['devnet', 'start', '--detach', '--json', '--datadir', dir, ...args])
    assert.equal(json.code, code)
    assert.equal(parseJson<{ error: { exitCode: number } }>(json).error.exitCode, code)
  }

  it('not a genesis, no registry, unknown registry code', async () => {
    const bad = join(tmp.dir, 'bad-genesis')
    mkdirSync(bad, { recursive: true })
    writeFileSync(join(bad, 'notyaml.yaml'), 'config: [1, 2\n')
    writeFileSync(
      join(bad, 'noregistry.yaml'),
      'config:\n  chainId: 7\nalloc:\n  "0x0000000000000000000000000000000000000001":\n    balance: "0x1"\n',
    )
    const next = parse(readFileSync(join(ROOT, 'networks/next/genesis.yaml'), 'utf8'))
    const registryKey = Object.keys(next.alloc).find(
      (k) => k.toLowerCase() === '0x07e17e17e17e17e17e17e17e17e17e17e17e17e1',
    )
    next.alloc[registryKey as string].code = '0x6080604052600080fd'
    writeFileSync(join(bad, 'unknown.yaml'), stringify(next))
    await refused(
      ['--genesis', join(bad, 'notyaml.yaml')],
      3,
      /is not a usable node genesis file: it is not valid YAML/,
    )
    await refused(['--genesis', join(bad, 'noregistry.yaml')], 3, /has no ConsensusRegistry code at 0x07E1/)
    await refused(
      ['--genesis', join(bad, 'unknown.yaml')],
      3,
      /code hash 0x[0-9a-f]{64}\) is neither registry generation/,
    )
    await refused(['--genesis', join(bad, 'missing.yaml')], 3, /no such file/)
  })

  it('unreachable or rate-limited fork URL, a fork block that does not exist, conflicting flags', async () => {
    const [closed] = await freePorts(1)
    await refused(['--fork-url', `http://127.0.0.1:${closed}`], 10, /cannot be reached .*connection refused/)
    await refused(['--fork-url', `${url}/key/SECRET`], 10, /HTTP 429 \(rate limited\); it asks to retry after 60 s/)
    await refused(['--fork-url', 'ftp://example.org'], 3, /ftp: is not supported/)
    const [p] = await freePorts(1)
    const up = await startDetached('fork-upstream', ['--genesis', 'next'], p as number)
    await refused(
      ['--fork-url', up.info.rpcUrl, '--fork-block', '999999'],
      3,
      /Block 999999 does not exist .*latest block is/,
    )
    await refused(['--genesis', 'next', '--fork-url', up.info.rpcUrl], 2, /--fork-url|--genesis/)
    await refused(['--chain-id', 'zero'], 3, /--chain-id "zero" is not a chain id/)
  })

  it('a directory of the old devnet is refused and left as it was (exit 25)', async () => {
    const old = join(tmp.dir, 'old-devnet')
    mkdirSync(old, { recursive: true })
    const record = '{"format":1,"chainId":911329,"registryStorageLayout":"0xabc"}\n'
    writeFileSync(join(old, 'chain.json'), record)
    writeFileSync(join(old, 'anvil-state.json'), '{}')
    const r = await runCli(['devnet', 'start', '--detach', '--datadir', old])
    assert.equal(r.code, 25)
    assert.match(r.stderr, /made by an older tnv, which ran tnv's own registry contract.*Move the directory aside/)
    assert.deepEqual(readdirSync(old).sort(), ['anvil-state.json', 'chain.json'])
    assert.equal(readFileSync(join(old, 'chain.json'), 'utf8'), record)
  })
})
