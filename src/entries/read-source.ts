/**
 * A run module's source text (dist/run/*.cjs, or the single executable's `run/…` assets) with as
 * few copies as possible. `readFileSync(f, 'utf8')` decodes the file and copies the text into
 * V8; here the file is read once into a buffer of its size (or, in the executable, the asset is
 * read where it lies, without `getAsset`'s copy) and V8 makes its string from that. The build writes these files in ASCII only (scripts/direct-bundles.mjs), so
 * the one-byte latin1 conversion applies; any other text is decoded as UTF-8.
 * Why it matters: touching a fresh page of memory costs about 20 µs on the 2-vCPU machines
 * measured (docs/benchmarks.md), so every copy of a 1 MB bundle costs about 5 ms.
 */
import { isAscii } from 'node:buffer'
import { readFileSync } from 'node:fs'

/** The text of a source held in `bytes`. */
export function sourceText(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')
}

/**
 * The text of a source file. `readFileSync` without an encoding reads into one buffer of the
 * file's size (it takes the size from the file descriptor's status without building an fs.Stats
 * object, whose dates cost about 1.5 ms the first time a process makes one).
 */
export function readSourceFile(file: string): string {
  return sourceText(readFileSync(file))
}
