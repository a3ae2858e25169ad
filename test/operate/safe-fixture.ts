/** What the Safe tests (safe-account, safe-batch) share: their devnet and the onboarding batch command. */
import assert from 'node:assert/strict'
import type { Hex } from 'viem'
import { parseJson, runCli } from '../helpers/cli.js'
import { ENTER, type PtySession } from '../wizard/pty.js'

export type DevnetStarted = { rpcUrl: string; accounts: { address: Hex; privateKey: Hex }[] }

/** A detached devnet with long epochs: a status read after a batch must not race an epoch boundary. */
export async function startLongEpochDevnet(devnetDir: string, env: Record<string, string>): Promise<DevnetStarted> {
  const d = await runCli(
    ['devnet', 'start', '--detach', '--json', '--datadir', devnetDir, '--epoch-seconds', '100000'],
    { env },
  )
  assert.equal(d.code, 0, d.stderr)
  return parseJson<DevnetStarted>(d)
}

/** `tnv stake --unsigned --format safe --through active` for the keys in `datadir`: the whole onboarding as one batch. */
export const safeOnboardingArgs = (datadir: string, ...extra: string[]): string[] => [
  'stake',
  '--datadir',
  datadir,
  '--unsigned',
  '--format',
  'safe',
  '--through',
  'active',
  ...extra,
]

/** In the stake wizard for a contract validator: takes the offered Safe batch path into `file`; nothing asks for a key. */
export async function takeSafeBatchPath(w: PtySession, file: string): Promise<void> {
  await w.expect('as a Safe Transaction Builder batch for its owners?')
  w.type(ENTER)
  await w.expect('Batch file')
  w.type(`${file}${ENTER}`)
  await w.expect('Safe Transaction Builder batch written to')
  assert.equal(await w.exited, 0, w.screen())
  assert.doesNotMatch(w.screen(), /Private key/)
}
