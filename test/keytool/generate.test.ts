/** `tnv keytool generate validator|observer`, end to end through the built CLI. */
import assert from 'node:assert/strict'
import { existsSync, promises as fs, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { decryptBlsKw } from '../../src/lib/keys/bls-kw.js'
import { verifyProofOfPossession } from '../../src/lib/keys/pop.js'
import { readNodeInfo } from '../../src/lib/nodeinfo/read.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { nodeWritesText, snapshotTree } from './fixtures.js'

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const PRIMARY = '/ip4/203.0.113.10/udp/49590/quic-v1'
const WORKER = '/ip4/203.0.113.10/udp/49594/quic-v1'
const mode = (p: string) => (statSync(p).mode & 0o777).toString(8)

describe('keytool generate validator', () => {
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({ dir, cleanup } = tempDir())
  })
  after(() => cleanup())

  it('writes an encrypted key, the seeds and node-info.yaml (env passphrase, --json)', async () => {
    const datadir = join(dir, 'enc')
    const r = await runCli(
      [
        'keytool',
        'generate',
        'validator',
        '--address',
        ADDRESS.toLowerCase(),
        '--datadir',
        datadir,
        '--external-primary-addr',
        PRIMARY,
        '--external-worker-addrs',
        WORKER,
        '--name',
        'val-1',
        '--rpc-http',
        'https://rpc.example.org',
        '--json',
      ],
      { env: { TN_BLS_PASSPHRASE: 'correct horse battery' } },
    )
    assert.equal(r.code, 0, r.stderr)
    const out = parseJson<Record<string, unknown>>(r)
    assert.equal(out.role, 'validator')
    assert.equal(out.executionAddress, ADDRESS)
    assert.equal(out.encrypted, true)
    assert.deepEqual((await fs.readdir(join(datadir, 'node-keys'))).sort(), ['bls.kw', 'primary.seed', 'worker.seed'])
    assert.equal(mode(join(datadir, 'node-keys')), '700')
    for (const f of ['bls.kw', 'primary.seed', 'worker.seed'])
      assert.equal(mode(join(datadir, 'node-keys', f)), '600', f)
    assert.equal(await fs.readFile(join(datadir, 'node-keys', 'primary.seed'), 'utf8'), 'primary network keypair')
    assert.equal(await fs.readFile(join(datadir, 'node-keys', 'worker.seed'), 'utf8'), 'worker network keypair')
    const { info } = await readNodeInfo(datadir)
    assert.equal(info.name, 'val-1')
    assert.equal(info.executionAddress, ADDRESS)
    assert.ok(info.primary.networkAddress.startsWith(`${PRIMARY}/p2p/12D3KooW`))
    assert.ok(info.workers[0]?.networkAddress.startsWith(`${WORKER}/p2p/12D3KooW`))
    // the url crate's normalisation: a bare host gets a trailing slash
    assert.deepEqual(info.workers[0]?.rpc, { http: 'https://rpc.example.org/' })
    assert.equal(
      verifyProofOfPossession({ publicKey: info.blsPublicKey, proof: info.proofOfPossession, address: ADDRESS }),
      true,
    )
    // byte for byte the released node's file: worker: map, ---, rpc: ~, quoted lower-case address
    const view = out as { blsPublicKeyBase58: string; proofOfPossessionBase58: string }
    assert.equal(
      await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8'),
      nodeWritesText({
        name: 'val-1',
        publicKey58: view.blsPublicKeyBase58,
        primary: { address: info.primary.networkAddress, key: info.primary.networkKey },
        workers: [
          {
            address: info.workers[0]?.networkAddress ?? '',
            key: info.workers[0]?.networkKey ?? '',
            rpc: { http: 'https://rpc.example.org/' },
          },
        ],
        address: ADDRESS,
        pop58: view.proofOfPossessionBase58,
      }),
    )
    assert.equal(out.nodeInfoForm, 'worker')
    const opened = await decryptBlsKw(
      await fs.readFile(join(datadir, 'node-keys', 'bls.kw'), 'utf8'),
      'correct horse battery',
    )
    assert.ok(opened.ok)
    assert.equal(opened.iterations, 1_000_000)
    assert.doesNotMatch(r.stdout + r.stderr, /correct horse/)
  })

  it('logs to stdout, and with -q prints only the identity', async () => {
    const loud = await runCli([
      'keytool',
      'generate',
      'validator',
      '--address',
      '0',
      '--datadir',
      join(dir, 'loud'),
      '--bls-passphrase-source',
      'no-passphrase',
    ])
    assert.equal(loud.code, 0, loud.stderr)
    assert.match(
      loud.stdout,
      /^Wrote validator keys to .*node-keys\/ \(bls\.key, primary\.seed, worker\.seed\) and node-info\.yaml\.$/m,
    )
    assert.match(loud.stdout, /^execution address +0x0{40}$/m)
    assert.match(loud.stderr, /local-only 127\.0\.0\.1 addresses/)
    const quiet = await runCli([
      'keytool',
      'generate',
      'validator',
      '--address',
      '0',
      '--datadir',
      join(dir, 'quiet'),
      '--bls-passphrase-source',
      'no-passphrase',
      '-q',
    ])
    assert.equal(quiet.code, 0, quiet.stderr)
    assert.doesNotMatch(quiet.stdout, /Wrote|Next:/)
    assert.match(quiet.stdout, /^name +node-/)
    const { info } = await readNodeInfo(join(dir, 'quiet'))
    assert.match(info.primary.networkAddress, /^\/ip4\/127\.0\.0\.1\/udp\/\d+\/quic-v1\/p2p\/12D3KooW/)
  })

  it('no-passphrase writes bls.key (base58 of the secret)', async () => {
    assert.deepEqual((await fs.readdir(join(dir, 'quiet', 'node-keys'))).sort(), [
      'bls.key',
      'primary.seed',
      'worker.seed',
    ])
    assert.equal(mode(join(dir, 'quiet', 'node-keys', 'bls.key')), '600')
  })

  it('refuses a non-empty node-keys/ without --force and changes nothing', async () => {
    const before = await snapshotTree(join(dir, 'quiet'))
    const r = await runCli([
      'keytool',
      'generate',
      'validator',
      '--address',
      '0',
      '--datadir',
      join(dir, 'quiet'),
      '--bls-passphrase-source',
      'no-passphrase',
    ])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /cannot overwrite node keys without passing --force/)
    assert.deepEqual(await snapshotTree(join(dir, 'quiet')), before)
  })

  it('--force keeps the old keys and node-info.yaml in a timestamped backup and repeats the warning', async () => {
    const datadir = join(dir, 'quiet')
    const old = await snapshotTree(datadir)
    const r = await runCli([
      'keytool',
      'generate',
      'validator',
      '--address',
      '0',
      '--datadir',
      datadir,
      '--bls-passphrase-source',
      'no-passphrase',
      '--force',
      '--skip-registry-check',
      '-q',
    ])
    assert.equal(r.code, 0, r.stderr)
    const backups = (await fs.readdir(datadir)).filter((f) => f.startsWith('backup-'))
    assert.equal(backups.length, 1)
    const backup = join(datadir, backups[0] ?? '')
    assert.match(backups[0] ?? '', /^backup-\d{8}T\d{6}Z$/)
    assert.equal(mode(backup), '700')
    assert.equal(await fs.readFile(join(backup, 'node-info.yaml'), 'utf8'), old['node-info.yaml']?.content)
    assert.equal(await fs.readFile(join(backup, 'node-keys', 'bls.key'), 'latin1'), old['node-keys/bls.key']?.content)
    assert.notEqual(
      await fs.readFile(join(datadir, 'node-keys', 'bls.key'), 'latin1'),
      old['node-keys/bls.key']?.content,
    )
    assert.ok(r.stderr.includes(backup), r.stderr)
    assert.match(r.stderr, /Never replace the keys of a validator that has staked/)
    assert.match(r.stderr, /not checked against any registry \(--skip-registry-check\)/)
  })

  it('--force asks the default network (devnet) even when none is typed: no devnet, nothing replaced', async () => {
    const datadir = join(dir, 'quiet')
    const old = await snapshotTree(datadir)
    const r = await runCli(
      [
        'keytool',
        'generate',
        'validator',
        '--address',
        '0',
        '--datadir',
        datadir,
        '--bls-passphrase-source',
        'no-passphrase',
        '--force',
        '--json',
      ],
      { env: { TNV_DEVNET_DIR: join(dir, 'no-devnet'), TN_CHAIN: undefined, TN_RPC_URL: undefined } },
    )
    assert.equal(r.code, 10, r.stderr)
    const e = JSON.parse(r.stdout) as { error: { code: string; fix: string } }
    assert.equal(e.error.code, 'KeyReplaceUnchecked')
    assert.match(e.error.fix, /--chain testnet.*--skip-registry-check/)
    assert.deepEqual(await snapshotTree(datadir), old, 'every file as it was')
  })

  it('takes the stdin source, the env variables for address and multiaddrs, and more workers', async () => {
    const datadir = join(dir, 'stdin')
    const r = await runCli(
      [
        'keytool',
        'generate',
        'observer',
        '--datadir',
        datadir,
        '--bls-passphrase-source',
        'stdin',
        '--workers',
        '2',
        '-q',
      ],
      {
        input: 'from stdin\n',
        env: {
          EXECUTION_ADDRESS: ADDRESS,
          TN_EXTERNAL_PRIMARY_ADDR: PRIMARY,
          TN_EXTERNAL_WORKER_ADDRS: `${WORKER},/dns4/node.example.org/udp/49595/quic-v1`,
        },
      },
    )
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, /Only supports a single worker at this time!/)
    assert.match(r.stderr, /cannot start with it \("missing field `worker`"\)/)
    assert.match(await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8'), /\n {2}workers:\n {4}- network_address: /)
    assert.equal(await fs.readFile(join(datadir, 'node-keys', 'worker-1.seed'), 'utf8'), 'worker network keypair 1')
    const { info } = await readNodeInfo(datadir)
    assert.equal(info.executionAddress, ADDRESS)
    assert.equal(info.workers.length, 2)
    assert.ok(info.workers[1]?.networkAddress.startsWith('/dns4/node.example.org/udp/49595/quic-v1/p2p/'))
    const opened = await decryptBlsKw(await fs.readFile(join(datadir, 'node-keys', 'bls.kw'), 'utf8'), 'from stdin')
    assert.ok(opened.ok)
  })

  it("takes the node's spellings: generate all, --execution-address, --overwrite, --name, EXECUTION_ADDRESS=0; only the first worker address is used", async () => {
    const datadir = join(dir, 'aliases')
    const a = await runCli([
      'keytool',
      'generate',
      'all',
      '--execution-address',
      ADDRESS,
      '--datadir',
      datadir,
      '--bls-passphrase-source',
      'no-passphrase',
      '--name',
      'n1',
      '--external-worker-addrs',
      `${WORKER},/ip4/198.51.100.1/udp/1/quic-v1`,
      '--rpc-http',
      'https://rpc.example.org:8545',
      '--rpc-ws',
      'wss://rpc.example.org/ws',
      '--json',
    ])
    assert.equal(a.code, 0, a.stderr)
    assert.match(a.stderr, /only the first one is used, as the node does \(ignored: \/ip4\/198\.51\.100\.1/)
    const first = (await readNodeInfo(datadir)).info
    assert.equal(first.name, 'n1')
    assert.equal(first.executionAddress, ADDRESS)
    assert.equal(first.workers.length, 1)
    assert.ok(first.workers[0]?.networkAddress.startsWith(`${WORKER}/p2p/`))
    assert.deepEqual(first.workers[0]?.rpc, { http: 'https://rpc.example.org:8545/', ws: 'wss://rpc.example.org/ws' })
    const text = await fs.readFile(join(datadir, 'node-info.yaml'), 'utf8')
    assert.match(
      text,
      /\n {4}rpc:\n {6}http: "https:\/\/rpc\.example\.org:8545\/"\n {6}ws: "wss:\/\/rpc\.example\.org\/ws"\n/,
    )
    const b = await runCli(
      [
        'keytool',
        'generate',
        'validator',
        '--datadir',
        datadir,
        '--bls-passphrase-source',
        'no-passphrase',
        '--overwrite',
        '--skip-registry-check',
        '-q',
      ],
      { env: { EXECUTION_ADDRESS: '0' } },
    )
    assert.equal(b.code, 0, b.stderr)
    assert.equal((await readNodeInfo(datadir)).info.executionAddress, `0x${'0'.repeat(40)}`)
    assert.equal((await fs.readdir(datadir)).filter((f) => f.startsWith('backup-')).length, 1)
  })

  it("--node-info-form workers writes the specification's list and says the released node cannot read it", async () => {
    const datadir = join(dir, 'list')
    const r = await runCli([
      'keytool',
      'generate',
      'validator',
      '--address',
      '0',
      '--datadir',
      datadir,
      '--node-info-form',
      'workers',
      '--bls-passphrase-source',
      'no-passphrase',
      '--json',
    ])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(parseJson<{ nodeInfoForm: string }>(r).nodeInfoForm, 'workers')
    assert.match(r.stderr, /The released node \(v0\.14\.0-adiri and main\) cannot start with it/)
    const { info, text } = await readNodeInfo(datadir)
    assert.equal(info.form, 'workers')
    assert.match(text, /^---\n/)
    assert.match(
      text,
      /\n {2}workers:\n {4}- network_address: \/ip4\/127\.0\.0\.1\/udp\/\d+\/quic-v1\/p2p\/12D3KooW\w+\n {6}network_key: 4XTTM\w+\n {6}rpc: ~\n/,
    )
  })

  it('warns when a new passphrase ends with whitespace (the node trims stdin lines)', async () => {
    const r = await runCli(
      ['keytool', 'generate', 'validator', '--address', '0', '--datadir', join(dir, 'trail'), '-q'],
      { env: { TN_BLS_PASSPHRASE: 'ends with space ' } },
    )
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stderr, /ends with whitespace.*opens only through TN_BLS_PASSPHRASE or ask/)
    assert.doesNotMatch(r.stdout + r.stderr, /ends with space/)
  })

  const badInputs: [string, string[], RegExp, number][] = [
    ['a bad address', ['--address', '0x1234'], /--address: "0x1234" is not an execution address/, 3],
    ['a bad checksum', ['--address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD'], /checksum is wrong/, 3],
    [
      'a tcp multiaddr',
      ['--address', '0', '--external-primary-addr', '/ip4/1.2.3.4/tcp/1'],
      /--external-primary-addr: .*\/tcp/,
      3,
    ],
    [
      'a multiaddr with /p2p/',
      [
        '--address',
        '0',
        '--external-primary-addr',
        `${PRIMARY}/p2p/12D3KooWCnizjv4ctsBTwwYJxZP3duCuoebJfbk1fUQv6Vg1dVUh`,
      ],
      /Primary address already contains a different P2P protocol/,
      3,
    ],
    [
      'a worker multiaddr with /p2p/',
      [
        '--address',
        '0',
        '--external-worker-addrs',
        `${WORKER}/p2p/12D3KooWCnizjv4ctsBTwwYJxZP3duCuoebJfbk1fUQv6Vg1dVUh`,
      ],
      /worker address already contains a different P2P protocol/,
      3,
    ],
    [
      'an ftp RPC URL',
      ['--address', '0', '--rpc-http', 'ftp://x.example'],
      /invalid worker rpc endpoint: invalid http endpoint scheme `ftp`, expected `http` or `https`/,
      3,
    ],
    [
      'an https URL as --rpc-ws',
      ['--address', '0', '--rpc-http', 'https://x.example', '--rpc-ws', 'https://x.example'],
      /invalid ws endpoint scheme `https`, expected `ws` or `wss`/,
      3,
    ],
    ['--rpc-ws without --rpc-http', ['--address', '0', '--rpc-ws', 'wss://x.example'], /rpc-http/, 2],
    [
      'several workers in the worker: form',
      ['--address', '0', '--workers', '2', '--node-info-form', 'worker'],
      /holds exactly one worker/,
      2,
    ],
    [
      'one worker address for two workers',
      ['--address', '0', '--workers', '2', '--external-worker-addrs', WORKER],
      /gives 1 address for 2 workers/,
      2,
    ],
    ['too many workers', ['--address', '0', '--workers', '5'], /workers/, 2],
    [
      'a name with a control character',
      ['--address', '0', '--name', 'a\u0007b'],
      /--name contains the control character U\+0007/,
      3,
    ],
    ['no address', [], /address/i, 2],
  ]
  for (const [what, args, message, code] of badInputs)
    it(`refuses ${what}: one paragraph, exit ${code}, nothing written`, async () => {
      const datadir = join(dir, `bad-${what.replace(/\W+/g, '-')}`)
      const r = await runCli(['keytool', 'generate', 'validator', '--datadir', datadir, ...args], {
        env: { TN_BLS_PASSPHRASE: 'x' },
      })
      assert.equal(r.code, code, r.stderr)
      assert.match(r.stderr, message)
      assert.equal(r.stdout, '')
      assert.equal(existsSync(datadir), false)
    })

  it('env source without TN_BLS_PASSPHRASE: "passphrase is required", naming the other sources, nothing written', async () => {
    const datadir = join(dir, 'nopass')
    const r = await runCli(['keytool', 'generate', 'validator', '--address', '0', '--datadir', datadir])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /passphrase is required/)
    assert.match(r.stderr, /stdin/)
    assert.match(r.stderr, /ask/)
    assert.match(r.stderr, /no-passphrase/)
    assert.equal(existsSync(datadir), false)
  })

  it('an empty TN_BLS_PASSPHRASE counts as unset (as the node treats it), and ask needs a terminal', async () => {
    const empty = await runCli(
      ['keytool', 'generate', 'validator', '--address', '0', '--datadir', join(dir, 'empty')],
      { env: { TN_BLS_PASSPHRASE: '' } },
    )
    assert.equal(empty.code, 2)
    assert.match(
      empty.stderr,
      /passphrase is required, see the option --bls-passphrase-source for options: TN_BLS_PASSPHRASE is empty/,
    )
    assert.equal(existsSync(join(dir, 'empty')), false)
    const blank = await runCli(
      [
        'keytool',
        'generate',
        'validator',
        '--address',
        '0',
        '--datadir',
        join(dir, 'blank'),
        '--bls-passphrase-source',
        'stdin',
      ],
      { input: ' \t \r\n' },
    )
    assert.equal(blank.code, 2)
    assert.match(blank.stderr, /passphrase is required.*empty once its trailing whitespace is dropped/)
    assert.equal(existsSync(join(dir, 'blank')), false)
    const ask = await runCli([
      'keytool',
      'generate',
      'validator',
      '--address',
      '0',
      '--datadir',
      join(dir, 'ask'),
      '--bls-passphrase-source',
      'ask',
    ])
    assert.equal(ask.code, 2)
    assert.match(ask.stderr, /--bls-passphrase-source ask needs a terminal/)
    assert.equal(existsSync(join(dir, 'ask')), false)
  })

  it('--json errors are JSON on stdout', async () => {
    const r = await runCli([
      'keytool',
      'generate',
      'validator',
      '--address',
      'nope',
      '--datadir',
      join(dir, 'j'),
      '--json',
    ])
    assert.equal(r.code, 3)
    const { error } = parseJson<{ error: { code: string; message: string; fix: string } }>(r)
    assert.equal(error.code, 'InvalidAddress')
    assert.match(error.fix, /--address/)
  })
})

it('a --datadir under a file is bad input (exit 3), not an unexpected failure', async () => {
  const { dir, cleanup } = tempDir('tnv-gen-notdir-')
  try {
    await fs.writeFile(join(dir, 'a-file'), 'x')
    const r = await runCli(
      ['keytool', 'generate', 'validator', '--address', ADDRESS, '--datadir', join(dir, 'a-file', 'sub'), '--json'],
      { env: { TN_BLS_PASSPHRASE: 'pw' } },
    )
    assert.equal(r.code, 3, r.stderr)
    const e = parseJson<{ error: { code: string; message: string } }>(r).error
    assert.equal(e.code, 'DatadirNotCreatable')
    assert.match(e.message, /a parent of it is a file/)
  } finally {
    cleanup()
  }
})
