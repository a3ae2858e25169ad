/** `tnv demo` (the keys part): real keys made, shown, verified and exported, then removed. */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { it } from 'node:test'
import { parseJson, runCli } from '../helpers/cli.js'

it('tnv demo --json: verified keys and the stake calldata; the temporary directory is gone', async () => {
  const r = await runCli(['demo', '--json'])
  assert.equal(r.code, 0, r.stderr)
  const out = parseJson<{ dir: string | null; verified: boolean; calldata: string; blsPubkey: string }>(r)
  assert.equal(out.verified, true)
  assert.equal(out.dir, null)
  assert.match(out.calldata, /^0x2fb0d025/)
  assert.ok(out.calldata.includes(out.blsPubkey.slice(2)))
})

it('tnv demo --keep prints the steps and keeps the directory', async () => {
  const r = await runCli(['demo', '--keep'])
  assert.equal(r.code, 0, r.stderr)
  assert.match(r.stdout, /\$ TN_BLS_PASSPHRASE=… tnv keytool generate validator/)
  assert.match(r.stdout, /ok +proof_of_possession +valid for 0x1111111111111111111111111111111111111111/)
  const kept = /^Kept (.+)$/m.exec(r.stdout)?.[1]
  assert.ok(kept && existsSync(kept))
  const { rmSync } = await import('node:fs')
  rmSync(kept, { recursive: true, force: true })
})
