/** Flags shared by the `tnv devnet` commands. */
import { Flags } from '@oclif/core'
import { defaultDevnetDir } from '../paths.js'

export const devnetDirFlag = {
  datadir: Flags.string({
    summary: 'The devnet directory (chain state, devnet.json, node.log).',
    description: 'Defaults to $TNV_DEVNET_DIR, else $XDG_DATA_HOME/tnv/devnet, else ~/.local/share/tnv/devnet.',
    helpValue: '<dir>',
    default: async () => defaultDevnetDir(process.env),
    defaultHelp: async () => '~/.local/share/tnv/devnet',
  }),
}
