/** `tnv keytool generate pop | verify | show | set-rpc | change-passphrase`, end to end. */
import assert from 'node:assert/strict'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import bs58 from 'bs58'
import { readNodeInfo } from '../../src/lib/nodeinfo/read.js'
import { formatNodeInfo } from '../../src/lib/nodeinfo/serialize.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { FIXED, plainDatadir, snapshotTree, unhex } from './fixtures.js'

const NO_PASS = ['--bls-passphrase-source', 'no-passphrase']
const NEW_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const PASS = 'first passphrase'

describe('keytool commands on existing keys', () => {
  let dir: string
  let cleanup: () => void
  let encrypted: string
  before(async () => {
    ;({ dir, cleanup } = tempDir())
    encrypted = join(dir, 'enc')
    const r = await runCli(
      [
        'keytool',
        'generate',
        'validator',
        '--address',
        '0',
        '--datadir',
        encrypted,
        '--external-primary-addr',
        '/ip4/203.0.113.10/udp/49590/quic-v1',
        '--external-worker-addrs',
        '/ip4/203.0.113.10/udp/49594/quic-v1',
        '-q',
      ],
      {
        env: { TN_BLS_PASSPHRASE: PASS },
      },
    )
    assert.equal(r.code, 0, r.stderr)
  })
  after(() => cleanup())

  describe('verify', () => {
    it('opens the key and checks everything against node-info.yaml', async () => {
      const r = await runCli(['keytool', 'verify', '--datadir', encrypted, '--json'], {
        env: { TN_BLS_PASSPHRASE: PASS },
      })
      assert.equal(r.code, 0, r.stderr)
      const out = parseJson<{ ok: boolean; checks: { field: string; ok: boolean }[] }>(r)
      assert.equal(out.ok, true)
      assert.deepEqual(
        out.checks.map((c) => c.field),
        ['bls_public_key', 'proof_of_possession', 'p2p_info.primary.network_key', 'p2p_info.worker.network_key'],
      )
    })

    it('a wrong passphrase is a clear error that never yields a key', async () => {
      const r = await runCli(['keytool', 'verify', '--datadir', encrypted], { env: { TN_BLS_PASSPHRASE: `${PASS} ` } })
      assert.equal(r.code, 4)
      assert.match(
        r.stderr,
        /Could not decrypt BLS key: wrong passphrase, or corrupted\/unsupported keyfile \(.*bls\.kw/,
      )
    })

    it('a truncated or tampered bls.kw is refused', async () => {
      const copy = join(dir, 'tampered')
      await fs.cp(encrypted, copy, { recursive: true })
      const kw = join(copy, 'node-keys', 'bls.kw')
      const bytes = bs58.decode(await fs.readFile(kw, 'utf8'))
      await fs.writeFile(kw, bs58.encode(bytes.slice(0, 60)))
      const cut = await runCli(['keytool', 'verify', '--datadir', copy], { env: { TN_BLS_PASSPHRASE: PASS } })
      assert.equal(cut.code, 4)
      assert.match(
        cut.stderr,
        /bls\.kw: Could not decrypt BLS key: keyfile is truncated or corrupt \(it holds 60 bytes instead of 72/,
      )
      bytes[30] = (bytes[30] ?? 0) ^ 0x80
      await fs.writeFile(kw, bs58.encode(bytes))
      const flipped = await runCli(['keytool', 'verify', '--datadir', copy], { env: { TN_BLS_PASSPHRASE: PASS } })
      assert.equal(flipped.code, 4)
      assert.match(flipped.stderr, /Could not decrypt BLS key: wrong passphrase/)
    })

    it('names each mismatch (a network key that belongs to another seed)', async () => {
      const copy = join(dir, 'mismatch')
      await plainDatadir(copy)
      const path = join(copy, 'node-info.yaml')
      const text = await fs.readFile(path, 'utf8')
      const swapped = text
        .replace(FIXED.worker0.networkKey, 'WORKER_KEY')
        .replace(FIXED.worker0.peerId, 'WORKER_ID')
        .replace(FIXED.primary.networkKey, FIXED.worker0.networkKey)
        .replace(FIXED.primary.peerId, FIXED.worker0.peerId)
        .replace('WORKER_KEY', FIXED.primary.networkKey)
        .replace('WORKER_ID', FIXED.primary.peerId)
      await fs.writeFile(path, swapped)
      const r = await runCli(['keytool', 'verify', '--datadir', copy, ...NO_PASS])
      assert.equal(r.code, 4)
      assert.match(r.stderr, /2 checks failed/)
      assert.match(
        r.stderr,
        /p2p_info\.primary\.network_key is peer id 12D3KooWJHqBuGA5us6V5w3NAPhmEUHLCCPV3BPCoEr67y85o8gt, but node-keys\/primary\.seed gives 12D3KooWHk16ouMUd3hBGCtdc4qc9MwchAzufCEzhK8HXdgGyM7J/,
      )
      assert.match(r.stderr, /p2p_info\.worker\.network_key/)
      assert.match(r.stdout, /^FAIL +p2p_info\.primary\.network_key/m)
    })

    it('no-passphrase cannot open an encrypted key; a missing data directory is named', async () => {
      const r = await runCli(['keytool', 'verify', '--datadir', encrypted, ...NO_PASS])
      assert.equal(r.code, 4)
      assert.match(r.stderr, /bls\.kw is encrypted, so --bls-passphrase-source no-passphrase cannot open it/)
      const missing = await runCli(['keytool', 'verify', '--datadir', join(dir, 'nope')], {
        env: { TN_BLS_PASSPHRASE: PASS },
      })
      assert.equal(missing.code, 3)
      assert.match(missing.stderr, /The data directory .*nope does not exist/)
    })
  })

  describe('show', () => {
    it('prints the public identity with PoP validity, peer ids, key file state and modes', async () => {
      const r = await runCli(['keytool', 'show', '--datadir', encrypted, '--json', ...NO_PASS])
      assert.equal(r.code, 0, r.stderr)
      const out = parseJson<
        Record<string, unknown> & {
          keyFile: { encrypted: boolean; mode: string }
          nodeKeysDir: { mode: string }
          primary: { peerId: string }
          warnings: string[]
        }
      >(r)
      assert.equal(out.proofOfPossessionValid, true)
      assert.deepEqual({ encrypted: out.keyFile.encrypted, mode: out.keyFile.mode }, { encrypted: true, mode: '0600' })
      assert.equal(out.nodeKeysDir.mode, '0700')
      assert.match(out.primary.peerId, /^12D3KooW/)
      assert.deepEqual(out.warnings, [])
      assert.deepEqual(out.nodeInfoForm, {
        form: 'worker',
        key: 'p2p_info.worker',
        shape: 'one map',
        readBy: { releasedNode: true, specRelease: true },
        summary:
          "p2p_info.worker (one map): read by the released node (v0.14.0-adiri and main) and by the specification's release (not released yet)",
        writtenAsNodeWrites: true,
      })
      // show reads no key, so it needs no passphrase source (the node's keytool has no show)
      const text = await runCli(['keytool', 'show', '--datadir', encrypted, '-q'])
      assert.equal(text.code, 0, text.stderr)
      assert.match(text.stdout, /^PoP valid +yes, for 0x0{40}$/m)
      assert.match(text.stdout, /^node-info form +p2p_info\.worker \(one map\): read by the released node/m)
      assert.match(text.stdout, /^node-info layout +byte for byte as the node writes it$/m)
      assert.match(text.stdout, /^key file +.*bls\.kw \(encrypted, mode 0600\)$/m)
    })

    it("names the specification's form, says the released node cannot read it, and how to convert", async () => {
      const copy = join(dir, 'show-list')
      await plainDatadir(copy)
      const path = join(copy, 'node-info.yaml')
      const { info } = await readNodeInfo(copy)
      await fs.writeFile(path, formatNodeInfo({ ...info, form: 'workers' }))
      const r = await runCli(['keytool', 'show', '--datadir', copy, '--json'])
      assert.equal(r.code, 0, r.stderr)
      const out = parseJson<{
        nodeInfoForm: { form: string; readBy: { releasedNode: boolean; specRelease: boolean } }
      }>(r)
      assert.equal(out.nodeInfoForm.form, 'workers')
      assert.deepEqual(out.nodeInfoForm.readBy, { releasedNode: false, specRelease: true })
      assert.match(
        r.stderr,
        /cannot read \("missing field `worker`"\)\. Convert it for that node: tnv keytool convert --to worker/,
      )
    })

    it('warns about loose file modes', async () => {
      const copy = join(dir, 'loose')
      await plainDatadir(copy)
      await fs.chmod(join(copy, 'node-keys', 'bls.key'), 0o644)
      const r = await runCli(['keytool', 'show', '--datadir', copy, ...NO_PASS, '-q'])
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stderr, /bls\.key has mode 0644; others can read the key\. Run: chmod 0600/)
      assert.match(r.stderr, /is not encrypted/)
    })
  })

  describe('generate pop', () => {
    it('re-signs for a new address; keeps keys, name and p2p identities; warns; keeps a backup', async () => {
      const before = await readNodeInfo(encrypted)
      const keysBefore = await snapshotTree(join(encrypted, 'node-keys'))
      const r = await runCli(['keytool', 'generate', 'pop', '--address', NEW_ADDRESS, '--datadir', encrypted, '-q'], {
        env: { TN_BLS_PASSPHRASE: PASS },
      })
      assert.equal(r.code, 0, r.stderr)
      assert.match(
        r.stderr,
        /replacing execution address and re-signing proof of possession: 0x0{40} becomes 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/,
      )
      assert.match(
        r.stdout,
        /^OK {2}node-info\.yaml updated: .*node-info\.yaml\n {4}execution_address: {3}0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\n {4}proof_of_possession: \w+\n$/,
      )
      const after = await readNodeInfo(encrypted)
      assert.equal(after.info.executionAddress, NEW_ADDRESS)
      assert.notDeepEqual(after.info.proofOfPossession, before.info.proofOfPossession)
      assert.deepEqual(
        { ...after.info, executionAddress: '', proofOfPossession: null },
        { ...before.info, executionAddress: '', proofOfPossession: null },
      )
      assert.deepEqual(await snapshotTree(join(encrypted, 'node-keys')), keysBefore)
      const backups = (await fs.readdir(encrypted)).filter((f) => f.startsWith('backup-'))
      assert.equal(backups.length, 1)
      assert.equal(after.info.form, 'worker', 'the form is kept')
      assert.match(after.text, /\nexecution_address: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"\n/)
      const exported = await runCli([
        'keytool',
        'export-staking-args',
        '--node-info',
        encrypted,
        '--json',
        '--details',
        ...NO_PASS,
      ])
      assert.equal(parseJson<{ tnv: { executionAddress: string } }>(exported).tnv.executionAddress, NEW_ADDRESS)
    })

    it("keeps the file's form: a workers: list stays a list; --node-info-form converts it and says so", async () => {
      const copy = join(dir, 'list-form')
      await plainDatadir(copy)
      const path = join(copy, 'node-info.yaml')
      const { info } = await readNodeInfo(copy)
      await fs.writeFile(path, formatNodeInfo({ ...info, form: 'workers' }))
      const kept = await runCli(['keytool', 'generate', 'pop', '--address', NEW_ADDRESS, '--datadir', copy, ...NO_PASS])
      assert.equal(kept.code, 0, kept.stderr)
      assert.match(kept.stderr, /keeps its form: p2p_info\.workers \(a list\)/)
      const list = await readNodeInfo(copy)
      assert.equal(list.info.form, 'workers')
      assert.equal(list.info.executionAddress, NEW_ADDRESS)
      // set-rpc keeps the list too (and accepts the node's global --bls-passphrase-source, unused)
      const rpc = await runCli(['keytool', 'set-rpc', '--http', 'https://x.example', '--datadir', copy, ...NO_PASS])
      assert.equal(rpc.code, 0, rpc.stderr)
      const listed = await readNodeInfo(copy)
      assert.equal(listed.info.form, 'workers')
      assert.match(
        listed.text,
        /\n {4}- network_address: .*\n {6}network_key: .*\n {6}rpc:\n {8}http: "https:\/\/x\.example\/"\n {8}ws: ~\n/,
      )
      const converted = await runCli([
        'keytool',
        'generate',
        'proof-of-possession',
        '--execution-address',
        FIXED.address,
        '--datadir',
        copy,
        '--node-info-form',
        'worker',
        ...NO_PASS,
        '--json',
      ])
      assert.equal(converted.code, 0, converted.stderr)
      assert.match(converted.stderr, /changes form as asked: now p2p_info\.worker \(one map\)/)
      const out = parseJson<{ previousNodeInfoForm: string; nodeInfoForm: string }>(converted)
      assert.deepEqual([out.previousNodeInfoForm, out.nodeInfoForm], ['workers', 'worker'])
      const map = await readNodeInfo(copy)
      assert.equal(map.info.form, 'worker')
      assert.equal(map.text, formatNodeInfo(map.info))
    })

    it('repairs a damaged execution_address (the field it rewrites)', async () => {
      const copy = join(dir, 'pop-repair')
      await plainDatadir(copy)
      const path = join(copy, 'node-info.yaml')
      await fs.writeFile(
        path,
        (await fs.readFile(path, 'utf8')).replace(/^execution_address: .*$/m, 'execution_address: [1, 2]'),
      )
      const refused = await runCli(['keytool', 'verify', '--datadir', copy, ...NO_PASS])
      assert.equal(refused.code, 3)
      assert.match(
        refused.stderr,
        /execution_address: expected a text value, found a list\. The file is in the released node's form .*tnv keytool generate pop --address/,
      )
      const r = await runCli([
        'keytool',
        'generate',
        'pop',
        '--address',
        NEW_ADDRESS,
        '--datadir',
        copy,
        ...NO_PASS,
        '--json',
      ])
      assert.equal(r.code, 0, r.stderr)
      const out = parseJson<{ repaired: string[]; previousAddress: string | null }>(r)
      assert.deepEqual(out.repaired, ['execution_address'])
      assert.equal(out.previousAddress, null)
      assert.equal((await runCli(['keytool', 'verify', '--datadir', copy, ...NO_PASS])).code, 0)
    })

    it('refuses when the key on disk is not the key in node-info.yaml, changing nothing', async () => {
      const copy = join(dir, 'other-key')
      await plainDatadir(copy)
      const path = join(copy, 'node-info.yaml')
      const enc = await readNodeInfo(encrypted)
      const text = await fs.readFile(path, 'utf8')
      await fs.writeFile(path, text.replace(bs58.encode(unhex(FIXED.publicKeyHex)), bs58.encode(enc.info.blsPublicKey)))
      const before = await snapshotTree(copy)
      const r = await runCli(['keytool', 'generate', 'pop', '--address', NEW_ADDRESS, '--datadir', copy, ...NO_PASS])
      assert.equal(r.code, 4)
      assert.match(
        r.stderr,
        /BLS key mismatch: node-info\.yaml records public key \w+ but the keys loaded from disk are \w+/,
      )
      assert.deepEqual(await snapshotTree(copy), before)
    })

    it('no-passphrase fails clearly on an encrypted key', async () => {
      const r = await runCli([
        'keytool',
        'generate',
        'pop',
        '--address',
        NEW_ADDRESS,
        '--datadir',
        encrypted,
        ...NO_PASS,
      ])
      assert.equal(r.code, 4)
      assert.match(r.stderr, /is encrypted, so --bls-passphrase-source no-passphrase cannot open it/)
    })
  })

  describe('set-rpc', () => {
    let datadir: string
    before(async () => {
      datadir = join(dir, 'rpc')
      await plainDatadir(datadir)
    })

    it('needs no passphrase source; sets http and ws; repeating is a no-op', async () => {
      const r = await runCli([
        'keytool',
        'set-rpc',
        '--http',
        'https://rpc.example.org',
        '--ws',
        'wss://rpc.example.org/ws',
        '--datadir',
        datadir,
        '--json',
      ])
      assert.equal(r.code, 0, r.stderr)
      assert.deepEqual(parseJson<{ rpc: unknown }>(r).rpc, {
        http: 'https://rpc.example.org/',
        ws: 'wss://rpc.example.org/ws',
      })
      const { info, text } = await readNodeInfo(datadir)
      assert.deepEqual(info.workers[0]?.rpc, { http: 'https://rpc.example.org/', ws: 'wss://rpc.example.org/ws' })
      assert.equal(info.form, 'worker')
      assert.match(
        text,
        /\n {2}worker:\n(?: {4}.*\n){2} {4}rpc:\n {6}http: "https:\/\/rpc\.example\.org\/"\n {6}ws: "wss:\/\/rpc\.example\.org\/ws"\n/,
      )
      const again = await runCli([
        'keytool',
        'set-rpc',
        '--http',
        'https://rpc.example.org',
        '--ws',
        'wss://rpc.example.org/ws',
        '--datadir',
        datadir,
      ])
      assert.equal(again.code, 0)
      assert.match(again.stdout, /already has worker rpc .*nothing was changed/)
    })

    it('--clear removes them', async () => {
      const r = await runCli(['keytool', 'set-rpc', '--clear', '--datadir', datadir, '-q'])
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stdout, /^OK {2}node-info\.yaml updated: .*\n {4}worker rpc: cleared\n$/)
      assert.match(r.stderr, /cleared existing worker RPC endpoint/)
      assert.match((await readNodeInfo(datadir)).text, /\n {2}worker:\n(?: {4}.*\n){2} {4}rpc: ~\n/)
      assert.equal((await readNodeInfo(datadir)).info.workers[0]?.rpc, undefined)
    })

    const bad: [string, string[], RegExp, number][] = [
      ['no flag', [], /needs --http/, 2],
      ['--clear with --http', ['--clear', '--http', 'https://x.example'], /--clear conflicts/, 2],
      ['--ws alone', ['--ws', 'wss://x.example'], /--ws is given without --http/, 2],
      [
        'an ftp scheme',
        ['--http', 'ftp://x.example'],
        /invalid http endpoint scheme `ftp`, expected `http` or `https`/,
        3,
      ],
      ['ws scheme for --http', ['--http', 'ws://x.example'], /invalid http endpoint scheme `ws`/, 3],
      [
        'http scheme for --ws',
        ['--http', 'https://x.example', '--ws', 'https://x.example'],
        /invalid ws endpoint scheme `https`, expected `ws` or `wss`/,
        3,
      ],
      [
        'a URL over 2048 bytes',
        ['--http', `https://x.example/${'a'.repeat(2040)}`],
        /rpc endpoint URL length 2058 exceeds maximum of 2048 bytes/,
        3,
      ],
      [
        'a worker that does not exist',
        ['--http', 'https://x.example', '--worker', '1'],
        /--worker 1 does not exist/,
        2,
      ],
    ]
    for (const [what, args, message, code] of bad)
      it(`refuses ${what} and changes nothing`, async () => {
        const before = await snapshotTree(datadir)
        const r = await runCli(['keytool', 'set-rpc', '--datadir', datadir, ...args])
        assert.equal(r.code, code, r.stderr)
        assert.match(r.stderr, message)
        assert.deepEqual(await snapshotTree(datadir), before)
      })
  })

  describe('change-passphrase', () => {
    it('re-wraps under the new passphrase (both from stdin), keeping a backup; the old one no longer opens it', async () => {
      const kwBefore = await fs.readFile(join(encrypted, 'node-keys', 'bls.kw'), 'utf8')
      const r = await runCli(
        [
          'keytool',
          'change-passphrase',
          '--datadir',
          encrypted,
          '--bls-passphrase-source',
          'stdin',
          '--new-passphrase-source',
          'stdin',
          '--json',
        ],
        {
          input: `${PASS}\nsecond passphrase\n`,
        },
      )
      assert.equal(r.code, 0, r.stderr)
      const out = parseJson<{ keyFile: string; backupDir: string }>(r)
      assert.equal(await fs.readFile(join(out.backupDir, 'bls.kw'), 'utf8'), kwBefore)
      assert.notEqual(await fs.readFile(out.keyFile, 'utf8'), kwBefore)
      const ok = await runCli(['keytool', 'verify', '--datadir', encrypted, '-q'], {
        env: { TN_BLS_PASSPHRASE: 'second passphrase' },
      })
      assert.equal(ok.code, 0, ok.stderr)
      const old = await runCli(['keytool', 'verify', '--datadir', encrypted, '-q'], {
        env: { TN_BLS_PASSPHRASE: PASS },
      })
      assert.equal(old.code, 4)
    })

    it('encrypts an unencrypted bls.key (new passphrase from TN_NEW_BLS_PASSPHRASE)', async () => {
      const copy = join(dir, 'plain-to-kw')
      await plainDatadir(copy)
      const r = await runCli(
        ['keytool', 'change-passphrase', '--datadir', copy, ...NO_PASS, '--new-passphrase-source', 'env', '-q'],
        { env: { TN_NEW_BLS_PASSPHRASE: 'now encrypted' } },
      )
      assert.equal(r.code, 0, r.stderr)
      assert.deepEqual((await fs.readdir(join(copy, 'node-keys'))).sort(), ['bls.kw', 'primary.seed', 'worker.seed'])
      const v = await runCli(['keytool', 'verify', '--datadir', copy, '-q'], {
        env: { TN_BLS_PASSPHRASE: 'now encrypted' },
      })
      assert.equal(v.code, 0, v.stderr)
    })

    it('refuses an empty new passphrase and a wrong current one, changing nothing', async () => {
      const before = await snapshotTree(encrypted)
      const empty = await runCli(
        ['keytool', 'change-passphrase', '--datadir', encrypted, '--new-passphrase-source', 'env'],
        {
          env: { TN_BLS_PASSPHRASE: 'second passphrase', TN_NEW_BLS_PASSPHRASE: '' },
        },
      )
      assert.equal(empty.code, 2)
      assert.match(empty.stderr, /passphrase is required.*TN_NEW_BLS_PASSPHRASE is empty/)
      const wrong = await runCli(
        ['keytool', 'change-passphrase', '--datadir', encrypted, '--new-passphrase-source', 'env'],
        {
          env: { TN_BLS_PASSPHRASE: 'nope', TN_NEW_BLS_PASSPHRASE: 'x' },
        },
      )
      assert.equal(wrong.code, 4)
      assert.deepEqual(await snapshotTree(encrypted), before)
    })
  })
})
