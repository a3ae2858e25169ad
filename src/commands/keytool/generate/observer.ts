import { GenerateKeysCommand } from '../../../cli/generate-command.js'

export default class GenerateObserver extends GenerateKeysCommand {
  static override summary = "Generate an observer's keys (same files as a validator; an observer never stakes)."
  static override description =
    'Writes <datadir>/node-keys/ and <datadir>/node-info.yaml exactly as `keytool generate validator` does. Refuses a non-empty node-keys/ unless --force (which keeps a timestamped backup).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --address 0 --datadir ./observer --bls-passphrase-source ask',
  ]
  protected readonly role = 'observer' as const
}
