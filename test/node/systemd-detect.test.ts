/**
 * Which supervisor runs a node (src/lib/node/systemd.ts), from fixed `systemctl show` answers and
 * cgroup lines: a unit is used only when systemctl confirms it runs this node and names its binary.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { nodeArgsOf } from '../../src/lib/node/node-processes.js'
import type { NodeState } from '../../src/lib/node/state.js'
import { detectSupervisor, type Systemctl, showUnit, unitOfCgroup } from '../../src/lib/node/systemd.js'

const answer =
  (props: Record<string, string>): Systemctl =>
  (args) =>
    args[0] === 'show'
      ? {
          code: 0,
          stdout: `${Object.entries(props)
            .map(([k, v]) => `${k}=${v}`)
            .join('\n')}\n`,
          stderr: '',
        }
      : { code: 1, stdout: '', stderr: 'not emulated' }

// this test process stands for the node: its pid is alive and its argv holds its own script
const self: NodeState = {
  pid: process.pid,
  binary: readFileSync('/proc/self/cmdline', 'utf8').split('\0')[0] as string,
  args: [],
  datadir: '/var/lib/tnv/v1',
  logFile: null,
  rpc: { http: null, ws: null, ipc: null },
  workerEndpoints: [],
  startedAt: '',
}

describe('systemd detection', () => {
  it('reads the unit from a cgroup line (v2 and v1), and only a service', () => {
    assert.equal(
      unitOfCgroup('0::/system.slice/system-tnv\\x2dnode.slice/tnv-node@v1.service\n'),
      'tnv-node@v1.service',
    )
    assert.equal(unitOfCgroup('12:cpu:/x\n1:name=systemd:/system.slice/telcoin.service\n'), 'telcoin.service')
    assert.equal(unitOfCgroup('0::/user.slice/user-1000.slice/session-3.scope\n'), null)
    assert.equal(unitOfCgroup('0::/\n'), null)
  })

  it('parses systemctl show: MainPID, Environment, the ExecStart path', () => {
    const p = showUnit(
      answer({
        LoadState: 'loaded',
        ActiveState: 'active',
        SubState: 'running',
        MainPID: '4242',
        Environment: 'TN_DATADIR=/var/lib/tnv/v1 TN_NON_INTERACTIVE=1 TN_NODE_BINARY=/usr/local/bin/telcoin-network',
        ExecStart: '{ path=/usr/local/bin/tnv ; argv[]=/usr/local/bin/tnv node start ; ignore_errors=no }',
      }),
      'tnv-node@v1.service',
    )
    assert.deepEqual(p, {
      loadState: 'loaded',
      activeState: 'active',
      subState: 'running',
      mainPid: 4242,
      environment: {
        TN_DATADIR: '/var/lib/tnv/v1',
        TN_NON_INTERACTIVE: '1',
        TN_NODE_BINARY: '/usr/local/bin/telcoin-network',
      },
      execPath: '/usr/local/bin/tnv',
    })
  })

  it('--unit confirmed (MainPID is the node, the unit names its binary): systemd; `.service` added', () => {
    const s = answer({
      LoadState: 'loaded',
      MainPID: String(process.pid),
      Environment: `TN_NODE_BINARY=${self.binary}`,
    })
    assert.deepEqual(detectSupervisor({ state: self, unit: 'tnv-node@v1', systemctl: s }), {
      kind: 'systemd',
      unit: 'tnv-node@v1.service',
    })
  })

  it('--unit whose main process is another, or which runs another binary: refused (exit 2)', () => {
    const other = answer({ LoadState: 'loaded', MainPID: '1', Environment: `TN_NODE_BINARY=${self.binary}` })
    assert.throws(() => detectSupervisor({ state: self, unit: 'tnv-node@v1', systemctl: other }), {
      code: 'SystemdUnit',
      exitCode: 2,
    })
    const elsewhere = answer({
      LoadState: 'loaded',
      MainPID: String(process.pid),
      Environment: 'TN_NODE_BINARY=/opt/x',
    })
    assert.throws(() => detectSupervisor({ state: self, unit: 'tnv-node@v1', systemctl: elsewhere }), {
      message: /runs the node from \/opt\/x while the node's binary is/,
    })
  })

  it('no --unit and no unit in the cgroup: tnv; an unfinished run keeps the supervisor it recorded', () => {
    const none = answer({ LoadState: 'not-found', MainPID: '0' })
    assert.deepEqual(detectSupervisor({ state: { ...self, pid: 999_999_999 }, systemctl: none }), { kind: 'tnv' })
    const recorded = { kind: 'systemd' as const, unit: 'tnv-node@v1.service' }
    assert.deepEqual(detectSupervisor({ state: null, recorded, systemctl: none }), recorded)
    assert.throws(() => detectSupervisor({ state: null, recorded, unit: 'tnv-node@v2', systemctl: none }), {
      code: 'SystemdUnit',
    })
  })

  it("a node's command line: the word before `node` names a Telcoin Network node", () => {
    assert.deepEqual(nodeArgsOf(['/usr/local/bin/telcoin-network', 'node', '--datadir', '/d']), ['--datadir', '/d'])
    assert.deepEqual(nodeArgsOf(['node', '/opt/tnv/bin/tnv-node.js', 'node', '--datadir', '/d']), ['--datadir', '/d'])
    assert.equal(nodeArgsOf(['node', '/usr/local/bin/tnv', 'node', 'check', '--datadir', '/d']), null)
    assert.equal(nodeArgsOf(['/usr/bin/geth', 'node', '--datadir', '/d']), null)
  })
})
