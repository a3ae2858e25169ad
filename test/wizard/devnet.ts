/**
 * A reference devnet per test file (`tnv devnet start --detach` in a temp TNV_DEVNET_DIR,
 * HTTP on a free port, short epochs (a rehearsal setting), the Issuance pool funded by rehearsal
 * governance as it must be before rewards are paid), and the `tnv` runner bound to it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Hex } from 'viem'
import type { DevnetRuntimeInfo } from '../../src/devnet/paths.js'
import { type CliResult, runCli, tempDir } from '../helpers/cli.js'
import { freePort } from '../helpers/ports.js'

export type TestDevnet = {
  dir: string
  devnetDir: string
  info: DevnetRuntimeInfo
  /** Environment that points tnv at this devnet (and clears the developer's settings). */
  env: Record<string, string | undefined>
  key(i: number): Hex
  address(i: number): Hex
  tnv(args: string[], env?: Record<string, string | undefined>): Promise<CliResult>
  stop(): Promise<void>
}

export async function startTestDevnet(prefix: string, { epochSeconds = 5 } = {}): Promise<TestDevnet> {
  const { dir, cleanup } = tempDir(prefix)
  const devnetDir = join(dir, 'devnet')
  const env = {
    TNV_DEVNET_DIR: devnetDir,
    TN_CHAIN: undefined,
    TN_RPC_URL: undefined,
    TN_NODE_RPC_URL: undefined,
    TN_NODE_BINARY: undefined,
    TN_DATADIR: undefined,
    TN_NON_INTERACTIVE: undefined,
    // the devnet's safety steps relaxed explicitly (tests of the backup step unset it)
    TN_DEVNET_RELAXED: '1',
  }
  const tnv = (args: string[], extra: Record<string, string | undefined> = {}) =>
    runCli(args, { env: { ...env, ...extra }, timeoutMs: 240_000 })
  const port = await freePort()
  const started = await tnv([
    'devnet',
    'start',
    '--detach',
    '--datadir',
    devnetDir,
    '--epoch-seconds',
    String(epochSeconds),
    '--',
    '--http',
    '--http.port',
    String(port),
  ])
  if (started.code !== 0) throw new Error(`devnet start failed: ${started.stdout}\n${started.stderr}`)
  const info = JSON.parse(readFileSync(join(devnetDir, 'devnet.json'), 'utf8')) as DevnetRuntimeInfo
  const funded = await tnv(['devnet', 'governance', 'fund', '1000000', '--datadir', devnetDir])
  if (funded.code !== 0) throw new Error(`devnet governance fund failed: ${funded.stdout}\n${funded.stderr}`)
  return {
    dir,
    devnetDir,
    info,
    env,
    key: (i) => (info.accounts[i] as { privateKey: Hex }).privateKey,
    address: (i) => (info.accounts[i] as { address: Hex }).address,
    tnv,
    async stop() {
      await tnv(['devnet', 'stop', '--datadir', devnetDir])
      cleanup()
    },
  }
}

/** Stops the node a flow started for a data directory (if any). */
export async function stopNode(t: TestDevnet, datadir: string): Promise<void> {
  await t.tnv(['node', 'stop', '--datadir', datadir])
}

/** Every stdout line parsed as JSON (JSON-lines output). */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}
