/**
 * startDevnetChain: anvil with the devnet contracts and the protocol loop, in this process.
 *
 * A fresh data directory is bootstrapped (bootstrap.ts); a directory holding a devnet (anvil's
 * state file plus chain.json) is resumed as it was, without bootstrapping again. The chain is
 * saved when stopped (and by anvil every 30 s), and anvil never outlives this process.
 */
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, type PublicClient, sha256, stringToBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ensureDir, fileTimestamp, pathExists } from '../../lib/fs/atomic.js'
import { consensusRegistryAbi } from './abi.js'
import { devnetDevAccounts, devnetGovernanceAccount, devnetSystemAccount } from './accounts.js'
import { loadContractArtifact } from './artifacts.js'
import { bootstrapDevnet, installDevnetCode } from './bootstrap.js'
import { ANVIL_STATE_FILE, type ChainRecord, readChainRecord, writeChainRecord } from './chain-record.js'
import { acquireDatadirLock } from './datadir-lock.js'
import { DEFAULT_BLOCK_TIME, DEFAULT_EPOCH_BLOCKS, MIN_EPOCH_BLOCKS } from './defaults.js'
import { DevnetStateMismatchError, DevnetStoppedError, InvalidDevnetParameterError } from './errors.js'
import { freeLoopbackPort } from './free-port.js'
import { GENESIS_VALIDATORS } from './genesis-validators.js'
import { createProtocolLoop } from './protocol-loop.js'
import { sendDevnetTransaction } from './send-devnet-transaction.js'
import { type AnvilExit, AnvilPortInUseError, type AnvilProcess, spawnAnvil } from './spawn-anvil.js'
import {
  BLS_VERIFIER_ADDRESS,
  DEVNET_CHAIN_ID,
  type DevnetChain,
  ISSUANCE_ADDRESS,
  REGISTRY_ADDRESS,
  type StartDevnetChainParameters,
} from './types.js'
import { devnetViemChain } from './viem-chain.js'

/** anvil also writes its state this often, so a crash of the whole machine loses little. */
const STATE_INTERVAL_SECONDS = 30

/**
 * Starts (or resumes) the devnet chain in `datadir`.
 * @example
 * const chain = await startDevnetChain({ datadir, blockTime: 0 })
 * await chain.advanceEpoch()
 * await chain.stop()
 */
export async function startDevnetChain(params: StartDevnetChainParameters): Promise<DevnetChain> {
  const { datadir, protocolLoop = true, blockTime = DEFAULT_BLOCK_TIME, onProtocolError } = params
  checkParameters(params)
  await ensureDir(datadir)
  const releaseLock = await acquireDatadirLock(datadir)
  try {
    return await startLocked(params, { datadir, protocolLoop, blockTime, onProtocolError, releaseLock })
  } catch (err) {
    await releaseLock()
    throw err
  }
}

type Resolved = {
  datadir: string
  protocolLoop: boolean
  blockTime: number
  onProtocolError: StartDevnetChainParameters['onProtocolError']
  releaseLock: () => Promise<void>
}

async function startLocked(params: StartDevnetChainParameters, r: Resolved): Promise<DevnetChain> {
  const { datadir } = r
  const statePath = join(datadir, ANVIL_STATE_FILE)
  const resume = await prepareDatadir(datadir, statePath)
  const anvil = await spawnWithFreePort(params.port, statePath, r.blockTime)

  const governance = devnetGovernanceAccount()
  const system = devnetSystemAccount()
  const accounts = devnetDevAccounts()
  const viemChain = devnetViemChain(anvil.httpUrl)
  const transport = http(anvil.httpUrl, { batch: true, retryCount: 0 })
  const publicClient: PublicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 50 })
  const wallet = (privateKey: `0x${string}`) =>
    createWalletClient({ account: privateKeyToAccount(privateKey), chain: viemChain, transport })
  const governanceWallet = wallet(governance.privateKey)

  let epochBlocks: number
  try {
    if (resume) {
      epochBlocks = await resumeChain(publicClient, governanceWallet, datadir, resume, params.epochBlocks)
    } else {
      epochBlocks = params.epochBlocks ?? DEFAULT_EPOCH_BLOCKS
      await bootstrapDevnet({
        publicClient,
        governanceWallet,
        governance,
        system,
        accounts,
        epochBlocks,
      })
      await writeChainRecord(datadir, {
        format: 1,
        chainId: DEVNET_CHAIN_ID,
        createdAt: new Date().toISOString(),
        registryStorageLayout: registryLayoutHash(),
        genesisValidators: GENESIS_VALIDATORS.map((g) => g.address),
      })
    }
  } catch (err) {
    await anvil.stop()
    throw err
  }

  const loop = createProtocolLoop({
    publicClient,
    systemWallet: wallet(system.privateKey),
    autoConclude: r.protocolLoop,
    onError: r.onProtocolError,
  })
  loop.start()

  let stopped = false
  let stopping: Promise<void> | undefined
  let diedWith: AnvilExit | undefined
  const exitListeners: ((info: AnvilExit) => void)[] = []
  void anvil.exited.then(async (info) => {
    if (stopping) return
    stopped = true
    await loop.stop()
    await r.releaseLock()
    diedWith = info
    for (const listener of exitListeners) listener(info)
  })
  const live = <T>(operation: string, fn: () => Promise<T>): Promise<T> => {
    if (stopped || stopping) return Promise.reject(new DevnetStoppedError(operation))
    return fn()
  }

  return {
    chainId: DEVNET_CHAIN_ID,
    engineHttpUrl: anvil.httpUrl,
    engineWsUrl: anvil.wsUrl,
    enginePid: anvil.pid,
    registry: REGISTRY_ADDRESS,
    issuance: ISSUANCE_ADDRESS,
    blsVerifier: BLS_VERIFIER_ADDRESS,
    governance,
    system,
    accounts,
    genesisValidators: GENESIS_VALIDATORS.map((g) => g.address),
    epochBlocks,
    resumed: resume !== null,
    advanceEpoch: () => live('advance the epoch', () => loop.advanceEpoch()),
    mine: (blocks = 1) => {
      if (!Number.isInteger(blocks) || blocks < 0) {
        return Promise.reject(
          new InvalidDevnetParameterError(`mine: blocks must be a whole number ≥ 0, got ${blocks}.`),
        )
      }
      return live('mine blocks', () => loop.mine(blocks))
    },
    stop() {
      stopping ??= (async () => {
        await loop.stop()
        await anvil.stop()
        stopped = true
        await r.releaseLock()
      })()
      return stopping
    },
    onEngineExit(listener) {
      if (diedWith) queueMicrotask(() => listener(diedWith as AnvilExit))
      else exitListeners.push(listener)
    },
  }
}

function checkParameters(p: StartDevnetChainParameters): void {
  if (
    p.epochBlocks !== undefined &&
    (!Number.isInteger(p.epochBlocks) || p.epochBlocks < MIN_EPOCH_BLOCKS || p.epochBlocks > 2 ** 32 - 1)
  ) {
    throw new InvalidDevnetParameterError(
      `epochBlocks must be a whole number from ${MIN_EPOCH_BLOCKS} to 4294967295, got ${p.epochBlocks}.`,
      {
        fix: `Pass an epoch length of at least ${MIN_EPOCH_BLOCKS} blocks (one block plus the block that concludes the epoch).`,
      },
    )
  }
  if (p.blockTime !== undefined && (!Number.isInteger(p.blockTime) || p.blockTime < 0)) {
    throw new InvalidDevnetParameterError(`blockTime must be a whole number of seconds ≥ 0, got ${p.blockTime}.`, {
      fix: 'Pass 0 to mine only on transactions and on demand, or the seconds between idle blocks.',
    })
  }
  if (p.port !== undefined && (!Number.isInteger(p.port) || p.port < 0 || p.port > 65535)) {
    throw new InvalidDevnetParameterError(`port must be 0..65535, got ${p.port}.`, {
      fix: 'Pass 0 (or nothing) for a free port.',
    })
  }
}

/**
 * Decides between resuming and bootstrapping. A devnet is resumable when both anvil's state and
 * chain.json exist. A half-made devnet is never deleted: its leftover file is renamed aside.
 */
async function prepareDatadir(datadir: string, statePath: string): Promise<ChainRecord | null> {
  const [record, hasState] = await Promise.all([readChainRecord(datadir), pathExists(statePath)])
  const stamp = fileTimestamp()
  if (record && hasState) {
    // anvil rewrites the state file in place; keep the last good one in case it is cut short.
    await fs.copyFile(statePath, join(datadir, 'anvil-state.prev.json'))
    return record
  }
  if (hasState) await fs.rename(statePath, join(datadir, `anvil-state.incomplete-${stamp}.json`))
  if (record) await fs.rename(join(datadir, 'chain.json'), join(datadir, `chain.orphaned-${stamp}.json`))
  return null
}

async function spawnWithFreePort(
  port: number | undefined,
  statePath: string,
  blockTime: number,
): Promise<AnvilProcess> {
  const fixed = port !== undefined && port !== 0
  for (let attempt = 1; ; attempt++) {
    const chosen = fixed ? port : await freeLoopbackPort()
    try {
      return await spawnAnvil({
        port: chosen,
        chainId: DEVNET_CHAIN_ID,
        statePath,
        blockTime,
        stateIntervalSeconds: STATE_INTERVAL_SECONDS,
      })
    } catch (err) {
      // a free port can be taken between choosing it and anvil binding it: pick another
      if (fixed || !(err instanceof AnvilPortInUseError) || attempt >= 3) throw err
    }
  }
}

function registryLayoutHash(): string {
  return sha256(stringToBytes(JSON.stringify(loadContractArtifact('ConsensusRegistry').storageLayout.storage)))
}

/**
 * Checks a resumed chain, installs changed contract code in place when the registry's storage
 * layout is unchanged, and applies a new epoch length (as the next stake config version,
 * effective from the next epoch). Returns the epoch length in force from then on.
 */
async function resumeChain(
  publicClient: PublicClient,
  governanceWallet: ReturnType<typeof createWalletClient>,
  datadir: string,
  record: ChainRecord,
  epochBlocks: number | undefined,
): Promise<number> {
  const chainId = await publicClient.getChainId()
  if (chainId !== DEVNET_CHAIN_ID || record.chainId !== DEVNET_CHAIN_ID) {
    throw new DevnetStateMismatchError(
      `The chain in ${datadir} has chain id ${chainId}, not the devnet's ${DEVNET_CHAIN_ID}.`,
      datadir,
    )
  }
  const installed = await publicClient.getCode({ address: REGISTRY_ADDRESS })
  if (!installed || installed === '0x') {
    throw new DevnetStateMismatchError(`The chain in ${datadir} has no registry at ${REGISTRY_ADDRESS}.`, datadir)
  }
  if (
    installed !== loadContractArtifact('ConsensusRegistry').deployedBytecode &&
    record.registryStorageLayout !== registryLayoutHash()
  ) {
    throw new DevnetStateMismatchError(
      `The devnet in ${datadir} was made by an older tnv whose registry stores its data differently, so its chain cannot be carried over.`,
      datadir,
    )
  }
  // Same storage layout: (re)install the current code in place; unchanged code is a no-op.
  await installDevnetCode(publicClient)

  const newest = await publicClient.readContract({
    address: REGISTRY_ADDRESS,
    abi: consensusRegistryAbi,
    functionName: 'getCurrentStakeConfig',
  })
  if (epochBlocks === undefined || epochBlocks === newest.epochDuration) return newest.epochDuration
  await sendDevnetTransaction(publicClient, governanceWallet, {
    what: `set the epoch length to ${epochBlocks} blocks`,
    address: REGISTRY_ADDRESS,
    abi: consensusRegistryAbi,
    functionName: 'setStakeConfig',
    args: [{ ...newest, epochDuration: epochBlocks }],
    gas: 500_000n,
  })
  return epochBlocks
}
