/** Failures of the reference node and the `tnv devnet` commands; each message carries the fix. */
import { ExitCode, TnvError, UsageError } from '../../lib/errors.js'

/** The RPC plan of the node flags says the node refuses to start (the resolver's errors). */
export class NodeStartRefusedError extends TnvError {
  override readonly code: string = 'NodeStartRefused'
  constructor(reasons: string[]) {
    super(`The node refuses to start with these flags: ${reasons.join(' ')}`, {
      fix: 'Fix the flags as said, then start again; `tnv rpc plan -- <node flags>` shows the whole plan.',
      exitCode: ExitCode.NodeConfig,
    })
  }
}

/** `--chain adiri|testnet`: the reference node is a binary built without the test-network feature. */
export class TestNetworkUnavailableError extends TnvError {
  override readonly code: string = 'TestNetworkUnavailable'
  constructor(chain: string) {
    super(
      `--chain ${chain} selects the test network (adiri, chain id 2017), whose genesis is built into the node only with the test-network feature; this binary (the tnv reference node) was built without it and refuses to start on that chain.`,
      {
        fix: 'Run the telcoin-network binary built with the test-network feature for adiri, or use --chain dev for the local devnet.',
        exitCode: ExitCode.NodeConfig,
      },
    )
  }
}

export class UnknownChainError extends UsageError {
  override readonly code: string = 'UnknownChain'
  constructor(chain: string) {
    super(`--chain ${JSON.stringify(chain)} is not a chain the reference node knows.`, {
      fix: 'Use --chain dev (a devnet of its own in --datadir; the default) or --chain devnet (join the devnet `tnv devnet start` runs). The test network (adiri) needs the real telcoin-network binary.',
    })
  }
}

/** A node flag of the reference node's own (not an RPC flag) is malformed. */
export class NodeFlagError extends UsageError {
  override readonly code: string = 'NodeFlag'
}

export class DevnetAlreadyRunningError extends TnvError {
  override readonly code: string = 'DevnetAlreadyRunning'
  constructor(dir: string, pid: number, rpcUrl: string | null) {
    super(`A devnet node already runs for ${dir} (pid ${pid}${rpcUrl ? `, ${rpcUrl}` : ''}).`, {
      fix: `Use it (\`tnv devnet status --datadir ${dir}\`), or stop it first with \`tnv devnet stop --datadir ${dir}\`, or give another --datadir.`,
      exitCode: ExitCode.NodeConfig,
    })
  }
}

export class DevnetNodeNotRunningError extends TnvError {
  override readonly code: string = 'DevnetNodeNotRunning'
  constructor(dir: string) {
    super(`No devnet is running for ${dir}.`, {
      fix: `Start one with \`tnv devnet start --detach --datadir ${dir}\`.`,
      exitCode: ExitCode.NotRunning,
    })
  }
}

/** The devnet process is alive but its control socket does not answer. */
export class DevnetNotAnsweringError extends TnvError {
  override readonly code: string = 'DevnetNotAnswering'
  constructor(dir: string, pid: number, reason: string) {
    super(`The devnet node for ${dir} (pid ${pid}) does not answer: ${reason}.`, {
      fix: `Read its log (${dir}/node.log when started with --detach); stop it with \`tnv devnet stop --datadir ${dir}\` and start it again.`,
      exitCode: ExitCode.RpcUnreachable,
    })
  }
}

/** The node exited (or never became ready) while `tnv devnet start` waited for it. */
export class DevnetStartFailedError extends TnvError {
  override readonly code: string = 'DevnetStartFailed'
  /** The node could not listen on a port (the gateway's EADDRINUSE line is in the log tail). */
  readonly portInUse: boolean
  constructor(reason: string, logTail: string, logFile: string | null) {
    super(`The devnet node did not start: ${reason}.`, {
      fix: logFile
        ? `Read the log (${logFile}) for the cause, fix it and start again.`
        : 'Read the log above for the cause, fix it and start again.',
      details: logTail ? logTail.split('\n').slice(-15) : [],
      exitCode: ExitCode.NodeConfig,
    })
    this.portInUse = /cannot listen on \S+: the port is in use/.test(logTail)
  }
}

export class DevnetStopTimeoutError extends TnvError {
  override readonly code: string = 'DevnetStopTimeout'
  constructor(pid: number, seconds: number) {
    super(`The devnet node (pid ${pid}) did not stop within ${seconds} s of SIGTERM.`, {
      fix: `Wait a little and run \`tnv devnet stop\` again; if it still runs, end it with \`kill -KILL ${pid}\` (the chain keeps its last saved state).`,
      exitCode: ExitCode.Timeout,
    })
  }
}

/** A control request (advance-epoch, status) failed inside the running node. */
export class DevnetControlError extends TnvError {
  override readonly code: string = 'DevnetControl'
  constructor(op: string, reason: string) {
    super(`The devnet node could not ${op}: ${reason}.`, {
      fix: 'Check the node log; `tnv devnet status` shows whether the node is healthy.',
      exitCode: ExitCode.Internal,
    })
  }
}

/** `--chain devnet` but no devnet runs to join. */
export class NoDevnetToJoinError extends TnvError {
  override readonly code: string = 'NoDevnetToJoin'
  constructor(dir: string) {
    super(`--chain devnet joins the local devnet, but none is running for ${dir}.`, {
      fix: `Start it first with \`tnv devnet start --detach\` (or set TNV_DEVNET_DIR to the directory of the one you run), or use --chain dev for a devnet of this node's own.`,
      exitCode: ExitCode.NodeConfig,
    })
  }
}
