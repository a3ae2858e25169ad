#!/usr/bin/python
# -*- coding: utf-8 -*-
# Thin module over `tnv keytool show|generate validator|verify|backup verify --json`.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: tnv_keys
short_description: Validator keys in a data directory, through tnv
description:
  - Makes sure a data directory holds validator keys (C(tnv keytool generate validator)), and
    optionally that they open and match node-info.yaml (C(tnv keytool verify)) and that a backup
    of them restores (C(tnv keytool backup verify)).
  - Existing keys are never replaced; a rerun reports C(already-done) and changes nothing.
  - The passphrase reaches tnv through its environment (C(TN_BLS_PASSPHRASE)), never its command line.
version_added: 0.1.0
author: tnv maintainers (!UNKNOWN)
options:
  datadir:
    description: The node's data directory.
    type: path
    required: true
  address:
    description: Execution address of the validator (needed to generate keys).
    type: str
  state:
    description:
      - C(present) generates keys when the directory holds none.
      - C(verified) also opens the key and checks node-info.yaml against it (fails on a mismatch or a wrong passphrase).
    type: str
    choices: [present, verified]
    default: present
  passphrase:
    description: BLS key passphrase (from a vault). Without it and without I(passphrase_file) the key is written unencrypted.
    type: str
  passphrase_file:
    description: A file holding the passphrase (trailing newline dropped), instead of I(passphrase).
    type: path
  backup_file:
    description: A backup written by C(tnv keytool backup); verified to restore these keys (not in check mode).
    type: path
  external_primary_addr:
    description: Public multiaddr of the primary (C(/ip4/<ip>/udp/<port>/quic-v1)).
    type: str
  external_worker_addrs:
    description: Public multiaddrs of the workers.
    type: list
    elements: str
  tnv_path:
    description: The tnv executable.
    type: str
    default: tnv
notes:
  - Supports check mode and diff mode.
'''

EXAMPLES = r'''
- name: Keys for this validator
  telcoin.tnv.tnv_keys:
    datadir: /var/lib/tnv/v1
    address: "{{ tnv_address }}"
    passphrase: "{{ vault_tnv_bls_passphrase }}"
    external_primary_addr: "/ip4/{{ ansible_host }}/udp/49590/quic-v1"
    external_worker_addrs: ["/ip4/{{ ansible_host }}/udp/49594/quic-v1"]
    state: verified
'''

RETURN = r'''
outcome:
  description: C(changed), C(would-change) (check mode) or C(already-done).
  returned: always
  type: str
identity:
  description: C(tnv keytool show --json) of the data directory (public values only).
  returned: when keys exist
  type: dict
verify:
  description: C(tnv keytool verify --json) (each check and its detail).
  returned: when state is verified
  type: dict
backup:
  description: C(tnv keytool backup verify --json).
  returned: when backup_file is given, outside check mode
  type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.telcoin.tnv.plugins.module_utils.tnv import (
    TNV_COMMON_ARGS, tnv_json, fail_from, passphrase_env)


def main():
    spec = dict(
        datadir=dict(type='path', required=True),
        address=dict(type='str'),
        state=dict(type='str', default='present', choices=['present', 'verified']),
        passphrase=dict(type='str', no_log=True),
        passphrase_file=dict(type='path', no_log=False),
        backup_file=dict(type='path'),
        external_primary_addr=dict(type='str'),
        external_worker_addrs=dict(type='list', elements='str'),
    )
    spec.update(TNV_COMMON_ARGS)
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True,
                           mutually_exclusive=[('passphrase', 'passphrase_file')])
    p = module.params
    env = passphrase_env(module)
    rc, shown, err = tnv_json(module, ['keytool', 'show', '--datadir', p['datadir']])
    exists = rc == 0
    result = dict(changed=False, outcome='already-done',
                  diff=dict(before=dict(keys='present' if exists else 'absent'),
                            after=dict(keys='present')))
    if not exists:
        if not p['address']:
            module.fail_json(msg='The data directory %s holds no keys and no address was given to generate them.'
                             % p['datadir'])
        result.update(changed=True, outcome='would-change' if module.check_mode else 'changed')
        if module.check_mode:
            module.exit_json(**result)
        args = ['keytool', 'generate', 'validator', '--datadir', p['datadir'], '--address', p['address']]
        if not env:
            args += ['--bls-passphrase-source', 'no-passphrase']
        if p['external_primary_addr']:
            args += ['--external-primary-addr', p['external_primary_addr']]
        if p['external_worker_addrs']:
            args += ['--external-worker-addrs', ','.join(p['external_worker_addrs'])]
        rc, doc, err = tnv_json(module, args, env=env)
        if rc != 0:
            fail_from(module, 'generating keys', rc, doc, err)
        rc, shown, err = tnv_json(module, ['keytool', 'show', '--datadir', p['datadir']])
    result['identity'] = shown
    if p['state'] == 'verified':
        args = ['keytool', 'verify', '--datadir', p['datadir']]
        if not env:
            args += ['--bls-passphrase-source', 'no-passphrase']
        if not (module.check_mode and result['changed']):
            rc, doc, err = tnv_json(module, args, env=env)
            if rc != 0:
                fail_from(module, 'verifying the keys', rc, doc, err)
            result['verify'] = doc
    if p['backup_file'] and not module.check_mode:
        rc, doc, err = tnv_json(module, ['keytool', 'backup', 'verify', p['backup_file'], '--datadir', p['datadir']],
                                env=env)
        if rc != 0:
            fail_from(module, 'verifying the backup', rc, doc, err)
        result['backup'] = doc
    module.exit_json(**result)


if __name__ == '__main__':
    main()
