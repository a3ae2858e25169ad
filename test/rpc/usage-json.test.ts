/** oclif's own usage errors with --json, and an unreachable endpoint named by its cause. */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { ExitCode } from '../../src/lib/errors.js'
import { parseJson, runCli } from '../helpers/cli.js'

type UsageJson = { error: { code: string; message: string; fix?: string; exitCode: number } }

it('--json usage errors keep the whole reason and name the help command', async () => {
  const missing = await runCli(['keytool', 'generate', 'validator', '--json'])
  assert.equal(missing.code, ExitCode.Usage)
  const a = parseJson<UsageJson>(missing).error
  assert.equal(a.code, 'Usage')
  assert.match(a.message, /Missing required flag address/)
  assert.equal(a.fix, 'Run `tnv keytool generate validator --help` for the flags and examples.')

  const bad = parseJson<UsageJson>(await runCli(['rpc', 'jwt', '--iat', 'x', '--json'])).error
  assert.match(bad.message, /--iat.*Expected an integer/)
  assert.doesNotMatch(bad.message, /See more help/)
})

it('node sync against a closed port says why, not "TypeError"', async () => {
  const r = await runCli([
    'node',
    'sync',
    '--rpc-url',
    'http://127.0.0.1:9',
    '--network-url',
    'http://127.0.0.1:9',
    '--timeout',
    '2',
    '--json',
  ])
  assert.equal(r.code, ExitCode.RpcUnreachable, r.stderr)
  const e = parseJson<UsageJson>(r).error
  assert.doesNotMatch(e.message, /TypeError/)
  assert.match(e.message, /http:\/\/127\.0\.0\.1:9 did not answer: \S/)
})
