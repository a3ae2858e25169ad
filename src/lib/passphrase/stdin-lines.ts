/**
 * Reads standard input one line at a time, on demand, so that one command can take two
 * passphrases from lines 1 and 2. A line is returned without its line ending ("\n" or
 * "\r\n"); nothing else is trimmed. Input is paused between reads.
 */
export class StdinLines {
  private buffer = ''
  private ended = false
  private started = false
  private wake: (() => void) | undefined

  constructor(private readonly stream: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin) {}

  get isTTY(): boolean {
    return this.stream.isTTY === true
  }

  /** The next line, or undefined when input ended with nothing left. */
  async next(): Promise<string | undefined> {
    if (!this.started) {
      this.started = true
      this.stream.setEncoding('utf8')
      this.stream.on('data', (chunk: string) => {
        this.buffer += chunk
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
      const nl = this.buffer.indexOf('\n')
      if (nl >= 0) {
        const line = this.buffer.slice(0, nl).replace(/\r$/, '')
        this.buffer = this.buffer.slice(nl + 1)
        this.stream.pause()
        return line
      }
      if (this.ended) {
        const rest = this.buffer
        this.buffer = ''
        return rest.length > 0 ? rest : undefined
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve
        this.stream.resume()
      })
      this.wake = undefined
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
