/**
 * Flags of the onboarding flows (`tnv stake`, `tnv exit`), defined once. Light: command files
 * import this at top level. Every wizard answer has a flag or a variable, so CI runs the same
 * flow without a terminal.
 */
import { Flags } from '@oclif/core'

export const flowFlags = {
  timeout: Flags.integer({
    helpGroup: 'FLOW',
    min: 1,
    default: 900,
    summary: 'Longest wait, in seconds, for each of: node sync, an epoch boundary, a pending transaction.',
  }),
}

export const stakeFlowFlags = {
  ...flowFlags,
  through: Flags.option({
    options: ['staked', 'active'] as const,
    helpGroup: 'FLOW',
    summary: 'How far to go: staked (stop after stake), or active (node synced, activate, follow to Active).',
    description:
      'Without a terminal the default is staked (stop once the stake is mined); on a terminal the wizard asks (default active). Giving --through also turns --json into JSON lines: one progress event per line, then the result.',
  })(),
  'create-keys': Flags.boolean({
    helpGroup: 'FLOW',
    summary: 'Without a terminal: generate validator keys in --datadir when it holds no node-info.yaml.',
    description:
      "The address is the signer's; the passphrase comes from --bls-passphrase-source (TN_BLS_PASSPHRASE by default).",
  }),
  mint: Flags.boolean({
    helpGroup: 'FLOW',
    summary:
      'Devnet only, with --through (or the wizard): whitelist the address with the devnet governance key if it holds no ConsensusNFT. The plain stake refuses it.',
  }),
  'whitelist-wait': Flags.integer({
    helpGroup: 'FLOW',
    min: 0,
    default: 0,
    summary: 'Without a terminal: seconds to wait for governance to whitelist the address (0: fail at once, exit 20).',
  }),
  'node-rpc-url': Flags.string({
    helpGroup: 'NODE',
    env: 'TN_NODE_RPC_URL',
    helpValue: '<url>',
    summary:
      'RPC of your node, to wait until it is synced before activating (default: the node `tnv node start` runs for --datadir).',
  }),
  'start-node': Flags.boolean({
    helpGroup: 'NODE',
    summary: 'Without a terminal: start the node (detached) when none runs for --datadir.',
  }),
  'node-binary': Flags.string({
    helpGroup: 'NODE',
    env: 'TN_NODE_BINARY',
    helpValue: '<path>',
    summary: "The node binary to start (default: tnv's reference node).",
  }),
}

export const exitFlowFlags = {
  ...flowFlags,
  through: Flags.option({
    options: ['exited', 'unstaked'] as const,
    helpGroup: 'FLOW',
    summary:
      'How far to go: exited (wait until the protocol marks it Exited) or unstaked (then wait for exit epoch + 1 and unstake).',
    description:
      'Without a terminal the default is to begin the exit only (beginExit, then stop); on a terminal the wizard asks. Giving --through also turns --json into JSON lines: one progress event per line, then the result.',
  })(),
  'accept-reward-shortfall': Flags.boolean({
    helpGroup: 'FLOW',
    summary: 'Unstake even if the issuance pool cannot cover the accrued rewards (the unpaid rewards are forfeited).',
  }),
}

/** `tnv activate`: the node check the wizard makes, on by default. */
export const nodeCheckFlags = {
  'node-rpc-url': Flags.string({
    helpGroup: 'NODE',
    env: 'TN_NODE_RPC_URL',
    helpValue: '<url>',
    summary:
      'RPC of your node, checked to be synced before activating (default: the node `tnv node start` runs for --datadir).',
  }),
  'skip-node-check': Flags.boolean({
    helpGroup: 'NODE',
    summary: 'Activate without checking that your node runs and is synced (e.g. a node tnv cannot reach).',
  }),
  'node-timeout': Flags.integer({
    helpGroup: 'NODE',
    min: 1,
    default: 120,
    helpValue: '<s>',
    summary: 'Longest wait, in seconds, for the node to be synced before activating.',
  }),
}
