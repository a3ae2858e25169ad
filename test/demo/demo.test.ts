import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { describe, it } from 'node:test'
import type { DemoReturnType } from '../../src/lib/demo/lifecycle.js'
import { parseJson, runCli } from '../helpers/cli.js'

describe('tnv demo (end to end on the embedded devnet)', () => {
  it('walks keys → backup → mint → stake → synced → activate → Active → exit → Exited → unstake and leaves nothing behind', async () => {
    const r = await runCli(['demo', '--json'], { timeoutMs: 180_000 })
    assert.equal(r.code, 0, r.stderr)
    const demo = parseJson<DemoReturnType>(r)
    assert.deepEqual(
      demo.steps.map((s) => s.step),
      ['keys', 'backup', 'governance mint', 'stake', 'node synced', 'activate', 'Active', 'exit', 'Exited', 'unstake'],
    )
    for (const s of demo.steps.filter((x) =>
      ['governance mint', 'stake', 'activate', 'exit', 'unstake'].includes(x.step),
    )) {
      assert.match(s.tx ?? '', /^0x[0-9a-f]{64}$/, `${s.step} has a transaction hash`)
    }
    assert.equal(demo.chainId, 911329)
    assert.equal(demo.stakeAmountWei, (10n ** 24n).toString())
    assert.ok(BigInt(demo.paidWei) >= BigInt(demo.stakeAmountWei), 'the stake (plus rewards) came back')
    assert.equal(demo.paidTo, demo.validator)
    assert.equal(demo.dir, null)
    // progress went to stderr, the JSON alone to stdout
    assert.match(r.stderr, /\$ tnv stake --datadir/)
    assert.match(r.stderr, /\$ tnv devnet stop/)
    // the temporary directory is gone
    const tmp = r.stderr.match(/--datadir (\/\S+)\/validator/)?.[1]
    assert.ok(tmp, 'the demo printed its directory')
    assert.equal(existsSync(tmp), false)
  })
})
