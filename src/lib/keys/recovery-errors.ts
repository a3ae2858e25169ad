/**
 * Errors of the recovery phrase, `keytool recover`, `keytool backup` and the backup gate. Never
 * carry a phrase, a word of it, a passphrase or a secret key: a misspelt word is named by its
 * position only, with the word-list words closest to it (public words).
 */
import { BadInputError, ExitCode, TnvError, UsageError } from '../errors.js'
import { KeyError } from './errors.js'

/** A phrase word that is not in the BIP-39 English word list (named by position, never echoed). */
export class MnemonicWordError extends BadInputError {
  override readonly code: string = 'MnemonicWord'
  constructor(position: number, closest: string[]) {
    super(
      `Word ${position} of the recovery phrase is not in the BIP-39 English word list${closest.length ? `; the closest words in the list are: ${closest.join(', ')}` : ''}. Nothing was written.`,
      {
        fix: 'Check that word against your written copy (every word of the list is unique by its first four letters) and enter the phrase again.',
      },
    )
  }
}

/** A phrase of the wrong number of words. */
export class MnemonicLengthError extends BadInputError {
  override readonly code: string = 'MnemonicLength'
  constructor(count: number) {
    super(
      `The recovery phrase has ${count} word${count === 1 ? '' : 's'}; a BIP-39 phrase has 12, 15, 18, 21 or 24 (tnv writes 24). Nothing was written.`,
      { fix: 'Enter every word of your written copy, in order, separated by spaces.' },
    )
  }
}

/** Every word is in the list but the phrase's checksum does not match: a word is wrong or out of order. */
export class MnemonicChecksumError extends BadInputError {
  override readonly code: string = 'MnemonicChecksum'
  constructor() {
    super(
      'The recovery phrase fails its BIP-39 checksum: every word is in the word list, but one is wrong, swapped with another, or missing (the checksum is in the last word). Nothing was written.',
      { fix: 'Compare each word and its position with your written copy and enter the phrase again.' },
    )
  }
}

/** The key the phrase gives is not the one the registry (or --expect-pubkey) has. */
export class RecoveredKeyMismatchError extends KeyError {
  override readonly code: string = 'RecoveredKeyMismatch'
  constructor({ derived, expected, where }: { derived: string; expected: string; where: string }) {
    super(
      `The recovery phrase gives the BLS public key ${derived.slice(0, 20)}…, but ${where} has ${expected.slice(0, 20)}…. Nothing was written.`,
      {
        fix: 'Check the phrase (and --mnemonic-index, when you made several validators from one phrase) and the --address; the phrase of a staked validator gives exactly the registered key.',
        details: [`derived:  ${derived}`, `expected: ${expected}`],
      },
    )
  }
}

/** recover writes a whole data directory and never replaces one. */
export class RecoverTargetExistsError extends UsageError {
  override readonly code: string = 'RecoverTargetExists'
  constructor(paths: string[], command = 'keytool recover') {
    super(
      `${command} writes a new data directory, and ${paths.join(' and ')} already exist${paths.length === 1 ? 's' : ''}. Nothing was written.`,
      {
        fix: 'Write into a new --datadir (an empty or absent directory), then compare it with the old one or move the old one aside yourself.',
      },
    )
  }
}

/** An output file (phrase, backup) that already exists. */
export class OutputFileExistsError extends UsageError {
  override readonly code: string = 'OutputFileExists'
  constructor(path: string, flag: string) {
    super(`${flag} ${path} already exists; tnv never overwrites a recovery phrase or a backup. Nothing was written.`, {
      fix: `Name a new file for ${flag}, or move the existing one aside first.`,
    })
  }
}

/** The backup file is truncated, tampered with or not a tnv backup. */
export class BackupFileError extends BadInputError {
  override readonly code: string = 'BackupFile'
  constructor(path: string, reason: string) {
    super(`${path} is not a usable tnv key backup: ${reason}. Nothing was written.`, {
      fix: reason.startsWith('there is no such file')
        ? 'Check the path (a backup is written by `tnv keytool backup --out FILE`).'
        : 'Use another copy of the backup; if none is intact, make a new one from the data directory with `tnv keytool backup --datadir DIR --out FILE` and verify it.',
    })
  }
}

/** The backup (or phrase) holds another key than the data directory. */
export class BackupOfAnotherKeyError extends KeyError {
  override readonly code: string = 'BackupOfAnotherKey'
  constructor({
    what,
    backupKey,
    datadirKey,
    datadir,
  }: { what: string; backupKey: string; datadirKey: string; datadir: string }) {
    super(
      `${what} holds the BLS key ${backupKey.slice(0, 20)}…, but ${datadir} holds ${datadirKey.slice(0, 20)}…: it is not a backup of this key. Nothing was recorded.`,
      {
        fix: `Verify the backup of the key in ${datadir} (tnv keytool backup --datadir ${datadir} --out FILE makes one), or pass the --datadir this backup belongs to.`,
        details: [`backup:  ${backupKey}`, `datadir: ${datadirKey}`],
      },
    )
  }
}

/** A check of `backup verify` failed: the backup would not restore a working validator. */
export class BackupCheckFailedError extends KeyError {
  override readonly code: string = 'BackupCheckFailed'
  constructor(failed: string[]) {
    super(`The backup does not restore a working validator: ${failed.join('; ')}. Nothing was recorded.`, {
      fix: 'Make a new backup from the data directory (tnv keytool backup) and verify it; keep the old copy until the new one verifies.',
    })
  }
}

/** The gate: no verified backup or confirmed phrase for the key about to be bound on chain. */
export class BackupUnverifiedError extends TnvError {
  override readonly code: string = 'BackupUnverified'
  constructor({ action, datadir, reason }: { action: string; datadir: string; reason: string }) {
    super(
      `Stopped before ${action}: ${reason}. After staking, the registry binds this BLS key for good; a key that is lost cannot be replaced.`,
      {
        fix: `Back it up and prove the copy works: tnv keytool backup --datadir ${datadir} --out /path/on/other/media/tn-backup.json && tnv keytool backup verify /path/on/other/media/tn-backup.json --datadir ${datadir} (or, for keys made from a recovery phrase, tnv keytool backup verify --mnemonic-file FILE --datadir ${datadir}). Then run this command again. --skip-backup-check goes on without it, accepting that losing this data directory or its passphrase loses the validator.`,
        exitCode: ExitCode.BadKeys,
      },
    )
  }
}

/** The re-typed words did not match the phrase shown: nothing was written. */
export class PhraseNotConfirmedError extends TnvError {
  override readonly code: string = 'PhraseNotConfirmed'
  constructor(position: number) {
    super(
      `Word ${position} did not match the recovery phrase shown, three times. Nothing was written, and that phrase is void: no key was made from it.`,
      {
        fix: 'Run the command again: a new phrase is shown. Write every word down, in order, before pressing Enter.',
        exitCode: ExitCode.Aborted,
      },
    )
  }
}

/** The phrase's key is registered, but not for --address. */
export class RecoveredKeyOtherAddressError extends KeyError {
  override readonly code: string = 'RecoveredKeyOtherAddress'
  constructor({ derived, address, chainId }: { derived: string; address: string; chainId: number }) {
    super(
      `The recovery phrase gives the BLS public key ${derived.slice(0, 20)}…, which the registry on chain ${chainId} holds for another validator address than ${address} (which has no key). Nothing was written.`,
      {
        fix: 'Pass the --address this key was staked from (`tnv validator status` shows a validator’s key); the proof of possession commits to it.',
      },
    )
  }
}
