import { ExitCode, TnvError } from '../errors.js'

export class NodeBinaryNotFoundError extends TnvError {
  override readonly code: string = 'NodeBinaryNotFound'
  constructor(path: string, origin: string) {
    super(`The node binary ${path} (from ${origin}) does not exist or is not executable.`, {
      fix: 'Build and install the node, then pass --node-binary <path> or set TN_NODE_BINARY; without either, tnv starts its reference node.',
      exitCode: ExitCode.NodeConfig,
    })
  }
}

export class NodeWouldRefuseError extends TnvError {
  override readonly code: string = 'NodeWouldRefuse'
  constructor(errors: string[]) {
    super(`The node would refuse to start with these flags: ${errors.join(' ')}`, {
      fix: 'Fix the flags (see `tnv rpc plan -- <flags>` for what each transport would serve) and start again.',
      exitCode: ExitCode.NodeConfig,
    })
  }
}

export class NodeExitedError extends TnvError {
  override readonly code: string = 'NodeExited'
  constructor(code: number | null, signal: string | null, tail: string) {
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
    super(`The node ${how} before its RPC answered.`, {
      fix: 'Read its last log lines below, fix the cause, and start it again.',
      details: tail ? tail.split('\n').slice(-15) : [],
      exitCode: ExitCode.NodeConfig,
    })
  }
}

export class NodeAlreadyRunningError extends TnvError {
  override readonly code: string = 'NodeAlreadyRunning'
  constructor(pid: number, datadir: string) {
    super(`A node started by tnv is already running for ${datadir} (pid ${pid}).`, {
      fix: `Use it as it is, or stop it first with \`tnv node stop --datadir ${datadir}\`.`,
      exitCode: ExitCode.NodeConfig,
    })
  }
}

export class NodeNotRunningError extends TnvError {
  override readonly code: string = 'NodeNotRunning'
  constructor(datadir: string) {
    super(`No node started by tnv is running for ${datadir}.`, {
      fix: `Start one with \`tnv node start --datadir ${datadir} -- <node flags>\`.`,
      exitCode: ExitCode.NodeNotSynced,
    })
  }
}

export class NodeNoRpcEndpointError extends TnvError {
  override readonly code: string = 'NodeNoRpcEndpoint'
  constructor() {
    super(
      'The node flags enable no HTTP, WebSocket or IPC endpoint, so tnv cannot tell when the node is up or synced.',
      {
        fix: 'Add --http (or --ws, or drop --ipcdisable) to the node flags.',
        exitCode: ExitCode.NodeConfig,
      },
    )
  }
}

export class RpcTimeoutError extends TnvError {
  override readonly code: string = 'RpcTimeout'
  constructor(what: string, seconds: number, fix: string) {
    super(`${what} did not happen within ${seconds} s.`, { fix, exitCode: ExitCode.Timeout })
  }
}

export class NotSyncedError extends TnvError {
  override readonly code: string = 'NotSynced'
  constructor(
    local: bigint,
    remote: bigint,
    seconds: number,
    method = 'eth_blockNumber',
    nodeMode: string | null = null,
  ) {
    const what = method === 'eth_blockNumber' ? 'block' : 'consensus header'
    super(
      `The node is not synced after ${seconds} s: local ${what} ${local}, network ${what} ${remote} (${method})${nodeMode === 'CvvInactive' ? '; tn_nodeMode says CvvInactive: it is still catching up' : ''}.`,
      {
        fix: "Check the node's logs and peers, then run `tnv node sync` again (with a larger --timeout if it is still catching up).",
        exitCode: ExitCode.NodeNotSynced,
      },
    )
  }
}

/** A port the node is to listen on is taken: named with its holder (when tnv can tell) and the flag. */
/** The IPC socket path of the node to start is served by a live process. */
export class IpcInUseError extends TnvError {
  override readonly code: string = 'IpcInUse'
  constructor({ path, holder }: { path: string; holder: { pid: number; command: string } | null }) {
    const by = holder ? ` by pid ${holder.pid}${holder.command ? ` (${holder.command})` : ''}` : ' by another process'
    super(
      `The node's IPC socket ${path} is already served${by}, so the node could not listen there; nothing was started.`,
      {
        fix: `Stop that process, or give this node its own socket after \`--\` with --ipcpath <datadir>/tn.ipc (or --ipcdisable when nothing on this host needs IPC).`,
        exitCode: ExitCode.NodeConfig,
      },
    )
  }
}

export class PortInUseError extends TnvError {
  override readonly code: string = 'PortInUse'
  constructor({
    what,
    address,
    port,
    flag,
    holder,
  }: {
    what: string
    address: string
    port: number
    flag: string
    holder: { pid: number; command: string } | null
  }) {
    const by = holder ? ` by pid ${holder.pid}${holder.command ? ` (${holder.command})` : ''}` : ' by another process'
    super(
      `The node's ${what} port ${address}:${port} is already in use${by}, so the node could not listen there; nothing was started.`,
      {
        fix: `Stop that process (a running devnet: \`tnv devnet stop\`), or give the node a free port after \`--\` with ${flag} <port>.`,
        exitCode: ExitCode.NodeConfig,
      },
    )
  }
}

/** The RPC that answered the readiness probe belongs to another process than the node tnv started. */
export class ProbeAnsweredByOtherError extends TnvError {
  override readonly code: string = 'ProbeAnsweredByOther'
  constructor(endpoint: string, holder: { pid: number; command: string }, childPid: number) {
    super(
      `${endpoint} answered, but it is served by pid ${holder.pid}${holder.command ? ` (${holder.command})` : ''}, not by the node tnv started (pid ${childPid}); the node was stopped.`,
      {
        fix: 'Stop that process, or give the node a free port after `--` (--http.port <port>), and start again.',
        exitCode: ExitCode.NodeConfig,
      },
    )
  }
}
