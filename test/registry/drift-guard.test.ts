/**
 * The drift guard and bad registries, through the built CLI as an operator runs it: code of
 * neither generation, no code, an unknown build of a known interface (refused for signing
 * unless its exact hash is accepted), a generation that disagrees with --registry-generation,
 * and an endpoint answering nothing or garbage. Each is one clear paragraph, a documented exit
 * code, and nothing sent.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { type Address, type Hex, keccak256 } from 'viem'
import { ISSUANCE_ADDRESS } from '../../src/lib/chain/addresses.js'
import { ExitCode } from '../../src/lib/errors.js'
import { type CliResult, parseJson, ROOT, runCli } from '../helpers/cli.js'
import { startTestChain, type TestChain } from './devnet-fixture.js'
import { startFakeRpc } from './fake-rpc.js'

type ErrorJson = { error: { code: string; message: string; fix?: string; exitCode: number } }
const ALT: Address = '0x00000000000000000000000000000000000a17e5'

function expectError(r: CliResult, code: string, exitCode: number) {
  assert.equal(r.code, exitCode, `${r.stdout}\n${r.stderr}`)
  const body = parseJson<ErrorJson>(r).error
  assert.equal(body.code, code)
  assert.equal(body.exitCode, exitCode)
  return body
}

describe('drift guard and bad registries (CLI, real next code)', { timeout: 300_000 }, () => {
  let t: TestChain
  let realCode: Hex
  const v = () => t.accounts[0] as { address: Address; privateKey: Hex }
  const tnv = (args: string[], env: Record<string, string | undefined> = {}) =>
    runCli([...args, '--json'], {
      env: {
        TN_CHAIN: undefined,
        TN_RPC_URL: undefined,
        TN_REGISTRY: undefined,
        TN_ACCEPT_REGISTRY_CODE: undefined,
        ...env,
      },
    })
  const net = () => ['--rpc-url', t.url, '--chain-id', String(t.engine.chainId)]
  const sent = () => t.engine.client.getTransactionCount({ address: v().address })

  before(async () => {
    t = await startTestChain('next', { accounts: 1 })
    realCode = (await t.engine.client.getCode({ address: '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1' })) as Hex
    // another build with the same interface: the real code and one more byte (a changed metadata tail)
    await t.anvil('anvil_setCode', [ALT, `${realCode}00`])
  })
  after(async () => {
    await t?.stop()
  })

  it('an unknown build of a known interface: read with a note; refused for signing; accepted only by its exact hash', async () => {
    const altHash = keccak256(`${realCode}00`)
    const status = await tnv(['validator', 'status', '--address', v().address, '--registry', ALT, ...net()])
    assert.equal(status.code, 0, status.stderr)
    const s = parseJson<{ registry: { generation: string; match: string; codeHash: string; notes: string[] } }>(status)
    assert.equal(s.registry.generation, 'next')
    assert.equal(s.registry.match, 'interface')
    assert.equal(s.registry.codeHash, altHash)
    assert.match(s.registry.notes.join(' '), new RegExp(`--accept-registry-code ${altHash}`))

    const before = await sent()
    const refusedBody = expectError(
      await tnv(['activate', '--registry', ALT, ...net()], { TN_PRIVATE_KEY: v().privateKey }),
      'RegistryCodeNotAccepted',
      ExitCode.UnknownRegistry,
    )
    assert.match(refusedBody.message, new RegExp(`code hash ${altHash}`))
    assert.match(refusedBody.message, /nothing was sent/)
    assert.match(refusedBody.fix ?? '', new RegExp(`--accept-registry-code ${altHash}`))
    const wrongHash = `0x${'ab'.repeat(32)}`
    const wrong = expectError(
      await tnv(['activate', '--registry', ALT, '--accept-registry-code', wrongHash, ...net()], {
        TN_PRIVATE_KEY: v().privateKey,
      }),
      'RegistryCodeNotAccepted',
      ExitCode.UnknownRegistry,
    )
    assert.match(wrong.message, /names another hash/)
    // accepted (flag or environment): the guard lets it through; this copy has no state, so nobody is whitelisted
    expectError(
      await tnv(['activate', '--registry', ALT, ...net()], {
        TN_PRIVATE_KEY: v().privateKey,
        TN_ACCEPT_REGISTRY_CODE: altHash,
      }),
      'NotWhitelisted',
      ExitCode.NotWhitelisted,
    )
    assert.equal(await sent(), before)
    expectError(
      await tnv(['activate', '--registry', ALT, '--accept-registry-code', 'xyz', ...net()], {
        TN_PRIVATE_KEY: v().privateKey,
      }),
      'BadInput',
      ExitCode.BadInput,
    )
  })

  it('code of neither generation: signing refused naming the hash and what is missing; a status says what it can and cannot read', async () => {
    const stake = expectError(
      await tnv(['activate', '--registry', ISSUANCE_ADDRESS, ...net()], { TN_PRIVATE_KEY: v().privateKey }),
      'UnknownRegistryCode',
      ExitCode.UnknownRegistry,
    )
    assert.match(
      stake.message,
      /is neither registry generation tnv knows: it lacks \d+ functions of adiri \(.*\) and \d+ of next/,
    )
    assert.match(stake.message, /code hash 0x[0-9a-f]{64}/)
    assert.match(stake.fix ?? '', /--registry/)
    const status = expectError(
      await tnv(['validator', 'status', '--address', v().address, '--registry', ISSUANCE_ADDRESS, ...net()]),
      'UnreadableRegistry',
      ExitCode.UnknownRegistry,
    )
    assert.match(status.message, /Of the views this command reads, the code has none; it lacks balanceOf\(address\)/)
  })

  it('no contract at the address: said so, for reads and writes', async () => {
    const eoa = v().address
    const r = expectError(
      await tnv(['validator', 'status', '--address', eoa, '--registry', eoa, ...net()]),
      'UnreadableRegistry',
      ExitCode.UnknownRegistry,
    )
    assert.match(r.message, new RegExp(`There is no contract at ${eoa}`))
    expectError(
      await tnv(['rewards', 'claim', '--registry', eoa, '--unsigned', '--from', eoa, ...net()]),
      'UnknownRegistryCode',
      ExitCode.UnknownRegistry,
    )
  })

  it('--registry-generation that disagrees with the code found is an error, for reads and writes', async () => {
    const r = expectError(
      await tnv(['validator', 'status', '--address', v().address, '--registry-generation', 'adiri', ...net()]),
      'RegistryGenerationMismatch',
      ExitCode.UnknownRegistry,
    )
    assert.match(r.message, /--registry-generation says adiri, but the code at .* is the next registry/)
    expectError(
      await tnv(['activate', ...net()], { TN_PRIVATE_KEY: v().privateKey, TN_REGISTRY_GENERATION: 'adiri' }),
      'RegistryGenerationMismatch',
      ExitCode.UnknownRegistry,
    )
    const ok = await tnv(['validator', 'status', '--address', v().address, '--registry-generation', 'next', ...net()])
    assert.equal(ok.code, 0, ok.stderr)
  })

  it('an endpoint that answers garbage or nothing: one paragraph, exit 10 or 12, nothing sent', async () => {
    const chainId = `0x${t.engine.chainId.toString(16)}`
    const block = await t.engine.client.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })
    // the real code is served, but every registry view answers bytes that decode to nothing sensible
    const garbage = await startFakeRpc((method) => {
      if (method === 'eth_chainId') return { result: chainId }
      if (method === 'eth_getCode') return { result: realCode }
      if (method === 'eth_call') return { result: '0x1234' }
      if (method === 'eth_blockNumber') return { result: '0x1' }
      if (method === 'eth_getBalance') return { result: '0x0' }
      if (method === 'eth_getBlockByNumber') return { result: garbageBlock ? null : block }
      return { error: { code: -32601, message: 'method not found' } }
    })
    let garbageBlock = false
    try {
      const r = expectError(
        await tnv([
          'validator',
          'status',
          '--address',
          v().address,
          '--rpc-url',
          garbage.url,
          '--chain-id',
          String(t.engine.chainId),
        ]),
        'RegistryAnswer',
        ExitCode.RpcUnreachable,
      )
      assert.match(r.message, /answered balanceOf of 0x07E1.* with data that is not a valid answer/)
      garbageBlock = true
      const r2 = expectError(
        await tnv([
          'validator',
          'status',
          '--address',
          v().address,
          '--rpc-url',
          garbage.url,
          '--chain-id',
          String(t.engine.chainId),
        ]),
        'RegistryAnswer',
        ExitCode.RpcUnreachable,
      )
      assert.match(r2.message, /answered a read with data that is not a valid answer \(Block could not be found\)/)
    } finally {
      await garbage.close()
    }
    // an endpoint whose registry address holds nothing
    const empty = await startFakeRpc((method) => {
      if (method === 'eth_chainId') return { result: chainId }
      if (method === 'eth_getCode') return { result: '0x' }
      return { result: '0x' }
    })
    try {
      const r = expectError(
        await tnv(['activate', '--rpc-url', empty.url, '--chain-id', String(t.engine.chainId)], {
          TN_PRIVATE_KEY: v().privateKey,
        }),
        'UnknownRegistryCode',
        ExitCode.UnknownRegistry,
      )
      assert.match(r.message, /There is no contract at/)
      assert.equal(empty.calls.eth_sendRawTransaction ?? 0, 0)
    } finally {
      await empty.close()
    }
    assert.ok(readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8').includes('| 12 | unknown registry |'))
  })
})
