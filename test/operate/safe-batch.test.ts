/**
 * `--unsigned --format safe`: the Safe Transaction Builder batch, checked against the format as
 * the Safe app publishes it (safe-global/safe-react-apps apps/tx-builder: models.ts `BatchFile`,
 * checksum.ts and the vector of its checksum test) and decoded back with the registry ABI as
 * shipped in networks/abi (not tnv's generated tables) to the intended calls; then executed call
 * by call, in order, against the real registry code on the devnet (what the Safe's MultiSend does),
 * which must leave the validator PendingActivation.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import bs58 from 'bs58'
import {
  type Abi,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  stringToBytes,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { engineCallOnce } from '../../src/devnet/chain/engine-rpc.js'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { createChainClient } from '../../src/lib/chain/client.js'
import { readAccountKind } from '../../src/lib/safe/account-kind.js'
import { batchChecksum, serializeForChecksum } from '../../src/lib/safe/checksum.js'
import { registrySafeBatch } from '../../src/lib/safe/registry-batch.js'
import { generateKeysArgs, parseJson, ROOT, runCli, tempDir } from '../helpers/cli.js'
import { DOWN, ENTER, PYTHON, spawnPty } from '../wizard/pty.js'
import { safeOnboardingArgs, startLongEpochDevnet, takeSafeBatchPath } from './safe-fixture.js'

const NEXT_ABI = JSON.parse(readFileSync(join(ROOT, 'networks/abi/consensus-registry-next.json'), 'utf8')) as Abi
const REGISTRY = '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1'

/** The published model (models.ts BatchFile / BatchTransaction / ContractMethod / ContractInput) as a schema. */
const input = {
  type: 'object',
  required: ['internalType', 'name', 'type'],
  properties: {
    internalType: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string' },
    components: { type: 'array', items: { $ref: '#/definitions/input' } },
  },
  additionalProperties: false,
}
const batchSchema = {
  type: 'object',
  definitions: { input },
  required: ['version', 'chainId', 'createdAt', 'meta', 'transactions'],
  additionalProperties: false,
  properties: {
    version: { const: '1.0' },
    chainId: { type: 'string', pattern: '^[0-9]+$' },
    createdAt: { type: 'integer' },
    meta: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        txBuilderVersion: { type: 'string' },
        checksum: { type: 'string' },
        createdFromSafeAddress: { type: 'string' },
        createdFromOwnerAddress: { type: 'string' },
        name: { type: 'string' },
        description: { type: 'string' },
      },
    },
    transactions: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['to', 'value'],
        additionalProperties: false,
        properties: {
          to: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
          value: { type: 'string', pattern: '^[0-9]+$' },
          data: { type: 'string', pattern: '^0x([0-9a-fA-F]{2})*$' },
          contractMethod: {
            type: 'object',
            required: ['inputs', 'name', 'payable'],
            additionalProperties: false,
            properties: {
              inputs: { type: 'array', items: { $ref: '#/definitions/input' } },
              name: { type: 'string' },
              payable: { type: 'boolean' },
            },
          },
          // the app refuses numbers here (transactionLibraryContext: every input value a string)
          contractInputsValues: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
  },
}
const validateBatch = new Ajv({ strict: true }).compile(batchSchema)

type Batch = {
  chainId: string
  meta: { checksum?: string; createdFromSafeAddress: string }
  transactions: {
    to: string
    value: string
    data: Hex
    contractMethod: { name: string; inputs: { name: string; type: string }[]; payable: boolean }
    contractInputsValues: Record<string, string>
  }[]
}

/**
 * validateChecksum of the app, written out from its description: the file without meta.checksum,
 * meta.name null, serialised with sorted keys, keccak256.
 */
function checksumValid(batch: Batch): boolean {
  const copy = structuredClone(batch) as Batch & { meta: { name?: string | null } }
  const checksum = copy.meta.checksum
  delete copy.meta.checksum
  copy.meta.name = null
  return keccak256(stringToBytes(serializeForChecksum(copy))) === checksum
}

describe('Safe batch checksum', () => {
  it('reproduces the vector of the Safe app’s own checksum test (meta.name null before hashing)', () => {
    // safe-global/safe-react-apps apps/tx-builder/src/lib/checksum.test.js: addChecksum of this
    // file (meta.checksum "") is 0x4ecb…b64c, the same whatever the order of its keys
    const file = {
      version: '1.0',
      chainId: '4',
      createdAt: 1646321521061,
      meta: {
        name: 'test batch file',
        txBuilderVersion: '1.4.0',
        checksum: '',
        createdFromSafeAddress: '0xDF8a1Ce35c9a6ACE153B4e0767942f1E2291a1Aa',
        createdFromOwnerAddress: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6',
      },
      transactions: [
        {
          to: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6',
          value: '0',
          contractMethod: {
            inputs: [{ internalType: 'address', name: 'paramAddress', type: 'address' }],
            name: 'testAddress',
            payable: false,
          },
          contractInputsValues: { paramAddress: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6' },
        },
        {
          to: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6',
          value: '0',
          contractMethod: {
            inputs: [{ internalType: 'bool', name: 'paramBool', type: 'bool' }],
            name: 'testBool',
            payable: false,
          },
          contractInputsValues: { paramAddress: '', paramBool: 'false' },
        },
        {
          to: '0x49d4450977E2c95362C13D3a31a09311E0Ea26A6',
          value: '2000000000000000000',
          data: '0x42f4579000000000000000000000000049d4450977e2c95362c13d3a31a09311e0ea26a6',
        },
      ],
    }
    const VECTOR = '0x4ecbfd364aa6759983915644e73f8bd411e85a2dc306f252a387c2728c4db64c'
    assert.equal(batchChecksum(file), VECTOR)
    // key order does not matter (the app's third test)
    const reversed = Object.fromEntries(
      Object.entries(file)
        .reverse()
        .map(([k, v]) => [k, k === 'meta' ? Object.fromEntries(Object.entries(v as object).reverse()) : v]),
    ) as typeof file
    assert.equal(batchChecksum(reversed), VECTOR)
    // the name does not count: a batch renamed in the app keeps its checksum
    assert.equal(batchChecksum({ ...file, meta: { ...file.meta, name: 'another name' } }), VECTOR)
    // the order of the transactions does (the app's fourth test)
    assert.notEqual(batchChecksum({ ...file, transactions: [...file.transactions].reverse() }), VECTOR)
    // the value tnv reproduced before hashed meta.name as is: not what the app computes
    assert.notEqual(batchChecksum(file), keccak256(stringToBytes(serializeForChecksum(file))))
  })
})

describe('tnv … --unsigned --format safe on the devnet (real next-generation registry)', () => {
  const tmp = tempDir('tnv-safe-')
  const devnetDir = join(tmp.dir, 'devnet')
  const datadir = join(tmp.dir, 'validator')
  const env = { TNV_DEVNET_DIR: devnetDir, TNV_STATE_DIR: join(tmp.dir, 'state'), TN_DEVNET_RELAXED: '1' }
  let rpcUrl = ''
  let validator = '' as Hex
  let validatorKey = '' as Hex
  const cli = (args: string[]) => runCli([...args, '--chain', 'devnet'], { env })

  before(async () => {
    const devnet = await startLongEpochDevnet(devnetDir, env)
    rpcUrl = devnet.rpcUrl
    validator = devnet.accounts[0]?.address as Hex
    validatorKey = devnet.accounts[0]?.privateKey as Hex
    const g = await runCli(generateKeysArgs(datadir, validator), { env })
    assert.equal(g.code, 0, g.stderr)
    const m = await cli(['governance', 'mint', validator, '--yes'])
    assert.equal(m.code, 0, m.stderr)
  })
  after(async () => {
    await runCli(['devnet', 'stop', '--datadir', devnetDir], { env })
    tmp.cleanup()
  })

  it('--format safe without --unsigned: refused before anything is read, nothing written', async () => {
    const out = join(tmp.dir, 'never.json')
    const r = await cli(['stake', '--datadir', datadir, '--format', 'safe', '--out', out])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /--format safe writes a batch for a Safe to execute, so it goes with --unsigned/)
    assert.equal(existsSync(out), false)
  })

  it('exit --through with --format safe: refused with the two batches to make instead', async () => {
    const r = await cli(['exit', '--unsigned', '--format', 'safe', '--through', 'unstaked', '--from', validator])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /Propose the exit with `tnv exit --unsigned --format safe`/)
  })

  it('one step: the stake alone as a batch on stdout (--json: in the result)', async () => {
    const r = await cli(['stake', '--datadir', datadir, '--unsigned', '--format', 'safe', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const result = parseJson<{
      outcome: string
      safe: { batch: Batch; file: null; simulation: { simulated: boolean } }
    }>(r)
    assert.equal(result.outcome, 'unsigned')
    assert.ok(validateBatch(result.safe.batch), JSON.stringify(validateBatch.errors))
    assert.deepEqual(
      result.safe.batch.transactions.map((t) => t.contractMethod.name),
      ['stake'],
    )
    assert.ok(checksumValid(result.safe.batch))
    assert.equal(result.safe.simulation.simulated, true)
  })

  it('the whole onboarding: stake then activate, in the published format, decoded back to the intended calls, and it works when executed in order', async () => {
    const file = join(tmp.dir, 'onboarding.json')
    const r = await cli(safeOnboardingArgs(datadir, '--out', file))
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stdout,
      /Safe Transaction Builder batch written to .*onboarding\.json: stake → activate, 1,000,000 TEL/,
    )
    assert.match(r.stderr, /has no code: it is not a Safe/, 'a dev account is no Safe, and tnv says so')
    assert.equal(statSync(file).mode & 0o777, 0o644)
    const batch = JSON.parse(readFileSync(file, 'utf8')) as Batch
    assert.ok(validateBatch(batch), JSON.stringify(validateBatch.errors))
    assert.ok(checksumValid(batch), 'the Safe app would accept the checksum')
    assert.equal(batch.chainId, '911329')
    assert.equal(batch.meta.createdFromSafeAddress.toLowerCase(), validator.toLowerCase())

    // expectations from the registry that runs and from node-info.yaml, not from tnv's encoder
    const status = parseJson<{ stakeAmount: string }>(
      await cli(['validator', 'status', '--address', validator, '--json']),
    )
    const nodeInfo = readFileSync(join(datadir, 'node-info.yaml'), 'utf8')
    const b58 = (field: string) =>
      toHex(bs58.decode((new RegExp(`^${field}: (\\S+)$`, 'm').exec(nodeInfo) as RegExpExecArray)[1] as string))
    const [stakeTx, activateTx] = batch.transactions as [Batch['transactions'][number], Batch['transactions'][number]]
    assert.equal(batch.transactions.length, 2)
    for (const t of batch.transactions) assert.equal(t.to.toLowerCase(), REGISTRY.toLowerCase())
    const stake = decodeFunctionData({ abi: NEXT_ABI, data: stakeTx.data })
    assert.equal(stake.functionName, 'stake')
    const [key, proof] = stake.args as [Hex, { signature: Hex }]
    assert.equal(key, b58('bls_public_key'))
    assert.equal(proof.signature, b58('proof_of_possession'))
    assert.equal(stakeTx.value, status.stakeAmount)
    assert.equal(stakeTx.contractMethod.payable, true)
    assert.equal(decodeFunctionData({ abi: NEXT_ABI, data: activateTx.data }).functionName, 'activate')
    assert.equal(activateTx.value, '0')
    // the decoded form encodes back to the same calldata (what the app would build from the form)
    for (const t of batch.transactions) {
      const args = t.contractMethod.inputs.map((i) => {
        const v = t.contractInputsValues[i.name] as string
        return i.type === 'tuple' ? JSON.parse(v) : v
      })
      assert.equal(
        encodeFunctionData({ abi: NEXT_ABI, functionName: t.contractMethod.name, args } as Parameters<
          typeof encodeFunctionData
        >[0]),
        t.data,
      )
    }

    // executed in order, as MultiSend would (here from the validator's own dev key)
    const account = privateKeyToAccount(validatorKey)
    const wallet = createWalletClient({ account, transport: http(rpcUrl) })
    const client = createChainClient({ rpcUrl })
    for (const t of batch.transactions) {
      const hash = await wallet.sendTransaction({
        to: t.to as Hex,
        data: t.data,
        value: BigInt(t.value),
        chain: undefined,
      })
      assert.equal((await engineReceipt(client, hash)).status, 'success')
    }
    const after = parseJson<{ status: string }>(await cli(['validator', 'status', '--address', validator, '--json']))
    assert.equal(after.status, 'PendingActivation')
  })

  it('any single step: governance mint from the registry owner (governance is a Safe on the networks) as a batch, decoded back', async () => {
    const { owner } = JSON.parse(readFileSync(join(devnetDir, 'devnet.json'), 'utf8')) as { owner: Hex }
    const newcomer = '0x000000000000000000000000000000000000bEEF'
    const file = join(tmp.dir, 'mint.safe.json')
    const r = await cli([
      'governance',
      'mint',
      newcomer,
      '--unsigned',
      '--format',
      'safe',
      '--from',
      owner,
      '--out',
      file,
    ])
    assert.equal(r.code, 0, r.stderr)
    const batch = JSON.parse(readFileSync(file, 'utf8')) as Batch
    assert.ok(validateBatch(batch), JSON.stringify(validateBatch.errors))
    assert.ok(checksumValid(batch))
    assert.equal(batch.meta.createdFromSafeAddress.toLowerCase(), owner.toLowerCase())
    const [tx] = batch.transactions
    const call = decodeFunctionData({ abi: NEXT_ABI, data: tx?.data as Hex })
    assert.deepEqual(
      [call.functionName, String(call.args?.[0]).toLowerCase(), tx?.value],
      ['mint', newcomer.toLowerCase(), '0'],
    )
    assert.deepEqual(tx?.contractInputsValues, { validatorAddress: newcomer })
  })

  it('a batch in the wrong order is refused by the in-order simulation, and no file is written', async () => {
    const client = createChainClient({ rpcUrl })
    const out = join(tmp.dir, 'wrong.json')
    const fresh = '0x000000000000000000000000000000000000bEEF'
    await assert.rejects(
      registrySafeBatch({
        client,
        chainId: 911329,
        safe: fresh,
        transactions: [
          { to: REGISTRY, value: 0n, data: encodeFunctionData({ abi: NEXT_ABI, functionName: 'activate' }) },
        ],
        name: 'wrong',
        out,
      }),
      (err: Error & { code?: string; exitCode?: number }) =>
        err.code === 'SafeBatchReverts' &&
        err.exitCode === 22 &&
        /Call 1 of the Safe batch \(activate\) reverts/.test(err.message),
    )
    assert.equal(existsSync(out), false)
  })

  it('the wizard: a validator address that is a contract is recognised, and the Safe batch is offered instead of a key', async (t) => {
    if (!PYTHON) return t.skip('python3 (for the terminal) is missing')
    const devnet = parseJson<{ accounts: { address: Hex }[] }>(
      await runCli(['devnet', 'status', '--json', '--datadir', devnetDir], { env }),
    )
    const safe = devnet.accounts[1]?.address as Hex
    const dir = join(tmp.dir, 'safe-validator')
    assert.equal((await runCli(generateKeysArgs(dir, safe), { env })).code, 0)
    assert.equal((await cli(['governance', 'mint', safe, '--yes'])).code, 0)
    // code at the address, on the devnet's engine (a contract that only stops: no Safe)
    const { engine } = JSON.parse(readFileSync(join(devnetDir, 'devnet.json'), 'utf8')) as {
      engine: { ipcPath: string }
    }
    // over the engine's IPC socket, the one way to it (it listens on no port another process reaches)
    await engineCallOnce(engine.ipcPath, 'anvil_setCode', [safe, '0x00'])
    const file = join(tmp.dir, 'wizard.safe.json')
    const w = spawnPty(['stake', '--datadir', dir, '--chain', 'devnet'], env)
    await w.expect(`${safe} is a contract, not an account: no private key signs for it.`)
    await takeSafeBatchPath(w, file)
    const batch = JSON.parse(readFileSync(file, 'utf8')) as Batch
    assert.deepEqual(
      batch.transactions.map((x) => x.contractMethod.name),
      ['stake', 'activate'],
    )
    assert.ok(checksumValid(batch))
  })

  it('the wizard offers a Ledger and a Trezor too: the device is asked for its address, and without one the wizard stops with the one clear error', async (t) => {
    if (!PYTHON) return t.skip('python3 (for the terminal) is missing')
    const devnet = parseJson<{ accounts: { address: Hex }[] }>(
      await runCli(['devnet', 'status', '--json', '--datadir', devnetDir], { env }),
    )
    const dir = join(tmp.dir, 'ledger-validator')
    const address = devnet.accounts[2]?.address as Hex
    assert.equal((await runCli(generateKeysArgs(dir, address), { env })).code, 0)
    const w = spawnPty(['stake', '--datadir', dir, '--chain', 'devnet'], env)
    await w.expect('Who signs the transactions?')
    w.type(`${DOWN}${DOWN}${DOWN}${ENTER}`)
    await w.expect('Account index on the Ledger')
    w.type(ENTER)
    await w.expect("No Ledger answered for the account at m/44'/60'/0'/0/0")
    assert.equal(await w.exited, 4, w.screen())
  })

  it('tells a contract from an account (the registry is a contract but no Safe; a dev account is an account)', async () => {
    const client = createChainClient({ rpcUrl })
    assert.deepEqual(await readAccountKind(client, REGISTRY), { kind: 'contract', safe: null })
    assert.deepEqual(await readAccountKind(client, validator), { kind: 'account' })
  })
})
