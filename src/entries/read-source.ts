/**
 * A run module's source text and code cache (dist/run/*.cjs and their caches, or the single
 * executable's `run/…` assets) with as few fresh pages of memory as possible.
 *
 * Why it matters: touching a fresh page of memory costs 13 to 20 µs on the 2-vCPU machines
 * measured (docs/benchmarks.md), so every megabyte a command reads into new memory costs it 3 to
 * 5 ms. A bundle is read once into memory and V8 makes its string from it; its code cache (about
 * the bundle's size) is then read into the same memory, which is touched already: V8 reads the
 * cache only while it compiles the script, and the source is a string of its own by then
 * (./run-modules.ts reads them in that order). Every file a process loads this way shares one
 * buffer, which grows only for a file larger than any before it. The build writes these files in
 * ASCII only (scripts/direct-bundles.mjs), so the one-byte latin1 conversion applies; any other
 * text is decoded as UTF-8.
 */
import { isAscii } from 'node:buffer'
import { closeSync, openSync, readSync } from 'node:fs'

/** The text of a source held in `bytes`. */
export function sourceText(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')
}

/**
 * The buffer every read below fills. Its pages cost nothing until a read writes them: a first
 * size of 1 MiB holds a command's bundle without growing.
 */
let scratch: Buffer | undefined
const FIRST_SIZE = 1 << 20

/**
 * The bytes of a file, in the shared buffer: valid until the next call (of this or of
 * `readSourceFile`). Read with a loop of `readSync`, so no fs.Stats is made (its four dates cost
 * about 1.5 ms the first time a process makes one).
 */
export function readTransient(file: string): Buffer {
  const fd = openSync(file, 'r')
  try {
    scratch ??= Buffer.allocUnsafeSlow(FIRST_SIZE)
    let length = 0
    for (;;) {
      if (length === scratch.length) {
        const larger = Buffer.allocUnsafeSlow(scratch.length * 2)
        scratch.copy(larger)
        scratch = larger
      }
      const n = readSync(fd, scratch, length, scratch.length - length, null)
      if (n === 0) return scratch.subarray(0, length)
      length += n
    }
  } finally {
    closeSync(fd)
  }
}

/** The text of a source file (read into the shared buffer, then copied once into V8's string). */
export function readSourceFile(file: string): string {
  return sourceText(readTransient(file))
}
