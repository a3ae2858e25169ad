/**
 * The node's command line (real-network/node.md §4): the flags the released node accepts
 * (checked against its clap definitions as recorded in src/lib/node/released-flags.ts), its
 * `--chain` values, and every node command line tnv produces or documents: the wizard's, and
 * the `tnv node start … -- <flags>` examples of README.md and docs/.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { NODE_NETWORKS, nodeChainFor, nodeStartFlags } from '../../src/lib/node/networks.js'
import { checkNodeStart } from '../../src/lib/node/plan.js'
import { checkChainValue, checkNodeCommandLine, RELEASED_NODE_FLAGS } from '../../src/lib/node/released-flags.js'
import { resolveRpcPlans } from '../../src/lib/rpc/behaviours.js'
import { ROOT } from '../helpers/cli.js'

describe("the released node's flags", () => {
  it('accepts what its clap definitions define, in both spellings and aliases', () => {
    const accepted = [
      '--datadir',
      '/d',
      '--chain',
      'adiri',
      '--http',
      '--http.addr',
      '127.0.0.1',
      '--http.api',
      'eth,net,web3,rpc,tn',
      '--ws',
      '--ws.corsdomain',
      'https://a.example',
      '--ipcdisable',
      '--metrics',
      '127.0.0.1:9101',
      '--healthcheck',
      '43174',
      '--instance',
      '2',
      '--observer',
      '--rpc-max-connections',
      '10',
      '--rpc.returndata.limit',
      '10',
      '--rpc-cache.max-envs',
      '10',
      '--txpool.max_account_slots',
      '16',
      '--txpool.nolocals',
      '--db.max-size=4TB',
      '--log.stdout.format',
      'log-fmt',
      '-vvv',
      '-q',
      '--bls-passphrase-source',
      'env',
    ]
    assert.deepEqual(checkNodeCommandLine(accepted, 'released'), [])
  })

  it('refuses what it does not define: --workers, --ipc.api, typos, positionals; --chain testnet', () => {
    const errors = checkNodeCommandLine(
      ['--workers', '2', '--ipc.api', 'eth', '--http.apis', 'eth', 'stray', '-x', '--chain', 'testnet'],
      'released',
    )
    assert.equal(errors.length, 6, errors.join('\n'))
    assert.match(
      errors[0] ?? '',
      /--workers: .*unexpected argument '--workers' found.*exist only in the specification's release/,
    )
    assert.match(errors[1] ?? '', /--ipc\.api: .*IPC's namespaces are not configurable/)
    assert.match(errors[2] ?? '', /--http\.apis: .*Did you mean --http\.api\?/)
    assert.match(errors[3] ?? '', /stray: .*takes no positional arguments/)
    assert.match(errors[4] ?? '', /-x: not a flag/)
    assert.match(errors[5] ?? '', /--chain testnet: .*Write --chain adiri\./)
    // the specification's release adds --workers; tnv's reference node its devnet flags and chains
    assert.deepEqual(checkNodeCommandLine(['--workers', '2'], 'spec'), [])
    assert.deepEqual(
      checkNodeCommandLine(
        ['--workers', '2', '--chain', 'dev', '--devnet.epoch-seconds', '5', '--devnet.genesis', 'next'],
        'reference',
      ),
      [],
    )
  })

  it('--chain takes adiri, test-net, main-net (clap ValueEnum, kebab-case, case-sensitive)', () => {
    for (const v of ['adiri', 'test-net', 'main-net']) assert.equal(checkChainValue(v, 'released'), null, v)
    const cases: [string, string | null][] = [
      ['testnet', 'adiri'],
      ['mainnet', 'main-net'],
      ['TestNet', 'adiri'],
      ['Adiri', 'adiri'],
      ['dev', null],
    ]
    for (const [v, instead] of cases) {
      const e = checkChainValue(v, 'released')
      assert.ok(e, v)
      assert.match(e, new RegExp(`invalid value '${v}' for '--chain <NAMED_TN_NETWORK>'`))
      if (instead) assert.match(e, new RegExp(`Write --chain ${instead}\\.`))
    }
  })

  it('presets: adiri 2017 and mainnet 487 on the node side, each fact known or marked as a placeholder', () => {
    assert.deepEqual(
      [
        NODE_NETWORKS.adiri.chainId,
        NODE_NETWORKS.adiri.nodeChain,
        NODE_NETWORKS.mainnet.chainId,
        NODE_NETWORKS.mainnet.nodeChain,
      ],
      [2017, 'adiri', 487, 'main-net'],
    )
    assert.equal(NODE_NETWORKS.mainnet.publicRpc, null)
    assert.ok(NODE_NETWORKS.mainnet.placeholders.some((p) => /placeholder execution addresses/.test(p)))
    assert.deepEqual(['testnet', 'adiri', 'mainnet', 'devnet'].map(nodeChainFor), ['adiri', 'adiri', 'main-net', null])
    for (const p of Object.values(NODE_NETWORKS)) assert.equal(checkChainValue(p.nodeChain, 'released'), null)
  })
})

describe('command lines tnv produces or documents', () => {
  it("the wizard's node flags: accepted by both releases and meaning the same on both", () => {
    for (const network of ['testnet', 'mainnet']) {
      const flags = nodeStartFlags(network, 40123)
      assert.deepEqual(checkNodeCommandLine(flags, 'released'), [], network)
      assert.deepEqual(checkNodeCommandLine(flags, 'spec'), [], network)
      const plans = resolveRpcPlans(flags, { checkCommandLine: true })
      assert.equal(plans.released.ok && plans.spec.ok, true, [...plans.released.errors, ...plans.spec.errors].join(' '))
      assert.deepEqual(plans.equivalents, [], 'no selection whose meaning differs')
      assert.equal(checkNodeStart(flags, 'released').warnings.filter((w) => /means different things/.test(w)).length, 0)
    }
    assert.deepEqual(checkNodeCommandLine(nodeStartFlags('devnet', 40123), 'reference'), [])
  })

  it('every `tnv node start … -- <flags>` example in README.md and docs/ passes the node it names', () => {
    const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => join('docs', f))]
    let seen = 0
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/\\\n\s*/g, ' ')
      for (const line of text.split('\n')) {
        const m = /tnv node start (.*?) -- (.*?)(`|$)/.exec(line)
        if (!m) continue
        seen++
        const own = m[1] as string
        const flags = (m[2] as string)
          .trim()
          .split(/\s+/)
          .filter((t) => !t.startsWith('#'))
        const cut = flags.findIndex((t) => t.startsWith('#'))
        const nodeFlags = cut === -1 ? flags : flags.slice(0, cut)
        const line0 = / --node-binary /.test(` ${own} `) ? 'released' : 'reference'
        assert.deepEqual(checkNodeCommandLine(nodeFlags, line0), [], `${file}: ${line.trim()}`)
        assert.doesNotThrow(() => checkNodeStart(nodeFlags, line0), `${file}: ${line.trim()}`)
      }
    }
    assert.ok(seen >= 3, `found ${seen} examples`)
  })

  it('RELEASED_NODE_FLAGS has no flag of the specification only', () => {
    assert.equal(Object.hasOwn(RELEASED_NODE_FLAGS, '--workers'), false)
  })
})
