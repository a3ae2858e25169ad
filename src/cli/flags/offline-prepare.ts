/** The flags of `tnv offline prepare` (and `tnv offline wizard`), defined once for the commands and their session side (src/cli/offline-prepare.ts). */
import { Flags, type Interfaces } from '@oclif/core'
import { skipBackupCheckFlag } from './backup-gate.js'
import { chainFlags } from './chain.js'
import { passphraseFlags } from './common.js'
import { keyMaterialFlags } from './registry.js'

export const offlinePrepareFlags = {
  ...chainFlags,
  ...keyMaterialFlags,
  ...passphraseFlags,
  from: Flags.string({
    helpValue: '<address>',
    summary:
      'The account that will sign offline (the validator address; for a stake, default: node-info.yaml’s execution address).',
  }),
  validator: Flags.string({
    helpValue: '<address>',
    summary: 'unstake and rewards-claim by a delegator: the validator (default: --from).',
  }),
  delegator: Flags.string({
    helpValue: '<address>',
    summary: 'delegation-signature: the address that will submit delegateStake and pay the stake.',
  }),
  deadline: Flags.string({
    default: '24h',
    helpValue: '<when>',
    summary:
      'delegation-signature (next registry): Unix seconds, a duration from now (90m, 24h, 7d) or an ISO date; the bundle expires no later.',
  }),
  signature: Flags.string({
    helpValue: '<file>',
    summary:
      "delegation-stake: the validator's signature file from `tnv delegation sign` (the delegator it names signs offline).",
  }),
  'accept-reward-shortfall': Flags.boolean({
    summary: 'unstake (next registry): forfeit rewards the Issuance pool cannot cover.',
  }),
  'expires-in': Flags.string({
    default: '24h',
    helpValue: '<n>s|m|h|d',
    summary: 'How long the bundle stays valid (sign and broadcast refuse it after that), e.g. 90m, 24h, 2d.',
  }),
  ...skipBackupCheckFlag,
  out: Flags.string({
    required: true,
    helpValue: '<file>',
    summary: 'The bundle file to write (it must not exist).',
  }),
}

export type OfflinePrepareFlags = Interfaces.InferredFlags<typeof offlinePrepareFlags>
