/**
 * The transport against a scripted endpoint: JSON-RPC batching and the counting fetch, faults
 * retried where safe (429, 5xx, a lost send answer, a dropped transaction rebroadcast) and
 * explained where not (refused connection, rate limit that persists, missing method,
 * timeout, replacement underpriced, receipt timeout). Sends go through the one send path, the
 * step runner's `sendJournaled` (src/lib/tx/run-step.ts), with a journal in a temporary directory.
 */
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { keccak256 } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChainClient } from '../../src/lib/chain/client.js'
import {
  PendingTransactionConflictError,
  RpcUnreachableError,
  TransactionDroppedError,
  TransactionTimeoutError,
} from '../../src/lib/chain/errors.js'
import { createRpcCounter } from '../../src/lib/chain/rpc-counter.js'
import { classifyRpcError, explainRpcError } from '../../src/lib/chain/rpc-errors.js'
import { signTransaction } from '../../src/lib/chain/sign-transaction.js'
import type { PreparedTransaction } from '../../src/lib/chain/transaction.js'
import { waitForReceipt } from '../../src/lib/chain/wait-for-receipt.js'
import { ExitCode } from '../../src/lib/errors.js'
import { TxJournal } from '../../src/lib/tx/journal.js'
import { runStep, type SendJournaledResult, sendJournaled } from '../../src/lib/tx/run-step.js'
import { tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'
import { type RpcHandler, startFakeRpc } from './fake-rpc.js'

const account = privateKeyToAccount(`0x${'0c'.repeat(32)}`)
const tx: PreparedTransaction = {
  chainId: 911329,
  from: account.address,
  to: '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1',
  value: 0n,
  data: '0x0f15f4c0',
  gas: 100_000n,
  nonce: 7,
  fees: { type: 'eip1559', maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
}
const ZERO32 = `0x${'00'.repeat(32)}`
const txObject = (hash: string) => ({
  hash,
  nonce: '0x7',
  blockHash: null,
  blockNumber: null,
  transactionIndex: null,
  from: account.address,
  to: tx.to,
  value: '0x0',
  gas: '0x186a0',
  input: tx.data,
  type: '0x2',
  maxFeePerGas: '0x77359400',
  maxPriorityFeePerGas: '0x3b9aca00',
  chainId: '0xde7e1',
  v: '0x0',
  r: ZERO32,
  s: ZERO32,
})
const receipt = (hash: string) => ({
  transactionHash: hash,
  transactionIndex: '0x0',
  blockHash: `0x${'ab'.repeat(32)}`,
  blockNumber: '0x5',
  from: account.address,
  to: tx.to,
  cumulativeGasUsed: '0x5208',
  gasUsed: '0x5208',
  effectiveGasPrice: '0x3b9aca00',
  contractAddress: null,
  logs: [],
  logsBloom: `0x${'00'.repeat(256)}`,
  status: '0x1',
  type: '0x2',
})

const journalDir = tempDir('tnv-rpc-faults-')
after(() => journalDir.cleanup())
let journals = 0

/** One step through the step runner, its journal fresh: the result, and the journal's entry afterwards. */
async function sendStep(url: string): Promise<{ sent?: SendJournaledResult; error?: unknown; journal: TxJournal }> {
  const journal = new TxJournal(join(journalDir.dir, `journal-${++journals}.json`))
  const client = createChainClient({ rpcUrl: url, retryCount: 0 })
  const signer = { type: 'local' as const, address: account.address, account, source: 'test' }
  try {
    const sent = await runStep(
      {
        client,
        rpcUrl: url,
        step: 'activate',
        signer,
        journal: { journals: [journal], command: 'test', timeoutMs: 2000 },
      },
      (run) => sendJournaled(client, run, { account, tx, rpcUrl: url }),
    )
    return { sent, journal }
  } catch (error) {
    return { error, journal }
  }
}

async function withFake<T>(
  handler: RpcHandler,
  fn: (url: string, fake: Awaited<ReturnType<typeof startFakeRpc>>) => Promise<T>,
) {
  const fake = await startFakeRpc(handler)
  try {
    return await fn(fake.url, fake)
  } finally {
    await fake.close()
  }
}

describe('rpc transport', () => {
  it('batches reads issued together into one HTTP request, and the counter sees it', async () => {
    await withFake(
      (method) => ({ result: method === 'eth_chainId' ? '0xde7e1' : '0x1' }),
      async (url, fake) => {
        const counter = createRpcCounter()
        const client = createChainClient({ rpcUrl: url, fetchFn: counter.fetch })
        await Promise.all([
          client.getChainId(),
          client.getBlockNumber({ cacheTime: 0 }),
          client.getBalance({ address: account.address }),
          client.getTransactionCount({ address: account.address }),
        ])
        assert.equal(fake.httpRequests, 1)
        assert.equal(counter.roundTrips, 1)
        assert.equal(counter.calls, 4)
        assert.deepEqual(counter.trips[0]?.sort(), [
          'eth_blockNumber',
          'eth_chainId',
          'eth_getBalance',
          'eth_getTransactionCount',
        ])
      },
    )
  })

  it('retries a 429 and succeeds', async () => {
    await withFake(
      (_m, _p, n) => (n <= 2 ? { http: 429 } : { result: '0xde7e1' }),
      async (url, fake) => {
        const client = createChainClient({ rpcUrl: url, retryDelayMs: 10 })
        assert.equal(await client.getChainId(), 911329)
        assert.equal(fake.httpRequests, 3)
      },
    )
  })

  it('explains a rate limit that persists after the retries', async () => {
    await withFake(
      () => ({ http: 429 }),
      async (url) => {
        const client = createChainClient({ rpcUrl: url, retryDelayMs: 5, retryCount: 2 })
        const err = await client.getChainId().catch((e: unknown) => e)
        const explained = explainRpcError(err, url)
        assert.ok(explained instanceof RpcUnreachableError)
        assert.equal(explained.exitCode, ExitCode.RpcUnreachable)
        assert.match(explained.render(), /rate limited, after retries\..*own/)
      },
    )
  })

  it('explains a refused connection, a missing method and a timeout', async () => {
    const port = await freePort()
    const refused = await createChainClient({ rpcUrl: `http://127.0.0.1:${port}`, retryCount: 0 })
      .getChainId()
      .catch((e: unknown) => e)
    assert.equal(classifyRpcError(refused), 'unreachable')
    assert.match(explainRpcError(refused, 'X')?.message ?? '', /Cannot reach the endpoint X/)

    await withFake(
      () => ({ error: { code: -32601, message: 'the method eth_chainId does not exist/is not available' } }),
      async (url) => {
        const err = await createChainClient({ rpcUrl: url, retryCount: 0 })
          .getChainId()
          .catch((e: unknown) => e)
        assert.equal(classifyRpcError(err), 'method-missing')
      },
    )
    await withFake(
      () => ({ hang: true }),
      async (url) => {
        const err = await createChainClient({ rpcUrl: url, retryCount: 0, timeoutMs: 150 })
          .getChainId()
          .catch((e: unknown) => e)
        assert.equal(classifyRpcError(err), 'timeout')
        assert.ok(explainRpcError(err, url) instanceof RpcUnreachableError)
      },
    )
  })

  it('a send whose answer was lost ("nonce too low" on the retry) is recognised as ours and waited for', async () => {
    const raw = await signTransaction(account, tx)
    const hash = keccak256(raw)
    await withFake(
      (method) =>
        method === 'eth_sendRawTransaction'
          ? { error: { code: -32000, message: 'nonce too low' } }
          : method === 'eth_getTransactionByHash'
            ? { result: txObject(hash) }
            : method === 'eth_getTransactionReceipt'
              ? { result: receipt(hash) }
              : { result: null },
      async (url) => {
        const { sent, journal } = await sendStep(url)
        assert.equal(sent?.status, 'mined')
        assert.equal(sent?.status === 'mined' && sent.hash, hash)
        assert.equal(journal.read().entries[0]?.outcome, 'success')
      },
    )
  })

  it('a nonce taken by another transaction is reported for a fresh simulation, not resent', async () => {
    await withFake(
      (method) =>
        method === 'eth_sendRawTransaction' ? { error: { code: -32000, message: 'nonce too low' } } : { result: null },
      async (url, fake) => {
        const { sent, journal } = await sendStep(url)
        assert.deepEqual(sent, { status: 'nonce-used' })
        assert.equal(fake.calls.eth_sendRawTransaction, 1)
        assert.equal(journal.read().entries[0]?.outcome, 'dropped')
      },
    )
  })

  it('"already known" is success; "replacement underpriced" is explained and recorded dropped', async () => {
    const hash = keccak256(await signTransaction(account, tx))
    await withFake(
      (method) =>
        method === 'eth_getTransactionReceipt'
          ? { result: receipt(hash) }
          : { error: { code: -32000, message: 'already known' } },
      async (url) => {
        const { sent } = await sendStep(url)
        assert.equal(sent?.status, 'mined')
      },
    )
    await withFake(
      (method) =>
        method === 'eth_sendRawTransaction'
          ? { error: { code: -32000, message: 'replacement transaction underpriced' } }
          : { result: null },
      async (url) => {
        const { error, journal } = await sendStep(url)
        assert.ok(error instanceof PendingTransactionConflictError && /nonce 7/.test(error.message), String(error))
        assert.equal(journal.read().entries[0]?.outcome, 'dropped')
      },
    )
  })

  it('a send that meets a transient fault is explained, and its entry stays open for the next run', async () => {
    await withFake(
      (method) => (method === 'eth_sendRawTransaction' ? { http: 503 } : { result: null }),
      async (url) => {
        const { error, journal } = await sendStep(url)
        assert.ok(error instanceof RpcUnreachableError, String(error))
        const entry = journal.read().entries[0]
        assert.equal(entry?.outcome, undefined)
        assert.equal(entry?.raw, await signTransaction(account, tx))
      },
    )
  })

  it('waits through missing receipts and transient faults, and rebroadcasts a dropped transaction', async () => {
    const raw = await signTransaction(account, tx)
    const hash = keccak256(raw)
    await withFake(
      (method, _p, n) => {
        if (method === 'eth_getTransactionReceipt')
          return n < 13 ? (n === 3 ? { http: 503 } : { result: null }) : { result: receipt(hash) }
        if (method === 'eth_getTransactionByHash') return { result: null } // dropped from the pool
        if (method === 'eth_sendRawTransaction') return { result: hash }
        return { result: null }
      },
      async (url, fake) => {
        const client = createChainClient({ rpcUrl: url, retryCount: 0 })
        const r = await waitForReceipt(client, { hash, raw, from: account.address, nonce: 7, rpcUrl: url, pollMs: 5 })
        assert.equal(r.status, 'success')
        assert.ok((fake.calls.eth_sendRawTransaction ?? 0) >= 1, 'rebroadcast')
      },
    )
  })

  it('a dropped transaction whose nonce was taken is reported; no receipt in time is a timeout naming the hash', async () => {
    const raw = await signTransaction(account, tx)
    const hash = keccak256(raw)
    await withFake(
      (method) =>
        method === 'eth_sendRawTransaction' ? { error: { code: -32000, message: 'nonce too low' } } : { result: null },
      async (url) => {
        const client = createChainClient({ rpcUrl: url, retryCount: 0 })
        await assert.rejects(
          waitForReceipt(client, { hash, raw, from: account.address, nonce: 7, rpcUrl: url, pollMs: 5 }),
          TransactionDroppedError,
        )
      },
    )
    await withFake(
      (method) => (method === 'eth_getTransactionByHash' ? { result: txObject(hash) } : { result: null }),
      async (url) => {
        const client = createChainClient({ rpcUrl: url, retryCount: 0 })
        await assert.rejects(
          waitForReceipt(client, {
            hash,
            raw,
            from: account.address,
            nonce: 7,
            rpcUrl: url,
            pollMs: 5,
            timeoutMs: 100,
          }),
          (err: unknown) =>
            err instanceof TransactionTimeoutError &&
            err.exitCode === ExitCode.Timeout &&
            err.render().includes(`cast receipt ${hash}`),
        )
      },
    )
  })
})
