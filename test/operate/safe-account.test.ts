/**
 * A validator address that IS a Safe, with the real Safe code: the published artifacts of
 * @safe-global/safe-smart-account (the singleton, the proxy factory, the fallback handler and
 * MultiSendCallOnly, as the Safe deployments use them) deployed on the devnet, and Safe proxies
 * created through the factory with two owners and a threshold of two. Then: tnv recognises the
 * proxy as a Safe (version, threshold and owners as set up), and takes neither an account nor
 * another contract (the registry, the factory, the singleton that answers like a Safe but has no
 * owners) for one; `tnv stake --unsigned --format safe` says so and its batch, executed by the Safe
 * itself as the Safe app executes a batch (MultiSendCallOnly by delegatecall, both owners'
 * signatures), makes the validator PendingActivation; the wizard offers the batch instead of a key.
 * And behind an endpoint without eth_simulateV1 (a loopback proxy answering -32601 for it), the
 * batch is still written, nothing in it or on the screen claims a simulation, and the warning says
 * what was checked.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  type Abi,
  type Address,
  concat,
  createWalletClient,
  encodeFunctionData,
  encodePacked,
  getAddress,
  type Hex,
  http,
  numberToHex,
  parseEventLogs,
  size,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount, sign } from 'viem/accounts'
import { engineCallOnce } from '../../src/devnet/chain/engine-rpc.js'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { createChainClient } from '../../src/lib/chain/client.js'
import { readAccountKind } from '../../src/lib/safe/account-kind.js'
import { generateKeysArgs, parseJson, runCli, tempDir } from '../helpers/cli.js'
import { PYTHON, spawnPty } from '../wizard/pty.js'
import { safeOnboardingArgs, startLongEpochDevnet, takeSafeBatchPath } from './safe-fixture.js'

const require = createRequire(import.meta.url)
const PKG = '@safe-global/safe-smart-account'
type Artifact = { abi: Abi; bytecode: Hex }
const artifact = (path: string): Artifact => require(`${PKG}/build/artifacts/contracts/${path}`) as Artifact
const SAFE = artifact('Safe.sol/Safe.json')
const FACTORY = artifact('proxies/SafeProxyFactory.sol/SafeProxyFactory.json')
const HANDLER = artifact('handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json')
const MULTISEND = artifact('libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json')
/** The Safe's VERSION() is the package's version. */
const SAFE_VERSION = (require(`${PKG}/package.json`) as { version: string }).version
const REGISTRY = '0x07E17e17E17e17E17e17E17E17e17e17e17E17e1'

describe('a validator address that is a real Safe (safe-smart-account artifacts on the devnet)', () => {
  const tmp = tempDir('tnv-safe-real-')
  const devnetDir = join(tmp.dir, 'devnet')
  const env = { TNV_DEVNET_DIR: devnetDir, TNV_STATE_DIR: join(tmp.dir, 'state'), TN_DEVNET_RELAXED: '1' }
  const cli = (args: string[]) => runCli([...args, '--chain', 'devnet'], { env })
  let rpcUrl = ''
  let ipcPath = ''
  let deployer: ReturnType<typeof privateKeyToAccount>
  let owners: { address: Address; key: Hex }[] = []
  const deployed = {
    singleton: zeroAddress as Address,
    factory: zeroAddress as Address,
    handler: zeroAddress as Address,
    multiSend: zeroAddress as Address,
  }
  const client = () => createChainClient({ rpcUrl })

  const wallet = () => createWalletClient({ account: deployer, transport: http(rpcUrl) })
  async function deploy(a: Artifact): Promise<Address> {
    const hash = await wallet().deployContract({ abi: a.abi, bytecode: a.bytecode, chain: null })
    const receipt = await engineReceipt(client(), hash)
    assert.equal(receipt.status, 'success')
    return receipt.contractAddress as Address
  }
  /** A Safe proxy set up like the Safe app sets one up: owners, threshold, the fallback handler. */
  async function createSafe(saltNonce: bigint): Promise<Address> {
    const initializer = encodeFunctionData({
      abi: SAFE.abi,
      functionName: 'setup',
      args: [owners.map((o) => o.address), 2n, zeroAddress, '0x', deployed.handler, zeroAddress, 0n, zeroAddress],
    })
    const hash = await wallet().writeContract({
      address: deployed.factory,
      abi: FACTORY.abi,
      functionName: 'createProxyWithNonce',
      args: [deployed.singleton, initializer, saltNonce],
      chain: null,
    })
    const receipt = await engineReceipt(client(), hash)
    assert.equal(receipt.status, 'success')
    const [created] = parseEventLogs({
      abi: FACTORY.abi,
      logs: receipt.logs,
      eventName: 'ProxyCreation',
    }) as unknown as {
      args: { proxy: Address }
    }[]
    return getAddress(created?.args.proxy as Address)
  }
  async function keysFor(address: Address, dir: string) {
    const g = await runCli(generateKeysArgs(dir, address), { env })
    assert.equal(g.code, 0, g.stderr)
    const m = await cli(['governance', 'mint', address, '--yes'])
    assert.equal(m.code, 0, m.stderr)
  }

  before(async () => {
    const devnet = await startLongEpochDevnet(devnetDir, env)
    rpcUrl = devnet.rpcUrl
    ipcPath = (JSON.parse(readFileSync(join(devnetDir, 'devnet.json'), 'utf8')) as { engine: { ipcPath: string } })
      .engine.ipcPath
    deployer = privateKeyToAccount(devnet.accounts[0]?.privateKey as Hex)
    owners = devnet.accounts
      .slice(1, 3)
      .map((a) => ({ address: getAddress(a.address), key: a.privateKey }))
      .sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1))
    deployed.singleton = await deploy(SAFE)
    deployed.factory = await deploy(FACTORY)
    deployed.handler = await deploy(HANDLER)
    deployed.multiSend = await deploy(MULTISEND)
  })
  after(async () => {
    await runCli(['devnet', 'stop', '--datadir', devnetDir], { env })
    tmp.cleanup()
  })

  it('recognises the Safe proxy (version, threshold, owners as set up); an account, the registry, the factory and the owner-less singleton are no Safe', async () => {
    const safe = await createSafe(0n)
    const c = client()
    assert.deepEqual(await readAccountKind(c, safe), {
      kind: 'contract',
      safe: { version: SAFE_VERSION, threshold: 2, owners: owners.map((o) => o.address) },
    })
    assert.deepEqual(await readAccountKind(c, owners[0]?.address as Address), { kind: 'account' })
    assert.deepEqual(await readAccountKind(c, REGISTRY), { kind: 'contract', safe: null })
    assert.deepEqual(await readAccountKind(c, deployed.factory), { kind: 'contract', safe: null })
    // the singleton answers VERSION, getThreshold (1) and getOwners ([]): nobody can confirm through it
    assert.deepEqual(await readAccountKind(c, deployed.singleton), { kind: 'contract', safe: null })
  })

  it('tnv stake --unsigned --format safe for the Safe: named as a Safe, and the batch executed by the Safe itself (MultiSendCallOnly, both owners) makes it PendingActivation', async () => {
    const safe = await createSafe(1n)
    const dir = join(tmp.dir, 'safe-validator')
    await keysFor(safe, dir)
    const file = join(tmp.dir, 'onboarding.safe.json')
    const r = await cli(safeOnboardingArgs(dir, '--out', file))
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stderr,
      new RegExp(`${safe} is a Safe ${SAFE_VERSION.replaceAll('.', '\\.')}: 2 of 2 owners confirm\\.`),
    )
    assert.match(r.stdout, /stake → activate/)
    const batch = JSON.parse(readFileSync(file, 'utf8')) as {
      meta: { createdFromSafeAddress: string }
      transactions: { to: Address; value: string; data: Hex }[]
    }
    assert.equal(getAddress(batch.meta.createdFromSafeAddress), safe)

    // the Safe holds the stake (the batch's value), as its owners would fund it
    const value = batch.transactions.reduce((s, t) => s + BigInt(t.value), 0n)
    await engineCallOnce(ipcPath, 'anvil_setBalance', [safe, numberToHex(value)])
    // what the Safe app does with a batch of more than one call: one Safe transaction, a delegatecall to MultiSendCallOnly
    const packed = concat(
      batch.transactions.map((t) =>
        encodePacked(
          ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
          [0, t.to, BigInt(t.value), BigInt(size(t.data)), t.data],
        ),
      ),
    )
    const data = encodeFunctionData({ abi: MULTISEND.abi, functionName: 'multiSend', args: [packed] })
    const c = client()
    const nonce = (await c.readContract({ address: safe, abi: SAFE.abi, functionName: 'nonce' })) as bigint
    const safeTx = [deployed.multiSend, 0n, data, 1, 0n, 0n, 0n, zeroAddress, zeroAddress] as const
    const txHash = (await c.readContract({
      address: safe,
      abi: SAFE.abi,
      functionName: 'getTransactionHash',
      args: [...safeTx, nonce],
    })) as Hex
    // owners in ascending order, each an ECDSA signature of the Safe transaction hash (v 27/28)
    const signatures = concat(
      await Promise.all(owners.map((o) => sign({ hash: txHash, privateKey: o.key, to: 'hex' }))),
    )
    const exec = await wallet().writeContract({
      address: safe,
      abi: SAFE.abi,
      functionName: 'execTransaction',
      args: [...safeTx, signatures],
      chain: null,
    })
    const receipt = await engineReceipt(c, exec)
    assert.equal(receipt.status, 'success')
    const events = parseEventLogs({ abi: SAFE.abi, logs: receipt.logs }).map((e) => e.eventName)
    assert.ok(events.includes('ExecutionSuccess'), `the Safe executed the batch (events: ${events.join(', ')})`)
    const status = parseJson<{ status: string }>(await cli(['validator', 'status', '--address', safe, '--json']))
    assert.equal(status.status, 'PendingActivation')
  })

  it('the wizard: the validator address is recognised as a Safe (version, 2 of 2) and the Safe batch is offered instead of a key', async (t) => {
    if (!PYTHON) return t.skip('python3 (for the terminal) is missing')
    const safe = await createSafe(2n)
    const dir = join(tmp.dir, 'wizard-safe')
    await keysFor(safe, dir)
    const file = join(tmp.dir, 'wizard.safe.json')
    const w = spawnPty(['stake', '--datadir', dir, '--chain', 'devnet'], env)
    await w.expect(`${safe} is a Safe ${SAFE_VERSION} (2 of 2 owners confirm): no private key signs for it.`)
    await takeSafeBatchPath(w, file)
    const batch = JSON.parse(readFileSync(file, 'utf8')) as {
      meta: { createdFromSafeAddress: string }
      transactions: { contractMethod: { name: string } }[]
    }
    assert.equal(getAddress(batch.meta.createdFromSafeAddress), safe)
    assert.deepEqual(
      batch.transactions.map((x) => x.contractMethod.name),
      ['stake', 'activate'],
    )
  })
  it('an endpoint without eth_simulateV1 (-32601): the batch is written, the warning says what was and was not checked, nothing claims a simulation', async () => {
    const safe = await createSafe(3n)
    const dir = join(tmp.dir, 'no-simulate')
    await keysFor(safe, dir)
    // a loopback proxy in front of the devnet: -32601 for eth_simulateV1, everything else passed on
    let asked = 0
    const answer = async (req: { id?: unknown; method?: string }) => {
      if (req.method === 'eth_simulateV1') {
        asked++
        return {
          jsonrpc: '2.0',
          id: req.id,
          error: { code: -32601, message: 'the method eth_simulateV1 does not exist/is not available' },
        }
      }
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(req),
      })
      return res.json()
    }
    const proxy: Server = createServer((request, response) => {
      let body = ''
      request.on('data', (d) => {
        body += d
      })
      request.on('end', async () => {
        const parsed = JSON.parse(body) as unknown
        const out = Array.isArray(parsed)
          ? await Promise.all(parsed.map(answer))
          : await answer(parsed as { method?: string })
        response.setHeader('content-type', 'application/json')
        response.end(JSON.stringify(out))
      })
    })
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    try {
      const file = join(tmp.dir, 'unsimulated.safe.json')
      const args = safeOnboardingArgs(dir, '--rpc-url', proxyUrl)
      const human = await cli([...args, '--out', file])
      assert.equal(human.code, 0, human.stderr)
      assert.ok(asked >= 1, 'tnv asked the endpoint for eth_simulateV1')
      assert.ok(existsSync(file), 'the batch is still written')
      assert.match(human.stdout, /batch written to .*: stake → activate, .*NOT simulated as a batch/)
      assert.doesNotMatch(human.stdout, /simulated in order/)
      assert.match(
        human.stderr,
        /Warning: The batch was not simulated as a whole: the endpoint does not serve eth_simulateV1 \(.*\)\. Only its first call \(stake\) was checked, alone, from the Safe \(eth_call\); the 1 after it were NOT checked\. The owners should simulate the batch in the Safe app before executing it\./,
      )
      const batch = JSON.parse(readFileSync(file, 'utf8')) as { meta: { description: string }; transactions: unknown[] }
      assert.equal(batch.transactions.length, 2)
      assert.doesNotMatch(batch.meta.description, /Simulated by tnv/)
      assert.match(batch.meta.description, /NOT simulated as a batch/)

      const json = await cli([...args, '--json'])
      assert.equal(json.code, 0, json.stderr)
      const result = parseJson<{ safe: { simulation: { simulated: boolean; reason: string }; warnings: string[] } }>(
        json,
      )
      assert.equal(result.safe.simulation.simulated, false)
      assert.match(result.safe.simulation.reason, /^the endpoint does not serve eth_simulateV1/)
      assert.ok(result.safe.warnings.some((w) => /NOT checked/.test(w)))
    } finally {
      await new Promise((r) => proxy.close(r))
    }
  })
})
