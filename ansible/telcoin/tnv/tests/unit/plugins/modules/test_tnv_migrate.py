# -*- coding: utf-8 -*-
# tnv_migrate's reading of the journal tnv node migrate keeps (<datadir>/tnv-migrate.json).
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ansible_collections.telcoin.tnv.plugins.modules.tnv_migrate import read_journal


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
