/**
 * A warning for a weak BLS key passphrase (issue 16): the key behind a 1,000,000 TEL stake
 * deserves more than a few characters. A warning only: tnv refuses nothing the node's keytool
 * accepts (it takes any passphrase, even an empty one).
 */

/** Fewer characters than this is warned about (a random 12-character passphrase resists offline guessing even for a fast attacker). */
export const MIN_PASSPHRASE_LENGTH = 12

/** The warning for `passphrase`, or null when it is long and varied enough (or absent: no-passphrase is warned about elsewhere). */
export function weakPassphraseWarning(passphrase: string | undefined): string | null {
  if (passphrase === undefined || passphrase === '') return null
  const length = [...passphrase].length
  const distinct = new Set(passphrase).size
  if (length >= MIN_PASSPHRASE_LENGTH && distinct >= 5) return null
  const why =
    length < MIN_PASSPHRASE_LENGTH
      ? `it has ${length} character${length === 1 ? '' : 's'}`
      : `it repeats ${distinct} distinct character${distinct === 1 ? '' : 's'}`
  return `the BLS key passphrase is weak (${why}): anyone who copies bls.kw can try passphrases offline. Use at least ${MIN_PASSPHRASE_LENGTH} characters (a few random words), e.g. with \`tnv keytool change-passphrase\`. The key was not refused: the node accepts any passphrase.`
}
