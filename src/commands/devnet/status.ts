import { BaseCommand } from '../../cli/base-command.js'
import { devnetDirFlag } from '../../devnet/node/cli-flags.js'
import type { DevnetStatus } from '../../devnet/node/devnet-status.js'

export default class DevnetStatusCommand extends BaseCommand {
  static override summary =
    'Show the running devnet: what it runs, endpoints, block, epoch, committee, reward pool and the public dev keys.'
  static override description =
    `Asks the devnet node of the directory (over its control socket) what it runs (embedded, a genesis, or a fork; the registry generation and code hash), where it serves, the chain's block and epoch (epochs end by time, as on the node; a rehearsal epoch length is labelled as such), the committee, the Issuance pool (rewards are paid only from what governance puts in it), the registry owner that rehearsal governance impersonates, and the funded dev accounts with their keys.

The keys are PUBLIC devnet keys, the same on every tnv devnet: use them only on the devnet. The devnet has no governance key. Exit code 28 (not running) when no devnet is running for the directory.`
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json']
  static override flags = { ...devnetDirFlag }

  async run(): Promise<DevnetStatus> {
    const { flags } = await this.parse(DevnetStatusCommand)
    const { askDevnet } = await import('../../devnet/node/devnet-control.js')
    const { formatTelAndWei } = await import('../../lib/chain/units.js')
    const s = await askDevnet<DevnetStatus>(flags.datadir, 'status')
    const src = s.source
    const runs =
      src.kind === 'fork' && src.fork
        ? `fork of ${src.fork.url} (chain id ${src.fork.upstreamChainId}) at block ${src.fork.blockNumber}; ${s.fork?.upstreamRequests ?? 0} upstream requests so far${s.fork?.rateLimited ? `, ${s.fork.rateLimited} rate-limited` : ''}`
        : `${src.kind === 'embedded' ? 'embedded devnet: ' : ''}genesis ${src.genesis?.name ?? src.genesis?.path} (chain id ${src.genesis?.chainId} in the file)`
    this.out(`devnet running (pid ${s.pid}) in ${s.datadir}`)
    this.out(`  runs         ${runs}`)
    this.out(
      `  registry     ${s.registry.address}: ${s.generation} generation, code hash ${s.registry.codeHash} (${s.registry.match})`,
    )
    if (s.blsVerifier) this.out(`  BLS verify   EVM verifier at ${s.blsVerifier} (stands in for the node's precompile)`)
    this.out(`  chain id     ${s.chainId}`)
    if (s.chainIdWarning) this.out(`  WARNING      ${s.chainIdWarning}`)
    // the engine is not isolated (no network namespace here): say which port any local user reaches
    if (s.engine.notice) this.out(`  WARNING      ${s.engine.notice}`)
    for (const w of s.workers) {
      const prefix = s.workers.length > 1 ? `worker ${w.worker} ` : ''
      if (w.http) this.out(`  ${`${prefix}http`.padEnd(12)} ${w.http}`)
      if (w.ws) this.out(`  ${`${prefix}ws`.padEnd(12)} ${w.ws}`)
      if (w.ipc) this.out(`  ${`${prefix}ipc`.padEnd(12)} ${w.ipc}`)
    }
    const e = s.epoch
    const length =
      e.lengthSource === 'rehearsal'
        ? `${e.lengthSeconds} s (REHEARSAL setting; the registry says ${e.registryEpochDuration} s)`
        : `${e.lengthSeconds} s (the registry's epochDuration)`
    this.out(`  block        ${s.blockNumber} (${new Date(s.blockTimestamp * 1000).toISOString()})`)
    this.out(`  epoch        ${e.id} since block ${e.startBlock} (${e.startedAt}); length ${length}`)
    this.out(
      `  next epoch   at ${e.nextBoundaryAt}, in ${e.secondsToNextEpoch} s${e.clockAheadSeconds > 0 ? ` (the chain's clock runs ${e.clockAheadSeconds} s ahead: advance-epoch warps it)` : ''}`,
    )
    this.out(`  committee    ${s.committee.join(', ')}`)
    this.out(`  issuance     ${s.issuance}: pool ${formatTelAndWei(BigInt(s.rewards.issuancePoolWei))}`)
    this.out(`               ${s.rewards.note}`)
    if (s.paused) this.out('  PAUSED       the registry is paused (staking, exits and claims revert)')
    this.out(`  governance   owner ${s.governance.owner}; ${s.governance.notice}`)
    this.out('')
    this.out(`PUBLIC DEVNET KEYS. ${s.keysNotice}`)
    for (const [i, a] of s.accounts.entries())
      this.out(`  account ${String(i).padEnd(4)} ${a.address}  ${a.privateKey}`)
    return s
  }
}
