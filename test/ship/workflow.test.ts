/**
 * The GitHub Actions workflow in docs/ci.md, run as written (issue 19): the `rehearse` job's
 * steps are read from the document and executed as a GitHub runner executes them (`bash -e`
 * on each `run:` script, the workflow's, job's and step's `env:`, `$RUNNER_TEMP`,
 * `$GITHUB_PATH` prepended to PATH for the steps after, `if: always()`), with the artifact the
 * `build` job uploads (the single executable and its checksum) downloaded where the step says,
 * and a PATH without Node.js. The `build` job's commands are the ones .ci/run runs; the
 * `onboard` job installs tnv with the very same step. So the document cannot drift from what CI
 * runs.
 */
import assert from 'node:assert/strict'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { parse } from 'yaml'
import { ROOT, tempDir } from '../helpers/cli.js'
import { ensureSea, type Run, removeDir, runBare } from './sea.js'

type Step = {
  name?: string
  uses?: string
  with?: Record<string, string>
  run?: string
  if?: string
  env?: Record<string, string>
}
type Job = { env?: Record<string, string>; steps: Step[]; 'timeout-minutes'?: number }
type Workflow = { env?: Record<string, string>; jobs: Record<string, Job> }

function documentedWorkflow(): Workflow {
  const doc = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8')
  const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1] as string) as Workflow)
  const found = blocks.find((w) => w?.jobs?.rehearse && w.jobs.build)
  assert.ok(found, 'docs/ci.md has the workflow with the build and rehearse jobs')
  return found
}

/** A directory of every tool in /usr/bin and /bin except Node.js and its package managers. */
function pathWithoutNode(dir: string): string {
  mkdirSync(dir, { recursive: true })
  const skip = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack', 'tsx'])
  for (const from of ['/usr/bin', '/bin']) {
    if (!existsSync(from)) continue
    for (const name of readdirSync(from)) {
      if (skip.has(name) || existsSync(join(dir, name))) continue
      symlinkSync(join(from, name), join(dir, name))
    }
  }
  return dir
}

describe('the documented GitHub Actions workflow, run as written', { timeout: 900_000 }, () => {
  const tmp = tempDir('tnv-workflow-')
  const workspace = join(tmp.dir, 'workspace')
  const runnerTemp = join(tmp.dir, 'runner-temp')
  const home = join(tmp.dir, 'home')
  const workflow = documentedWorkflow()
  const results: { step: string; run: Run | null }[] = []
  let basePath = ''

  before(async () => {
    for (const d of [workspace, runnerTemp, home]) mkdirSync(d, { recursive: true })
    basePath = pathWithoutNode(join(tmp.dir, 'tools'))
    const exe = await ensureSea()
    const job = workflow.jobs.rehearse as Job
    const githubPath = join(tmp.dir, 'github_path')
    writeFileSync(githubPath, '')
    let failed = false
    const deadline = Date.now() + (job['timeout-minutes'] ?? 15) * 60_000
    for (const [i, step] of job.steps.entries()) {
      const label = step.name ?? step.uses ?? `step ${i}`
      const runIt =
        step.if === undefined ? !failed : step.if === 'always()' ? true : step.if === 'failure()' ? failed : null
      assert.notEqual(runIt, null, `${label}: unsupported if: ${step.if}`)
      if (!runIt) continue
      if (step.uses) {
        // the one action the job uses: the build job's artifact, downloaded into `path`
        assert.match(step.uses, /^actions\/download-artifact@/, `${label}: unexpected action`)
        const dest = join(workspace, step.with?.path ?? '.')
        mkdirSync(dest, { recursive: true })
        for (const f of [exe, `${exe}.sha256`]) copyFileSync(f, join(dest, basename(f)))
        results.push({ step: label, run: null })
        continue
      }
      const env: Record<string, string> = { ...workflow.env, ...job.env, ...step.env }
      for (const [k, v] of Object.entries(env))
        assert.ok(!String(v).includes('${{'), `${label}: ${k} needs an expression`)
      assert.ok(step.run && !step.run.includes('${{'), `${label}: a run script without expressions`)
      const added = readFileSync(githubPath, 'utf8').split('\n').filter(Boolean).reverse()
      const script = join(tmp.dir, `step-${i}.sh`)
      writeFileSync(script, step.run)
      const r = await runBare(join(basePath, 'bash'), ['-e', script], {
        cwd: workspace,
        timeoutMs: Math.max(1000, deadline - Date.now()),
        env: {
          ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])),
          PATH: [...added, basePath].join(':'),
          HOME: home,
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_WORKSPACE: workspace,
          GITHUB_PATH: githubPath,
          RUNNER_TEMP: runnerTemp,
        },
      })
      results.push({ step: label, run: r })
      if (r.code !== 0) failed = true
    }
  })
  after(async () => {
    // if a step failed before the job's own Stop step, nothing may be left running
    const tnv = join(runnerTemp, 'tnv', 'bin', 'tnv')
    if (existsSync(tnv)) {
      await runBare(tnv, ['node', 'stop', '--datadir', join(runnerTemp, 'validator')], { env: { HOME: home } })
      await runBare(tnv, ['devnet', 'stop'], { env: { HOME: home } })
    }
    removeDir(tmp.dir)
  })

  it('every step of the rehearse job succeeds, Stop included', () => {
    const job = workflow.jobs.rehearse as Job
    // a failed step first, with its output: it is why later steps did not run
    for (const { step, run } of results) assert.equal(run?.code ?? 0, 0, `${step}:\n${run?.stdout}\n${run?.stderr}`)
    assert.equal(results.length, job.steps.length, 'every step ran')
  })

  it('the onboarding went from nothing to Active through the verified backup, and the second run sent nothing', () => {
    const lines = readFileSync(join(workspace, 'onboard.jsonl'), 'utf8').trim().split('\n')
    const result = JSON.parse(lines.at(-1) as string) as { status: string; steps: { step: string; outcome: string }[] }
    assert.equal(result.status, 'Active')
    // the keys and their verified backup come first (keytool), as on the real network
    assert.deepEqual(
      result.steps.map((s) => `${s.step}:${s.outcome}`),
      ['mint:sent', 'stake:sent', 'sync:done', 'activate:sent', 'active:done'],
    )
    const events = lines.slice(0, -1).map((l) => JSON.parse(l) as { event: string; status?: string; how?: string })
    assert.ok(
      events.some((e) => e.event === 'backup' && e.status === 'verified' && e.how === 'backup-verified'),
      'the stake passed the backup gate on a verified backup, not a relaxation',
    )
    assert.ok(
      events.some((e) => e.event === 'node-started'),
      events.map((e) => e.event).join(','),
    )
  })

  it('tnv came from the artifact, checked against its checksum, not from Node.js', () => {
    const install = results.find((r) => r.step === 'Install tnv')
    assert.match(install?.run?.stdout ?? '', /: OK$/m, 'sha256sum --check passed')
    const start = results.find((r) => r.step === 'Start the devnet')
    assert.match(start?.run?.stdout ?? '', /\(single executable\)/)
    assert.ok(!existsSync(join(basePath, 'node')))
  })

  it('the build job runs what .ci/run runs, and the onboard job installs tnv with the same step', () => {
    const ciRun = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
    const build = workflow.jobs.build as Job
    const commands = build.steps.flatMap((s) => (s.run ? s.run.split('\n').map((l) => l.trim()) : [])).filter(Boolean)
    assert.ok(commands.length >= 2)
    for (const c of commands) assert.ok(ciRun.includes(c), `.ci/run runs \`${c}\``)
    const upload = build.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))
    assert.equal(upload?.with?.path, 'release/tnv-*')
    const installStep = (job: Job) => job.steps.find((s) => s.name === 'Install tnv')
    assert.deepEqual(installStep(workflow.jobs.onboard as Job), installStep(workflow.jobs.rehearse as Job))
    const download = (job: Job) => job.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))
    assert.deepEqual(download(workflow.jobs.onboard as Job), download(workflow.jobs.rehearse as Job))
    assert.equal(download(workflow.jobs.rehearse as Job)?.with?.name, upload?.with?.name)
  })
})
