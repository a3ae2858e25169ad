/**
 * The keytool errors operators meet most, checked by what a script or a person acts on: the
 * code, the exit code, and the flag or command the fix names (one paragraph each). Where the
 * node's keytool has a text for the same failure (real-network/node.md §1, "Common error
 * texts"), tnv's message starts with it word for word.
 */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { ExitCode } from '../../src/lib/errors.js'
import {
  InvalidProofOfPossessionError,
  KeyFileMissingError,
  KeyMismatchError,
  KeyOnDiskMismatchError,
  KeyOnDiskUncheckedError,
  NodeKeysExistError,
  WrongPassphraseError,
} from '../../src/lib/keys/errors.js'
import { InvalidWorkerRpcUrlError, NodeInfoFieldError, NodeInfoSyntaxError } from '../../src/lib/nodeinfo/errors.js'
import { PassphraseRequiredError } from '../../src/lib/passphrase/errors.js'
import { FIXED, unhex } from './fixtures.js'

/** What CI and operators act on: the code, the exit code, and the flag or command the fix names. */
function expectError(
  e: { code: string; exitCode: number; fix: string | undefined; render(): string },
  code: string,
  exitCode: number,
  fixNames: RegExp,
): void {
  assert.equal(e.code, code)
  assert.equal(e.exitCode, exitCode)
  assert.match(e.fix ?? '', fixNames)
  assert.equal(e.render().split('\n').length, 1, 'one paragraph')
}

it('passphrase required: names every other source', () => {
  const e = new PassphraseRequiredError(
    'TN_BLS_PASSPHRASE is not set (--bls-passphrase-source env, the default)',
    '--bls-passphrase-source',
  )
  expectError(
    e,
    'PassphraseRequired',
    ExitCode.Usage,
    /TN_BLS_PASSPHRASE.*--bls-passphrase-source stdin.*ask.*no-passphrase/,
  )
  // the node's own text, word for word
  assert.match(e.message, /^passphrase is required, see the option --bls-passphrase-source for options: /)
})

it('wrong passphrase', () => {
  const e = new WrongPassphraseError('/d/node-keys/bls.kw')
  expectError(e, 'WrongPassphrase', ExitCode.BadKeys, /--bls-passphrase-source stdin/)
  assert.match(e.message, /^Could not decrypt BLS key: wrong passphrase, or corrupted\/unsupported keyfile/)
})

it('invalid proof of possession: the command that re-signs it', () => {
  const e = new InvalidProofOfPossessionError('/d/node-info.yaml', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')
  expectError(
    e,
    'NodeInfoProofOfPossessionInvalid',
    ExitCode.BadKeys,
    /`tnv keytool generate pop --address 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed --datadir <dir>`/,
  )
})

it('keys exist: --force or a new --datadir', () => {
  expectError(new NodeKeysExistError('/d/node-keys'), 'NodeKeysExist', ExitCode.Usage, /--force.*--datadir/)
  assert.match(new NodeKeysExistError('/d/node-keys').message, /^cannot overwrite node keys without passing --force/)
})

it('the key on disk is not the key of node-info.yaml: names the backup and the command that checks the pair', () => {
  const e = new KeyOnDiskMismatchError({
    datadir: '/d',
    nodeInfoKey: unhex(FIXED.publicKeyHex),
    onDisk: new Uint8Array(96),
    keyFile: '/d/node-keys/bls.kw',
  })
  expectError(e, 'KeyOnDiskMismatch', ExitCode.BadKeys, /backup-<time>\/.*`tnv keytool verify --datadir \/d`/)
  const u = new KeyOnDiskUncheckedError({ datadir: '/d', keyFile: '/d/node-keys/bls.kw' })
  expectError(u, 'KeyOnDiskUnchecked', ExitCode.Usage, /`tnv keytool verify --datadir \/d`.*--bls-passphrase-source/)
})

it("the node's texts: no keys, key mismatch, rpc endpoint, bad yaml", () => {
  assert.match(new KeyFileMissingError('/d/node-keys').message, /^no BLS keys found at \/d\/node-keys/)
  const mismatch = new KeyMismatchError(
    '/d/node-keys',
    '/d/node-info.yaml',
    unhex(FIXED.publicKeyHex),
    new Uint8Array(96),
  )
  assert.match(
    mismatch.message,
    /^BLS key mismatch: node-info.yaml records public key \w+ but the keys loaded from disk are 1{96}; the keys in this datadir do not match node-info.yaml/,
  )
  assert.match(
    new InvalidWorkerRpcUrlError('--http', 'ftp://x', 'invalid http endpoint scheme `ftp`, expected `http` or `https`')
      .message,
    /^--http: invalid worker rpc endpoint: invalid http endpoint scheme `ftp`, expected `http` or `https`/,
  )
  assert.match(new NodeInfoSyntaxError('/d/node-info.yaml', 'x').message, /bad yaml data/)
})

it('a node-info.yaml field: the field, the form of the file, and the command that repairs it', () => {
  const pop = new NodeInfoFieldError('/d/node-info.yaml', 'execution_address', 'is missing', {
    form: 'worker',
    repair: 'pop',
  })
  expectError(
    pop,
    'NodeInfoField',
    ExitCode.BadInput,
    /`tnv keytool generate pop --address <validator address> --datadir \/d`/,
  )
  assert.match(
    pop.message,
    /^\/d\/node-info\.yaml: execution_address: is missing\. The file is in the released node's form/,
  )
  const rpc = new NodeInfoFieldError(
    '/d/node-info.yaml',
    'p2p_info.workers[0].rpc.ws',
    'expected a text value, found a list',
    {
      form: 'workers',
      repair: 'rpc',
    },
  )
  expectError(
    rpc,
    'NodeInfoField',
    ExitCode.BadInput,
    /`tnv keytool set-rpc --http <url> \[--ws <url>\] --datadir \/d`/,
  )
  assert.match(rpc.message, /p2p_info\.workers\[0\]\.rpc\.ws: .* the specification's form/)
})
