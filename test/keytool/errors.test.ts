/**
 * The rendered text of the keytool errors operators meet most (one paragraph: what is wrong,
 * then what to do). Where the node's keytool has a text for the same failure
 * (real-network/node.md §1, "Common error texts"), tnv's message carries it word for word.
 */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import {
  InvalidProofOfPossessionError,
  KeyFileMissingError,
  KeyMismatchError,
  NodeKeysExistError,
  WrongPassphraseError,
} from '../../src/lib/keys/errors.js'
import { InvalidRpcUrlError, NodeInfoFieldError, NodeInfoSyntaxError } from '../../src/lib/nodeinfo/errors.js'
import { PassphraseRequiredError } from '../../src/lib/passphrase/errors.js'
import { FIXED, unhex } from './fixtures.js'

it('passphrase required', () => {
  assert.equal(
    new PassphraseRequiredError(
      'TN_BLS_PASSPHRASE is not set (--bls-passphrase-source env, the default)',
      '--bls-passphrase-source',
    ).render(),
    'passphrase is required, see the option --bls-passphrase-source for options: TN_BLS_PASSPHRASE is not set (--bls-passphrase-source env, the default). Set TN_BLS_PASSPHRASE without leaving it in your shell history (`read -rs TN_BLS_PASSPHRASE && export TN_BLS_PASSPHRASE`), or choose another source: --bls-passphrase-source stdin (a line of standard input, trailing whitespace dropped), --bls-passphrase-source ask (hidden prompt on a terminal), or --bls-passphrase-source no-passphrase (an unencrypted bls.key; also the simple choice for commands that read no key, such as export-staking-args).',
  )
})

it('wrong passphrase', () => {
  assert.equal(
    new WrongPassphraseError('/d/node-keys/bls.kw').render(),
    'Could not decrypt BLS key: wrong passphrase, or corrupted/unsupported keyfile (/d/node-keys/bls.kw; the passphrase does not open it, or the file was modified). Check the passphrase. TN_BLS_PASSPHRASE is taken exactly as set (trailing spaces included), while --bls-passphrase-source stdin drops all trailing whitespace of its line, as the node does; a key made with a passphrase ending in spaces opens only through env or ask. A lost passphrase cannot be recovered: before staking, generate new keys; after staking, exit and unstake from the validator address, then onboard a new validator address with new keys.',
  )
})

it('invalid proof of possession', () => {
  assert.equal(
    new InvalidProofOfPossessionError('/d/node-info.yaml', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed').render(),
    "The proof of possession in /d/node-info.yaml does not verify for its bls_public_key and execution_address 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed; the registry would reject the stake with InvalidProofOfPossession. Re-sign it with the node's key: `tnv keytool generate pop --address 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed --datadir <dir>`, then export the staking args again.",
  )
})

it('keys exist', () => {
  const e = new NodeKeysExistError('/d/node-keys')
  assert.equal(e.code, 'NodeKeysExist')
  assert.equal(
    e.render(),
    'cannot overwrite node keys without passing --force: /d/node-keys already holds keys. Nothing was changed. Never replace the keys of a validator that has staked: the registry binds its BLS key for good. Otherwise pass --force (the old keys and node-info.yaml are kept in a backup-<time>/ directory), or use a new --datadir.',
  )
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
    new InvalidRpcUrlError('--http', 'ftp://x', 'invalid http endpoint scheme `ftp`, expected `http` or `https`')
      .message,
    /^--http: invalid worker rpc endpoint: invalid http endpoint scheme `ftp`, expected `http` or `https`/,
  )
  assert.match(new NodeInfoSyntaxError('/d/node-info.yaml', 'x').message, /bad yaml data/)
})

it('a node-info.yaml field: the field, the form of the file, and the command that repairs it', () => {
  assert.equal(
    new NodeInfoFieldError('/d/node-info.yaml', 'execution_address', 'is missing', {
      form: 'worker',
      repair: 'pop',
    }).render(),
    "/d/node-info.yaml: execution_address: is missing. The file is in the released node's form (p2p_info.worker: one map); nothing was changed. Re-sign it with the node's key: `tnv keytool generate pop --address <validator address> --datadir /d` rewrites execution_address and proof_of_possession (and keeps the file's form).",
  )
  assert.equal(
    new NodeInfoFieldError('/d/node-info.yaml', 'p2p_info.workers[0].rpc.ws', 'expected a text value, found a list', {
      form: 'workers',
      repair: 'rpc',
    }).render(),
    "/d/node-info.yaml: p2p_info.workers[0].rpc.ws: expected a text value, found a list. The file is in the specification's form (p2p_info.workers: a list); nothing was changed. Set or clear the worker's endpoints: `tnv keytool set-rpc --http <url> [--ws <url>] --datadir /d` or `tnv keytool set-rpc --clear --datadir /d` (it replaces that rpc entry and keeps the file's form).",
  )
})
