/**
 * Secrets sampled where they could leak (issue 15): every secret tnv reads, set at once, then
 * every place another process or person could read it: the environment and the command line of
 * the node tnv starts (read from /proc/<pid>/environ and /proc/<pid>/cmdline, as any local user
 * of that uid can), tnv's stdout and stderr, the files it writes. A value found where it is not
 * needed is a leak. The one place a secret is shown by design is the released node's own
 * `--rpc.jwtsecret <hex>` (it takes no other form; tnv warns, docs/decisions.md); the BLS
 * passphrase in the environment of a real node that decrypts bls.kw is the node's need. The
 * figures of docs/reliability.md ("Secrets") come from this file's run.
 */
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

const FAKE = join(ROOT, 'test/node/fixtures/fake-node.mjs')
const JWT_HEX = 'ab'.repeat(32)
const SECRETS: Record<string, string> = {
  TN_PRIVATE_KEY: `0x${'5a'.repeat(32)}`,
  TN_KEYSTORE_PASSWORD: 'keystore-password-sample',
  TN_BLS_PASSPHRASE: 'bls-passphrase-sample',
  TN_NEW_BLS_PASSPHRASE: 'new-bls-passphrase-sample',
  TNV_JWT_SECRET: `@JWTFILE`,
}

type Place = { name: string; text: string }
/** What a secret may be found in, by design: [place name, secret name]. */
type Allowed = [string, string][]

function procText(pid: number, what: 'environ' | 'cmdline'): string {
  return readFileSync(`/proc/${pid}/${what}`).toString('utf8').replaceAll('\0', '\n')
}

function filesUnder(dir: string): Place[] {
  const out: Place[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const p = join(entry.parentPath, entry.name)
    out.push({ name: `file ${p.slice(dir.length + 1)}`, text: readFileSync(p, 'latin1') })
  }
  return out
}

describe('secrets sampled in every place a child or a person could read them (issue 15)', { timeout: 300_000 }, () => {
  const { dir, cleanup } = tempDir('tnv-secrets-')
  const tally = { sampled: 0, leaked: 0, byDesign: 0 }
  const jwtFile = join(dir, 'jwt.hex')
  writeFileSync(jwtFile, `${JWT_HEX}\n`, { mode: 0o600 })
  const values: Record<string, string> = { ...SECRETS, TNV_JWT_SECRET: `@${jwtFile}`, 'JWT secret (hex)': JWT_HEX }
  const env = { ...SECRETS, TNV_JWT_SECRET: `@${jwtFile}` }
  after(async () => {
    process.stderr.write(
      `secrets: ${tally.sampled} samples, ${tally.leaked} leaked, ${tally.byDesign} shown by design (the released node's --rpc.jwtsecret; the BLS passphrase of a node that decrypts bls.kw)\n`,
    )
    cleanup()
  })

  function check(places: Place[], allowed: Allowed): void {
    const leaks: string[] = []
    for (const place of places)
      for (const [name, value] of Object.entries(values)) {
        // the @file form names a path, not the secret; the secret itself is the hex
        if (name === 'TNV_JWT_SECRET') continue
        tally.sampled++
        if (!place.text.includes(value)) continue
        if (allowed.some(([p, s]) => place.name.startsWith(p) && s === name)) tally.byDesign++
        else {
          tally.leaked++
          leaks.push(`${name} in ${place.name}`)
        }
      }
    assert.deepEqual(leaks, [])
  }

  const cases: { name: string; keys: 'none' | 'kw'; flags: string[]; allowed: Allowed; nodeHasPass: boolean }[] = [
    {
      name: 'a real node, no encrypted key in its data directory',
      keys: 'none',
      flags: [],
      allowed: [['node cmdline', 'JWT secret (hex)']],
      nodeHasPass: false,
    },
    {
      name: 'a real node that decrypts bls.kw (source env)',
      keys: 'kw',
      flags: [],
      allowed: [
        ['node cmdline', 'JWT secret (hex)'],
        ['node environ', 'TN_BLS_PASSPHRASE'],
      ],
      nodeHasPass: true,
    },
    {
      name: 'a real node with bls.kw and --bls-passphrase-source stdin',
      keys: 'kw',
      flags: ['--bls-passphrase-source', 'stdin'],
      allowed: [['node cmdline', 'JWT secret (hex)']],
      nodeHasPass: false,
    },
  ]
  for (const c of cases)
    it(`tnv node start: ${c.name}`, async () => {
      const datadir = join(dir, c.name.replace(/\W+/g, '-'))
      mkdirSync(datadir, { recursive: true })
      if (c.keys === 'kw') {
        mkdirSync(join(datadir, 'node-keys'), { recursive: true })
        writeFileSync(join(datadir, 'node-keys', 'bls.kw'), 'x')
      }
      const port = await freePort()
      const r = await runCli(
        [
          'node',
          'start',
          '--detach',
          '--json',
          '--datadir',
          datadir,
          '--node-binary',
          FAKE,
          '--',
          ...c.flags,
          '--http',
          '--http.port',
          String(port),
          '--ipcdisable',
        ],
        { env },
      )
      assert.equal(r.code, 0, r.stderr)
      const state = parseJson<{ pid: number }>(r)
      try {
        const environ = procText(state.pid, 'environ')
        assert.equal(environ.includes(`TN_BLS_PASSPHRASE=${SECRETS.TN_BLS_PASSPHRASE}`), c.nodeHasPass)
        // the warning for the JWT on the released node's command line
        assert.match(r.stderr.replace(/\s+/g, ' '), /any local user can read it from the process list/)
        check(
          [
            { name: 'node environ', text: environ },
            { name: 'node cmdline', text: procText(state.pid, 'cmdline') },
            { name: 'tnv stdout', text: r.stdout },
            { name: 'tnv stderr', text: r.stderr },
            // logs/node.log is the node's own output (the stand-in prints its command line on
            // purpose, for test/node); what tnv writes is every other file
            ...filesUnder(datadir).filter((f) => !f.name.endsWith('bls.kw') && !f.name.includes('logs/')),
          ],
          c.allowed,
        )
      } finally {
        await runCli(['node', 'stop', '--datadir', datadir])
      }
    })

  it('keytool and rpc jwt: no secret in output or in the files written', async () => {
    const datadir = join(dir, 'keys')
    const runs = [
      await runCli(['keytool', 'generate', 'validator', '--datadir', datadir, '--address', '0', '--json'], { env }),
      await runCli(['keytool', 'verify', '--datadir', datadir, '--json'], { env }),
      await runCli(['keytool', 'change-passphrase', '--datadir', datadir, '--new-passphrase-source', 'env'], {
        env,
      }),
      await runCli(['rpc', 'jwt', '--json'], { env }),
    ]
    for (const r of runs.slice(0, 3)) assert.equal(r.code, 0, r.stderr)
    assert.equal(runs[3]?.code, 0, runs[3]?.stderr ?? '')
    check(
      [
        ...runs.flatMap((r, i) => [
          { name: `run ${i} stdout`, text: r.stdout },
          { name: `run ${i} stderr`, text: r.stderr },
        ]),
        ...filesUnder(datadir),
      ],
      [],
    )
    // a secret on tnv's own command line is refused before anything runs, and not repeated
    for (const argv of [
      ['rpc', 'jwt', '--secret', JWT_HEX],
      ['rpc', 'check', '--http', 'http://127.0.0.1:9', `--jwt-secret=${JWT_HEX}`],
      ['node', 'check', '--jwt-secret', JWT_HEX, '--datadir', datadir],
    ]) {
      const literal = await runCli(argv)
      assert.equal(literal.code, 2, `${argv.join(' ')}: ${literal.stderr}`)
      assert.match(literal.stderr, /on tnv's command line, where every user of this host can read it/)
      assert.ok(!literal.stderr.includes(JWT_HEX) && !literal.stdout.includes(JWT_HEX))
    }
  })

  it('--private-key: refused by every command that signs, before anything runs, without repeating the key', async () => {
    const key = SECRETS.TN_PRIVATE_KEY as string
    const datadir = join(dir, 'argv-key')
    for (const argv of [
      ['stake', '--private-key', key, '--datadir', datadir, '--yes'],
      ['activate', `--private-key=${key}`, '--yes'],
      ['governance', 'mint', '0x000000000000000000000000000000000000dEaD', '--private-key', key],
      ['offline', 'sign', join(datadir, 'none.bundle.json'), '--private-key', key],
      ['delegation', 'sign', '--delegator', '0x000000000000000000000000000000000000dEaD', '--private-key', key],
    ]) {
      const r = await runCli([...argv, '--json'], { env: { TN_PRIVATE_KEY: undefined } })
      assert.equal(r.code, 2, `${argv[0]}: ${r.stdout}${r.stderr}`)
      const { error } = parseJson<{ error: { code: string; message: string; fix: string } }>(r)
      assert.equal(error.code, 'Usage')
      assert.match(error.message, /^--private-key would put a private key on tnv's command line/)
      assert.match(error.fix, /TN_PRIVATE_KEY.*--keystore FILE, --ledger or --trezor/)
      assert.ok(!r.stdout.includes(key.slice(2)) && !r.stderr.includes(key.slice(2)), String(argv[0]))
    }
    const human = await runCli(['exit', '--private-key', key])
    assert.equal(human.code, 2)
    assert.match(
      human.stderr.replace(/\s+/g, ' '),
      /every user of this host can read it \(ps, \/proc\/<pid>\/cmdline\)/,
    )
    assert.equal(existsSync(datadir), false, 'nothing written')
  })
})
