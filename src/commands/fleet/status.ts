import { Flags } from '@oclif/core'
import { BaseCommand } from '../../cli/base-command.js'
import { chainFlags } from '../../cli/flags/chain.js'
import { timeoutFlags } from '../../cli/flags/rpc.js'
import type { FleetStatus } from '../../lib/fleet/status.js'

export default class FleetStatusCommand extends BaseCommand {
  static override summary = 'One row per validator of an inventory: its node check, read in parallel, problems first.'
  static override description =
    `The inventory is an Ansible inventory (INI or YAML) whose validator hosts carry tnv_datadir (the data directory on this machine) or tnv_node_rpc_url (the node's RPC), optionally tnv_address, tnv_chain, tnv_rpc_url, tnv_chain_id; or tnv's own YAML: "validators:" with name, datadir, node_rpc_url, address, chain, rpc_url (docs/automation.md).

Each validator gets one tnv node check (RPC exposure probes off), at most --concurrency at a time. Rows needing attention come first (fail, warn, ok).

Exit codes, as tnv node check's: 0 every row ok, 1 a row warns, 2 a row fails (or could not be checked). Bad flags or an unreadable inventory exit with their own codes (docs/ci.md).`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --inventory inventory/hosts.ini',
    '<%= config.bin %> <%= command.id %> --inventory validators.yml --concurrency 16 --json | jq \'.rows[] | select(.level != "ok")\'',
  ]
  static override flags = {
    inventory: Flags.string({
      required: true,
      helpValue: '<file>',
      summary: 'Ansible inventory (INI or YAML) or tnv validators YAML.',
    }),
    concurrency: Flags.integer({ default: 8, min: 1, max: 256, summary: 'Checks run at the same time.' }),
    chain: Flags.string({
      env: 'TN_CHAIN',
      helpValue: '<network>',
      summary: 'Network for validators whose inventory entry names none.',
    }),
    'rpc-url': Flags.string({
      env: 'TN_RPC_URL',
      helpValue: '<url>',
      summary: 'Network endpoint for validators whose inventory entry names none.',
    }),
    'devnet-dir': chainFlags['devnet-dir'],
    ...timeoutFlags,
  }

  async run(): Promise<FleetStatus> {
    const { flags } = await this.parse(FleetStatusCommand)
    const [{ readInventory }, { fleetStatus }] = await Promise.all([
      import('../../lib/fleet/inventory.js'),
      import('../../lib/fleet/status.js'),
    ])
    const validators = await readInventory(flags.inventory)
    const fleet = await fleetStatus({
      validators,
      concurrency: flags.concurrency,
      timeoutMs: flags.timeout,
      defaults: { chain: flags.chain, rpcUrl: flags['rpc-url'], devnetDir: flags['devnet-dir'] },
    })
    process.exitCode = fleet.exitCode
    if (!this.jsonEnabled()) this.render(fleet)
    return fleet
  }

  private render(f: FleetStatus): void {
    const head = ['LEVEL', 'NAME', 'VALIDATOR', 'STATUS', 'MODE', 'BLOCK', 'LAG', 'COMMITTEE', 'NEXT']
    const rows = f.rows.map((r) => [
      r.level.toUpperCase(),
      r.name,
      r.validator ? `${r.validator.slice(0, 10)}…` : '-',
      r.status ?? '-',
      r.nodeMode ?? '-',
      r.blockNumber ?? '-',
      r.lagBlocks === null ? '-' : String(r.lagBlocks),
      r.inCommittee === null ? '-' : r.inCommittee ? 'yes' : 'no',
      r.next,
    ])
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)))
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ')
    this.out(line(head))
    for (const r of rows) this.out(line(r))
    this.note(
      `${f.rows.length} validators: ${f.counts.fail} fail, ${f.counts.warn} warn, ${f.counts.ok} ok; ${f.roundTrips} round trips, ${f.wallMs} ms at concurrency ${f.concurrency}`,
    )
  }
}
