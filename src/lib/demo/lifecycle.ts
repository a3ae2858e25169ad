/**
 * The demo: the whole validator lifecycle on an embedded devnet, in a temporary directory,
 * driven through tnv's own commands exactly as an operator would type them:
 * devnet → keys → backup verified → governance mint → stake → node synced → activate → Active → exit →
 * Exited → unstake. Everything started is stopped and the directory removed at the end.
 * Library code: progress goes to `onEvent`; nothing is printed here.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatTel as formatTelWei } from '../chain/units.js'
import { childEnv } from '../child-env.js'
import { freeLoopbackPort } from '../net/free-port.js'
import { runTnv, runTnvJson } from './tnv-cli.js'

export type DemoEvent =
  | { type: 'command'; line: string }
  | { type: 'info'; line: string }
  | { type: 'wait'; line: string }

export type DemoStep = { step: string; result: string; tx: string | null; epoch: number | null }

export type DemoReturnType = {
  chainId: number
  validator: string
  blsPubkey: string
  steps: DemoStep[]
  stakeAmountWei: string
  paidWei: string
  paidTo: string | null
  seconds: number
  /** Kept only with keep: true. */
  dir: string | null
}

export type RunDemoParameters = {
  onEvent?: (e: DemoEvent) => void
  keep?: boolean
  /** Rehearsal epoch length in seconds. */
  epochSeconds?: number
  /** tnv's environment as the session hands it; the steps run with it, less tnv's secrets. */
  env: NodeJS.ProcessEnv
}

type TxJson = { outcome: 'sent' | 'already-done' | 'unsigned'; txHash?: string; message?: string }
type StatusJson = {
  status: string
  whitelisted: boolean
  currentEpoch: number
  exitEpoch: number
  unstakeEpoch: number | null
  canUnstake: boolean
  secondsToNextEpoch: number | null
  stakeAmount: string
  rewards: string
}
type DevnetStatusJson = {
  chainId: number
  rpcUrl: string
  accounts: { address: string; privateKey: string }[]
}

const formatTel = (wei: string) => formatTelWei(BigInt(wei))

const PASSPHRASE = 'demo passphrase: public, for this rehearsal only'

export async function runDemo({
  onEvent = () => {},
  keep = false,
  epochSeconds = 5,
  env: tnvEnv,
}: RunDemoParameters): Promise<DemoReturnType> {
  const started = Date.now()
  const dir = await mkdtemp(join(tmpdir(), 'tnv-demo-'))
  const devnetDir = join(dir, 'devnet')
  const datadir = join(dir, 'validator')
  // the demo's transaction journals stay in its directory too (never the operator's state directory)
  // only the secrets a step is given: never the operator's own key or passphrase
  const env: NodeJS.ProcessEnv = {
    ...childEnv(tnvEnv),
    TNV_DEVNET_DIR: devnetDir,
    TNV_STATE_DIR: join(dir, 'state'),
    TN_CHAIN: 'devnet',
    TN_DATADIR: datadir,
  }
  const steps: DemoStep[] = []
  const cmd = (line: string) => onEvent({ type: 'command', line: `$ tnv ${line}` })
  const info = (line: string) => onEvent({ type: 'info', line })
  let devnetUp = false
  let nodeUp = false

  const tx = async (step: string, args: string[], extraEnv: Record<string, string>, shown = args.join(' ')) => {
    cmd(shown)
    const r = await runTnvJson<TxJson>(args, { ...env, ...extraEnv })
    const hash = r.txHash ?? null
    info(r.outcome === 'sent' ? `  sent ${hash}` : `  ${r.message ?? r.outcome}`)
    return { r, hash, step }
  }
  const status = (address: string) => runTnvJson<StatusJson>(['validator', 'status', '--address', address], env)
  const waitFor = async (address: string, label: string, done: (s: StatusJson) => boolean): Promise<StatusJson> => {
    let last = ''
    for (;;) {
      const s = await status(address)
      if (done(s)) return s
      const line = `  waiting for ${label}: status ${s.status}, epoch ${s.currentEpoch}${s.secondsToNextEpoch !== null ? `, next epoch in about ${s.secondsToNextEpoch} s` : ''}`
      if (line !== last) onEvent({ type: 'wait', line })
      last = line
      await new Promise((r) => setTimeout(r, 700))
    }
  }

  try {
    // 1. The devnet: the reference node on an embedded chain, short epochs for the rehearsal.
    cmd(
      `devnet start --detach --epoch-seconds ${epochSeconds}   (real next-generation registry code; short epochs are a rehearsal setting)`,
    )
    await runTnvJson(
      ['devnet', 'start', '--detach', '--datadir', devnetDir, '--epoch-seconds', String(epochSeconds)],
      env,
    )
    devnetUp = true
    // the Issuance pool pays the rewards the validator earns while Active: funded first, as
    // governance does on a real network, so the unstake never meets a reward shortfall however
    // many blocks the validator happens to lead
    cmd('devnet governance fund 1000000   (REHEARSAL-ONLY: the Issuance pool holds the rewards it pays)')
    await runTnvJson(['devnet', 'governance', 'fund', '1000000', '--datadir', devnetDir], env)
    const devnet = await runTnvJson<DevnetStatusJson>(['devnet', 'status', '--datadir', devnetDir], env)
    const account = devnet.accounts[0]
    if (!account) throw new Error('the devnet reported no dev accounts')
    const validator = account.address
    info(`  chain id ${devnet.chainId} at ${devnet.rpcUrl}; validator address ${validator} (a public devnet account)`)

    // 2. Keys.
    const keyArgs = [
      'keytool',
      'generate',
      'validator',
      '--datadir',
      datadir,
      '--address',
      validator,
      '--external-primary-addr',
      '/ip4/127.0.0.1/udp/49590/quic-v1',
      '--external-worker-addrs',
      '/ip4/127.0.0.1/udp/49594/quic-v1',
    ]
    cmd(`${keyArgs.join(' ')}   (passphrase from TN_BLS_PASSPHRASE)`)
    await runTnvJson(keyArgs, { ...env, TN_BLS_PASSPHRASE: PASSPHRASE })
    // export-staking-args reads only node-info.yaml, so it needs no passphrase (spec).
    const exportArgs = [
      'keytool',
      'export-staking-args',
      '--node-info',
      datadir,
      '--bls-passphrase-source',
      'no-passphrase',
    ]
    cmd(exportArgs.join(' '))
    // --json prints what the real keytool prints: blsPubkey and signature (the proof of possession)
    const staking = await runTnvJson<{ blsPubkey: string; signature: string }>(exportArgs, env)
    info(`  BLS key ${staking.blsPubkey.slice(0, 18)}…  proof of possession ${staking.signature.slice(0, 18)}…`)
    steps.push({ step: 'keys', result: 'BLS key, PoP and p2p keys written', tx: null, epoch: null })

    // 2b. Backup: the devnet asks for it as a real network does (the stake stops without it).
    // The directory `usb` stands for other media than the node's disk.
    const media = join(dir, 'usb')
    await mkdir(media, { mode: 0o700 })
    const backupFile = join(media, 'tn-backup.json')
    cmd(
      `keytool backup --datadir ${datadir} --out ${backupFile}   (on other media: here a directory standing for a USB key)`,
    )
    await runTnvJson(['keytool', 'backup', '--datadir', datadir, '--out', backupFile], env)
    cmd(`keytool backup verify ${backupFile} --datadir ${datadir}   (restores it privately and opens the key)`)
    await runTnvJson(['keytool', 'backup', 'verify', backupFile, '--datadir', datadir], {
      ...env,
      TN_BLS_PASSPHRASE: PASSPHRASE,
    })
    info('  backup verified: the stake may bind this key')
    steps.push({ step: 'backup', result: 'backup written and verified', tx: null, epoch: null })

    // 3. Whitelist: governance mints the ConsensusNFT.
    cmd(`validator status --address ${validator}`)
    const before = await status(validator)
    info(`  whitelisted: ${before.whitelisted ? 'yes' : 'no'}; status ${before.status}`)
    const mint = await tx(
      'mint',
      ['governance', 'mint', validator, '--yes'],
      {},
      `governance mint ${validator} --yes   (REHEARSAL-ONLY: the devnet impersonates the registry owner)`,
    )
    steps.push({ step: 'governance mint', result: 'ConsensusNFT issued', tx: mint.hash, epoch: before.currentEpoch })

    // 4. Stake.
    const stake = await tx(
      'stake',
      ['stake', '--datadir', datadir, '--yes'],
      { TN_PRIVATE_KEY: account.privateKey },
      `stake --datadir ${datadir} --yes   (signer from TN_PRIVATE_KEY)`,
    )
    const staked = await status(validator)
    info(`  staked ${formatTel(staked.stakeAmount)}; status ${staked.status}`)
    steps.push({
      step: 'stake',
      result: `${formatTel(staked.stakeAmount)} staked`,
      tx: stake.hash,
      epoch: staked.currentEpoch,
    })

    // 5. The validator's node joins the devnet and syncs.
    const port = await freeLoopbackPort()
    const nodeArgs = [
      'node',
      'start',
      '--detach',
      '--datadir',
      datadir,
      '--',
      '--chain',
      'devnet',
      '--http',
      '--http.port',
      String(port),
      '--ipcdisable',
    ]
    cmd(nodeArgs.join(' '))
    await runTnvJson(nodeArgs, env)
    nodeUp = true
    cmd(`node sync --datadir ${datadir} --chain devnet`)
    const sync = await runTnvJson<{ local: string; network: string }>(
      ['node', 'sync', '--datadir', datadir, '--chain', 'devnet', '--interval', '1'],
      env,
    )
    info(`  synced at block ${sync.local} (network ${sync.network})`)
    steps.push({ step: 'node synced', result: `block ${sync.local}`, tx: null, epoch: null })

    // 6. Activate, then Active from the next epoch boundary.
    const act = await tx('activate', ['activate', '--yes'], { TN_PRIVATE_KEY: account.privateKey }, 'activate --yes')
    const pending = await status(validator)
    steps.push({ step: 'activate', result: pending.status, tx: act.hash, epoch: pending.currentEpoch })
    const active = await waitFor(validator, 'Active (next epoch boundary)', (s) => s.status === 'Active')
    info(`  Active in epoch ${active.currentEpoch}`)
    steps.push({ step: 'Active', result: 'eligible for committees', tx: null, epoch: active.currentEpoch })

    // 7. Exit: PendingExit until no committee assignment is left, then Exited.
    const exit = await tx('exit', ['exit', '--yes'], { TN_PRIVATE_KEY: account.privateKey }, 'exit --yes')
    const exiting = await status(validator)
    steps.push({ step: 'exit', result: exiting.status, tx: exit.hash, epoch: exiting.currentEpoch })
    const exited = await waitFor(validator, 'Exited (committee obligations end)', (s) => s.status === 'Exited')
    info(`  Exited at epoch ${exited.exitEpoch}; unstake possible from epoch ${exited.unstakeEpoch}`)
    steps.push({ step: 'Exited', result: `exit epoch ${exited.exitEpoch}`, tx: null, epoch: exited.currentEpoch })
    const ready = await waitFor(validator, `epoch ${exited.unstakeEpoch} (exit epoch + 1)`, (s) => s.canUnstake)

    // 8. Unstake: stake plus rewards back to the validator address; the address is retired.
    const un = await tx('unstake', ['unstake', '--yes'], { TN_PRIVATE_KEY: account.privateKey }, 'unstake --yes')
    const paid = un.r as TxJson & {
      recipient?: string | null
      stakeAmount?: string
      rewards?: string
      rewardsForfeited?: string
    }
    const paidWei = (
      BigInt(paid.stakeAmount ?? '0') +
      BigInt(paid.rewards ?? '0') -
      BigInt(paid.rewardsForfeited ?? '0')
    ).toString()
    info(`  paid ${formatTel(paidWei)} to ${paid.recipient ?? validator}`)
    steps.push({
      step: 'unstake',
      result: `${formatTel(paidWei)} paid, address retired`,
      tx: un.hash,
      epoch: ready.currentEpoch,
    })

    return {
      chainId: devnet.chainId,
      validator,
      blsPubkey: staking.blsPubkey,
      steps,
      stakeAmountWei: staked.stakeAmount,
      paidWei,
      paidTo: paid.recipient ?? validator,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      dir: keep ? dir : null,
    }
  } finally {
    if (nodeUp) {
      cmd(`node stop --datadir ${datadir}`)
      await runTnv(['node', 'stop', '--datadir', datadir], env)
    }
    if (devnetUp) {
      cmd('devnet stop')
      await runTnv(['devnet', 'stop', '--datadir', devnetDir], env)
    }
    if (!keep) await rm(dir, { recursive: true, force: true })
  }
}
