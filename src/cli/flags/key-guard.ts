/**
 * The flags of the key guard (local fence + doppelganger check), shared by node start, restart,
 * upgrade and migrate, and the one call that runs it for a command (docs/node.md).
 */
import { resolve } from 'node:path'
import { Flags } from '@oclif/core'
import type { GuardStartReturnType } from '../../lib/node/start-guard.js'

export const keyGuardFlags = {
  'skip-doppelganger-check': Flags.boolean({
    summary: 'Start without watching the network for this key (you accept that another copy may be live).',
    description:
      'The local fence (one node per key on this host) still applies. Use it only when you know every other copy of the key is stopped for good: two live copies sign twice, which the network punishes.',
  }),
  'network-url': Flags.string({
    summary: "The network's endpoint the doppelganger check watches (default: from the node's --chain).",
    description:
      "--chain adiri/test-net: https://rpc.adiri.tel; --chain devnet: the running devnet's RPC; main-net: none is published, give one.",
    helpValue: '<url>',
  }),
  'doppelganger-window': Flags.integer({
    summary: 'Seconds the doppelganger check watches at least (and at least committee size + 1 new headers).',
    default: 60,
    min: 1,
    helpValue: '<seconds>',
  }),
}

type GuardFlags = {
  datadir: string
  'skip-doppelganger-check': boolean
  'network-url'?: string | undefined
  'doppelganger-window': number
}

/** Runs the guard for a command: notes on stderr (JSON lines with --json go to stderr too), the fence held on return. */
export async function guardKey(
  note: (text: string) => void,
  flags: GuardFlags,
  nodeFlags: readonly string[],
  env: NodeJS.ProcessEnv,
  command = 'tnv node start',
  skipReason?: string,
): Promise<GuardStartReturnType> {
  const [{ guardValidatorStart, resolveNetworkUrl, describeDoppelganger }, { tnvStateDir }, { defaultDevnetDir }] =
    await Promise.all([
      import('../../lib/node/start-guard.js'),
      import('../../lib/tx/journal.js'),
      import('../../lib/chain/devnet-runtime-file.js'),
    ])
  const skip = flags['skip-doppelganger-check']
  const devnetDir = resolve(defaultDevnetDir(env))
  const networkUrl =
    skip || skipReason ? null : await resolveNetworkUrl({ flag: flags['network-url'], nodeFlags, devnetDir })
  const guard = await guardValidatorStart({
    stateDir: tnvStateDir(env),
    datadir: flags.datadir,
    devnetDir,
    nodeFlags,
    networkUrl,
    skipDoppelganger: skip,
    ...(skipReason ? { skipReason } : {}),
    windowSeconds: flags['doppelganger-window'],
    command,
    onEvent: (e) => {
      if (e.event === 'doppelganger-watch')
        note(
          `doppelganger check: watching authority ${e.authorityId} on ${e.endpoint} for at least ${e.windowSeconds} s and ${e.minHeaders} consensus headers (epoch ${e.epoch}, committee of ${e.committeeSize})`,
        )
    },
  })
  if (guard.fence)
    note(
      `local fence: this host runs the key only from ${flags.datadir} (${guard.identities.map((i) => i.id).join(', ')})`,
    )
  note(describeDoppelganger(guard.doppelganger))
  return guard
}
