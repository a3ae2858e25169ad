/**
 * The engine's memory options (src/devnet/chain/engine-memory.ts) are on and do what tnv relies
 * on, checked by behaviour rather than by timing or RSS (the figures are the soak benchmark's):
 * after more blocks than anvil keeps in memory by default (500), no state was written to the
 * engine's directory (anvil's default moves older states to disk) and a state older than the
 * kept window is refused, while the state at a receipt's block and the block before, and every
 * block and receipt, stay readable.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { createWalletClient, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ENGINE_ALLOCATOR_ENV, ENGINE_MEMORY_ARGS, ENGINE_STATE_HISTORY } from '../../src/devnet/chain/engine-memory.js'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { engineClient, engineTransportOf, startTestDevnet, type TestDevnet } from './helpers.js'

/** Every file under `dir` (the engine's directory: socket, temporary files). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
}

describe('the engine keeps a bounded history', { timeout: 120_000 }, () => {
  let t: TestDevnet

  before(async () => {
    t = await startTestDevnet()
  })
  after(async () => {
    await t?.close()
  })

  it('anvil runs with the memory options', { skip: process.platform !== 'linux' }, () => {
    const argv = readFileSync(`/proc/${t.chain.enginePid}/cmdline`, 'utf8').split('\0')
    const at = argv.indexOf(ENGINE_MEMORY_ARGS[0] as string)
    assert.ok(at > 0, argv.join(' '))
    assert.deepEqual(argv.slice(at, at + ENGINE_MEMORY_ARGS.length), [...ENGINE_MEMORY_ARGS])
    // and its allocator returns freed pages at once
    const environ = readFileSync(`/proc/${t.chain.enginePid}/environ`, 'utf8').split('\0')
    for (const [k, v] of Object.entries(ENGINE_ALLOCATOR_ENV))
      assert.ok(environ.includes(`${k}=${v}`), environ.join(' '))
  })

  it('600 blocks later: nothing written to disk, old states refused, recent states, blocks and receipts readable', async () => {
    const client = engineClient(t.chain)
    const account = await t.newAccount(10n)
    const start = await client.getBlockNumber()
    const wallet = createWalletClient({
      account: privateKeyToAccount(account.privateKey),
      transport: engineTransportOf(t.chain),
    })
    const hash = await wallet.sendTransaction({
      chain: null,
      to: '0x000000000000000000000000000000000000bEEF',
      value: parseEther('1'),
    })
    const receipt = await engineReceipt(client, hash)
    // the registry client's replay right after a receipt: the block before and the block itself
    await client.getBalance({ address: account.address, blockNumber: receipt.blockNumber - 1n })
    await client.getBalance({ address: account.address, blockNumber: receipt.blockNumber })

    await t.chain.mine(600)
    const head = await client.getBlockNumber()
    assert.equal(head, receipt.blockNumber + 600n)
    assert.deepEqual(
      filesUnder(dirname(t.chain.engineIpcPath)).filter((f) => f !== 'anvil.ipc'),
      [],
      'anvil wrote no state to its directory',
    )
    // within the kept window: readable; beyond it: refused
    await client.getBalance({ address: account.address, blockNumber: head - BigInt(ENGINE_STATE_HISTORY - 2) })
    await assert.rejects(
      client.getBalance({ address: account.address, blockNumber: start }),
      /out of range|not found|BlockOutOfRange/i,
    )
    // blocks and receipts of every block are kept
    assert.equal((await client.getBlock({ blockNumber: start })).number, start)
    assert.equal((await client.getTransactionReceipt({ hash })).status, 'success')
  })
})
