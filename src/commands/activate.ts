import { BaseCommand } from '../cli/base-command.js'
import { chainFlags, signerFlags, txFlags } from '../cli/flags/chain.js'
import { datadirFlag } from '../cli/flags/common.js'
import { nodeCheckFlags } from '../cli/flags/onboard.js'
import type { ActivateReturnType } from '../lib/registry/activate.js'

export default class Activate extends BaseCommand {
  static override summary = 'Activate a staked validator: activate() from the validator address.'

  static override description =
    `Run it once the node is synced: right before sending, tnv checks that your node (--node-rpc-url, else the node \`tnv node start\` runs for --datadir) is running and synced with the network, as the stake wizard does, and refuses (exit 23) when it is not; --skip-node-check sends without that check. The validator becomes PendingActivation, then Active at the next epoch boundary, which makes it eligible for committees in later epochs (inclusion is not guaranteed).

Safe to repeat: a validator already PendingActivation or Active is reported and nothing is sent (no node check either).`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --chain devnet --datadir ./validator',
    '<%= config.bin %> <%= command.id %> --chain testnet --keystore validator.json --node-rpc-url http://127.0.0.1:8545 --yes',
  ]

  static override flags = { ...chainFlags, ...signerFlags, ...txFlags, ...datadirFlag, ...nodeCheckFlags }

  async run(): Promise<ActivateReturnType> {
    const { flags } = await this.parse(Activate)
    const [{ activate }, { runRegistryCommand }] = await Promise.all([
      import('../lib/registry/activate.js'),
      import('../cli/registry-step.js'),
    ])
    return runRegistryCommand({
      session: this.session,
      out: (line) => this.out(line),
      flags,
      action: 'activate',
      datadir: flags.datadir,
      // the node check runs last, once the chain and the simulation say activate() would be
      // sent: a validator already activated (or a printed --unsigned transaction) needs no node
      step: (ctx, options) =>
        activate(ctx, {
          ...options,
          confirm: async (plan) => {
            if (!flags['skip-node-check']) {
              const { assertNodeSynced } = await import('../lib/onboard/node-check.js')
              await assertNodeSynced({
                datadir: flags.datadir,
                target: ctx.target,
                nodeRpcUrl: flags['node-rpc-url'],
                timeoutMs: flags['node-timeout'] * 1000,
                note: (line) => this.note(line),
              })
            }
            return options.confirm(plan)
          },
        }),
      sentLine: (r, sent) =>
        `Activated ${r.validator}: PendingActivation, Active from epoch ${r.activeFromEpoch}. Transaction ${sent.txHash} in block ${sent.blockNumber}.`,
    })
  }
}
