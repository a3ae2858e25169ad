/** The human rendering of an RpcCheckReport (`tnv rpc check` without --json). Pure. */
import type { ProbeStatus, RpcCheckReport, TransportCheck } from './types.js'

const LABEL = { http: 'HTTP', ws: 'WS', ipc: 'IPC' } as const

const STATUS_TEXT: Record<ProbeStatus, string> = {
  served: 'served',
  'not-served': 'not served (-32601)',
  unauthorized: 'refused (token)',
  failed: 'no answer',
}

function authText(c: TransportCheck): string {
  if (c.transport === 'ipc') return 'IPC: no token'
  if (!c.auth.tokenSent) return 'no token sent'
  return `token sent; without token: ${c.auth.withoutToken}; wrong token: ${c.auth.wrongToken}`
}

function transportBlock(c: TransportCheck): string[] {
  const lines = [`${LABEL[c.transport]} ${c.target}  (${c.loopback ? 'loopback' : 'non-loopback'}; ${authText(c)})`]
  if (!c.reachable) {
    lines.push('  not checked (see "Could not check")')
    return lines
  }
  const withExpected = c.expected !== null
  const header = ['namespace', 'probe', 'answer', ...(withExpected ? [`expected (worker ${c.expected?.worker})`] : [])]
  const rows = c.namespaces.map((n) => [
    n.namespace,
    n.method,
    STATUS_TEXT[n.status],
    ...(withExpected ? [n.expected ? 'served' : 'not served'] : []),
  ])
  const all = [header, ...rows]
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)))
  for (const r of all)
    lines.push(`  ${r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')}`)
  const modules = c.rpcModules
    ? Object.entries(c.rpcModules)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : '-32601 (rpc not served) or no answer'
  lines.push(`  rpc_modules: ${modules}`)
  const sub = c.subscriptions
  const must = c.transport === 'http' ? 'must be refused over HTTP' : 'must work where eth is served'
  lines.push(`  eth_subscribe: ${sub.status}${sub.detail ? ` (${sub.detail})` : ''}; ${must}`)
  return lines
}

const BEHAVIOUR_NAME = {
  released: "the released node's (v0.14.0-adiri and main)",
  spec: "the specification's",
} as const

export function formatCheck(report: RpcCheckReport): string {
  const lines: string[] = []
  const b = report.behaviour
  lines.push(
    b.detected === 'undetermined'
      ? `Namespace behaviour: not determined; judged by ${BEHAVIOUR_NAME[b.judgedAs]} rules.`
      : `Namespace behaviour: ${BEHAVIOUR_NAME[b.detected]}.`,
  )
  for (const e of b.evidence) lines.push(`  - ${e}`)
  lines.push('')
  for (const c of [report.transports.http, report.transports.ws, report.transports.ipc]) {
    if (c) lines.push(...transportBlock(c), '')
  }
  if (report.expected && !report.expected.ok) lines.push('The expected flags would not start the node.', '')
  const section = (title: string, items: string[]) => {
    if (items.length === 0) return
    lines.push(title)
    for (const item of items) lines.push(`  - ${item}`)
    lines.push('')
  }
  section('Mismatches', report.mismatches)
  section('Exposure', report.exposures)
  section('Could not check', report.failures)
  section('Notes', report.notes)
  const rules = b.judgedAs === 'released' ? "the released node's rules" : "the specification's rules"
  const verdict = report.ok
    ? `OK: the node serves what ${rules} ${report.expected ? 'and the expected flags say' : 'say'}.`
    : report.mismatches.length || report.exposures.length
      ? `FAILED: ${report.mismatches.length} mismatch(es), ${report.exposures.length} exposure(s).`
      : `NOT CHECKED: ${report.failures.length} endpoint(s) could not be checked.`
  lines.push(verdict)
  return lines.join('\n')
}
