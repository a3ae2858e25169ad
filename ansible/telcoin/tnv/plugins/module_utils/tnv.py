# -*- coding: utf-8 -*-
# Shared by the telcoin.tnv modules: run tnv in its JSON mode and read its one document (or the
# last line of its JSON lines). Secrets reach tnv only through its environment (never argv), as
# tnv itself requires; nothing here logs them.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

TNV_COMMON_ARGS = dict(
    tnv_path=dict(type='str', default='tnv'),
)


def tnv_json(module, args, env=None, data=None, lines=False):
    """Runs `tnv <args> --json` without a terminal; returns (rc, document, stderr).

    The document is the parsed stdout (with lines=True: the last JSON line), or None when
    stdout holds no JSON (tnv then failed before it could answer).
    """
    environ = {'TN_NON_INTERACTIVE': '1'}
    environ.update(env or {})
    args = list(args)
    # --json is tnv's own flag: it goes before a `--` that starts the node's flags
    at = args.index('--') if '--' in args else len(args)
    cmd = [module.params['tnv_path']] + args[:at] + ['--json'] + args[at:]
    rc, out, err = module.run_command(cmd, environ_update=environ, data=data, check_rc=False)
    text = out.strip()
    if lines:
        text = text.splitlines()[-1] if text else ''
    try:
        doc = json.loads(text) if text else None
    except ValueError:
        doc = None
    return rc, doc, err


def fail_from(module, what, rc, doc, err, **extra):
    """Fails the task with tnv's own error (its message and fix), and its exit code."""
    error = (doc or {}).get('error') if isinstance(doc, dict) else None
    if error:
        msg = '%s: %s %s' % (what, error.get('message', ''), error.get('fix', '') or '')
    else:
        msg = '%s: tnv exited %s: %s' % (what, rc, (err or '').strip()[-2000:])
    module.fail_json(msg=msg.strip(), rc=rc, tnv_error=error, **extra)


def passphrase_env(module, key='passphrase', file_key='passphrase_file'):
    """TN_BLS_PASSPHRASE from the module's no_log option, or the content of a file."""
    value = module.params.get(key)
    path = module.params.get(file_key)
    if value is None and path:
        with open(path, 'r') as f:
            value = f.read().rstrip('\r\n')
    return {'TN_BLS_PASSPHRASE': value} if value else {}
