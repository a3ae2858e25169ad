/** The rendered text of the keytool errors operators meet most (one paragraph: what is wrong, then what to do). */
import assert from 'node:assert/strict'
import { it } from 'node:test'
import { InvalidProofOfPossessionError, NodeKeysExistError, WrongPassphraseError } from '../../src/lib/keys/errors.js'
import { PassphraseRequiredError } from '../../src/lib/passphrase/errors.js'

it('passphrase required', () => {
  assert.equal(
    new PassphraseRequiredError('TN_BLS_PASSPHRASE', '--bls-passphrase-source').render(),
    'A BLS key passphrase is required: TN_BLS_PASSPHRASE is not set (--bls-passphrase-source env, the default). Set it without leaving it in your shell history (`read -rs TN_BLS_PASSPHRASE && export TN_BLS_PASSPHRASE`), or choose another source: --bls-passphrase-source stdin (first line of standard input), --bls-passphrase-source ask (hidden prompt on a terminal), or --bls-passphrase-source no-passphrase (unencrypted bls.key; also the simple choice for commands that read no key, such as export-staking-args and show).',
  )
})

it('wrong passphrase', () => {
  assert.equal(
    new WrongPassphraseError('/d/node-keys/bls.kw').render(),
    'The passphrase does not open /d/node-keys/bls.kw: it is wrong, or the file was modified. Check the passphrase (TN_BLS_PASSPHRASE and stdin are taken exactly, spaces included; stdin drops only the line ending). A lost passphrase cannot be recovered: before staking, generate new keys; after staking, exit and unstake from the validator address, then onboard a new validator address with new keys.',
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
