# -*- coding: utf-8 -*-
# module_utils/tnv.py: the command line tnv gets (--json before the node's `--`, no secret in it),
# the document read back (one JSON document, or the last of JSON lines), the passphrase's sources.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.telcoin.tnv.plugins.module_utils.tnv import fail_from, passphrase_env, tnv_json


class FakeModule:
    def __init__(self, out='', rc=0, err='', params=None):
        self.params = dict(tnv_path='/opt/tnv')
        self.params.update(params or {})
        self.result = (rc, out, err)
        self.calls = []
        self.failed = None

    def run_command(self, cmd, environ_update=None, data=None, check_rc=False):
        self.calls.append(dict(cmd=cmd, env=environ_update, data=data))
        return self.result

    def fail_json(self, **kwargs):
        self.failed = kwargs
        raise SystemExit(1)


def test_json_goes_before_the_node_flags():
    m = FakeModule(out='{"ok": true}')
    rc, doc, err = tnv_json(m, ['node', 'migrate', 'in', '--datadir', '/d', '--', '--chain', 'adiri'])
    assert m.calls[0]['cmd'] == ['/opt/tnv', 'node', 'migrate', 'in', '--datadir', '/d', '--json', '--', '--chain', 'adiri']
    assert (rc, doc) == (0, {'ok': True})


def test_json_at_the_end_without_node_flags_and_never_interactive():
    m = FakeModule(out='{}')
    tnv_json(m, ['node', 'status', '--datadir', '/d'], env={'TN_BLS_PASSPHRASE': 'secret'})
    call = m.calls[0]
    assert call['cmd'][-1] == '--json'
    assert call['env'] == {'TN_NON_INTERACTIVE': '1', 'TN_BLS_PASSPHRASE': 'secret'}
    assert 'secret' not in ' '.join(call['cmd'])


def test_json_lines_give_the_last_line():
    lines = [json.dumps({'event': 'step', 'step': 'stop'}), json.dumps({'journal': {'outcome': 'done'}})]
    m = FakeModule(out='\n'.join(lines) + '\n')
    rc, doc, err = tnv_json(m, ['node', 'migrate', 'out'], lines=True)
    assert doc == {'journal': {'outcome': 'done'}}


@pytest.mark.parametrize('out', ['', 'not json', 'moved out: done'])
def test_no_json_is_none(out):
    m = FakeModule(out=out, rc=2, err='boom')
    assert tnv_json(m, ['facts'], lines=True) == (2, None, 'boom')


def test_failure_carries_tnv_error_and_its_fix():
    m = FakeModule()
    error = {'code': 'KeyLive', 'message': 'The key is active elsewhere.', 'fix': 'Stop the other copy.'}
    with pytest.raises(SystemExit):
        fail_from(m, 'tnv node migrate in', 29, {'error': error}, '')
    assert m.failed['msg'] == 'tnv node migrate in: The key is active elsewhere. Stop the other copy.'
    assert m.failed['rc'] == 29
    assert m.failed['tnv_error'] == error


def test_failure_without_a_document_shows_stderr():
    m = FakeModule()
    with pytest.raises(SystemExit):
        fail_from(m, 'reading', 1, None, 'Error: spawn failed\n')
    assert m.failed['msg'] == 'reading: tnv exited 1: Error: spawn failed'


def test_passphrase_from_the_option_or_a_file(tmp_path):
    assert passphrase_env(FakeModule(params=dict(passphrase='p1', passphrase_file=None))) == {'TN_BLS_PASSPHRASE': 'p1'}
    f = tmp_path / 'bls-passphrase'
    f.write_text('from file\r\n')
    assert passphrase_env(FakeModule(params=dict(passphrase=None, passphrase_file=str(f)))) == {'TN_BLS_PASSPHRASE': 'from file'}
    assert passphrase_env(FakeModule(params=dict(passphrase=None, passphrase_file=None))) == {}
