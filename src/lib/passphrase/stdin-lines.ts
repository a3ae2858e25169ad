/**
 * Reads standard input one line at a time, on demand, so that one command can take two
 * passphrases from lines 1 and 2. A line is returned without its line ending ("\n" or
 * "\r\n"); nothing else is trimmed. Input is paused between reads.
 *
 * Lines are secrets (passphrases, passwords), so they are bounded and strict: more than
 * MAX_STDIN_LINE_BYTES without a line end stops the read at once (StdinLineTooLongError: no
 * unbounded read of a stream that never ends a line), and a line whose bytes are not valid
 * UTF-8 is refused (SecretNotUtf8Error) instead of being decoded with replacement characters,
 * which would make different passphrases equal.
 */
import { SecretNotUtf8Error, StdinLineTooLongError } from './errors.js'

/** The longest line read: far above any passphrase or password, far below a stream that never ends a line. */
export const MAX_STDIN_LINE_BYTES = 64 * 1024

const NEWLINE = 0x0a

export class StdinLines {
  private buffer: Buffer = Buffer.alloc(0)
  private ended = false
  private started = false
  private wake: (() => void) | undefined
  private readonly decoder = new TextDecoder('utf-8', { fatal: true })

  constructor(
    private readonly stream: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
    private readonly maxLineBytes = MAX_STDIN_LINE_BYTES,
  ) {}

  get isTTY(): boolean {
    return this.stream.isTTY === true
  }

  /**
   * The next line, or undefined when input ended with nothing left.
   * @throws StdinLineTooLongError, SecretNotUtf8Error
   */
  async next(): Promise<string | undefined> {
    if (!this.started) {
      this.started = true
      this.stream.on('data', (chunk: Buffer | string) => {
        this.buffer = Buffer.concat([this.buffer, typeof chunk === 'string' ? Buffer.from(chunk) : chunk])
        // stop reading a stream that gives no line end: checked as the data arrives
        if (this.buffer.indexOf(NEWLINE) < 0 && this.buffer.length > this.maxLineBytes) this.stream.pause()
        this.wake?.()
      })
      this.stream.on('end', () => {
        this.ended = true
        this.wake?.()
      })
      this.stream.on('error', () => {
        this.ended = true
        this.wake?.()
      })
    }
    for (;;) {
      const nl = this.buffer.indexOf(NEWLINE)
      if (nl >= 0 && nl <= this.maxLineBytes + 1) {
        let end = nl
        if (end > 0 && this.buffer[end - 1] === 0x0d) end--
        const line = this.buffer.subarray(0, end)
        this.buffer = this.buffer.subarray(nl + 1)
        this.stream.pause()
        return this.decode(line)
      }
      if (nl > this.maxLineBytes + 1 || (nl < 0 && this.buffer.length > this.maxLineBytes)) {
        this.close()
        throw new StdinLineTooLongError(this.maxLineBytes)
      }
      if (this.ended) {
        const rest = this.buffer
        this.buffer = Buffer.alloc(0)
        return rest.length > 0 ? this.decode(rest) : undefined
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve
        this.stream.resume()
      })
      this.wake = undefined
    }
  }

  private decode(bytes: Uint8Array): string {
    try {
      return this.decoder.decode(bytes)
    } catch {
      throw new SecretNotUtf8Error('secret', { kind: 'stdin' })
    }
  }

  /** Stops reading (lets the process exit even if the other end keeps the pipe open). */
  close(): void {
    if (!this.started) return
    this.stream.pause()
    this.stream.removeAllListeners('data')
    if ('destroy' in this.stream && typeof this.stream.destroy === 'function') this.stream.destroy()
  }
}
