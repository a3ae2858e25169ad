#!/usr/bin/python
# -*- coding: utf-8 -*-
# Thin module over `tnv node unit|status|start|stop --json` (or systemctl for the units).
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: tnv_node
short_description: A validator's node, run by systemd (or by tnv), through tnv
description:
  - C(present) writes the systemd units and the instance's settings with C(tnv node unit)
    (C(tnv-node@.service), C(tnv-check@.service), C(tnv-check@.timer), C(<config_dir>/<name>.env)),
    only when they differ; systemd is then reloaded.
  - C(started), C(stopped), C(restarted) drive the node, with C(systemctl) on C(tnv-node@<name>)
    (I(manager=systemd)) or with C(tnv node start --detach | stop) (I(manager=tnv), for hosts
    without systemd, such as a devnet rehearsal).
  - One supervisor per node; under systemd, restarts are systemd's (C(Restart=on-failure)).
version_added: 0.1.0
author: tnv maintainers (!UNKNOWN)
options:
  name:
    description: Instance name (C(tnv-node@<name>)); the data directory is I(datadir_root)/<name> unless I(datadir) is given.
    type: str
    required: true
  state:
    description: What the node should be.
    type: str
    choices: [present, started, stopped, restarted]
    default: started
  manager:
    description: Who runs the node.
    type: str
    choices: [systemd, tnv]
    default: systemd
  datadir:
    description: The data directory (I(manager=tnv)); default I(datadir_root)/I(name).
    type: path
  node_flags:
    description: The node's own flags (what follows C(--) of C(tnv node start)).
    type: list
    elements: str
    default: []
  chain:
    description: Network C(tnv node check) compares with (TN_CHAIN of the instance).
    type: str
  unit_dir:
    description: Where the units go.
    type: path
    default: /etc/systemd/system
  config_dir:
    description: Where C(<name>.env) and C(<name>/bls-passphrase) live.
    type: path
    default: /etc/tnv
  datadir_root:
    description: Parent of the data directories.
    type: path
    default: /var/lib/tnv
  textfile_dir:
    description: node_exporter's textfile collector directory.
    type: path
    default: /var/lib/prometheus/node-exporter
  node_binary:
    description: The node binary on the host; omit with I(reference_node).
    type: path
    default: /usr/local/bin/telcoin-network
  reference_node:
    description: Run tnv's reference node (devnet rehearsal).
    type: bool
    default: false
  user:
    description: System user of the units.
    type: str
    default: tnv
  tnv_bin:
    description: The tnv executable as the units call it (absolute).
    type: path
    default: /usr/local/bin/tnv
  ready_timeout:
    description: Seconds C(tnv node start) waits for the RPC (I(manager=tnv)).
    type: int
    default: 60
  tnv_path:
    description: The tnv executable this module runs.
    type: str
    default: tnv
notes:
  - Supports check mode and diff mode.
'''

EXAMPLES = r'''
- name: Units for validator v1
  telcoin.tnv.tnv_node:
    name: v1
    state: present
    chain: testnet
    node_flags: [--chain, adiri, --http, --http.api, "eth,net,web3,rpc,tn"]

- name: Running
  telcoin.tnv.tnv_node:
    name: v1
    state: started
'''

RETURN = r'''
outcome:
  description: C(changed), C(would-change) (check mode) or C(already-done).
  returned: always
  type: str
files:
  description: With state=present, each file and its action (create, update, none).
  returned: state is present
  type: list
pid:
  description: The node's pid after the task (I(manager=tnv)), null when stopped.
  returned: manager is tnv
  type: int
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.telcoin.tnv.plugins.module_utils.tnv import TNV_COMMON_ARGS, tnv_json, fail_from


def unit_args(p, check):
    args = ['node', 'unit', '--out', p['unit_dir'], '--instance', p['name'], '--config-dir', p['config_dir'],
            '--datadir-root', p['datadir_root'], '--textfile-dir', p['textfile_dir'], '--user', p['user'],
            '--tnv', p['tnv_bin']]
    args += ['--reference-node'] if p['reference_node'] else ['--node-binary', p['node_binary']]
    if p['chain']:
        args += ['--chain', p['chain']]
    if check:
        args.append('--check')
    return args + ['--'] + list(p['node_flags'])


def present(module, p):
    rc, doc, err = tnv_json(module, unit_args(p, True))
    if rc != 0:
        fail_from(module, 'planning the units', rc, doc, err)
    before = doc
    changed = doc['outcome'] == 'would-change'
    if changed and not module.check_mode:
        rc, doc, err = tnv_json(module, unit_args(p, False))
        if rc != 0:
            fail_from(module, 'writing the units', rc, doc, err)
        if p['manager'] == 'systemd':
            module.run_command(['systemctl', 'daemon-reload'], check_rc=True)
    outcome = 'already-done' if not changed else ('would-change' if module.check_mode else 'changed')
    diff = dict(before='\n'.join('%s: %s' % (f['path'], 'absent' if f['action'] == 'create' else 'present')
                                 for f in before['files']) + '\n',
                after='\n'.join('%s: %s' % (f['path'], 'unchanged' if f['action'] == 'none' else f['action'] + 'd')
                                for f in before['files']) + '\n')
    module.exit_json(changed=changed, outcome=outcome, files=doc['files'], diff=diff)


def running_tnv(module, datadir):
    rc, doc, err = tnv_json(module, ['node', 'status', '--datadir', datadir])
    if rc != 0:
        fail_from(module, 'reading the node status', rc, doc, err)
    return doc


def drive_tnv(module, p, state):
    datadir = p['datadir'] or '%s/%s' % (p['datadir_root'], p['name'])
    status = running_tnv(module, datadir)
    running = bool(status.get('running'))
    want_stop = state in ('stopped', 'restarted') and running
    want_start = state == 'restarted' or (state == 'started' and not running)
    changed = want_stop or want_start
    diff = dict(before=dict(running=running, pid=status.get('pid')), after=dict(running=state != 'stopped'))
    if module.check_mode or not changed:
        module.exit_json(changed=changed, outcome='would-change' if changed else 'already-done',
                         pid=status.get('pid'), diff=diff)
    if want_stop:
        rc, doc, err = tnv_json(module, ['node', 'stop', '--datadir', datadir])
        if rc != 0:
            fail_from(module, 'stopping the node', rc, doc, err)
    pid = None
    if want_start:
        args = ['node', 'start', '--detach', '--datadir', datadir, '--ready-timeout', str(p['ready_timeout'])]
        env = {}
        if not p['reference_node']:
            args += ['--node-binary', p['node_binary']]
        rc, doc, err = tnv_json(module, args + ['--'] + list(p['node_flags']), env=env)
        if rc != 0:
            fail_from(module, 'starting the node', rc, doc, err)
        pid = doc.get('pid')
    diff['after']['pid'] = pid
    module.exit_json(changed=True, outcome='changed', pid=pid, previous_pid=status.get('pid'), diff=diff)


def drive_systemd(module, p, state):
    unit = 'tnv-node@%s.service' % p['name']
    rc, out, err = module.run_command(['systemctl', 'is-active', unit], check_rc=False)
    running = out.strip() == 'active'
    action = {'started': None if running else 'start', 'stopped': 'stop' if running else None,
              'restarted': 'restart'}[state]
    diff = dict(before=dict(active=running), after=dict(active=state != 'stopped'))
    if action is None or module.check_mode:
        module.exit_json(changed=action is not None, outcome='would-change' if action else 'already-done', diff=diff)
    module.run_command(['systemctl', action, unit], check_rc=True)
    module.exit_json(changed=True, outcome='changed', diff=diff)


def main():
    spec = dict(
        name=dict(type='str', required=True),
        state=dict(type='str', default='started', choices=['present', 'started', 'stopped', 'restarted']),
        manager=dict(type='str', default='systemd', choices=['systemd', 'tnv']),
        datadir=dict(type='path'),
        node_flags=dict(type='list', elements='str', default=[]),
        chain=dict(type='str'),
        unit_dir=dict(type='path', default='/etc/systemd/system'),
        config_dir=dict(type='path', default='/etc/tnv'),
        datadir_root=dict(type='path', default='/var/lib/tnv'),
        textfile_dir=dict(type='path', default='/var/lib/prometheus/node-exporter'),
        node_binary=dict(type='path', default='/usr/local/bin/telcoin-network'),
        reference_node=dict(type='bool', default=False),
        user=dict(type='str', default='tnv'),
        tnv_bin=dict(type='path', default='/usr/local/bin/tnv'),
        ready_timeout=dict(type='int', default=60),
    )
    spec.update(TNV_COMMON_ARGS)
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    if p['state'] == 'present':
        present(module, p)
    elif p['manager'] == 'tnv':
        drive_tnv(module, p, p['state'])
    else:
        drive_systemd(module, p, p['state'])


if __name__ == '__main__':
    main()
