/**
 * QR transport of a signed transaction, for hosts without removable media: `tnv offline sign
 * --qr` shows the signed bytes (0x hex, byte mode, low error correction: about 100 modules for a
 * stake) on the terminal; on the networked host a scanner (a phone, or a USB scanner that types
 * what it reads) gives the text to `tnv offline broadcast --signed-raw -`. The text carries no
 * trust: broadcast checks every field of the transaction against the bundle and its signer.
 * Encoding by @paulmillr/qr (no dependencies).
 */
import encodeQR from '@paulmillr/qr'
import { type Hex, keccak256, parseTransaction, recoverTransactionAddress } from 'viem'
import { BUNDLE_VERSION, type Bundle, SIGNED_FORMAT, type SignedFile } from './bundle.js'
import { InvalidBundleError } from './errors.js'

/**
 * The QR code of a signed transaction as terminal text (half-block characters, quiet zone included).
 * @example process.stderr.write(signedTransactionQr(signed.raw))
 */
export function signedTransactionQr(raw: Hex): string {
  return encodeQR(raw, 'ascii', { ecc: 'low' })
}

/**
 * The signed file of a bundle from the bare signed transaction a QR code carried: its hash and
 * signer are computed here; broadcast then checks every field against the bundle.
 * @example const signed = await signedFromRaw(bundle, line, '--signed-raw')
 */
export async function signedFromRaw(bundle: Bundle, text: string, origin: string): Promise<SignedFile> {
  const raw = text.trim()
  if (!/^0x([0-9a-fA-F]{2})+$/.test(raw)) throw new InvalidBundleError(origin, 'it is not a 0x hex signed transaction')
  let from: Hex
  try {
    parseTransaction(raw as Hex)
    from = await recoverTransactionAddress({ serializedTransaction: raw as `0x02${string}` })
  } catch {
    throw new InvalidBundleError(origin, 'its bytes are not a signed transaction')
  }
  return {
    format: SIGNED_FORMAT,
    version: BUNDLE_VERSION,
    bundleDigest: bundle.digest,
    from,
    hash: keccak256(raw as Hex),
    raw: raw.toLowerCase() as Hex,
    signedAt: new Date().toISOString(),
    digest: '',
  }
}
