import { GenerateKeysCommand } from '../../../cli/generate-command.js'

export default class GenerateValidator extends GenerateKeysCommand {
  static override summary =
    "Generate a validator's keys: encrypted BLS key, proof of possession, network keys and node-info.yaml."
  static override description =
    "Alias: `keytool generate all`, as in the node's keytool. Writes <datadir>/node-keys/ (bls.kw, or bls.key with no-passphrase; primary.seed; worker.seed) and <datadir>/node-info.yaml exactly as the released node writes it (p2p_info.worker: one map, `---`, `rpc: ~`, quoted lower-case address). The proof of possession commits to --address, which must be the address governance whitelists. Refuses a non-empty node-keys/ unless --force (alias --overwrite; tnv keeps a timestamped backup). Never use --force for a validator that has staked: the registry binds its BLS key for good."
  static override aliases = ['keytool:generate:all']
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
    {
      description: "The specification's workers: list instead (the released node cannot read it):",
      command: '<%= config.bin %> <%= command.id %> --address 0 --datadir ./node2 --node-info-form workers',
    },
  ]
  protected readonly role = 'validator' as const
}
