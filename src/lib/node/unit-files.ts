/**
 * The systemd units of a validator host, as text: a template service running the node
 * (`tnv-node@.service`), and a template service + timer running `tnv node check --prometheus`
 * for node_exporter's textfile collector (`tnv-check@.service`, `tnv-check@.timer`). The instance
 * name (`%i`) is the validator's name on the host: its data directory is `<datadirRoot>/%i`, its
 * settings `<configDir>/%i.env`, its passphrase the file `<configDir>/%i/bls-passphrase`.
 *
 * Guarantees:
 * - exactly one supervisor: the node unit runs `tnv node start` in the foreground with
 *   `--restart never`, and systemd restarts it (`Restart=on-failure`); tnv's in-process restart
 *   loop is never on under these units.
 * - the BLS passphrase reaches tnv only through `LoadCredential=` (readable by this service
 *   alone at `$CREDENTIALS_DIRECTORY/tn-bls-passphrase`); it is in no unit, no argument and no
 *   environment file.
 * - the check service treats the check's own exit codes 1 (warn) and 2 (fail) as success: the
 *   figures are written either way, and the alert rules judge them (monitoring/).
 * - tnv's state directory (the registry of running keys the local fence keeps) is
 *   /var/lib/tnv-state, one for all instances of the host, created by systemd (StateDirectory=):
 *   with ProtectHome=yes the default (~/.local/state/tnv) is not writable and every start failed.
 * - the same parameters give byte-identical files (no time stamps), so a rewrite is a no-op.
 */

import { UsageError } from '../errors.js'

/** The credential name tnv reads from `$CREDENTIALS_DIRECTORY` (src/lib/passphrase/credential.ts). */
export const PASSPHRASE_CREDENTIAL = 'tn-bls-passphrase'

/** systemd creates /var/lib/<this> for the node units (StateDirectory=), writable under ProtectSystem=strict. */
const UNIT_STATE_DIRECTORY = 'tnv-state'

export type UnitParameters = {
  /** Absolute path of the tnv executable on the host. */
  tnv: string
  /** Absolute path of the node binary; null: tnv's reference node (devnet rehearsal only). */
  nodeBinary: string | null
  /** The system user the node and the check run as. */
  user: string
  /** Parent of the data directories: the instance's is `<datadirRoot>/%i`. */
  datadirRoot: string
  /** Holds `%i.env` (node flags, network) and `%i/bls-passphrase` (the credential's source). */
  configDir: string
  /** node_exporter's textfile collector directory: the check writes `tnv-%i.prom` there. */
  textfileDir: string
  /** Seconds between two checks. */
  checkIntervalSeconds: number
}

export type UnitFile = { name: string; content: string; mode: number }

/** systemd's quoting for one ExecStart= word: double quotes when it holds a space or a quote. */
function word(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
}

/**
 * @example const files = renderUnits({ tnv: '/usr/local/bin/tnv', nodeBinary: '/usr/local/bin/telcoin-network', user: 'tnv', datadirRoot: '/var/lib/tnv', configDir: '/etc/tnv', textfileDir: '/var/lib/prometheus/node-exporter', checkIntervalSeconds: 60 })
 */
export function renderUnits(p: UnitParameters): UnitFile[] {
  const datadir = `${p.datadirRoot}/%i`
  const envFile = `${p.configDir}/%i.env`
  const header = (what: string) =>
    `# ${what}\n# Written by \`tnv node unit\`; rewrite it with the same command rather than editing it.\n`
  const binaryEnv = p.nodeBinary ? `Environment=TN_NODE_BINARY=${word(p.nodeBinary)}\n` : ''
  const node = `${header('Telcoin Network validator node for instance %i, driven by tnv; systemd is its only supervisor.')}
[Unit]
Description=Telcoin Network validator node (%i)
Wants=network-online.target
After=network-online.target
# at most 5 starts in 10 minutes, then systemd stops trying (systemctl reset-failed to retry)
StartLimitIntervalSec=600
StartLimitBurst=5

[Service]
Type=simple
User=${p.user}
Group=${p.user}
Environment=TN_DATADIR=${datadir}
Environment=TN_NON_INTERACTIVE=1
# tnv's state (the host's registry of running keys, the local fence): ProtectHome= hides ~/.local/state
StateDirectory=${UNIT_STATE_DIRECTORY}
StateDirectoryMode=0700
Environment=TNV_STATE_DIR=/var/lib/${UNIT_STATE_DIRECTORY}
${binaryEnv}# TN_NODE_FLAGS (the node's own flags, split on spaces) and TN_CHAIN come from here
EnvironmentFile=${envFile}
# the passphrase: readable only by this service, at $CREDENTIALS_DIRECTORY/${PASSPHRASE_CREDENTIAL}
LoadCredential=${PASSPHRASE_CREDENTIAL}:${p.configDir}/%i/bls-passphrase
# foreground, --restart never: systemd's Restart= below is the one supervisor
ExecStart=${word(p.tnv)} node start --restart never --datadir ${datadir} -- $TN_NODE_FLAGS
Restart=on-failure
RestartSec=5s
# SIGTERM to tnv only: it stops the node cleanly (SIGTERM, then SIGKILL after 15 s)
KillMode=mixed
TimeoutStopSec=30s
NoNewPrivileges=yes
PrivateTmp=yes
ProtectSystem=strict
ProtectHome=yes
ReadWritePaths=${datadir}
UMask=0077

[Install]
WantedBy=multi-user.target
`
  const checkService = `${header("tnv node check for instance %i: the figures for node_exporter's textfile collector.")}
[Unit]
Description=tnv node check (%i) for the Prometheus textfile collector
After=tnv-node@%i.service

[Service]
Type=oneshot
User=${p.user}
Group=${p.user}
Environment=TN_DATADIR=${datadir}
Environment=TN_NON_INTERACTIVE=1
EnvironmentFile=${envFile}
# --hold 30: a finding changes level only once the new level has held 30 s, over the runs kept in ${datadir}/tnv-check-state.json
ExecStart=${word(p.tnv)} node check --datadir ${datadir} --hold 30 --prometheus ${word(`${p.textfileDir}/tnv-%i.prom`)}
# 1 = a warning, 2 = a failure: the check ran and wrote its figures; the alerts judge them
SuccessExitStatus=1 2
NoNewPrivileges=yes
PrivateTmp=yes
ProtectSystem=strict
ProtectHome=yes
ReadWritePaths=${p.textfileDir} ${datadir}
`
  const timer = `${header(`Runs tnv-check@%i.service every ${p.checkIntervalSeconds} s.`)}
[Unit]
Description=tnv node check (%i) every ${p.checkIntervalSeconds} s

[Timer]
OnBootSec=60s
OnUnitActiveSec=${p.checkIntervalSeconds}s
AccuracySec=1s
Unit=tnv-check@%i.service

[Install]
WantedBy=timers.target
`
  return [
    { name: 'tnv-node@.service', content: node, mode: 0o644 },
    { name: 'tnv-check@.service', content: checkService, mode: 0o644 },
    { name: 'tnv-check@.timer', content: timer, mode: 0o644 },
  ]
}

export type InstanceEnvParameters = {
  /** The node's own flags (what goes after `--` of `tnv node start`). */
  nodeFlags: readonly string[]
  /** The network `tnv node check` compares with (`--chain`), when given. */
  chain?: string | undefined
}

/**
 * `<configDir>/<instance>.env`: the node's flags and the network, no secret. systemd splits
 * `$TN_NODE_FLAGS` on whitespace, so a flag value holding a space is refused.
 * @example renderInstanceEnv({ nodeFlags: ['--chain', 'adiri', '--http'], chain: 'testnet' })
 */
export function renderInstanceEnv({ nodeFlags, chain }: InstanceEnvParameters): string {
  const bad = nodeFlags.find((f) => /[\s"'\\$]/.test(f) || f === '')
  if (bad !== undefined)
    throw new UsageError(
      `The node flag ${JSON.stringify(bad)} holds a space, quote, backslash or $ (or is empty): systemd splits $TN_NODE_FLAGS on whitespace and would not pass it as one word.`,
      { fix: 'Give the value without spaces or quotes (e.g. a path without spaces), or edit the unit by hand.' },
    )
  const lines = ['# Settings of this tnv-node@ instance, written by `tnv node unit`. No secret belongs here.']
  lines.push(`TN_NODE_FLAGS=${nodeFlags.join(' ')}`)
  if (chain) lines.push(`TN_CHAIN=${chain}`)
  return `${lines.join('\n')}\n`
}
