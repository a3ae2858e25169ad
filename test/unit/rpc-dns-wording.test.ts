/**
 * A host name that does not resolve is worded as what it is (DNS, this machine's network), never
 * as a devnet problem; the devnet is named only for a loopback endpoint (issue 35, item 15).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { explainRpcError } from '../../src/lib/chain/rpc-errors.js'

const failed = (code: string, message: string) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code, syscall: 'getaddrinfo' }) })

describe('an endpoint that cannot be reached', () => {
  it('ENOTFOUND for the public endpoint: DNS and the host name, no devnet', () => {
    const err = explainRpcError(failed('ENOTFOUND', 'getaddrinfo ENOTFOUND rpc.adiri.tel'), 'https://rpc.adiri.tel')
    assert.equal(err?.exitCode, 10)
    assert.match(
      err?.render() ?? '',
      /^The host name rpc\.adiri\.tel of the endpoint https:\/\/rpc\.adiri\.tel does not resolve \(DNS ENOTFOUND\)/,
    )
    assert.match(err?.render() ?? '', /getent hosts rpc\.adiri\.tel/)
    assert.doesNotMatch(err?.render() ?? '', /devnet/)
  })

  it('EAI_AGAIN (the resolver did not answer): the same wording', () => {
    const err = explainRpcError(failed('EAI_AGAIN', 'getaddrinfo EAI_AGAIN rpc.adiri.tel'), 'https://rpc.adiri.tel')
    assert.match(err?.message ?? '', /DNS EAI_AGAIN/)
  })

  it('a refused loopback connection names the devnet; a refused remote one does not', () => {
    const local = explainRpcError(
      failed('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8545'),
      'http://127.0.0.1:8545',
    )
    assert.match(local?.render() ?? '', /tnv devnet status/)
    const remote = explainRpcError(failed('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:8545'), 'http://10.0.0.5:8545')
    assert.doesNotMatch(remote?.render() ?? '', /devnet/)
  })
})
