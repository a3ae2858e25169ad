import { GenerateKeysCommand } from '../../../lib/keys/generate-command.js'

export default class GenerateValidator extends GenerateKeysCommand {
  static override summary =
    "Generate a validator's keys: encrypted BLS key, proof of possession, network keys and node-info.yaml."
  static override description =
    'Writes <datadir>/node-keys/ (bls.kw, or bls.key with no-passphrase; primary.seed; worker.seed) and <datadir>/node-info.yaml, byte-compatible with the reference node. The proof of possession commits to --address, which must be the address governance whitelists. Refuses a non-empty node-keys/ unless --force (which keeps a timestamped backup). Never use --force for a validator that has staked: the registry binds its BLS key for good.'
  static override examples = [
    {
      description:
        'With the passphrase in TN_BLS_PASSPHRASE (set it first, unechoed: read -rs TN_BLS_PASSPHRASE && export TN_BLS_PASSPHRASE):',
      command:
        '<%= config.bin %> <%= command.id %> --address 0xYourValidatorAddress --external-primary-addr /ip4/203.0.113.10/udp/49590/quic-v1 --external-worker-addrs /ip4/203.0.113.10/udp/49594/quic-v1',
    },
    {
      description: 'Local-only addresses (a devnet rehearsal), passphrase at a hidden prompt:',
      command:
        '<%= config.bin %> <%= command.id %> --address 0xYourValidatorAddress --datadir ./node1 --bls-passphrase-source ask',
    },
  ]
  protected readonly role = 'validator' as const
}
