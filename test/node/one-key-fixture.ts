/**
 * A devnet with one staked validator of the test's own (not a genesis member, so the devnet
 * credits it only while a node holding its key runs), seated in the current committee. Epochs
 * are long (the seat holds for the test) and moved on with `tnv devnet advance-epoch`.
 */
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { generateKeysArgs, parseJson, ROOT, runCli } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: T; error?: unknown }
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
  return body.result as T
}

export type Header = {
  number: number
  sub_dag: {
    leader: { author: string } | null
    commit_timestamp: number
    reputation_score: { scores_per_authority: Record<string, number> }
  }
}

export type SeatedValidator = {
  env: Record<string, string>
  devnetDir: string
  rpcUrl: string
  datadir: string
  address: string
  authorityId: string
  /** Copies node-info.yaml and node-keys/ into a new data directory. */
  copy(to: string): string
  /** Moves epochs on until the validator sits in the current committee. */
  seat(): Promise<void>
  stop(): Promise<void>
}

export async function seatedValidator(dir: string): Promise<SeatedValidator> {
  const devnetDir = join(dir, 'devnet')
  const env = { TNV_DEVNET_DIR: devnetDir, TNV_STATE_DIR: join(dir, 'state') }
  const port = await freePort()
  const d = await runCli(
    [
      'devnet',
      'start',
      '--detach',
      '--json',
      '--datadir',
      devnetDir,
      '--epoch-seconds',
      '100000',
      '--',
      '--http',
      '--http.port',
      String(port),
      '--ws.port',
      String(await freePort()),
      '--ipcpath',
      join(devnetDir, 'tn.ipc'),
    ],
    { env },
  )
  assert.equal(d.code, 0, d.stderr)
  // a failure below must not leave the devnet running
  const stopDevnet = () => runCli(['devnet', 'stop', '--datadir', devnetDir], { env })
  try {
    return await seat(dir, devnetDir, env, d)
  } catch (err) {
    await stopDevnet()
    throw err
  }
}

async function seat(
  dir: string,
  devnetDir: string,
  env: Record<string, string>,
  d: Awaited<ReturnType<typeof runCli>>,
): Promise<SeatedValidator> {
  const devnet = parseJson<{ rpcUrl: string; accounts: { address: string; privateKey: string }[] }>(d)
  const account = devnet.accounts[1] as { address: string; privateKey: string }
  const datadir = join(dir, 'validator')
  const gen = await runCli(
    [
      ...generateKeysArgs(datadir, account.address),
      '--external-primary-addr',
      '/ip4/127.0.0.1/udp/49590/quic-v1',
      '--external-worker-addrs',
      '/ip4/127.0.0.1/udp/49594/quic-v1',
    ],
    { env },
  )
  assert.equal(gen.code, 0, gen.stderr)
  const stake = await runCli(
    [
      'stake',
      '--datadir',
      datadir,
      '--chain',
      'devnet',
      '--through',
      'staked',
      // a rehearsal: no backup of the throwaway key
      '--devnet-relaxed',
      '--mint',
      '--yes',
      '--non-interactive',
      '--json',
    ],
    { env: { ...env, TN_PRIVATE_KEY: account.privateKey } },
  )
  assert.equal(stake.code, 0, stake.stderr)
  const activate = await runCli(
    [
      'activate',
      '--datadir',
      datadir,
      '--chain',
      'devnet',
      '--skip-node-check',
      '--yes',
      '--non-interactive',
      '--json',
    ],
    { env: { ...env, TN_PRIVATE_KEY: account.privateKey } },
  )
  assert.equal(activate.code, 0, activate.stderr)
  const key = await rpc<string>(devnet.rpcUrl, 'tn_getBlsPubkey', [account.address])
  const { authorityIdOf } = await import('../../src/lib/health/read-validator-health.js')
  const v: SeatedValidator = {
    env,
    devnetDir,
    rpcUrl: devnet.rpcUrl,
    datadir,
    address: account.address,
    authorityId: authorityIdOf(key as `0x${string}`),
    copy(to) {
      mkdirSync(to, { recursive: true })
      cpSync(join(datadir, 'node-info.yaml'), join(to, 'node-info.yaml'))
      cpSync(join(datadir, 'node-keys'), join(to, 'node-keys'), { recursive: true })
      return to
    },
    async seat() {
      for (let i = 0; i < 40; i++) {
        const { committee } = await rpc<{ committee: string[] }>(devnet.rpcUrl, 'tn_getCurrentEpochInfo')
        if (committee.some((a) => a.toLowerCase() === account.address.toLowerCase())) return
        const r = await runCli(['devnet', 'advance-epoch', '--datadir', devnetDir], { env })
        assert.equal(r.code, 0, r.stderr)
      }
      assert.fail('the validator was never seated in 40 epochs')
    },
    async stop() {
      await runCli(['devnet', 'stop', '--datadir', devnetDir], { env })
    },
  }
  await v.seat()
  return v
}

/**
 * The reference node run directly (not by tnv) on a copy of the key: the stand-in for another
 * host. Its program is a wrapper named `other-host-node.mjs`, a name the local fence's process
 * scan does not take for a node (src/lib/node/node-processes.ts), so only the network can see it,
 * as for a copy on another host; `onThisHost` runs bin/tnv-node.js instead, which the scan sees.
 */
export async function standIn(
  datadir: string,
  env: Record<string, string>,
  { onThisHost = false }: { onThisHost?: boolean } = {},
): Promise<{ child: ChildProcess; url: string; stop(): Promise<void> }> {
  const port = await freePort()
  let program = join(ROOT, 'bin', 'tnv-node.js')
  if (!onThisHost) {
    program = join(dirname(datadir), 'other-host-node.mjs')
    writeFileSync(
      program,
      `const { main } = await import(${JSON.stringify(join(ROOT, 'dist', 'entries', 'node-main.js'))})\nawait main(process.argv.slice(2))\n`,
    )
  }
  const child = spawn(
    process.execPath,
    [program, 'node', '--datadir', datadir, '--chain', 'devnet', '--http', '--http.port', String(port), '--ipcdisable'],
    { env: { ...process.env, ...env }, stdio: 'ignore' },
  )
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      await rpc(url, 'eth_blockNumber')
      break
    } catch (err) {
      if (i > 200) throw err
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  return {
    child,
    url,
    async stop() {
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** The authority's score and leaders over `headers` new headers of the network's endpoint. */
export async function watchAuthority(
  url: string,
  authorityId: string,
  headers: number,
): Promise<{ led: number; rose: number }> {
  let last: Header | null = null
  let led = 0
  let rose = 0
  let seen = 0
  while (seen < headers) {
    const h = await rpc<Header>(url, 'tn_latestConsensusHeader')
    if (!last || h.number > last.number) {
      if (last) {
        seen++
        if (h.sub_dag.leader?.author === authorityId) led++
        const a = last.sub_dag.reputation_score.scores_per_authority[authorityId] ?? 0
        const b = h.sub_dag.reputation_score.scores_per_authority[authorityId] ?? 0
        if (b > a) rose++
      }
      last = h
    }
    await new Promise((r) => setTimeout(r, 300))
  }
  return { led, rose }
}
