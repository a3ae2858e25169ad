import { formatTelAndWei } from '../chain/units.js'
import type { DemoReturnType } from './lifecycle.js'

/** The demo's final table: one row per lifecycle step. */
export function renderDemoSummary(r: DemoReturnType): string {
  const rows = r.steps.map((s) => [s.step, s.epoch === null ? '' : String(s.epoch), s.result, s.tx ?? ''])
  const head = ['step', 'epoch', 'result', 'transaction']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd()
  return [
    '',
    `Validator lifecycle on the devnet (chain id ${r.chainId}), ${r.seconds} s`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `validator   ${r.validator}`,
    `stake       ${formatTelAndWei(BigInt(r.stakeAmountWei))}`,
    `paid back   ${formatTelAndWei(BigInt(r.paidWei))} to ${r.paidTo ?? r.validator}`,
    ...(r.dir ? [`kept        ${r.dir}`] : []),
  ].join('\n')
}
