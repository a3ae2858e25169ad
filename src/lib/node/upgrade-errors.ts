/** Refusals and outcomes of `tnv node upgrade` / `restart` (exit codes: docs/ci.md). */
import { ExitCode, TnvError } from '../errors.js'
import type { UpgradeJournal } from './guard-types.js'

export class NodeNotRunningForUpgradeError extends TnvError {
  override readonly code: string = 'NodeNotRunningForUpgrade'
  constructor(datadir: string) {
    super(
      `No node started by tnv (by hand, or by a systemd unit's \`tnv node start\`) is running for ${datadir}, so there is nothing to upgrade or restart (tnv takes the binary and the flags from the running node).`,
      {
        fix: `Start it with \`tnv node start --detach --datadir ${datadir} --node-binary <path> -- <node flags>\` (the new binary at once, for a first start), or \`systemctl start <unit>\` for a node systemd runs, then upgrade later.`,
        exitCode: ExitCode.NodeNotSynced,
      },
    )
  }
}

export class UpgradeNeedsOwnBinaryError extends TnvError {
  override readonly code: string = 'UpgradeNeedsOwnBinary'
  constructor(binary: string, why: string) {
    super(`tnv cannot upgrade the node running from ${binary}: ${why}.`, {
      fix: 'Run the node from a binary path of its own (--node-binary /usr/local/bin/telcoin-network; the JWT secret from --jwt-secret-file), then upgrade; or stop it and start the new binary with tnv node start.',
      exitCode: ExitCode.Usage,
    })
  }
}

/** --unit names a unit that does not run this data directory's node, or one whose binary tnv cannot swap. */
export class SystemdUnitError extends TnvError {
  override readonly code: string = 'SystemdUnit'
  constructor(unit: string, why: string, fix: string) {
    super(`tnv will not drive the node through the systemd unit ${unit}: ${why}. Nothing was changed.`, {
      fix,
      exitCode: ExitCode.Usage,
    })
  }
}

export class PreflightFailedError extends TnvError {
  override readonly code: string = 'UpgradePreflightFailed'
  constructor(binary: string, why: string) {
    super(`The new binary ${binary} failed the preflight: ${why}. Nothing was changed; the node runs as before.`, {
      fix: 'Check that it is the node binary for this platform and release (run it with --version and `node --help`), then upgrade again.',
      exitCode: ExitCode.NodeConfig,
    })
  }
}

export class UnfinishedUpgradeError extends TnvError {
  override readonly code: string = 'UnfinishedUpgrade'
  constructor(j: UpgradeJournal) {
    super(
      `An unfinished ${j.op}${j.newBinary ? ` to ${j.newBinary}` : ''} of ${j.datadir} (started ${j.startedAt}, steps done: ${j.done.join(', ') || 'none'}) is recorded in ${j.datadir}/tnv-upgrade.json.`,
      {
        fix: `Finish it first: run the same command again (\`tnv node ${j.op === 'upgrade' ? `upgrade --binary ${j.newBinary}` : 'restart'} --datadir ${j.datadir}\`); it continues where it stopped.`,
        exitCode: ExitCode.Usage,
      },
    )
  }
}

export class WindowTimeoutError extends TnvError {
  override readonly code: string = 'UpgradeWindowTimeout'
  constructor(seconds: number, reason: string) {
    super(`No safe window came within ${seconds} s (${reason}); nothing was changed and the node runs as before.`, {
      fix: 'Run it again closer to an epoch boundary, give --window-timeout more time, or pass --now if you accept restarting a committee member mid-epoch.',
      exitCode: ExitCode.Timeout,
    })
  }
}

export class WindowUnreadableError extends TnvError {
  override readonly code: string = 'UpgradeWindowUnreadable'
  constructor(endpoint: string) {
    super(
      `The running node at ${endpoint} does not answer tn_getCurrentEpochInfo, so tnv cannot tell when its committee seat can spare it; nothing was changed.`,
      {
        fix: 'Serve the tn namespace on the node (--http.api …,tn), or pass --now if you accept restarting at once.',
        exitCode: ExitCode.NodeConfig,
      },
    )
  }
}

export class RestartFailedError extends TnvError {
  override readonly code: string = 'RestartFailed'
  constructor(datadir: string, why: string, unit?: string) {
    super(`The node for ${datadir} was restarted but did not come back: ${why.replace(/\.$/, '')}.`, {
      fix: unit
        ? `Read its log (\`journalctl -u ${unit}\`), fix the cause, and start it with \`systemctl start ${unit}\`.`
        : `Read its log (${datadir}/logs/node.log), fix the cause, and start it with tnv node start.`,
      exitCode: ExitCode.NodeNotSynced,
    })
  }
}

export class RolledBackError extends TnvError {
  override readonly code: string = 'UpgradeRolledBack'
  constructor(j: UpgradeJournal) {
    super(
      `The upgrade of ${j.datadir} to ${j.newBinary}${j.newVersion ? ` (${j.newVersion})` : ''} was rolled back: ${(j.failure ?? '').replace(/\.$/, '')}. The previous binary${j.oldVersion ? ` (${j.oldVersion})` : ''} is back at ${j.binary} and its node runs and serves again.`,
      {
        fix: `Read the new node's output in ${j.supervisor?.kind === 'systemd' ? `the unit's journal (\`journalctl -u ${j.supervisor.unit}\`)` : `${j.datadir}/logs/node.log`} for the cause; the previous binary is also kept at ${j.previous}.`,
        exitCode: ExitCode.RolledBack,
      },
    )
  }
}

export class RollbackFailedError extends TnvError {
  override readonly code: string = 'UpgradeRollbackFailed'
  constructor(j: UpgradeJournal, why: string) {
    super(
      `The upgrade of ${j.datadir} failed (${(j.failure ?? '').replace(/\.$/, '')}) and so did the rollback: ${why}.`,
      {
        fix: `The previous binary is kept at ${j.previous}: copy it to ${j.binary} and start the node with tnv node start; the journal is ${j.datadir}/tnv-upgrade.json.`,
        exitCode: ExitCode.NodeConfig,
      },
    )
  }
}
