#!/usr/bin/python
# -*- coding: utf-8 -*-
# Thin module over `tnv validator status | stake --through | exit --through --json`.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: tnv_validator
short_description: A validator's registry state (status; stake, activate, exit), through tnv
description:
  - C(status) reads the registry (C(tnv validator status)); it never changes anything.
  - C(staked) and C(active) run C(tnv stake --through staked|active) (stake, then wait for the node's
    sync and activate); C(exited) runs C(tnv exit --through exited). Each first reads the registry;
    a validator already there reports C(already-done) and sends nothing. tnv journals every
    transaction, so a rerun after a failure never sends one twice.
  - These sign with the validator address's key. Run them on a controller that holds the key
    (C(delegate_to)), never on the node host; give the controller the node's node-info.yaml
    (I(node_info), e.g. fetched) and the node's RPC URL (I(node_rpc_url)).
  - The signer's key and the keystore password reach tnv through its environment only.
version_added: 0.1.0
author: tnv maintainers (!UNKNOWN)
options:
  state:
    description: The registry state wanted.
    type: str
    choices: [status, staked, active, exited]
    default: status
  datadir:
    description: The data directory (its node-info.yaml), or on a controller a work directory for tnv's transaction journal.
    type: path
    required: true
  node_info:
    description: node-info.yaml of the validator (or its directory), when it is not in I(datadir).
    type: path
  address:
    description: Validator address (I(state=status)); default node-info.yaml's.
    type: str
  node_rpc_url:
    description: The validator node's RPC endpoint (needed by C(active) to wait for its sync).
    type: str
  chain:
    description: C(devnet), C(testnet), C(mainnet) (tnv's C(--chain)).
    type: str
  rpc_url:
    description: The network's JSON-RPC endpoint.
    type: str
  chain_id:
    description: The chain id I(rpc_url) must report.
    type: int
  private_key:
    description: The validator address's private key (hex), from a vault.
    type: str
  keystore:
    description: A keystore file of the validator address's key, instead of I(private_key).
    type: path
  keystore_password:
    description: The keystore's password.
    type: str
  mint:
    description: Devnet only, a rehearsal of governance whitelisting the address.
    type: bool
    default: false
  skip_backup_check:
    description: Stake without a verified backup of the BLS key (you accept the risk).
    type: bool
    default: false
  timeout:
    description: Seconds for each wait (sync, epoch boundary, receipt).
    type: int
    default: 900
  tnv_path:
    description: The tnv executable.
    type: str
    default: tnv
notes:
  - Supports check mode (the registry is read, nothing is sent) and diff mode.
'''

EXAMPLES = r'''
- name: Stake and activate, signed on the controller
  telcoin.tnv.tnv_validator:
    state: active
    datadir: "{{ playbook_dir }}/work/{{ inventory_hostname }}"
    node_info: "{{ playbook_dir }}/work/{{ inventory_hostname }}/node-info.yaml"
    node_rpc_url: "http://{{ ansible_host }}:8545"
    chain: testnet
    private_key: "{{ vault_validator_keys[inventory_hostname] }}"
  delegate_to: localhost
'''

RETURN = r'''
outcome:
  description: C(changed), C(would-change) (check mode) or C(already-done).
  returned: always
  type: str
status:
  description: The registry status after the task (before it in check mode).
  returned: always
  type: str
validator:
  description: C(tnv validator status --json).
  returned: always
  type: dict
result:
  description: The result line of C(tnv stake|exit --through), with the steps this run did.
  returned: when something was sent
  type: dict
'''

import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.telcoin.tnv.plugins.module_utils.tnv import TNV_COMMON_ARGS, tnv_json, fail_from

DONE = {
    'staked': ('Staked', 'PendingActivation', 'Active'),
    'active': ('Active',),
    'exited': ('Exited', 'Retired'),
}


def chain_args(p):
    args = []
    if p['chain']:
        args += ['--chain', p['chain']]
    if p['rpc_url']:
        args += ['--rpc-url', p['rpc_url']]
    if p['chain_id'] is not None:
        args += ['--chain-id', str(p['chain_id'])]
    return args


def main():
    spec = dict(
        state=dict(type='str', default='status', choices=['status', 'staked', 'active', 'exited']),
        datadir=dict(type='path', required=True),
        node_info=dict(type='path'),
        address=dict(type='str'),
        node_rpc_url=dict(type='str'),
        chain=dict(type='str'),
        rpc_url=dict(type='str'),
        chain_id=dict(type='int'),
        private_key=dict(type='str', no_log=True),
        keystore=dict(type='path'),
        keystore_password=dict(type='str', no_log=True),
        mint=dict(type='bool', default=False),
        skip_backup_check=dict(type='bool', default=False),
        timeout=dict(type='int', default=900),
    )
    spec.update(TNV_COMMON_ARGS)
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True,
                           mutually_exclusive=[('private_key', 'keystore')])
    p = module.params
    info_dir = p['node_info'] if p['node_info'] and os.path.isdir(p['node_info']) else (
        os.path.dirname(p['node_info']) if p['node_info'] else p['datadir'])
    status_args = ['validator', 'status'] + chain_args(p)
    status_args += ['--address', p['address']] if p['address'] else ['--datadir', info_dir]
    rc, status, err = tnv_json(module, status_args)
    if rc != 0:
        fail_from(module, 'reading the registry', rc, status, err)
    before = status['status']
    state = p['state']
    if state == 'status' or before in DONE[state]:
        module.exit_json(changed=False, outcome='already-done', status=before, validator=status)
    wanted = {'staked': 'Staked', 'active': 'Active', 'exited': 'Exited'}[state]
    diff = dict(before=dict(status=before), after=dict(status=wanted))
    if module.check_mode:
        module.exit_json(changed=True, outcome='would-change', status=before, validator=status, diff=diff)
    env = {}
    if p['private_key']:
        env['TN_PRIVATE_KEY'] = p['private_key']
    if p['keystore_password']:
        env['TN_KEYSTORE_PASSWORD'] = p['keystore_password']
    if not os.path.isdir(p['datadir']):
        os.makedirs(p['datadir'], 0o700)
    if state == 'exited':
        args = ['exit', '--through', 'exited', '--datadir', info_dir]
    else:
        args = ['stake', '--through', state, '--datadir', p['datadir']]
        if p['node_info']:
            args += ['--node-info', p['node_info']]
        if p['node_rpc_url']:
            args += ['--node-rpc-url', p['node_rpc_url']]
        if p['mint']:
            args.append('--mint')
        if p['skip_backup_check']:
            args.append('--skip-backup-check')
    if p['keystore']:
        args += ['--keystore', p['keystore']]
    args += chain_args(p) + ['--yes', '--timeout', str(p['timeout'])]
    rc, result, err = tnv_json(module, args, env=env, lines=True)
    if rc != 0 or not isinstance(result, dict) or 'error' in result:
        fail_from(module, '%s' % args[0], rc, result, err, status=before)
    module.exit_json(changed=len(result.get('steps') or []) > 0, outcome='changed', status=result.get('status'),
                     validator=status, result=result, diff=diff)


if __name__ == '__main__':
    main()
