/** Issue 16 item 10: one documented schema per flow event; the docs table is the schema's. */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { eventProblems, FLOW_EVENTS, formatEventTable } from '../../src/lib/wizard/event-schema.js'
import { ROOT } from '../helpers/paths.js'

describe('flow event schema', () => {
  it("docs/ci.md's event table is the schema's, exactly", () => {
    const doc = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8')
    assert.ok(doc.includes(formatEventTable()), 'regenerate the table in docs/ci.md from formatEventTable()')
  })

  it('accepts a line that matches and names every deviation', () => {
    const ok = { event: 'confirmed', step: 'stake', hash: '0xab', blockNumber: '12' }
    assert.deepEqual(eventProblems(ok), [])
    assert.deepEqual(eventProblems({ ...ok, blockNumber: 12 }), ['confirmed.blockNumber is 12, not decimal'])
    assert.deepEqual(eventProblems({ event: 'confirmed', step: 'stake', hash: '0xab' }), [
      'confirmed.blockNumber is missing',
    ])
    assert.deepEqual(eventProblems({ ...ok, extra: 1 }), ['confirmed.extra is not in the schema'])
    assert.deepEqual(eventProblems({ event: 'nope' }), ['unknown event "nope"'])
    // null only where the schema says so; optional fields may be absent
    assert.deepEqual(eventProblems({ event: 'exited', validator: `0x${'1'.repeat(40)}`, exitEpoch: null }), [])
    assert.deepEqual(eventProblems({ event: 'active', validator: `0x${'1'.repeat(40)}`, epoch: null }), [
      'active.epoch is null, not number',
    ])
    assert.deepEqual(eventProblems({ event: 'warning', message: 'm' }), [])
  })

  it('keys and proofs are hex with a base58 companion wherever they appear', () => {
    for (const [name, fields] of Object.entries(FLOW_EVENTS)) {
      for (const key of ['blsPublicKey', 'proofOfPossession'])
        if (key in fields) {
          assert.equal((fields as Record<string, string>)[key], 'hex', `${name}.${key}`)
          assert.equal((fields as Record<string, string>)[`${key}Base58`], 'base58', `${name}.${key}Base58`)
        }
    }
  })
})
