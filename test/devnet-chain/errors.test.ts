/**
 * The devnet chain errors an operator can meet, checked by what a script or a person acts on:
 * the code, the exit code, and the flag or command the fix names (one paragraph each).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  AnvilNotFoundError,
  AnvilStartError,
  DevnetChainLockedError,
  DevnetSourceMismatchError,
  DevnetStateMismatchError,
  ForkUrlRequiredError,
} from '../../src/devnet/chain/errors.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import { ExitCode, TnvError } from '../../src/lib/errors.js'

function expectError(e: unknown, code: string, exitCode: number, fixNames: RegExp): void {
  assert.ok(e instanceof TnvError)
  assert.equal(e.code, code)
  assert.equal(e.exitCode, exitCode)
  assert.match(e.fix ?? '', fixNames)
}

describe('devnet chain errors', () => {
  it('say what is wrong and what to do', async () => {
    expectError(
      new DevnetChainLockedError('/home/op/.local/share/tnv/devnet', 4242),
      'DevnetChainLocked',
      ExitCode.NodeConfig,
      /`kill 4242`.*`tnv devnet stop`/,
    )
    expectError(
      new DevnetStateMismatchError("The chain in /d has chain id 1, not the devnet's 911329.", '/d'),
      'DevnetStateMismatch',
      ExitCode.NodeConfig,
      /`mv \/d \/d\.old`/,
    )
    expectError(
      new AnvilNotFoundError('@foundry-rs/anvil-linux-amd64'),
      'AnvilNotFound',
      ExitCode.Internal,
      /`npm install`/,
    )
    const start = new AnvilStartError(
      'anvil exited (code 1) before it answered on http://127.0.0.1:8545.',
      'Error: Address already in use (os error 98)\n',
    )
    expectError(start, 'AnvilStart', ExitCode.Internal, /port/)
    assert.match(start.render(), /\n {2}Error: Address already in use/, 'the anvil output is shown under the paragraph')
    const bad = await startDevnetChain({ datadir: '/nonexistent/tnv', epochSeconds: 0 }).catch((e: unknown) => e)
    expectError(bad, 'InvalidDevnetParameter', ExitCode.BadInput, /--epoch-seconds N/)
    expectError(
      new DevnetSourceMismatchError('/d', 'the genesis adiri', 'the embedded devnet'),
      'DevnetSourceMismatch',
      ExitCode.Usage,
      /--genesis\/--fork-url\/--chain-id.*--datadir/,
    )
    expectError(
      new ForkUrlRequiredError('/d', 'https://rpc.example/…', '42'),
      'ForkUrlRequired',
      ExitCode.Usage,
      /--fork-url/,
    )
  })
})
