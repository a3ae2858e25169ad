/**
 * Splits an IPC byte stream into JSON values the way geth and reth read their IPC sockets:
 * requests are concatenated JSON values, with or without whitespace between them (no
 * newline needed). Only brackets, quotes and backslashes matter for the split, and those are
 * single bytes that never occur inside a multi-byte UTF-8 sequence, so bytes are scanned
 * directly. A value is parsed by the dispatcher; this only finds where each one ends.
 */

export type JsonStreamEvents = {
  /** One complete top-level value (object or array), or a stray token (answered as a parse error). */
  onValue: (bytes: Buffer) => void
  /** The value being read has grown past the size limit. */
  onTooLarge: () => void
}

const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09
}

export class JsonStreamSplitter {
  readonly #events: JsonStreamEvents
  readonly #maxBytes: number
  /** Pieces of the value being read (from earlier chunks). */
  #parts: Buffer[] = []
  #partBytes = 0
  #depth = 0
  #inString = false
  #escaped = false
  /** Inside a stray token (not starting with { or [). */
  #inToken = false

  constructor(events: JsonStreamEvents, maxBytes: number) {
    this.#events = events
    this.#maxBytes = maxBytes
  }

  push(chunk: Buffer): void {
    let start = this.#depth > 0 || this.#inToken ? 0 : -1
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number
      if (this.#inToken) {
        if (isSpace(b) || b === OPEN_BRACE || b === OPEN_BRACKET) {
          this.#emit(chunk, start, i)
          this.#inToken = false
          start = -1
          if (isSpace(b)) continue
        } else continue
      }
      if (this.#depth === 0) {
        if (isSpace(b)) continue
        start = i
        if (b === OPEN_BRACE || b === OPEN_BRACKET) {
          this.#depth = 1
          this.#inString = false
          this.#escaped = false
        } else {
          this.#inToken = true
        }
        continue
      }
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false
        else if (b === BACKSLASH) this.#escaped = true
        else if (b === QUOTE) this.#inString = false
        continue
      }
      if (b === QUOTE) this.#inString = true
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.#depth++
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        this.#depth--
        if (this.#depth === 0) {
          this.#emit(chunk, start, i + 1)
          start = -1
        }
      }
    }
    if (start >= 0) {
      const rest = chunk.subarray(start)
      this.#parts.push(rest)
      this.#partBytes += rest.length
      if (this.#partBytes > this.#maxBytes) {
        this.#parts = []
        this.#partBytes = 0
        this.#depth = 0
        this.#inToken = false
        this.#events.onTooLarge()
      }
    }
  }

  #emit(chunk: Buffer, start: number, end: number): void {
    const piece = chunk.subarray(start, end)
    if (this.#parts.length === 0) {
      if (piece.length > this.#maxBytes) {
        this.#events.onTooLarge()
        return
      }
      this.#events.onValue(piece)
      return
    }
    this.#parts.push(piece)
    const total = this.#partBytes + piece.length
    const whole = Buffer.concat(this.#parts, total)
    this.#parts = []
    this.#partBytes = 0
    if (total > this.#maxBytes) {
      this.#events.onTooLarge()
      return
    }
    this.#events.onValue(whole)
  }
}
