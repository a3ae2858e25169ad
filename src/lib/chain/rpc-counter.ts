/**
 * A fetch wrapper that counts HTTP round trips and the JSON-RPC calls inside them (a batch
 * is one round trip holding several calls). Used by the benchmark and by tests that pin
 * how many round trips a command makes; pass `counter.fetch` as the client's fetchFn.
 */
export type RpcCounter = {
  fetch: typeof fetch
  /** HTTP requests made (one per batch). */
  roundTrips: number
  /** JSON-RPC calls made, batched or not. */
  calls: number
  /** JSON-RPC calls per method. */
  methods: Record<string, number>
  /** Methods of each round trip, in order (for reports: `[[eth_chainId, eth_call, ...], [eth_estimateGas], ...]`). */
  trips: string[][]
  reset(): void
}

/**
 * @example
 * const counter = createRpcCounter()
 * const client = createChainClient({ rpcUrl, fetchFn: counter.fetch })
 * await readValidatorStatus(...); console.log(counter.roundTrips)
 */
export function createRpcCounter(inner: typeof fetch = fetch): RpcCounter {
  const counter: RpcCounter = {
    roundTrips: 0,
    calls: 0,
    methods: {},
    trips: [],
    reset() {
      counter.roundTrips = 0
      counter.calls = 0
      counter.methods = {}
      counter.trips = []
    },
    fetch: (input, init) => {
      const methods = methodsOf(init?.body)
      counter.roundTrips++
      counter.calls += methods.length
      counter.trips.push(methods)
      for (const m of methods) counter.methods[m] = (counter.methods[m] ?? 0) + 1
      return inner(input, init)
    },
  }
  return counter
}

function methodsOf(body: unknown): string[] {
  if (typeof body !== 'string') return ['?']
  try {
    const parsed: unknown = JSON.parse(body)
    const list = Array.isArray(parsed) ? parsed : [parsed]
    return list.map((r) => (r && typeof r === 'object' && 'method' in r ? String(r.method) : '?'))
  } catch {
    return ['?']
  }
}
