# -*- coding: utf-8 -*-
# tnv_migrate's reading of the journal tnv node migrate keeps (<datadir>/tnv-migrate.json), and the command lines it runs.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ansible_collections.telcoin.tnv.plugins.modules.tnv_migrate import migrate_args, read_journal


def test_a_journal_of_version_1(tmp_path):
    journal = {'version': 1, 'side': 'out', 'done': ['stop', 'silence', 'mark'], 'outcome': 'done'}
    (tmp_path / 'tnv-migrate.json').write_text(json.dumps(journal))
    assert read_journal(str(tmp_path)) == journal


def test_none_without_a_readable_journal(tmp_path):
    assert read_journal(str(tmp_path)) is None
    assert read_journal(str(tmp_path / 'absent')) is None
    (tmp_path / 'tnv-migrate.json').write_text('{"version": 2, "side": "out"}')
    assert read_journal(str(tmp_path)) is None
    (tmp_path / 'tnv-migrate.json').write_text('{torn')
    assert read_journal(str(tmp_path)) is None
    (tmp_path / 'tnv-migrate.json').write_text('[1]')
    assert read_journal(str(tmp_path)) is None


def params(**over):
    p = dict(side='out', datadir='/var/lib/tnv/v1', network_url=None, doppelganger_window=None, confirm_timeout=None,
             reference_node=False, node_binary='/usr/local/bin/telcoin-network', node_flags=[])
    p.update(over)
    return p


def test_out_with_check_and_without():
    p = params(network_url='http://10.0.0.2:8545', doppelganger_window=3)
    run = ['node', 'migrate', 'out', '--datadir', '/var/lib/tnv/v1', '--network-url', 'http://10.0.0.2:8545',
           '--doppelganger-window', '3']
    assert migrate_args(p, False) == run
    assert migrate_args(p, True) == run + ['--check']


def test_in_puts_check_before_the_node_flags():
    p = params(side='in', confirm_timeout=60, node_flags=['--chain', 'adiri', '--http'])
    assert migrate_args(p, True) == [
        'node', 'migrate', 'in', '--datadir', '/var/lib/tnv/v1', '--confirm-timeout', '60',
        '--node-binary', '/usr/local/bin/telcoin-network', '--check', '--', '--chain', 'adiri', '--http']
    reference = migrate_args(params(side='in', reference_node=True), False)
    assert reference == ['node', 'migrate', 'in', '--datadir', '/var/lib/tnv/v1', '--']
