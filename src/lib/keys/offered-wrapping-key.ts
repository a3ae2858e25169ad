/**
 * A bls.kw wrapping key derived ahead of need. Deriving it (PBKDF2, 1,000,000 iterations) is most
 * of what `keytool generate` costs, and it needs only the passphrase and a fresh salt: the
 * launcher (src/entries/launch.ts) starts it for the passphrase in TN_BLS_PASSPHRASE before the
 * command's code has even loaded, and the command takes it once it knows the passphrase it
 * will use. The offer and the command may come from different bundles (dist/launch.cjs and the
 * command's own), so the offer lives in one process-wide slot.
 *
 * The offer is a guess, checked when taken: a different passphrase (another source, a prompt)
 * discards it (zeroed when done) and the caller derives its own.
 */
import { discardWrappingKey, startWrappingKey, type WrappingKeyDerivation } from './wrapping-key.js'

const SLOT = Symbol.for('tnv.offeredWrappingKey')
type Offer = { passphrase: string; derivation: WrappingKeyDerivation }
const slot = globalThis as { [SLOT]?: Offer }

/** Starts deriving a new bls.kw's wrapping key for passphrase, for a later takeWrappingKey. */
export function offerWrappingKey(passphrase: string): void {
  const old = slot[SLOT]
  if (old) discardWrappingKey(old.derivation)
  slot[SLOT] = { passphrase, derivation: startWrappingKey(passphrase) }
}

/**
 * The offered derivation when it was made for this passphrase, else undefined (and an offer for
 * another passphrase is discarded). Either way the offer is gone afterwards: one use only.
 * @example const derivation = takeWrappingKey(passphrase) ?? startWrappingKey(passphrase)
 */
export function takeWrappingKey(passphrase: string | undefined): WrappingKeyDerivation | undefined {
  const offer = slot[SLOT]
  if (!offer) return undefined
  delete slot[SLOT]
  if (passphrase !== undefined && offer.passphrase === passphrase) return offer.derivation
  discardWrappingKey(offer.derivation)
  return undefined
}

/** Whether an offer is still waiting to be taken. */
export function wrappingKeyOffered(): boolean {
  return slot[SLOT] !== undefined
}
