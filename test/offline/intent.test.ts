/**
 * What `tnv offline sign` shows is what the calldata does: a bundle re-sealed with another
 * intent text, another recorded call or another validator than its call acts on is refused,
 * even though its digest matches (whoever wrote it could reseal it).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { encodeFunctionData } from 'viem'
import type { TnvError } from '../../src/lib/errors.js'
import { BUNDLE_FORMAT, type Bundle, sealed } from '../../src/lib/offline/bundle.js'
import { describeIntent } from '../../src/lib/offline/intent.js'
import { checkBundleIntent } from '../../src/lib/offline/sign-bundle.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'

const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const R = '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1'
const now = new Date('2026-01-01T12:00:00.000Z')

function activateBundle(change: (b: Omit<Bundle, 'digest'>) => void = () => {}): Bundle {
  const b: Omit<Bundle, 'digest'> = {
    format: BUNDLE_FORMAT,
    version: 1,
    step: 'activate',
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-02T00:00:00.000Z',
    chain: { chainId: 911329, name: 'custom' },
    registry: { address: R, codeHash: `0x${'ab'.repeat(32)}`, generation: 'next' },
    call: { function: 'activate()', args: [] },
    transaction: {
      chainId: 911329,
      from: A,
      to: R,
      nonce: 3,
      value: '0',
      valueTel: '0 TEL',
      data: encodeFunctionData({ abi: registryAbis.next, functionName: 'activate' }),
      gas: '120000',
      type: 'eip1559',
      maxFeePerGas: '2000000000',
      maxPriorityFeePerGas: '1000000',
    },
    preconditions: {
      validator: A,
      status: 'Staked',
      stakeVersion: 0,
      epoch: 4,
      minEpoch: null,
      maxBaseFeePerGas: '1999000000',
      baseFeePerGas: '1000000000',
    },
    intent: describeIntent({ step: 'activate', validator: A, from: A, value: 0n, status: 'Staked', epoch: 4 }),
    keyBinding: null,
    prepareCommand: 'tnv offline prepare activate --from 0x…',
  }
  change(b)
  return sealed<Bundle>(b)
}

const refused = (bundle: Bundle, pattern: RegExp) =>
  assert.throws(
    () => checkBundleIntent({ bundle, path: 'b.json', now }),
    (err: TnvError) => err.code === 'InvalidBundle' && pattern.test(err.message),
  )

describe('offline sign shows what the call does', () => {
  it('a bundle as prepare writes it passes', () => {
    checkBundleIntent({ bundle: activateBundle(), path: 'b.json', now })
  })

  it('another intent text, resealed: refused', () => {
    refused(
      activateBundle((b) => {
        b.intent = { ...b.intent, irreversible: [], changes: ['nothing happens'] }
      }),
      /the intent it shows is not what its call does/,
    )
  })

  it('another recorded call than the calldata, resealed: refused', () => {
    refused(
      activateBundle((b) => {
        b.call = { function: 'claimStakeRewards(address)', args: [A] }
      }),
      /its calldata is activate\(\), not the claimStakeRewards\(address\) it records/,
    )
  })

  it('a validator other than the sender for a step the validator sends itself: refused', () => {
    refused(
      activateBundle((b) => {
        b.preconditions = { ...b.preconditions, validator: B }
        b.intent = describeIntent({ step: 'activate', validator: B, from: A, value: 0n, status: 'Staked', epoch: 4 })
      }),
      /does not act on the validator/,
    )
  })

  it('expired: refused as stale, naming the expiry', () => {
    assert.throws(
      () => checkBundleIntent({ bundle: activateBundle(), path: 'b.json', now: new Date('2026-01-03T00:00:00Z') }),
      (err: TnvError) => err.code === 'StaleBundle' && /expiry/.test(err.details.join('\n')),
    )
  })
})
