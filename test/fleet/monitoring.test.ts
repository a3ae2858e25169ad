/**
 * The monitoring artifacts (monitoring/): the alert rules are checked by `promtool check rules`
 * and unit-tested by `promtool test rules` (Debian's prometheus package); every alert names the
 * validator and carries a fix; the Grafana dashboard parses, every query is valid PromQL (judged
 * by promtool, as recording rules) and names only metrics `tnv node check --prometheus` writes.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { parse, stringify } from 'yaml'
import { ROOT, tempDir } from '../helpers/cli.js'

const MON = join(ROOT, 'monitoring')
const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' })
const noPromtool =
  promtool.status === 0 ? false : 'promtool is not installed (apt-get install prometheus): rules cannot be checked'

/** The metric names tnv writes: every `tnv_…` name in the textfile writer's source. */
function metricsTnvWrites(): Set<string> {
  const source = readFileSync(join(ROOT, 'src/lib/health/prometheus.ts'), 'utf8')
  return new Set([...source.matchAll(/'(tnv_[a-z0-9_]+)'/g)].map((m) => m[1] as string))
}

/** Names in a PromQL expression that are metrics (tnv_… and nothing else: no other exporter is assumed). */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(?=\{|\)|\s|$|\*|>|<|=|-|\+|\/)/g)]
    .map((m) => m[1] as string)
    .filter((n) => n.startsWith('tnv_'))
}

type Rule = {
  alert: string
  expr: string
  for?: string
  labels: Record<string, string>
  annotations: Record<string, string>
}

describe('alert rules', () => {
  const rules = (
    parse(readFileSync(join(MON, 'tnv-alerts.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }
  ).groups.flatMap((g) => g.rules)

  it('promtool check rules accepts them', { skip: noPromtool }, () => {
    const r = spawnSync('promtool', ['check', 'rules', 'tnv-alerts.yml'], { cwd: MON, encoding: 'utf8' })
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, new RegExp(`SUCCESS: ${rules.length} rules found`))
  })

  it('promtool test rules passes the unit tests', { skip: noPromtool }, () => {
    const r = spawnSync('promtool', ['test', 'rules', 'tnv-alerts.test.yml'], { cwd: MON, encoding: 'utf8' })
    assert.equal(r.status, 0, r.stdout + r.stderr)
    // every alert is exercised by at least one test case that expects it to fire
    const tests = readFileSync(join(MON, 'tnv-alerts.test.yml'), 'utf8')
    for (const rule of rules)
      assert.match(tests, new RegExp(`alertname: ${rule.alert}\\n\\s+exp_alerts:\\n\\s+- exp_labels`), rule.alert)
  })

  it("promtool test rules fails when an expectation is wrong (the verdict is the tool's)", { skip: noPromtool }, () => {
    const t = tempDir('tnv-rules-')
    try {
      writeFileSync(join(t.dir, 'tnv-alerts.yml'), readFileSync(join(MON, 'tnv-alerts.yml')))
      const broken = readFileSync(join(MON, 'tnv-alerts.test.yml'), 'utf8').replace(
        "summary: 'Validator 0xAAAAaAaAaaAAaaaAAaAAaaAaAAaaaAAAAaAAaAaa on h1:9100: tnv node check fails.'",
        "summary: 'Validator 0xAAAAaAaAaaAAaaaAAaAAaaAaAAaaaAAAAaAAaAaa on h1:9100: all is well.'",
      )
      writeFileSync(join(t.dir, 'tnv-alerts.test.yml'), broken)
      const r = spawnSync('promtool', ['test', 'rules', 'tnv-alerts.test.yml'], { cwd: t.dir, encoding: 'utf8' })
      assert.notEqual(r.status, 0)
      assert.match(r.stdout + r.stderr, /FAILED/)
    } finally {
      t.cleanup()
    }
  })

  it('every alert names the validator and the host, has a severity and a fix, and reads only tnv metrics', () => {
    const known = metricsTnvWrites()
    for (const rule of rules) {
      assert.match(rule.annotations.summary ?? '', /\{\{ \$labels\.instance \}\}/, rule.alert)
      if (rule.alert !== 'TnvValidatorUnidentified') {
        assert.match(rule.annotations.summary ?? '', /\{\{ \$labels\.validator \}\}/, rule.alert)
        assert.match(rule.expr, /group_left\(validator\) tnv_validator_info/, rule.alert)
      }
      assert.ok(['warning', 'critical'].includes(rule.labels.severity ?? ''), rule.alert)
      assert.ok((rule.annotations.description ?? '').length > 40, `${rule.alert}: the description is the fix`)
      for (const name of metricNames(rule.expr))
        assert.ok(known.has(name), `${rule.alert}: ${name} is not written by tnv`)
    }
  })
})

describe('Grafana dashboard', () => {
  type Panel = { title: string; type: string; targets?: { expr: string }[] }
  const dash = JSON.parse(readFileSync(join(MON, 'tnv-dashboard.json'), 'utf8')) as {
    uid: string
    panels: Panel[]
    templating: { list: { name: string; query: unknown }[] }
  }
  const t = tempDir('tnv-dash-')
  after(t.cleanup)

  it('parses, and every panel has a query naming only metrics tnv writes', () => {
    const known = metricsTnvWrites()
    assert.equal(dash.uid, 'tnv-validators')
    assert.ok(dash.panels.length >= 10)
    for (const p of dash.panels) {
      assert.ok(p.targets && p.targets.length > 0, `${p.title}: no query`)
      for (const { expr } of p.targets) {
        const names = metricNames(expr)
        assert.ok(names.length > 0, `${p.title}: ${expr} names no tnv metric`)
        for (const n of names) assert.ok(known.has(n), `${p.title}: ${n} is not written by tnv`)
      }
    }
    assert.ok(dash.templating.list.some((v) => v.name === 'validator'))
  })

  it('every query is valid PromQL (promtool check rules, each as a recording rule)', { skip: noPromtool }, () => {
    const rules = dash.panels.flatMap((p, i) =>
      (p.targets ?? []).map((x, j) => ({
        record: `dashboard:panel_${i}_${j}`,
        // Grafana's variable, as "All" expands it
        expr: x.expr.replaceAll('$validator', '.*'),
      })),
    )
    const file = join(t.dir, 'dashboard-queries.yml')
    writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules }] }))
    const r = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, new RegExp(`SUCCESS: ${rules.length} rules found`))
  })
})
