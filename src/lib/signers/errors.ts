import { ExitCode, TnvError } from '../errors.js'

/** foundry's cast, which talks to the device, is not installed where tnv looks. */
export class CastNotFoundError extends TnvError {
  override readonly code: string = 'CastNotFound'
  /** `singleExecutable`: tnv runs as its single executable, which does not carry cast (docs/decisions.md "Hardware wallets through cast"). */
  constructor(lookedFor: string, { singleExecutable = false }: { singleExecutable?: boolean } = {}) {
    super(
      singleExecutable
        ? `Hardware wallets are driven through foundry's cast, which this single executable of tnv does not include, and no cast was found (${lookedFor}).`
        : `Hardware wallets are driven through foundry's cast, and it was not found (${lookedFor}).`,
      {
        fix: singleExecutable
          ? "Install foundry's cast 1.x on this host so that `cast` is on PATH: `npm install -g @foundry-rs/cast` (with Node.js), or foundryup (https://getfoundry.sh), or the cast binary of a foundry release; or set TNV_CAST_BINARY=/path/to/cast. Then run the command again; nothing was read, signed or sent."
          : 'Reinstall tnv with its dependencies (npm ci installs @foundry-rs/cast), install foundry (cast on PATH), or set TNV_CAST_BINARY to a cast executable.',
        exitCode: ExitCode.BadKeys,
      },
    )
  }
}

/** No device answered: not connected, locked, Ethereum app closed, or no USB/HID access. */
export class HardwareWalletUnavailableError extends TnvError {
  override readonly code: string = 'HardwareWalletUnavailable'
  constructor(device: 'ledger' | 'trezor', path: string, said: string) {
    super(`No ${device === 'ledger' ? 'Ledger' : 'Trezor'} answered for the account at ${path}: cast said "${said}".`, {
      fix:
        device === 'ledger'
          ? 'Connect the Ledger, unlock it and open its Ethereum app (on Linux the Ledger udev rules must be installed), then run the command again; or print the transaction with --unsigned and sign it elsewhere.'
          : 'Connect the Trezor and unlock it (on Linux the Trezor udev rules must be installed; Trezor Bridge or Suite must not hold the device), then run the command again; or print the transaction with --unsigned and sign it elsewhere.',
      exitCode: ExitCode.BadKeys,
    })
  }
}

/** The device signed something other than what tnv prepared, or for another address. */
export class HardwareSignatureMismatchError extends TnvError {
  override readonly code: string = 'HardwareSignatureMismatch'
  constructor(what: string) {
    super(`The transaction the hardware wallet returned is not the one tnv prepared: ${what}. Nothing was sent.`, {
      fix: 'Check the derivation path (--hd-path / --hd-index) names the validator account, and that what the device showed matched tnv’s summary; then run the command again.',
      exitCode: ExitCode.BadKeys,
    })
  }
}

/** A raw 32-byte digest (the delegation signature) cannot be signed on these devices. */
export class HardwareCannotSignDigestError extends TnvError {
  override readonly code: string = 'HardwareCannotSignDigest'
  constructor(device: 'ledger' | 'trezor') {
    super(
      `The delegation signature is a raw 32-byte digest, which a ${device === 'ledger' ? 'Ledger' : 'Trezor'} does not sign (its Ethereum app signs transactions, EIP-191 messages and EIP-712 typed data only, and the registry's digest is not the typed-data hash of the domain it reports).`,
      {
        fix: 'Sign this one signature with the validator key in a keystore (`tnv delegation sign --keystore FILE`), or with any wallet that signs a raw hash, and pass it with --external-signature; everything else can stay on the device.',
        exitCode: ExitCode.Usage,
      },
    )
  }
}
