/**
 * Errors about validator keys and data directories. Key problems exit with ExitCode.BadKeys
 * (4); a missing data directory is bad input (3). No error ever carries a secret.
 */

import { BadInputError, ExitCode, TnvError, type TnvErrorOptions, UsageError } from '../errors.js'
import { base58Encode } from '../io/base58.js'

const LOST_PASSPHRASE =
  'A lost passphrase cannot be recovered: before staking, generate new keys; after staking, exit and unstake from the validator address, then onboard a new validator address with new keys.'

/** A key problem (exit code 4). */
export class KeyError extends TnvError {
  override readonly code: string = 'Key'
  constructor(message: string, options: TnvErrorOptions = {}) {
    super(message, { exitCode: ExitCode.BadKeys, ...options })
  }
}

export class DatadirMissingError extends BadInputError {
  override readonly code: string = 'DatadirMissing'
  constructor(datadir: string) {
    super(`The data directory ${datadir} does not exist.`, {
      fix: "Pass --datadir <dir> pointing at the node's data directory (the one holding node-info.yaml and node-keys/), or make keys there first: `tnv keytool generate validator --address <address> --datadir <dir>`.",
    })
  }
}

/** `generate` without --force over a non-empty node-keys/ (the reference's message, kept word for word). */
export class NodeKeysExistError extends UsageError {
  override readonly code: string = 'NodeKeysExist'
  constructor(nodeKeysDir: string) {
    super(
      `cannot overwrite node keys without passing --force: ${nodeKeysDir} already holds keys. Nothing was changed.`,
      {
        fix: 'Never replace the keys of a validator that has staked: the registry binds its BLS key for good. Otherwise pass --force (the old keys and node-info.yaml are kept in a backup-<time>/ directory), or use a new --datadir.',
      },
    )
  }
}

export class KeyFileMissingError extends KeyError {
  override readonly code: string = 'KeyFileMissing'
  constructor(nodeKeysDir: string) {
    super(`no BLS keys found at ${nodeKeysDir}: neither bls.kw nor bls.key exists.`, {
      fix: 'Check --datadir; otherwise generate keys first: `tnv keytool generate validator --address <address> --datadir <dir>`.',
    })
  }
}

/** no-passphrase was chosen but the key on disk is encrypted. */
export class KeyFileEncryptedError extends KeyError {
  override readonly code: string = 'KeyFileEncrypted'
  constructor(path: string) {
    super(`${path} is encrypted, so --bls-passphrase-source no-passphrase cannot open it.`, {
      fix: 'Give its passphrase: set TN_BLS_PASSPHRASE (source env, the default), or pass --bls-passphrase-source stdin or ask.',
    })
  }
}

export class KeyFileCorruptError extends KeyError {
  override readonly code: string = 'KeyFileCorrupt'
  constructor(path: string, problem: string) {
    super(
      `${problem.startsWith('Could not') || problem.startsWith('invalid') ? `${path}: ${problem}` : `${path} is damaged: ${problem}`}.`,
      {
        fix: 'Restore node-keys/ from your backup of the data directory (keytool keeps timestamped copies in its backup-* directories).',
      },
    )
  }
}

/** AEAD authentication failed: wrong passphrase, or a tampered bls.kw. Never yields a key. */
/**
 * `tries`: how many passphrases were tried at a hidden prompt. One (env, stdin, or a single try)
 * is most often a typo or a wrong variable; what to do when the passphrase is really lost is
 * said as the last resort, after the checks.
 */
export class WrongPassphraseError extends KeyError {
  override readonly code: string = 'WrongPassphrase'
  constructor(path: string, tries = 1) {
    super(
      `Could not decrypt BLS key: wrong passphrase, or corrupted/unsupported keyfile (${path}; ${tries > 1 ? `none of the ${tries} passphrases typed opens it` : 'the passphrase does not open it'}, or the file was modified).`,
      {
        fix: `Check the passphrase. TN_BLS_PASSPHRASE is taken exactly as set (trailing spaces included), while --bls-passphrase-source stdin drops all trailing whitespace of its line, as the node does; a key made with a passphrase ending in spaces opens only through env or ask. A verified backup opens with the passphrase it was made under (\`tnv keytool backup verify FILE\`), and keys made from a recovery phrase can be rebuilt with \`tnv keytool recover\`. Only if the passphrase is really lost: ${LOST_PASSPHRASE}`,
      },
    )
  }
}

/** The key on disk does not belong to node-info.yaml. */
export class KeyMismatchError extends KeyError {
  override readonly code: string = 'KeyMismatch'
  constructor(nodeKeysDir: string, nodeInfoPath: string, recorded?: Uint8Array, loaded?: Uint8Array) {
    const b58 = (k: Uint8Array) => base58Encode(k)
    super(
      recorded && loaded
        ? `BLS key mismatch: node-info.yaml records public key ${b58(recorded)} but the keys loaded from disk are ${b58(loaded)}; the keys in this datadir do not match node-info.yaml (${nodeInfoPath}, ${nodeKeysDir}).`
        : `The BLS key in ${nodeKeysDir} is not the key recorded in ${nodeInfoPath} (their public keys differ), so the two belong to different nodes.`,
      {
        fix: 'Check --datadir: node-info.yaml and node-keys/ must come from the same `keytool generate` run. Restore the matching pair from your backup.',
      },
    )
  }
}

/** The PoP in node-info.yaml does not verify for its public key and execution address. */
export class InvalidProofOfPossessionError extends KeyError {
  override readonly code: string = 'NodeInfoProofOfPossessionInvalid'
  constructor(nodeInfoPath: string, address: string) {
    super(
      `The proof of possession in ${nodeInfoPath} does not verify for its bls_public_key and execution_address ${address}; the registry would reject the stake with InvalidProofOfPossession.`,
      {
        fix: `Re-sign it with the node's key: \`tnv keytool generate pop --address ${address} --datadir <dir>\`, then export the staking args again.`,
      },
    )
  }
}

/** `keytool verify` found differences between the key and node-info.yaml. */
export class KeysDoNotMatchError extends KeyError {
  override readonly code: string = 'KeysDoNotMatch'
  constructor(datadir: string, mismatches: string[]) {
    super(
      `${mismatches.length} check${mismatches.length === 1 ? '' : 's'} failed in ${datadir}: ${mismatches.join('; ')}.`,
      {
        fix: 'node-info.yaml must be the one written with these keys: restore the matching pair from your backup, or re-sign the proof of possession with `tnv keytool generate pop --address <address>` when only it is wrong.',
        details: mismatches,
      },
    )
  }
}

export class DatadirNotADirectoryError extends BadInputError {
  override readonly code: string = 'DatadirNotADirectory'
  constructor(datadir: string) {
    super(`${datadir} is a file, not a data directory.`, {
      fix: 'Pass --datadir <dir> naming a directory (it is created when missing).',
    })
  }
}

/** The data directory is missing and cannot be created (a parent is a file, no permission, read-only). */
export class DatadirNotCreatableError extends BadInputError {
  override readonly code: string = 'DatadirNotCreatable'
  constructor(datadir: string, cause: unknown) {
    const code = (cause as { code?: string } | undefined)?.code
    const why = code === 'ENOTDIR' ? 'a parent of it is a file' : (code ?? 'it cannot be created')
    super(`The data directory ${datadir} cannot be created: ${why}. Nothing was written.`, {
      fix: 'Pass --datadir <dir> naming a directory you can write, or a new one under such a directory.',
      cause,
    })
  }
}

/** node-keys/ holds another key than the one node-info.yaml records: staking it would register a key nobody holds. */
export class KeyOnDiskMismatchError extends KeyError {
  override readonly code: string = 'KeyOnDiskMismatch'
  constructor(params: { datadir: string; nodeInfoKey: Uint8Array; onDisk: Uint8Array; keyFile: string }) {
    super(
      `node-info.yaml in ${params.datadir} records BLS public key ${base58Encode(params.nodeInfoKey)}, but ${params.keyFile} holds the key of ${base58Encode(params.onDisk)}: the two are from different \`keytool generate\` runs, and staking them would register a key whose secret is not the one in node-keys/. tnv does not use them (nothing was sent or printed).`,
      {
        fix: `Put back the pair that belongs together: every file tnv replaced is kept in a backup-<time>/ directory in ${params.datadir} (node-info.yaml and node-keys/ of the same time), then check it with \`tnv keytool verify --datadir ${params.datadir}\` and run the command again.`,
      },
    )
  }
}

/** bls.kw without tnv's record of its public key, and no passphrase to open it: the check cannot be made. */
export class KeyOnDiskUncheckedError extends KeyError {
  override readonly code: string = 'KeyOnDiskUnchecked'
  constructor(params: { datadir: string; keyFile: string }) {
    super(
      `tnv cannot tell whether ${params.keyFile} holds the key that node-info.yaml records without opening it (the file was not written by tnv, or was changed since), and no passphrase was given. Nothing was sent.`,
      {
        fix: `Run \`tnv keytool verify --datadir ${params.datadir}\` once (it opens the key, checks it and records which public key the file holds), or give the passphrase (TN_BLS_PASSPHRASE, --bls-passphrase-source stdin or ask) so this command can check it.`,
        exitCode: ExitCode.Usage,
      },
    )
  }
}
