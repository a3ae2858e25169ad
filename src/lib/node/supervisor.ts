/**
 * Who keeps a node running, as `tnv node upgrade` and `tnv node restart` see it: tnv itself (a
 * node it started with `--detach`), or systemd (the `tnv-node@.service` unit `tnv node unit`
 * writes, or any unit whose main process is the node or its `tnv node start`). The upgrade drives
 * whichever it is through this one interface, so that tnv never becomes a second supervisor of a
 * node systemd runs.
 */
import type { NodeBinary } from './binary.js'
import type { NodeState } from './state.js'

/** Recorded in the upgrade journal, so that a resumed run drives the same supervisor. */
export type SupervisorRef = { kind: 'tnv' } | { kind: 'systemd'; unit: string }

export type NodeSupervisor = SupervisorRef & {
  /** Stops the node (nothing running is no error); resolves once it has exited. */
  stop(): Promise<void>
  /**
   * Starts the node from `binary` (the path the supervisor runs) with `nodeFlags`, and resolves with
   * its record once its RPC answers. Under systemd the unit's own ExecStart decides how.
   */
  start(binary: NodeBinary, nodeFlags: string[]): Promise<NodeState>
}

export function describeSupervisor(s: SupervisorRef): string {
  return s.kind === 'systemd' ? `systemd unit ${s.unit}` : 'tnv (a node started with --detach)'
}
