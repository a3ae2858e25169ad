/** The flags of `tnv keytool recover`, defined once for the command and its session side (src/cli/keytool-recover.ts). */
import { Flags, type Interfaces } from '@oclif/core'
import { chainFlags } from './chain.js'
import { checkFlag } from './check.js'
import { datadirFlag, passphraseFlags, quietFlag } from './common.js'
import { addressFlag, generateFlags, p2pAddressFlags } from './keytool.js'
import { mnemonicFileFlag, mnemonicIndexFlag } from './mnemonic.js'

export const recoverFlags = {
  ...addressFlag,
  ...p2pAddressFlags,
  name: generateFlags.name,
  workers: generateFlags.workers,
  'rpc-http': generateFlags['rpc-http'],
  'rpc-ws': generateFlags['rpc-ws'],
  'node-info-form': generateFlags['node-info-form'],
  ...mnemonicFileFlag,
  ...mnemonicIndexFlag,
  'expect-pubkey': Flags.string({
    helpValue: '<0x hex>',
    summary:
      'The 96-byte compressed BLS public key the phrase must give (e.g. from `tnv validator status`); nothing is written otherwise.',
  }),
  ...datadirFlag,
  ...passphraseFlags,
  ...quietFlag,
  ...chainFlags,
  ...checkFlag,
}

export type RecoverFlags = Interfaces.InferredFlags<typeof recoverFlags>
