/** Network resolution: presets, the devnet runtime file, custom endpoints, and the chain-id check. */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { checkChainId } from '../../src/lib/chain/check-chain-id.js'
import { DevnetNotRunningError, WrongChainError } from '../../src/lib/chain/errors.js'
import { MAINNET, REGISTRY_ADDRESS } from '../../src/lib/chain/presets.js'
import { resolveChainTarget } from '../../src/lib/chain/resolve-target.js'
import { ExitCode } from '../../src/lib/errors.js'
import { tempDir } from '../helpers/cli.js'

const runtime = (pid: number) => ({
  pid,
  chainId: 911329,
  rpcUrl: 'http://127.0.0.1:18545',
  wsUrl: null,
  ipcPath: null,
  registry: REGISTRY_ADDRESS,
  issuance: '0x07A07A07A07A07a07A07A07a07a07A07a07a07A0',
  governance: { address: '0x000000000000000000000000000000000000dEaD', privateKey: `0x${'11'.repeat(32)}` },
  accounts: [],
  epochBlocks: 10,
  startedAt: new Date().toISOString(),
})

describe('chain target', () => {
  const { dir, cleanup } = tempDir('tnv-target-')
  after(cleanup)

  it("testnet and the node's names for it (adiri, test-net): chain id 2017, the public endpoint, the adiri registry expected", async () => {
    for (const chain of ['testnet', 'adiri', 'test-net'] as const) {
      const t = await resolveChainTarget({ chain, devnetDir: dir })
      assert.equal(t.name, 'testnet')
      assert.equal(t.rpcUrl, 'https://rpc.adiri.tel')
      assert.equal(t.expectedChainId, 2017)
      assert.equal(t.registry.toLowerCase(), '0x07e17e17e17e17e17e17e17e17e17e17e17e17e1')
      assert.deepEqual(t.generations, ['adiri'])
    }
  })

  it('mainnet and main-net: chain id 487, the next registry expected; no public endpoint is known, so --rpc-url is needed', async () => {
    for (const chain of ['mainnet', 'main-net'] as const) {
      await assert.rejects(resolveChainTarget({ chain, devnetDir: dir }), (err: unknown) => {
        const e = err as { code: string; exitCode: number; render(): string }
        assert.equal(e.code, 'Usage')
        assert.equal(e.exitCode, ExitCode.Usage)
        assert.match(e.render(), /tnv knows no public mainnet endpoint \(chain id 487\)\. Pass --rpc-url/)
        return true
      })
      const t = await resolveChainTarget({ chain, rpcUrl: 'http://my-node:8545', devnetDir: dir })
      assert.equal(t.name, 'mainnet')
      assert.equal(t.expectedChainId, 487)
      assert.equal(t.explorer, null)
      assert.deepEqual(t.generations, ['next'])
      assert.equal(checkChainId(t, 487).name, 'mainnet')
      assert.throws(() => checkChainId(t, 2017), /--chain mainnet is chain id 487/)
    }
    assert.ok(MAINNET.placeholders.some((p) => /no public mainnet RPC endpoint/.test(p)))
    // a bare endpoint serving 487 is named mainnet once its chain id is known
    const custom = await resolveChainTarget({ rpcUrl: 'http://127.0.0.1:8545', devnetDir: dir })
    assert.equal(checkChainId(custom, 487).name, 'mainnet')
  })

  it('testnet with an own endpoint still expects chain id 2017', async () => {
    const t = await resolveChainTarget({ chain: 'testnet', rpcUrl: 'http://my-node:8545', devnetDir: dir })
    assert.equal(t.rpcUrl, 'http://my-node:8545')
    assert.throws(
      () => checkChainId(t, 1),
      (err: unknown) => err instanceof WrongChainError && err.exitCode === ExitCode.WrongChain,
    )
    assert.equal(checkChainId(t, 2017).name, 'testnet')
  })

  it('a conflicting --chain-id is a usage error', async () => {
    await assert.rejects(
      resolveChainTarget({ chain: 'testnet', chainId: 5, devnetDir: dir }),
      /chain id 2017, but --chain-id says 5/,
    )
  })

  it('devnet (the default) without a runtime file says how to start one', async () => {
    await assert.rejects(resolveChainTarget({ devnetDir: dir }), (err: unknown) => {
      assert.ok(err instanceof DevnetNotRunningError)
      assert.match(err.render(), /does not exist\. Start it with `tnv devnet start`/)
      return true
    })
  })

  it('devnet reads the runtime file, and refuses a stale one (dead pid, or a pid reused by another program)', async () => {
    // a live process whose command line is the reference node's (what the pid-reuse check looks for)
    const node = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', join(dir, 'tnv-node.js')], {
      stdio: 'ignore',
    })
    after(() => node.kill('SIGKILL'))
    writeFileSync(join(dir, 'devnet.json'), JSON.stringify(runtime(node.pid as number)))
    const t = await resolveChainTarget({ devnetDir: dir })
    assert.equal(t.name, 'devnet')
    assert.equal(t.rpcUrl, 'http://127.0.0.1:18545')
    assert.equal(t.expectedChainId, 911329)
    assert.equal(t.devnet?.pid, node.pid)
    writeFileSync(join(dir, 'devnet.json'), JSON.stringify(runtime(2 ** 22 + 12345)))
    await assert.rejects(resolveChainTarget({ devnetDir: dir }), /no longer runs the devnet node/)
    // this test's own process is alive but is not the reference node: a reused pid
    writeFileSync(join(dir, 'devnet.json'), JSON.stringify(runtime(process.pid)))
    await assert.rejects(resolveChainTarget({ devnetDir: dir }), DevnetNotRunningError)
  })

  it('a bare --rpc-url is a custom network named after its chain id once known', async () => {
    const t = await resolveChainTarget({ rpcUrl: 'http://127.0.0.1:8545', devnetDir: dir })
    assert.equal(t.name, 'custom')
    assert.equal(t.expectedChainId, null)
    assert.equal(t.registry, REGISTRY_ADDRESS)
    assert.equal(checkChainId(t, 2017).name, 'testnet')
    assert.equal(checkChainId(t, 31337).name, 'custom')
    const pinned = await resolveChainTarget({ rpcUrl: 'http://127.0.0.1:8545', chainId: 31337, devnetDir: dir })
    assert.throws(() => checkChainId(pinned, 2017), /serves chain id 2017, but --chain-id is chain id 31337/)
  })

  it('rejects malformed --rpc-url and --registry before contacting anything', async () => {
    await assert.rejects(
      resolveChainTarget({ rpcUrl: 'localhost:8545', devnetDir: dir }),
      /uses localhost:; tnv talks to the node over HTTP/,
    )
    await assert.rejects(resolveChainTarget({ rpcUrl: 'not a url', devnetDir: dir }), /is not a URL/)
    await assert.rejects(
      resolveChainTarget({ chain: 'testnet', registry: '0x1234', devnetDir: dir }),
      /--registry 0x1234 is not a 20-byte/,
    )
    await assert.rejects(
      resolveChainTarget({ chain: 'testnet', registry: '0x07E17E17e17e17e17e17e17e17e17e17e17e17e1', devnetDir: dir }),
      /wrong EIP-55 checksum/,
    )
  })
})
