/**
 * Flags naming a validator's stake key material: node-info.yaml (as `keytool generate` wrote
 * it) or the two stake arguments in hex (`keytool export-staking-args`). Light: imported by
 * command files at top level.
 */
import { Flags } from '@oclif/core'
import { datadirFlag } from '../flags.js'

export const keyMaterialFlags = {
  ...datadirFlag,
  'node-info': Flags.string({
    helpValue: '<path>',
    summary: 'node-info.yaml, or the directory holding it. Default: the one in --datadir.',
    exclusive: ['bls-pubkey'],
  }),
  'bls-pubkey': Flags.string({
    helpValue: '<0x hex>',
    summary: '96-byte compressed BLS public key, instead of node-info.yaml (with --pop).',
    dependsOn: ['pop'],
  }),
  pop: Flags.string({
    helpValue: '<0x hex>',
    summary: '48-byte proof of possession, instead of node-info.yaml (with --bls-pubkey).',
    dependsOn: ['bls-pubkey'],
  }),
}

export type KeyMaterialFlagValues = {
  datadir: string
  'node-info'?: string | undefined
  'bls-pubkey'?: string | undefined
  pop?: string | undefined
}
