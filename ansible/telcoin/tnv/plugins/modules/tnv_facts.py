#!/usr/bin/python
# -*- coding: utf-8 -*-
# Thin module over `tnv facts --json`.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: tnv_facts
short_description: Facts about a validator's data directory, through tnv
description:
  - Sets the fact C(tnv) to the document of C(tnv facts --json) for I(datadir) identity, keys and their
    checks, backup, node process and health, registry status, epoch and committee, and C(attention)
    (ok, warn or fail).
  - Reads only; runs in check mode too.
  - The key checks run when a passphrase is given (or the key is unencrypted); it reaches tnv
    through its environment only.
version_added: 0.1.0
author: tnv maintainers (!UNKNOWN)
options:
  datadir:
    description: The node's data directory.
    type: path
    required: true
  chain:
    description: C(devnet), C(testnet), C(mainnet) (tnv's C(--chain)).
    type: str
  rpc_url:
    description: The network's JSON-RPC endpoint.
    type: str
  node_rpc_url:
    description: The node's endpoint, when it is not the one tnv started for I(datadir).
    type: str
  passphrase:
    description: BLS key passphrase, to run the key checks.
    type: str
  tnv_path:
    description: The tnv executable.
    type: str
    default: tnv
notes:
  - Supports check mode.
'''

EXAMPLES = r'''
- name: Facts of this validator
  telcoin.tnv.tnv_facts:
    datadir: /var/lib/tnv/v1
    chain: testnet

- ansible.builtin.debug:
    msg: "{{ tnv.registry.status }}, attention {{ tnv.attention }}"
'''

RETURN = r'''
ansible_facts:
  description: C(tnv), the facts document (schema C(tnv-facts/1), docs/automation.md).
  returned: always
  type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.telcoin.tnv.plugins.module_utils.tnv import TNV_COMMON_ARGS, tnv_json, fail_from


def main():
    spec = dict(
        datadir=dict(type='path', required=True),
        chain=dict(type='str'),
        rpc_url=dict(type='str'),
        node_rpc_url=dict(type='str'),
        passphrase=dict(type='str', no_log=True),
    )
    spec.update(TNV_COMMON_ARGS)
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    args = ['facts', '--datadir', p['datadir']]
    for flag, key in (('--chain', 'chain'), ('--rpc-url', 'rpc_url'), ('--node-rpc-url', 'node_rpc_url')):
        if p[key]:
            args += [flag, p[key]]
    env = {'TN_BLS_PASSPHRASE': p['passphrase']} if p['passphrase'] else {}
    rc, doc, err = tnv_json(module, args, env=env)
    if rc != 0 or not isinstance(doc, dict) or 'error' in doc:
        fail_from(module, 'reading the facts', rc, doc, err)
    module.exit_json(changed=False, ansible_facts=dict(tnv=doc))


if __name__ == '__main__':
    main()
