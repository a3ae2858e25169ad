/**
 * Flags naming a validator's stake key material: node-info.yaml (as `keytool generate` wrote
 * it) or the stake arguments in hex (`keytool export-staking-args`): the compressed key with
 * node-info's proof (next) and/or the adiri proof. Light: imported by command files at top level.
 */
import { Flags } from '@oclif/core'
import { datadirFlag } from './common.js'

export const keyMaterialFlags = {
  ...datadirFlag,
  'node-info': Flags.string({
    helpValue: '<path>',
    summary: 'node-info.yaml, or the directory holding it. Default: the one in --datadir.',
    exclusive: ['bls-pubkey'],
  }),
  'bls-pubkey': Flags.string({
    helpValue: '<0x hex>',
    summary: '96-byte compressed BLS public key, instead of node-info.yaml (with --pop and/or --adiri-pop).',
  }),
  pop: Flags.string({
    helpValue: '<0x hex>',
    summary: "48-byte proof of possession (node-info's; what the next registry takes), with --bls-pubkey.",
    dependsOn: ['bls-pubkey'],
  }),
  'adiri-pop': Flags.string({
    helpValue: '<0x hex>',
    summary:
      "The adiri registry's proof of possession (signature over its 218-byte message, 48 or 96 bytes), instead of opening the BLS key.",
    description:
      'Print it where the key is with `tnv keytool export-staking-args --registry-generation adiri --json`. Without it, on the adiri registry tnv signs that proof with the BLS key in --datadir (asking for the passphrase source only then).',
  }),
}
