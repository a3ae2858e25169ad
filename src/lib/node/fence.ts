/**
 * The local fence: on one host, at most one node started by tnv holds a given BLS key, whatever
 * data directory it runs from. Two data directories holding copies of one key (a restored backup
 * beside the original) are two validators signing with one key; the second start is refused.
 *
 * The registry of running keys is `<tnv state dir>/running-keys/<network>-<authority id>.json`, one
 * entry per key and network: one key on two networks (a devnet rehearsal beside the test network)
 * is no double signature, so the network the node joins (its `--chain`; for the devnet, which
 * devnet) is part of the entry's name. An entry is taken and judged under one inter-process lock (`running-keys/.lock`), so two
 * starts racing for one key cannot both pass. An entry counts while its tnv process runs (a start
 * in progress, a foreground supervisor) or while the node recorded for its data directory
 * (`<datadir>/tnv-node.json`) is alive; otherwise it is stale (tnv or the node was killed, the
 * host rebooted) and the next start replaces it. Entries are written atomically.
 *
 * Beside the registry, the fence looks at every node process this host shows (./node-processes.ts,
 * /proc/<pid>/cmdline): one that runs for the same network and whose `--datadir` holds one of this
 * key's identities refuses the start too (a node run by hand, by another tool, by another user
 * whose files tnv can read, or by tnv with another state directory, such as a systemd unit's).
 *
 * The key's identity is its public key: node-info.yaml's `bls_public_key`, and the key actually on
 * disk when tnv can tell it differs (./key-binding.ts). A bls.kw whose public key cannot be known
 * without its passphrase and no node-info.yaml: the identity is the sha256 of the key file (a byte
 * copy is still caught; a re-wrapped copy is not).
 */
import { existsSync, promises as fs, readFileSync, realpathSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { sha256 } from '@noble/hashes/sha2.js'
import { writeFileAtomic } from '../fs/atomic.js'
import { withLock } from '../fs/lock.js'
import { authorityIdOf } from '../health/read-validator-health.js'
import { isProcessAlive } from '../os/process-alive.js'
import { KeyRunningHereError, KeyRunningUntrackedError } from './fence-errors.js'
import type { FenceEntry, KeyIdentity } from './guard-types.js'

export type { FenceEntry, KeyIdentity } from './guard-types.js'

import { listNodeProcesses, type NodeProcess } from './node-processes.js'
import { isNodeProcess, readNodeState } from './state.js'

export const RUNNING_KEYS_DIR = 'running-keys'

export type KeyFence = {
  identities: KeyIdentity[]
  /** Removes this start's entries (only while they are still this start's). Safe to call twice. */
  release(): Promise<void>
}

export type TakeKeyFenceParameters = {
  /** tnv's state directory (the session gives it: $TNV_STATE_DIR, $XDG_STATE_HOME/tnv, ~/.local/state/tnv). */
  stateDir: string
  datadir: string
  identities: KeyIdentity[]
  /** The network the node joins: its --chain value (`devnet:<devnet dir>` for the devnet), or `datadir-genesis` without one. */
  network: string
  /** Recorded in the entry for the message another start shows. */
  command: string
}

function entryPath(stateDir: string, network: string, id: string): string {
  const net = Buffer.from(sha256(new TextEncoder().encode(network)))
    .toString('hex')
    .slice(0, 16)
  return join(stateDir, RUNNING_KEYS_DIR, `${net}-${id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`)
}

function resolved(datadir: string): string {
  try {
    return realpathSync(datadir)
  } catch {
    return datadir
  }
}

export function readFenceEntry(path: string): FenceEntry | null {
  try {
    const e = JSON.parse(readFileSync(path, 'utf8')) as FenceEntry
    return e.version === 1 && typeof e.tnvPid === 'number' && typeof e.datadir === 'string' ? e : null
  } catch {
    return null
  }
}

/**
 * Whether an entry still stands for a running start or node: its tnv process is alive (on this
 * host), or the node recorded in its data directory is.
 */
export async function isEntryLive(entry: FenceEntry): Promise<{ live: boolean; nodePid: number | null }> {
  const state = await readNodeState(entry.datadir)
  if (state && isNodeProcess(state)) return { live: true, nodePid: state.pid }
  if (entry.host === hostname() && entry.tnvPid !== process.pid && isProcessAlive(entry.tnvPid))
    return { live: true, nodePid: null }
  return { live: false, nodePid: null }
}

/**
 * The identities of the key in a data directory; empty when it holds no validator key
 * (no node-info.yaml and no key file: an observer without keys).
 * @example const ids = await keyIdentities('/var/lib/tn')
 */
export async function keyIdentities(datadir: string): Promise<KeyIdentity[]> {
  const [{ NODE_INFO_FILE }, { datadirPaths }] = await Promise.all([
    import('../nodeinfo/types.js'),
    import('../keys/datadir.js'),
  ])
  const keys: Uint8Array[] = []
  if (existsSync(join(datadir, NODE_INFO_FILE))) {
    const { readNodeInfo } = await import('../nodeinfo/read.js')
    keys.push((await readNodeInfo(datadir)).info.blsPublicKey)
  }
  const paths = datadirPaths(datadir)
  const { checkKeyOnDisk } = await import('../keys/key-binding.js')
  const ids: KeyIdentity[] = []
  if (keys.length) {
    const check = await checkKeyOnDisk(datadir, keys[0] as Uint8Array)
    if (check.status === 'mismatch') keys.push(check.onDisk)
  } else if (existsSync(paths.blsKey) && !existsSync(paths.blsKw)) {
    const check = await checkKeyOnDisk(datadir, new Uint8Array(96))
    if (check.status === 'mismatch') keys.push(check.onDisk)
  } else if (existsSync(paths.blsKw)) {
    const digest = Buffer.from(sha256(new Uint8Array(await fs.readFile(paths.blsKw)))).toString('hex')
    ids.push({ id: `file:${digest}`, blsPublicKey: null, authorityId: null })
  }
  for (const k of keys) {
    const authorityId = authorityIdOf(k)
    ids.push({ id: `authority:${authorityId}`, blsPublicKey: `0x${Buffer.from(k).toString('hex')}`, authorityId })
  }
  return ids
}

/**
 * Takes the fence for every identity of the key, or refuses (KeyRunningHereError) when another
 * start or a running node on this host holds one of them. Stale entries are replaced.
 * @example const fence = await takeKeyFence({ stateDir, datadir, identities, command: 'tnv node start' })
 */
export async function takeKeyFence({
  stateDir,
  datadir,
  identities,
  network,
  command,
}: TakeKeyFenceParameters): Promise<KeyFence> {
  const dir = join(stateDir, RUNNING_KEYS_DIR)
  await fs.mkdir(dir, { recursive: true, mode: 0o700 })
  const mine = resolved(datadir)
  const taken: { path: string; entry: FenceEntry }[] = []
  await withLock(
    { lockPath: join(dir, '.lock'), what: `the registry of running keys (${dir})`, command, waitMs: 15_000 },
    async () => {
      for (const identity of identities) {
        const path = entryPath(stateDir, network, identity.id)
        const current = readFenceEntry(path)
        if (current && !(current.datadir === mine && current.tnvPid === process.pid)) {
          const { live, nodePid } = await isEntryLive(current)
          if (live) throw new KeyRunningHereError({ identity, holder: current, nodePid, datadir: mine })
        }
        const entry: FenceEntry = {
          version: 1,
          id: identity.id,
          network,
          blsPublicKey: identity.blsPublicKey,
          datadir: mine,
          host: hostname(),
          tnvPid: process.pid,
          command,
          since: new Date().toISOString(),
        }
        await writeFileAtomic(path, `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600 })
        taken.push({ path, entry })
      }
      const other = await untrackedNodeHolding(identities, network)
      if (other) {
        for (const t of taken) await fs.rm(t.path, { force: true })
        throw new KeyRunningUntrackedError({ ...other, datadir: mine })
      }
    },
  )
  let released = false
  return {
    identities,
    async release() {
      if (released) return
      released = true
      await withLock(
        { lockPath: join(dir, '.lock'), what: `the registry of running keys (${dir})`, command, waitMs: 15_000 },
        async () => {
          for (const { path, entry } of taken) {
            const current = readFenceEntry(path)
            // a later start may have replaced a stale entry of ours: that one is not ours to remove
            if (current && current.tnvPid === entry.tnvPid && current.since === entry.since)
              await fs.rm(path, { force: true })
          }
        },
      )
    },
  }
}

/**
 * The refusals of takeKeyFence, read only, for `--check`: no lock taken, no entry written. Refuses
 * (KeyRunningHereError, KeyRunningUntrackedError) when a live start or node on this host holds one
 * of the identities, as the start would.
 * @example await assertKeyFenceFree({ stateDir, datadir, identities, network: 'adiri' })
 */
export async function assertKeyFenceFree({
  stateDir,
  datadir,
  identities,
  network,
}: Omit<TakeKeyFenceParameters, 'command'>): Promise<void> {
  const mine = resolved(datadir)
  for (const identity of identities) {
    const current = readFenceEntry(entryPath(stateDir, network, identity.id))
    if (!current) continue
    const { live, nodePid } = await isEntryLive(current)
    if (live) throw new KeyRunningHereError({ identity, holder: current, nodePid, datadir: mine })
  }
  const other = await untrackedNodeHolding(identities, network)
  if (other) throw new KeyRunningUntrackedError({ ...other, datadir: mine })
}

/**
 * Whether a node process on the same network holds one of the identities. A node in this registry
 * was judged above; one found here is outside it (started by hand, by another tool or user, or by
 * tnv with another state directory, such as a systemd unit's), and it counts the same.
 */
async function untrackedNodeHolding(
  identities: KeyIdentity[],
  network: string,
): Promise<{ identity: KeyIdentity; process: NodeProcess } | null> {
  const ours = new Map(identities.map((i) => [i.id, i]))
  for (const p of listNodeProcesses()) {
    // the devnet's directory is not on the node's command line: any devnet counts as this one
    const theirs = p.chain === 'devnet' ? 'devnet:' : (p.chain ?? 'datadir-genesis')
    if (theirs === 'devnet:' ? !network.startsWith('devnet:') : theirs !== network) continue
    const held = await keyIdentities(p.readPath).catch(() => [])
    const identity = held.map((h) => ours.get(h.id)).find((i) => i !== undefined)
    if (identity) return { identity, process: p }
  }
  return null
}
