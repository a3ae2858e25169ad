#!/usr/bin/python
# -*- coding: utf-8 -*-
# Thin module over `tnv node migrate out|in --json`: one side per host, idempotent by its journal.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: tnv_migrate
short_description: Move a validator to another host with its key never live twice (tnv node migrate)
description:
  - I(side=out) on the old host runs C(tnv node migrate out) there, which stops the node, proves the key
    silent in the network's consensus headers over the doppelganger window and marks the data directory
    moved out (C(tnv node start) then refuses it there).
  - I(side=in) on the new host runs C(tnv node migrate in) there, which proves the key silent over the window,
    starts the node detached under tnv's local fence and confirms the authority active again in the headers.
  - Run I(side=out) on the old host first and I(side=in) on the new host only after it succeeded
    (C(playbooks/migrate.yml) does). C(in) refuses to start while the key shows active elsewhere.
  - Each run asks C(tnv node migrate <side> --check) first, which reads the side's journal
    C(<datadir>/tnv-migrate.json), the node and the network's endpoint and, for I(side=in), runs the start's checks
    (binary, RPC endpoint, free ports, the local fence); a failing precondition fails the task with tnv's error
    before anything is done. Nothing to do is C(already-done), C(changed=false), with no call that changes state;
    an interrupted side resumes where it stopped.
version_added: 0.1.0
author: tnv maintainers (!UNKNOWN)
options:
  side:
    description:
      - C(out) on the old host, C(in) on the new one.
      - C(out) is done when the journal records a finished C(out).
      - C(in) is done when the journal records a finished C(in) and the node of the data directory runs.
    type: str
    choices: [out, in]
    required: true
  datadir:
    description: The validator's data directory on this host (for C(in), holding the key files copied over).
    type: path
    required: true
  node_flags:
    description: With I(side=in), the node's own flags (what follows C(--) of C(tnv node migrate in)).
    type: list
    elements: str
    default: []
  node_binary:
    description: With I(side=in), the node binary; omit with I(reference_node).
    type: path
    default: /usr/local/bin/telcoin-network
  reference_node:
    description: With I(side=in), run tnv's reference node (devnet rehearsal).
    type: bool
    default: false
  network_url:
    description: The network's endpoint whose consensus headers prove silence (default from the node's C(--chain)).
    type: str
  doppelganger_window:
    description: Seconds of headers that prove the key silent (tnv's default 60).
    type: int
  confirm_timeout:
    description: With I(side=in), seconds to wait for the authority to show active again (tnv's default 120).
    type: int
  passphrase:
    description: With I(side=in), the BLS key's passphrase, handed to tnv as C(TN_BLS_PASSPHRASE).
    type: str
  passphrase_file:
    description: With I(side=in), a file holding the passphrase.
    type: path
  tnv_path:
    description: The tnv executable this module runs.
    type: str
    default: tnv
notes:
  - Supports check mode (only C(tnv node migrate --check) runs, so nothing is stopped, started or written;
    C(outcome=would-change) with the steps in C(plan)) and diff mode. With I(side=in) on a data directory without
    the key files yet (the playbook copies them only outside check mode) tnv cannot plan the side; the task then
    reports C(would-change) with C(plan=null).
  - The key is never live on both hosts; when I(side=in) fails the old host stays stopped and marked moved out.
    Run the same task again once the cause is fixed (it resumes), or move the key back with I(side=out)
    on the new host and I(side=in) on the old one (docs/automation.md in the tnv repository, "Moving a validator to another host").
'''

EXAMPLES = r'''
- name: Old host
  telcoin.tnv.tnv_migrate:
    side: out
    datadir: /var/lib/tnv/v1

- name: New host (key files copied into the data directory)
  telcoin.tnv.tnv_migrate:
    side: in
    datadir: /var/lib/tnv/v1
    passphrase: "{{ vault_bls_passphrase }}"
    node_flags: [--chain, adiri, --http, --http.api, "eth,net,web3,rpc,tn"]
'''

RETURN = r'''
outcome:
  description: C(changed), C(would-change) (check mode) or C(already-done).
  returned: always
  type: str
journal:
  description: The side's journal after the task (C(side), C(done) steps, C(outcome), C(movedOutAt), C(silence)).
  returned: always
  type: dict
pid:
  description: With I(side=in), the pid of the node that runs; null otherwise.
  returned: always
  type: int
plan:
  description: >-
    What C(tnv node migrate <side> --check) said before the task ran (C(outcome), C(steps) with each step's
    C(action) and C(detail), C(running), C(network), C(command)); null when tnv could not plan it (check mode,
    I(side=in), no key files yet).
  returned: always
  type: dict
'''

import json
import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.telcoin.tnv.plugins.module_utils.tnv import TNV_COMMON_ARGS, tnv_json, fail_from, passphrase_env

JOURNAL = 'tnv-migrate.json'


def read_journal(datadir):
    try:
        with open(os.path.join(datadir, JOURNAL), 'r') as f:
            journal = json.load(f)
    except (IOError, OSError, ValueError):
        return None
    return journal if isinstance(journal, dict) and journal.get('version') == 1 else None


def node_status(module, datadir):
    """(running, pid) of the data directory's node; (False, None) without a data directory."""
    if not os.path.isdir(datadir):
        return False, None
    rc, doc, err = tnv_json(module, ['node', 'status', '--datadir', datadir])
    if rc != 0 or not isinstance(doc, dict):
        fail_from(module, 'reading the node status', rc, doc, err)
    return bool(doc.get('running')), doc.get('pid')


def migrate_args(p, check):
    """The command line of `tnv node migrate <side>` (--check for the plan), tnv's flags before the node's `--`."""
    side = p['side']
    args = ['node', 'migrate', side, '--datadir', p['datadir']]
    if p['network_url']:
        args += ['--network-url', p['network_url']]
    if p['doppelganger_window'] is not None:
        args += ['--doppelganger-window', str(p['doppelganger_window'])]
    if side == 'in':
        if p['confirm_timeout'] is not None:
            args += ['--confirm-timeout', str(p['confirm_timeout'])]
        if not p['reference_node']:
            args += ['--node-binary', p['node_binary']]
    if check:
        args.append('--check')
    if side == 'in':
        args += ['--'] + list(p['node_flags'])
    return args


def main():
    spec = dict(
        side=dict(type='str', required=True, choices=['out', 'in']),
        datadir=dict(type='path', required=True),
        node_flags=dict(type='list', elements='str', default=[]),
        node_binary=dict(type='path', default='/usr/local/bin/telcoin-network'),
        reference_node=dict(type='bool', default=False),
        network_url=dict(type='str'),
        doppelganger_window=dict(type='int'),
        confirm_timeout=dict(type='int'),
        passphrase=dict(type='str', no_log=True),
        passphrase_file=dict(type='path', no_log=False),
    )
    spec.update(TNV_COMMON_ARGS)
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    side, datadir = p['side'], p['datadir']

    running, pid = node_status(module, datadir)
    journal = read_journal(datadir)
    before = dict(side=(journal or {}).get('side'), done=(journal or {}).get('done', []),
                  outcome=(journal or {}).get('outcome'), running=running)
    after = dict(side=side, outcome='done', running=side == 'in')
    diff = dict(before=before, after=after)
    env = passphrase_env(module) if side == 'in' else {}

    if module.check_mode and side == 'in' and not os.path.isfile(os.path.join(datadir, 'node-info.yaml')):
        # the key files come with the playbook's copy, which check mode skips: nothing for tnv to plan yet
        module.exit_json(changed=True, outcome='would-change', journal=journal, pid=pid, plan=None, diff=diff)
    rc, plan, err = tnv_json(module, migrate_args(p, True), env=env, lines=True)
    if rc != 0 or not isinstance(plan, dict):
        fail_from(module, 'tnv node migrate %s --check' % side, rc, plan, err, journal=journal)
    if plan.get('outcome') == 'already-done':
        module.exit_json(changed=False, outcome='already-done', journal=journal, pid=plan.get('pid'), plan=plan)
    if module.check_mode:
        module.exit_json(changed=True, outcome='would-change', journal=journal, pid=pid, plan=plan, diff=diff)

    rc, doc, err = tnv_json(module, migrate_args(p, False), env=env, lines=True)
    if rc != 0:
        fail_from(module, 'tnv node migrate %s' % side, rc, doc, err, journal=read_journal(datadir))
    running, pid = node_status(module, datadir)
    module.exit_json(changed=True, outcome='changed', journal=read_journal(datadir), pid=pid, plan=plan, diff=diff)


if __name__ == '__main__':
    main()
