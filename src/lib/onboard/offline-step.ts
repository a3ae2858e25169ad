/**
 * The stake wizard's offline path (docs/offline.md, docs/wizard.md): the funding key is on an
 * offline machine, so a step (stake, activate) is prepared into a bundle here, signed there with
 * `tnv offline sign`, and broadcast by a later run of the same command, which finds the signed
 * file beside the bundle. The bundle is the one `tnv offline prepare` writes (the same library
 * operation, ../offline/prepare-bundle.ts); the broadcast is `tnv offline broadcast`'s
 * (../offline/broadcast-bundle.ts: every precondition read again, journaled, sent once).
 */
import { existsSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import type { Address } from 'viem'
import { AbortedError, UsageError } from '../errors.js'
import { pathExists, writeFileAtomic } from '../fs/atomic.js'
import { readSmallFile } from '../fs/read-small-file.js'
import { type BroadcastBundleReturnType, broadcastBundle } from '../offline/broadcast-bundle.js'
import { type Bundle, fileText, parseBundle, parseSignedFile, signedPathOf } from '../offline/bundle.js'
import { StaleBundleError } from '../offline/errors.js'
import { prepareBundle, type StakeBundleMaterial } from '../offline/prepare-bundle.js'
import type { RegistryContext, Reporter } from '../registry/types.js'
import type { StepJournal } from '../tx/journal.js'
import type { WizardIo } from '../wizard/io.js'
import { rememberSignerChoice } from './signer-memory.js'

/** How long a bundle the wizard writes stays valid (as `tnv offline prepare`'s default --expires-in). */
const BUNDLE_VALID_SECONDS = 24 * 3600

export type OfflineStepParameters = {
  step: 'stake' | 'activate'
  /** The address whose key is offline (the validator). */
  from: Address
  /** The stake's key material (node-info.yaml's, checked against the key on disk). */
  stake?: StakeBundleMaterial | undefined
  datadir: string
  /** --offline-bundle, or the bundle the signer memory remembers: where an earlier run wrote one. */
  bundle: string | undefined
  /** `--through active` when the step is the activate (for the commands printed). */
  throughActive: boolean
  /** The network flags of the commands printed (`--chain testnet`, or `--rpc-url URL`). */
  network: string
  journal: StepJournal
  report: Reporter
}

/** The bundle is written (or was, by an earlier run) and its signed file is not back yet. */
export type OfflineWaiting = {
  outcome: 'waiting'
  step: 'stake' | 'activate'
  bundle: string
  /** Where `tnv offline sign` writes the signed transaction, and where this command looks for it. */
  signed: string
  digest: string
  expiresAt: string
  /** The command to run on the offline machine, then the two ways to broadcast back here. */
  next: { offline: string; online: string; broadcast: string }
}

export type OfflineStepReturnType =
  | OfflineWaiting
  | { outcome: 'broadcast'; bundle: string; result: BroadcastBundleReturnType }

/**
 * A signed bundle of this step and address beside the remembered bundle: broadcast (asked on a
 * terminal, default Yes). A bundle not signed yet: its commands again. None (or expired, or on a
 * terminal refused as stale): a new bundle, written where the operator says.
 *
 * @example
 * const r = await offlineStep(io, ctx, { step: 'stake', from, stake, datadir, bundle, throughActive: false, journal, report })
 * if (r.outcome === 'waiting') return r // exit 32 at the command
 */
export async function offlineStep(
  io: WizardIo,
  ctx: RegistryContext,
  p: OfflineStepParameters,
): Promise<OfflineStepReturnType> {
  const existing = p.bundle !== undefined ? await ownBundle(p.bundle, p) : null
  if (existing) {
    const signedPath = signedPathOf(existing.path)
    if (await pathExists(signedPath)) {
      const broadcast = await broadcastSigned(io, ctx, p, existing, signedPath)
      if (broadcast) return broadcast
    } else if (Date.parse(existing.bundle.expiresAt) <= Date.now()) {
      const line = `${existing.path} expired at ${existing.bundle.expiresAt} before it was signed: a new bundle is prepared.`
      io.emit({ event: 'warning', message: line }, line)
    } else {
      const waiting = waitingOf(p, existing.path, existing.bundle)
      io.emit({ event: 'offline-waiting', ...waiting }, [
        `${existing.path} is prepared and not signed yet (${waiting.signed} is not there).`,
        ...nextLines(waiting),
      ])
      return waiting
    }
  }
  return prepareNew(io, ctx, p, existing?.path)
}

/** The bundle at `path` when it is a bundle of this step for this address; null when there is no file or it is another's. */
async function ownBundle(path: string, p: OfflineStepParameters): Promise<{ path: string; bundle: Bundle } | null> {
  if (!(await pathExists(path))) return null
  const bundle = parseBundle(await readSmallFile(path, { what: 'an offline bundle', maxBytes: 256 * 1024 }), path)
  if (bundle.step !== p.step || bundle.transaction.from.toLowerCase() !== p.from.toLowerCase()) return null
  return { path, bundle }
}

/** The signed file broadcast; null when a stale bundle is to be replaced (a terminal only). */
async function broadcastSigned(
  io: WizardIo,
  ctx: RegistryContext,
  p: OfflineStepParameters,
  existing: { path: string; bundle: Bundle },
  signedPath: string,
): Promise<OfflineStepReturnType | null> {
  if (
    io.interactive &&
    !(await io.confirm(
      `The signed ${p.step} is back (${signedPath}). Broadcast it now (every precondition is checked again first)?`,
      true,
    ))
  )
    throw new AbortedError(`Nothing was sent; ${signedPath} stays.`, {
      fix: `Run the same command again to broadcast it, or \`tnv offline broadcast ${existing.path}\`.`,
    })
  const signed = parseSignedFile(
    await readSmallFile(signedPath, { what: 'a signed offline transaction', maxBytes: 256 * 1024 }),
    signedPath,
  )
  try {
    const result = await broadcastBundle(ctx, {
      bundle: existing.bundle,
      bundlePath: existing.path,
      signed,
      signedPath,
      journal: p.journal,
      report: p.report,
    })
    return { outcome: 'broadcast', bundle: existing.path, result }
  } catch (err) {
    // on a terminal a stale bundle is said, and a new one prepared; without one it is the refusal (exit 24)
    if (!(err instanceof StaleBundleError) || !io.interactive) throw err
    io.emit({ event: 'warning', message: err.message }, [
      err.message,
      ...err.details.map((d) => `  ${d}`),
      `A new bundle is prepared in its place (${existing.path} and ${signedPath} are stale: discard them).`,
    ])
    return null
  }
}

/** Prepares the step (nothing signed or sent), writes the bundle atomically where asked, remembers it. */
async function prepareNew(
  io: WizardIo,
  ctx: RegistryContext,
  p: OfflineStepParameters,
  replaced: string | undefined,
): Promise<OfflineWaiting> {
  const path = await bundlePath(io, p, replaced)
  const common = {
    from: p.from,
    expiresInSeconds: BUNDLE_VALID_SECONDS,
    prepareCommand: `${stakeCommand(p)} --offline-bundle NEW_FILE.json`,
    report: p.report,
  }
  if (p.step === 'stake' && p.stake === undefined) throw new Error('offline stake: no key material') // a bug
  const r = await prepareBundle(
    ctx,
    p.step === 'stake' && p.stake ? { ...common, step: 'stake', stake: p.stake } : { ...common, step: 'activate' },
  )
  if (r.outcome !== 'prepared') throw new Error(`offline ${p.step}: the chain shows it ${r.outcome}`) // the flow read the state just before
  await writeFileAtomic(path, fileText(r.bundle), { mode: 0o644 })
  await rememberSignerChoice(p.datadir, { kind: 'offline', bundle: path }).catch(() => {})
  const waiting = waitingOf(p, path, r.bundle)
  io.emit({ event: 'offline-bundle', ...waiting }, [
    `Wrote ${path}: ${r.bundle.intent.title}, nonce ${r.bundle.transaction.nonce}, valid until ${r.bundle.expiresAt}.`,
    `Digest ${r.bundle.digest}`,
    ...nextLines(waiting),
  ])
  return waiting
}

/**
 * Where the bundle goes: --offline-bundle without a terminal; on one, asked, by default
 * beside the data directory (`<datadir>.stake.bundle.json`). A file is never written over.
 */
async function bundlePath(io: WizardIo, p: OfflineStepParameters, replaced: string | undefined): Promise<string> {
  // a file there already (another step's bundle, an expired or stale one) is never written over
  const given = p.bundle !== undefined && p.bundle !== replaced && !existsSync(p.bundle) ? p.bundle : undefined
  if (!io.interactive) {
    if (given === undefined)
      throw new UsageError(
        `${p.bundle ?? 'The bundle'} is there already and holds no ${p.step} of ${p.from} to wait for or broadcast (another step's bundle, or one expired or stale); a bundle is never written over another file.`,
        { fix: `Pass --offline-bundle with a new file for the ${p.step} bundle.` },
      )
    return resolve(given)
  }
  const fallback = resolve(`${resolve(p.datadir)}.${p.step}.bundle.json`)
  let proposal = given ?? fallback
  for (let i = 2; existsSync(proposal); i++) proposal = fallback.replace(/\.bundle\.json$/, `-${i}.bundle.json`)
  const answer = await io.input(
    `Where should the ${p.step} bundle be written (the file to carry to the offline machine)?`,
    {
      default: proposal,
      validate: (v) =>
        v.trim() === ''
          ? 'A file path'
          : existsSync(v.trim())
            ? 'That file exists; a bundle is never written over another file'
            : existsSync(dirname(resolve(v.trim())))
              ? true
              : `The directory ${dirname(resolve(v.trim()))} does not exist`,
    },
  )
  return resolve(answer.trim())
}

function waitingOf(p: OfflineStepParameters, path: string, bundle: Bundle): OfflineWaiting {
  return {
    outcome: 'waiting',
    step: p.step,
    bundle: path,
    signed: signedPathOf(path),
    digest: bundle.digest,
    expiresAt: bundle.expiresAt,
    next: {
      offline: `tnv offline sign ${basename(path)}`,
      online: `${stakeCommand(p)} --offline-bundle ${path}`,
      broadcast: `tnv offline broadcast ${path}`,
    },
  }
}

/** `tnv stake` as it is run again for this step (the wizard on a terminal, the same flow in CI). */
function stakeCommand(p: OfflineStepParameters): string {
  return `tnv stake ${p.network} --datadir ${p.datadir}${p.throughActive ? ' --through active' : ''}`
}

/** What to carry, the command on the offline machine, and the commands back here. */
function nextLines(w: OfflineWaiting): string[] {
  return [
    '',
    `1. Carry ${w.bundle} to the offline machine and run there (with the funding key: --keystore FILE, --ledger, --trezor or TN_PRIVATE_KEY):`,
    `     ${w.next.offline}`,
    `   It shows what is signed, asks, and writes ${basename(w.signed)} beside the bundle.`,
    `2. Bring ${basename(w.signed)} back to ${dirname(w.signed)}/ and run here:`,
    `     ${w.next.online}`,
    `   (it finds the signed file and broadcasts it; or: ${w.next.broadcast})`,
    `The bundle is valid until ${w.expiresAt}. Nothing was sent; this run stops here, waiting for the offline signature (exit 32).`,
  ]
}
