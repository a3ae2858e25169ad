/** The rendered text of the devnet chain errors an operator can meet (snapshot). */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  AnvilNotFoundError,
  AnvilStartError,
  DevnetAlreadyRunningError,
  DevnetSourceMismatchError,
  DevnetStateMismatchError,
  ForkUrlRequiredError,
} from '../../src/devnet/chain/errors.js'
import { startDevnetChain } from '../../src/devnet/chain/start.js'
import { ExitCode, TnvError } from '../../src/lib/errors.js'

describe('devnet chain errors', () => {
  it('say what is wrong and what to do', async () => {
    assert.equal(
      new DevnetAlreadyRunningError('/home/op/.local/share/tnv/devnet', 4242).render(),
      'The devnet chain in /home/op/.local/share/tnv/devnet is already running (process 4242). Use that devnet, or stop it first (`kill 4242`, or `tnv devnet stop` when the reference node runs it).',
    )
    assert.equal(
      new DevnetStateMismatchError("The chain in /d has chain id 1, not the devnet's 911329.", '/d').render(),
      "The chain in /d has chain id 1, not the devnet's 911329. Move the directory aside (`mv /d /d.old`) and start again for a fresh devnet; nothing in it is deleted.",
    )
    assert.equal(
      new AnvilNotFoundError('@foundry-rs/anvil-linux-amd64').render(),
      `The anvil binary for this platform (${process.platform}/${process.arch}) was not found: @foundry-rs/anvil-linux-amd64 is not installed. Reinstall tnv's dependencies (\`npm install\`) on this machine; the binary ships inside that package, nothing is downloaded.`,
    )
    assert.equal(
      new AnvilStartError(
        'anvil exited (code 1) before it answered on http://127.0.0.1:8545.',
        'Listening…\nError: Address already in use (os error 98)\n',
      ).render(),
      'anvil exited (code 1) before it answered on http://127.0.0.1:8545. Check the anvil output below; if the port is taken, choose another port or let the devnet pick a free one.\n  Listening…\n  Error: Address already in use (os error 98)',
    )
    const bad = await startDevnetChain({ datadir: '/nonexistent/tnv', epochSeconds: 0 }).catch((e: unknown) => e)
    assert.ok(bad instanceof TnvError)
    assert.equal(bad.exitCode, ExitCode.BadInput)
    assert.equal(
      bad.render(),
      "The rehearsal epoch length must be a whole number of seconds from 1 to 4294967295, got 0. Pass --epoch-seconds N, or leave it out for the registry's own epochDuration.",
    )
    assert.equal(
      new DevnetSourceMismatchError('/d', 'the genesis adiri', 'the embedded devnet').render(),
      '/d holds a rehearsal of the genesis adiri, but this start asks for the embedded devnet. Start it without --genesis/--fork-url/--chain-id to resume it, or give another --datadir for a new rehearsal (or move /d aside).',
    )
    assert.equal(
      new ForkUrlRequiredError('/d', 'https://rpc.example/…', '42').render(),
      '/d holds a fork of https://rpc.example/… at block 42; resuming it needs the upstream URL again (tnv does not store it: it may carry an API key). Start it with --fork-url <the same endpoint> (the block is kept).',
    )
  })
})
