/** Refusals of the local fence, the doppelganger check, upgrades and migrations (exit codes: docs/ci.md). */
import { ExitCode, TnvError } from '../errors.js'
import type { CheckDoppelgangerReturnType, FenceEntry, KeyIdentity } from './guard-types.js'
import type { NodeProcess } from './node-processes.js'

/** Another start or running node on this host holds the same key (from another data directory). */
export class KeyRunningHereError extends TnvError {
  override readonly code: string = 'KeyRunningHere'
  constructor({
    identity,
    holder,
    nodePid,
    datadir,
  }: {
    identity: KeyIdentity
    holder: FenceEntry
    nodePid: number | null
    datadir: string
  }) {
    const key = identity.authorityId ? `authority ${identity.authorityId}` : 'this key file'
    const who =
      nodePid !== null
        ? `a node started by tnv (pid ${nodePid}) runs it from ${holder.datadir}`
        : `\`${holder.command}\` (pid ${holder.tnvPid}) is starting it from ${holder.datadir}`
    super(
      `The validator key in ${datadir} (${key}) is already live on this host: ${who}. Two nodes with one key sign twice (equivocation, which the protocol can punish); nothing was started.`,
      {
        fix:
          holder.datadir === datadir
            ? `Use the running node, or stop it first with \`tnv node stop --datadir ${holder.datadir}\`.`
            : `Keep one copy: stop the other with \`tnv node stop --datadir ${holder.datadir}\` before starting this one (to move the validator, use \`tnv node migrate\`).`,
        exitCode: ExitCode.KeyLive,
      },
    )
  }
}

/** A node process outside this tnv's registry of running keys (found through /proc) holds the same key on this host. */
export class KeyRunningUntrackedError extends TnvError {
  override readonly code: string = 'KeyRunningUntracked'
  constructor({ identity, process: p, datadir }: { identity: KeyIdentity; process: NodeProcess; datadir: string }) {
    const key = identity.authorityId ? `authority ${identity.authorityId}` : 'this key file'
    super(
      `The validator key in ${datadir} (${key}) is already live on this host: process ${p.pid} runs a node on ${p.datadir} holding the same key (${p.argv.slice(0, 3).join(' ')} …), outside this tnv's registry of running keys (started by hand, by another tool or user, or by a systemd unit). Two nodes with one key sign twice (equivocation, which the protocol can punish); nothing was started.`,
      {
        fix: `Keep one copy: stop process ${p.pid} the way it was started (its service, container or shell; \`ps -o pid,user,args -p ${p.pid}\` shows it), then start this one.`,
        exitCode: ExitCode.KeyLive,
      },
    )
  }
}

/** The network shows the key's authority active while no node started by tnv on this host holds it. */
export class DoppelgangerDetectedError extends TnvError {
  override readonly code: string = 'DoppelgangerDetected'
  constructor(r: CheckDoppelgangerReturnType) {
    const first = r.evidence[0]
    const saw = first
      ? first.kind === 'led'
        ? `it led consensus header ${first.header} (committed ${new Date(first.commitTimestamp * 1000).toISOString()})`
        : `its reputation score rose from ${first.previousScore} to ${first.score} at consensus header ${first.header} (committed ${new Date(first.commitTimestamp * 1000).toISOString()})`
      : 'it was active'
    super(
      `Authority ${r.authorityId} (this data directory's BLS key) is active on the network while no node started by tnv on this host holds the key: ${saw}, read from ${r.endpoint} (tn_latestConsensusHeader) within ${Math.round(r.waitedMs / 1000)} s of watching. Another node is signing with this key; starting this one would sign twice (equivocation). Nothing was started.`,
      {
        fix: `Find and stop the other copy (another host, a restored backup, a container or service left running; \`tnv node check\` there, or tn_info on its RPC, names its authority_id), wait until this check passes (\`tnv node start\` again runs it), then start. Only if you know the other copy is gone for good: --skip-doppelganger-check.`,
        details: [`bls public key ${r.blsPublicKey}`, `epoch ${r.epoch}, committee of ${r.committeeSize}`],
        exitCode: ExitCode.KeyLive,
      },
    )
  }
}

/** The window passed without enough headers to judge. */
export class DoppelgangerInconclusiveError extends TnvError {
  override readonly code: string = 'DoppelgangerInconclusive'
  constructor(r: CheckDoppelgangerReturnType) {
    super(
      `The doppelganger check saw ${r.headersSeen} new consensus headers from ${r.endpoint} in ${Math.round(r.waitedMs / 1000)} s and needs ${r.minHeaders} (the committee's size + 1) to tell whether authority ${r.authorityId} is active elsewhere; nothing was started.`,
      {
        fix: 'Check that the endpoint follows the network (`tnv node check`), or give another with --network-url, and start again; --doppelganger-window sets how long it watches.',
        exitCode: ExitCode.Timeout,
      },
    )
  }
}

/** The network's endpoint could not answer what the check needs. */
export class DoppelgangerEndpointError extends TnvError {
  override readonly code: string = 'DoppelgangerEndpoint'
  constructor(endpoint: string, method: string, why: string) {
    super(`The doppelganger check could not read ${method} from ${endpoint}: ${why}; nothing was started.`, {
      fix: 'Give an endpoint of the network that serves tn_ methods with --network-url (your other node, or the network’s public RPC), or --skip-doppelganger-check if you accept starting unchecked.',
      exitCode: ExitCode.RpcUnreachable,
    })
  }
}

/** No endpoint of the network is known to prove the key silent (tnv node migrate). */
export class DoppelgangerNoEndpointError extends TnvError {
  override readonly code: string = 'DoppelgangerNoEndpoint'
  constructor(chain: string | null) {
    super(
      `tnv knows no network endpoint for ${chain ? `--chain ${chain}` : 'this node (no --chain in its flags)'} to prove the key silent on the network.`,
      {
        fix: 'Give the network’s RPC with --network-url <url> (your other node, or the network’s public RPC).',
        exitCode: ExitCode.Usage,
      },
    )
  }
}
