/**
 * The tracing semaphore (--rpc.max-tracing-requests): one per node, shared by every
 * transport and worker. Excess requests wait in arrival order for a free slot and never
 * fail; a waiter whose client has gone is skipped when its turn comes.
 */
export type Release = () => void

type Waiter = { grant: (release: Release) => void; gone: () => boolean }

export class Semaphore {
  #active = 0
  #peak = 0
  readonly #waiting: Waiter[] = []

  constructor(readonly slots: number) {}

  /** Resolves with a release function once a slot is free. `gone()` true = the caller left. */
  acquire(gone: () => boolean = () => false): Promise<Release> {
    return new Promise((grant) => {
      if (this.#active < this.slots) grant(this.#take())
      else this.#waiting.push({ grant, gone })
    })
  }

  /** Requests running now, requests waiting, and the most that ever ran at once. */
  stats(): { active: number; waiting: number; peak: number } {
    return { active: this.#active, waiting: this.#waiting.length, peak: this.#peak }
  }

  #take(): Release {
    this.#active++
    if (this.#active > this.#peak) this.#peak = this.#active
    let released = false
    return () => {
      if (released) return
      released = true
      this.#active--
      this.#next()
    }
  }

  #next(): void {
    while (this.#active < this.slots && this.#waiting.length > 0) {
      const waiter = this.#waiting.shift() as Waiter
      if (waiter.gone()) continue
      waiter.grant(this.#take())
    }
  }
}
