/**
 * The connection slots of one server (--rpc.max-connections per server, as reth configures
 * each of its servers), with a policy a handful of sockets cannot exhaust:
 *
 * - a connection that is doing nothing for anyone holds its slot only until it is needed:
 *   one still sending its request (slow headers or body: slowloris), an idle keep-alive
 *   connection, a WebSocket or IPC connection with no request in progress and no
 *   subscription. When every slot is taken, a new connection takes the slot of the one of
 *   those that has been doing nothing the longest (it is closed);
 * - a connection with a request being answered, or with a live subscription, keeps its slot.
 *   Only when every slot is such a connection is the new one refused (HTTP/WS 429, IPC an
 *   error answer).
 *
 * So to lock others out, an attacker needs --rpc.max-connections connections that each keep a
 * request in progress or a subscription open (and answer the WebSocket pings), not idle or
 * slow sockets. Timeouts (net-server.ts) end the slow and idle ones even when no one waits.
 */

export type Slot = {
  /** Requests being answered on the connection now (the body fully received, the answer not yet sent). */
  busy: number
  /** When the connection last finished doing something (or opened), ms. */
  since: number
  /** A live subscription (or anything else that must keep the connection). */
  pinned(): boolean
  /** Closes the connection to free its slot. */
  evict(): void
}

export class ConnectionSlots {
  readonly #max: number
  readonly #slots = new Set<Slot>()
  #evicted = 0
  #refused = 0

  constructor(max: number) {
    this.#max = max
  }

  /**
   * Takes a slot for a new connection: free, or freed by closing the connection that has been
   * doing nothing the longest. False when every slot is held by a connection at work.
   */
  admit(slot: Slot): boolean {
    if (this.#slots.size >= this.#max) {
      let victim: Slot | null = null
      for (const s of this.#slots) {
        if (s.busy > 0 || s.pinned()) continue
        if (victim === null || s.since < victim.since) victim = s
      }
      if (victim === null) {
        this.#refused++
        return false
      }
      this.#slots.delete(victim)
      this.#evicted++
      victim.evict()
    }
    this.#slots.add(slot)
    return true
  }

  release(slot: Slot): void {
    this.#slots.delete(slot)
  }

  /** A request started being answered on the connection. */
  static begin(slot: Slot): void {
    slot.busy++
  }

  /** A request's answer was sent (or the client left). */
  static end(slot: Slot): void {
    slot.busy = Math.max(0, slot.busy - 1)
    slot.since = Date.now()
  }

  stats(): { open: number; max: number; evicted: number; refused: number } {
    return { open: this.#slots.size, max: this.#max, evicted: this.#evicted, refused: this.#refused }
  }
}
