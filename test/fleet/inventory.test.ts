/**
 * Inventories `tnv fleet status` reads: Ansible INI and YAML (vars precedence: all < parent
 * group < child group < host), tnv's own YAML; hosts without tnv variables are left out. And
 * the bounded parallel map the status uses never runs more than its bound at once.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseInventory } from '../../src/lib/fleet/inventory.js'
import { mapBounded } from '../../src/lib/fleet/status.js'

describe('inventories', () => {
  it('INI: groups, [group:vars], [group:children], quoted values; non-validator hosts left out', () => {
    const ini = `
# validators of region A
[all:vars]
tnv_chain=testnet

[eu]
v1 tnv_datadir=/var/lib/tnv/v1
v2 ansible_host=10.0.0.2 tnv_node_rpc_url="http://10.0.0.2:8545" tnv_address=0x${'ab'.repeat(20)}

[eu:vars]
tnv_rpc_url=https://rpc.adiri.tel

[validators:children]
eu

[validators:vars]
tnv_rpc_url=http://overridden-by-child
tnv_chain=devnet

[monitoring]
grafana ansible_host=10.0.0.9
`
    const v = parseInventory(ini, 'hosts.ini')
    assert.deepEqual(
      v.map((x) => [x.name, x.datadir, x.nodeRpcUrl, x.chain, x.rpcUrl]),
      [
        ['v1', '/var/lib/tnv/v1', null, 'devnet', 'https://rpc.adiri.tel'],
        ['v2', null, 'http://10.0.0.2:8545', 'devnet', 'https://rpc.adiri.tel'],
      ],
    )
    assert.equal(v[1]?.address, `0x${'ab'.repeat(20)}`)
  })

  it('Ansible YAML: nested children inherit vars; host vars win', () => {
    const yaml = `
all:
  vars:
    tnv_chain: testnet
  children:
    validators:
      vars:
        tnv_chain_id: 2017
      hosts:
        v1:
          tnv_datadir: /var/lib/tnv/v1
        v2:
          tnv_datadir: /var/lib/tnv/v2
          tnv_chain: devnet
    monitoring:
      hosts:
        grafana: {}
`
    const v = parseInventory(yaml, 'hosts.yml')
    assert.deepEqual(
      v.map((x) => [x.name, x.datadir, x.chain, x.chainId]),
      [
        ['v1', '/var/lib/tnv/v1', 'testnet', 2017],
        ['v2', '/var/lib/tnv/v2', 'devnet', 2017],
      ],
    )
  })

  it("tnv's own YAML, with defaults", () => {
    const v = parseInventory(
      'defaults: { chain: devnet }\nvalidators:\n  - { name: a, datadir: /d/a }\n  - { name: b, node_rpc_url: http://h:8545, chain: testnet }\n',
      'v.yml',
    )
    assert.deepEqual(
      v.map((x) => [x.name, x.datadir, x.nodeRpcUrl, x.chain]),
      [
        ['a', '/d/a', null, 'devnet'],
        ['b', null, 'http://h:8545', 'testnet'],
      ],
    )
  })

  it('refuses an inventory naming no validator, and a validator listed twice (exit 3)', () => {
    assert.throws(
      () => parseInventory('[web]\nw1 ansible_host=1.2.3.4\n', 'x.ini'),
      (e: Error & { exitCode?: number }) => {
        assert.equal(e.exitCode, 3)
        assert.match(e.message, /names no validator/)
        return true
      },
    )
    assert.throws(
      () => parseInventory('validators:\n  - { name: a, datadir: /a }\n  - { name: a, datadir: /b }\n', 'x.yml'),
      /listed twice/,
    )
  })
})

describe('mapBounded', () => {
  it('never runs more than the bound at once, and keeps the order of the items', async () => {
    let running = 0
    let peak = 0
    const out = await mapBounded([...Array(20).keys()], 3, async (i) => {
      running++
      peak = Math.max(peak, running)
      await new Promise<void>((resolve) => setImmediate(resolve))
      running--
      return i * 2
    })
    assert.equal(peak, 3)
    assert.deepEqual(
      out,
      [...Array(20).keys()].map((i) => i * 2),
    )
  })
})
