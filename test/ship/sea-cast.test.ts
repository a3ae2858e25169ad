/**
 * --ledger / --trezor in the single executable, which does not embed foundry's cast
 * (docs/decisions.md "Hardware wallets through cast": 63 MB more for every operator, for the
 * few who sign on a device). Run with an empty environment: without cast the error says exactly what to install;
 * with cast on PATH (the binary of @foundry-rs/cast, as `npm install -g @foundry-rs/cast` or
 * foundryup put it there) tnv drives it up to the device boundary, as the npm build does.
 */
import assert from 'node:assert/strict'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { resolveCastBinary } from '../../src/lib/signers/cast.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { ensureSea, removeDir, runBare } from './sea.js'

describe('hardware wallets in the single executable (no cast inside)', { timeout: 600_000 }, () => {
  const tmp = tempDir('tnv-sea-cast-')
  const home = join(tmp.dir, 'home')
  let exe: string
  let rpc: string
  before(async () => {
    exe = await ensureSea()
    rpc = `http://127.0.0.1:${await freePort()}`
  })
  after(() => removeDir(tmp.dir))
  const activate = (env: Record<string, string>) =>
    runBare(exe, ['activate', '--ledger', '--rpc-url', rpc, '--chain-id', '911329', '--json'], {
      env: { HOME: home, ...env },
    })
  const errorOf = (stdout: string) =>
    (JSON.parse(stdout) as { error: { code: string; message: string; fix: string } }).error

  it('without cast: exit 4, the error says this executable has no cast and exactly what to install', async () => {
    const r = await activate({})
    assert.equal(r.code, 4, r.stderr)
    const e = errorOf(r.stdout)
    assert.equal(e.code, 'CastNotFound')
    assert.match(
      e.message,
      /which this single executable of tnv does not include, and no cast was found \(TNV_CAST_BINARY is not set, no cast on PATH\)/,
    )
    assert.match(e.fix, /npm install -g @foundry-rs\/cast/)
    assert.match(e.fix, /foundryup/)
    assert.match(e.fix, /TNV_CAST_BINARY=\/path\/to\/cast/)
    assert.doesNotMatch(e.fix, /npm ci/, 'no advice that applies only to the npm build')
  })

  it('TNV_CAST_BINARY naming no file: named in the error; the npm build gives its own advice instead', async () => {
    const missing = join(tmp.dir, 'no-cast')
    const r = await activate({ TNV_CAST_BINARY: missing })
    assert.equal(r.code, 4)
    assert.match(errorOf(r.stdout).message, new RegExp(`TNV_CAST_BINARY=${missing}`))
    assert.match(errorOf(r.stdout).message, /this single executable of tnv does not include/)
    const npm = await runCli(['activate', '--ledger', '--rpc-url', rpc, '--chain-id', '911329', '--json'], {
      env: { TNV_CAST_BINARY: missing },
    })
    assert.equal(npm.code, 4)
    const e = parseJson<{ error: { message: string; fix: string } }>(npm).error
    assert.doesNotMatch(e.message, /single executable/)
    assert.match(e.fix, /npm ci installs @foundry-rs\/cast/)
  })

  it('with cast on PATH: tnv drives it to the device boundary (no Ledger here: the device error, not the install one)', async () => {
    const cast = resolveCastBinary({ PATH: '' })
    const r = await activate({ PATH: dirname(cast) })
    assert.equal(r.code, 4, r.stderr)
    const e = errorOf(r.stdout)
    assert.equal(e.code, 'HardwareWalletUnavailable', JSON.stringify(e))
    assert.match(e.message, /^No Ledger answered for the account at m\/44'\/60'\/0'\/0\/0/)
  })
})
