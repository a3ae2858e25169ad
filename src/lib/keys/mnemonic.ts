/**
 * The recovery phrase: a BIP-39 English mnemonic of 24 words (256 bits of entropy from
 * node:crypto's CSPRNG, through @scure/bip39), its checks with a helpful answer for a misspelt
 * word, and its seed (BIP-39 PBKDF2-HMAC-SHA512, empty BIP-39 passphrase).
 */
import { mnemonicToSeedSync, generateMnemonic as scureGenerate, validateMnemonic } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { MnemonicChecksumError, MnemonicLengthError, MnemonicWordError } from './recovery-errors.js'

/** Words tnv writes: 24 (256 bits). Phrases of 12 to 24 words are accepted when recovering. */
export const MNEMONIC_WORDS = 24
const ACCEPTED_LENGTHS = [12, 15, 18, 21, 24]
/** A phrase line is short; anything longer is not one (and is not scanned). */
const MAX_PHRASE_CHARS = 1024

/** A fresh 24-word phrase. */
export function generateMnemonic(): string {
  return scureGenerate(wordlist, 256)
}

/**
 * Checks a phrase as typed (any case, any white space between words) and returns it in the
 * canonical form BIP-39 hashes: lower case, NFKD, single spaces.
 * @throws MnemonicLengthError, MnemonicWordError (position and closest list words), MnemonicChecksumError
 */
export function parseMnemonic(text: string): string {
  if (text.length > MAX_PHRASE_CHARS) throw new MnemonicLengthError(Math.round(text.length / 5))
  const words = text.normalize('NFKD').toLowerCase().trim().split(/\s+/u).filter(Boolean)
  const known = new Set(wordlist)
  for (const [i, w] of words.entries()) if (!known.has(w)) throw new MnemonicWordError(i + 1, closestWords(w))
  if (!ACCEPTED_LENGTHS.includes(words.length)) throw new MnemonicLengthError(words.length)
  const phrase = words.join(' ')
  if (!validateMnemonic(phrase, wordlist)) throw new MnemonicChecksumError()
  return phrase
}

/** The 64-byte BIP-39 seed of a checked phrase (no BIP-39 passphrase). Zero it when done. */
export function mnemonicSeed(phrase: string): Uint8Array {
  return mnemonicToSeedSync(parseMnemonic(phrase))
}

/** The word at a 1-based position of a checked phrase. */
export function mnemonicWord(phrase: string, position: number): string {
  return phrase.split(' ')[position - 1] ?? ''
}

/**
 * The list words closest to `word`: those sharing its first four letters (BIP-39 words are
 * unique by them), else those at the smallest Damerau-Levenshtein distance (at most 3 words, distance ≤ 2).
 */
export function closestWords(word: string): string[] {
  if (word.length >= 4) {
    const byPrefix = wordlist.filter((w) => w.startsWith(word.slice(0, 4)))
    if (byPrefix.length > 0) return byPrefix.slice(0, 3)
  }
  const scored = wordlist
    .map((w) => ({ w, d: distance(word, w) }))
    .filter((s) => s.d <= 2)
    .sort((a, b) => a.d - b.d || a.w.localeCompare(b.w))
  const best = scored[0]?.d
  return scored
    .filter((s) => s.d === best)
    .slice(0, 3)
    .map((s) => s.w)
}

/** Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const row = d[i] as number[]
      const up = d[i - 1] as number[]
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1)
    }
  return (d[a.length] as number[])[b.length] as number
}
