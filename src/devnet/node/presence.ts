/**
 * Who holds which validator key on the devnet, so that the simulated consensus credits an
 * authority only while a node holding its key runs (a stand-in for the network seeing its votes).
 *
 * A reference node that joins the devnet (`--chain devnet`) with a validator's node-info.yaml
 * writes `<devnet dir>/consensus-presence/<authority>-<pid>.json`: the block it joined at and the
 * latest block it has seen (refreshed every second, and once more on a clean stop). Every node
 * answering `tn_latestConsensusHeader` on that devnet reads these records: a record whose process
 * runs covers every block from its first; one whose process is gone covers its recorded span
 * (a killed node: up to a second short). Two copies of one key (the stand-in for another host)
 * are two records for one authority.
 *
 * The genesis committee's validators are run by the devnet itself (it simulates the network), so
 * they are credited on every block they lead, as before; every other validator leads only while
 * present. The registry's `applyIncentives` at the boundary still credits every committee member
 * by the round-robin (docs/devnet.md: the headers show presence, the credits do not).
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../../lib/fs/atomic.js'
import { isProcessAlive } from '../../lib/os/process-alive.js'

export const PRESENCE_DIR = 'consensus-presence'

export type PresenceRecord = {
  version: 1
  authorityId: string
  blsPublicKey: string
  pid: number
  fromBlock: number
  throughBlock: number
  startedAt: string
}

/** Merged block spans per authority id ([from, through], inclusive; through = Infinity while its node runs). */
export type PresenceSpans = Map<string, [number, number][]>

export type PresenceAnnouncement = {
  /** Records the latest block seen. */
  refresh(): Promise<void>
  /** A last refresh; the record stays (its span is history the headers still count). */
  stop(): Promise<void>
}

/**
 * @param latestBlock reads the engine's latest block number
 * @example const p = await announcePresence({ devnetDir, authorityId, blsPublicKey, latestBlock })
 */
export async function announcePresence({
  devnetDir,
  authorityId,
  blsPublicKey,
  latestBlock,
}: {
  devnetDir: string
  authorityId: string
  blsPublicKey: string
  latestBlock: () => Promise<number>
}): Promise<PresenceAnnouncement> {
  const dir = join(devnetDir, PRESENCE_DIR)
  await fs.mkdir(dir, { recursive: true })
  const path = join(dir, `${authorityId}-${process.pid}.json`)
  const record: PresenceRecord = {
    version: 1,
    authorityId,
    blsPublicKey,
    pid: process.pid,
    fromBlock: (await latestBlock()) + 1,
    throughBlock: 0,
    startedAt: new Date().toISOString(),
  }
  record.throughBlock = record.fromBlock - 1
  const write = () => writeFileAtomic(path, `${JSON.stringify(record)}\n`)
  await write()
  let busy: Promise<void> | null = null
  const refresh = async () => {
    if (busy) return busy
    busy = (async () => {
      try {
        const latest = await latestBlock()
        if (latest > record.throughBlock) {
          record.throughBlock = latest
          await write()
        }
      } finally {
        busy = null
      }
    })()
    return busy
  }
  return { refresh, stop: () => refresh().catch(() => {}) }
}

/** Reads every record of the devnet (a missing directory: nobody present). */
export async function readPresence(devnetDir: string): Promise<PresenceSpans> {
  const dir = join(devnetDir, PRESENCE_DIR)
  let names: string[] = []
  try {
    names = await fs.readdir(dir)
  } catch {
    return new Map()
  }
  const spans: PresenceSpans = new Map()
  for (const name of names) {
    if (!name.endsWith('.json')) continue
    let r: PresenceRecord
    try {
      r = JSON.parse(await fs.readFile(join(dir, name), 'utf8')) as PresenceRecord
    } catch {
      continue // being replaced, or not a record
    }
    if (r.version !== 1 || typeof r.authorityId !== 'string') continue
    const through = isProcessAlive(r.pid) ? Number.POSITIVE_INFINITY : r.throughBlock
    if (through < r.fromBlock) continue
    const list = spans.get(r.authorityId) ?? []
    list.push([r.fromBlock, through])
    spans.set(r.authorityId, list)
  }
  for (const [id, list] of spans) spans.set(id, mergeSpans(list))
  return spans
}

export function mergeSpans(list: [number, number][]): [number, number][] {
  const sorted = [...list].sort((a, b) => a[0] - b[0])
  const out: [number, number][] = []
  for (const [a, b] of sorted) {
    const last = out[out.length - 1]
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b)
    else out.push([a, b])
  }
  return out
}

/**
 * Blocks in [first, through] that committee member `index` leads (round-robin from `epochStart`)
 * inside the spans.
 * @example ledInSpans([[1, 10]], 0, 4, 0, 1, 20) // blocks 4 and 8 → 2
 */
export function ledInSpans(
  spans: readonly [number, number][],
  epochStart: number,
  committeeSize: number,
  index: number,
  first: number,
  through: number,
): number {
  // blocks x ≤ y with x ≥ epochStart and (x − epochStart) mod n = index
  const upTo = (y: number) => (y < epochStart + index ? 0 : Math.floor((y - epochStart - index) / committeeSize) + 1)
  let n = 0
  for (const [a, b] of spans) {
    const lo = Math.max(a, first)
    const hi = Math.min(b, through)
    if (hi >= lo) n += upTo(hi) - upTo(lo - 1)
  }
  return n
}

export function presentAt(spans: readonly [number, number][] | undefined, block: number): boolean {
  return (spans ?? []).some(([a, b]) => a <= block && block <= b)
}
