/** The flags of `tnv stake`, defined once for the command and its session side (src/cli/stake-command.ts). */
import { Flags, type Interfaces } from '@oclif/core'
import { skipBackupCheckFlag } from './backup-gate.js'
import { chainFlags, signerFlags, txFlags } from './chain.js'
import { passphraseFlags } from './common.js'
import { p2pAddressFlags } from './keytool.js'
import { stakeFlowFlags } from './onboard.js'
import { keyMaterialFlags } from './registry.js'

export const stakeFlags = {
  ...keyMaterialFlags,
  ...chainFlags,
  ...signerFlags,
  ...txFlags,
  ...stakeFlowFlags,
  ...passphraseFlags,
  ...p2pAddressFlags,
  ...skipBackupCheckFlag,
  'offline-bundle': Flags.string({
    helpValue: '<file>',
    summary:
      'The funding key is on an offline machine: write the stake bundle to FILE (exit 32, waiting for the offline signature); run again once `tnv offline sign FILE` wrote its signed file beside it, to broadcast it. docs/offline.md',
    exclusive: ['keystore', 'unsigned', 'ledger', 'trezor'],
  }),
}

export type StakeFlags = Interfaces.InferredFlags<typeof stakeFlags>
