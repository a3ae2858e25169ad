/**
 * What `keytool generate validator|observer` does: makes a BLS key (IETF KeyGen from 32 random
 * bytes), the proof of possession for the execution address, the network keys of the primary
 * and each worker, and writes node-keys/ (bls.kw or bls.key, primary.seed, worker seeds) and
 * node-info.yaml in one atomic step. Existing keys are replaced only with `force`, after a
 * timestamped backup. PBKDF2 (the cost of the command) runs on Node's thread pool while the
 * BLS work runs on the main thread.
 */
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { BadInputError, TnvError, UsageError } from '../errors.js'
import { ensureDir, killPoint, pathExists } from '../fs/atomic.js'
import { assertDatadirPlace } from '../fs/fs-errors.js'
import { InvalidMultiaddrError } from '../nodeinfo/errors.js'
import { parseP2pAddress, withPeerId } from '../nodeinfo/multiaddr.js'
import type { Hex, NodeInfo, NodeInfoForm, RpcEndpoints, WorkerInfo } from '../nodeinfo/types.js'
import { commitFiles, stageDir, stageFile } from './commit-files.js'
import { BLS_KEY_FILE, BLS_KW_FILE, type DatadirPaths, datadirPaths, KEY_DIR_MODE, KEY_FILE_MODE } from './datadir.js'
import { DatadirNotADirectoryError, DatadirNotCreatableError, NodeKeysExistError } from './errors.js'
import { KEY_BINDING_FILE, keyBindingText } from './key-binding.js'
import { freeUdpPort } from './local-port.js'
import { PRIMARY_SEED_FILE, PRIMARY_SEED_TEXT, workerSeed } from './seeds.js'
import { discardWrappingKey, startWrappingKey, type WrappingKeyDerivation } from './wrapping-key.js'

/** The reference node runs one worker; tnv writes up to this many (see docs/decisions.md). */
export const MAX_WORKERS = 4

export type GenerateNodeKeysParameters = {
  datadir: string
  /** Execution address the proof of possession commits to (checksummed). */
  address: Hex
  /** Node name; default `node-` + base58 of the first 8 bytes of the public key. */
  name?: string
  /** `/ip4|ip6|dns4|dns6/<host>/udp/<port>/quic-v1`; default a local-only 127.0.0.1 address. */
  externalPrimaryAddr?: string
  /** One per worker, same form. */
  externalWorkerAddrs?: string[]
  /** Number of workers (1 to MAX_WORKERS). Default 1. */
  workers?: number
  /** RPC endpoints advertised by worker 0 (checked and normalised). */
  rpc?: RpcEndpoints
  /**
   * node-info.yaml form: default `worker` (the released node's map) for one worker, `workers`
   * (the specification's list) for several, which only the list can hold.
   */
  form?: NodeInfoForm
  /** Replace existing keys (after a backup). */
  force?: boolean
  /** Called once every check passed and before any work: the passphrase, or undefined for an unencrypted bls.key. */
  passphrase: () => Promise<string | undefined>
  /**
   * With `force` over existing keys: called with the old public key before anything is
   * replaced; throws to refuse (e.g. when the registry already holds that key).
   */
  assertKeyReplaceable?: (publicKey: Uint8Array) => Promise<void>
  /** Input keying material; default 32 fresh random bytes. Tests only. */
  ikm?: Uint8Array
  /**
   * The BLS secret itself (a recovery phrase's: keytool generate --mnemonic, keytool recover)
   * instead of KeyGen of fresh randomness. Copied; the caller zeroes its own.
   */
  secret?: Uint8Array
}

export type GenerateNodeKeysReturnType = {
  info: NodeInfo
  paths: DatadirPaths
  /** The key file written (bls.kw or bls.key). */
  keyFile: string
  encrypted: boolean
  peerIds: { primary: string; workers: string[] }
  /** True when no external address was given for some peer and a local-only one was used. */
  localAddresses: boolean
  /** Existing keys were replaced (with force); they are in backupDir. */
  replacedKeys: boolean
  /** External worker addresses beyond the number of workers, not used (the node uses only the first). */
  ignoredWorkerAddrs: string[]
  /** Where the replaced files were kept (existing keys with force, or an existing node-info.yaml). */
  backupDir?: string
}

/** @example const r = await generateNodeKeys({ datadir, address, passphrase: async () => 'correct horse' }) */
export async function generateNodeKeys({
  datadir,
  address,
  name,
  externalPrimaryAddr,
  externalWorkerAddrs,
  workers = 1,
  rpc,
  form = workers > 1 ? 'workers' : 'worker',
  force = false,
  passphrase: getPassphrase,
  assertKeyReplaceable,
  ikm,
  secret: givenSecret,
}: GenerateNodeKeysParameters): Promise<GenerateNodeKeysReturnType> {
  // 1. Every check that needs no secret, before asking for the passphrase.
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS)
    throw new UsageError(
      `--workers ${workers} is out of range: tnv writes 1 to ${MAX_WORKERS} workers (the reference node runs 1).`,
      { fix: 'Pass --workers 1.' },
    )
  if (form === 'worker' && workers !== 1)
    throw new UsageError(
      `--node-info-form worker holds exactly one worker, and --workers is ${workers}. Nothing was written.`,
      {
        fix: 'Pass --workers 1 for the released node (it runs one worker: "Only supports a single worker at this time!"), or --node-info-form workers for the specification\'s list.',
      },
    )
  if (name !== undefined) assertNodeName(name)
  if (externalPrimaryAddr !== undefined) assertNoPeerId(externalPrimaryAddr, '--external-primary-addr', 'Primary')
  let ignoredWorkerAddrs: string[] = []
  if (externalWorkerAddrs !== undefined) {
    if (externalWorkerAddrs.length < workers)
      throw new UsageError(
        `--external-worker-addrs gives ${externalWorkerAddrs.length} address${externalWorkerAddrs.length === 1 ? '' : 'es'} for ${workers} worker${workers === 1 ? '' : 's'}.`,
        {
          fix: 'Give one comma-separated address per worker, in worker order (or change --workers).',
        },
      )
    ignoredWorkerAddrs = externalWorkerAddrs.slice(workers)
    for (const [i, a] of externalWorkerAddrs.slice(0, workers).entries())
      assertNoPeerId(a, `--external-worker-addrs[${i}]`, 'worker')
  }
  const paths = datadirPaths(datadir)
  await assertDatadirPlace(paths.datadir)
  if ((await fs.stat(paths.datadir).catch(() => undefined))?.isDirectory() === false)
    throw new DatadirNotADirectoryError(paths.datadir)
  const keysPresent = (await fs.readdir(paths.nodeKeys).catch((): string[] => [])).length > 0
  if (keysPresent && !force) throw new NodeKeysExistError(paths.nodeKeys)
  if (keysPresent && assertKeyReplaceable) {
    const { readNodeInfo } = await import('../nodeinfo/read.js')
    const old = await readNodeInfo(paths.nodeInfo).catch(() => undefined)
    if (old) await assertKeyReplaceable(old.info.blsPublicKey)
  }

  // 2. The passphrase, then PBKDF2 on Node's thread pool while the BLS work runs here.
  const passphrase = await getPassphrase()
  const derivation = passphrase === undefined ? undefined : startWrappingKey(passphrase)
  const wrapping = derivation?.key
  // a failed derivation is reported where the key is awaited; until then it is not unhandled
  wrapping?.catch(() => {})
  // a data directory this run creates is removed again when the run fails (it is then empty:
  // everything else is staged and committed as one step), so a failure leaves nothing behind
  const created = !(await pathExists(paths.datadir))
  if (created)
    // an existing one keeps its owner's mode
    await ensureDir(paths.datadir, 0o700).catch((err: unknown) => {
      throw err instanceof TnvError ? err : new DatadirNotCreatableError(paths.datadir, err)
    })
  try {
    // The curve and cipher code load only now, while PBKDF2 runs.
    const [
      { blsKeyGen, blsPublicKey },
      { signProofOfPossession },
      { deriveNetworkKeypair },
      kw,
      { formatBlsKey },
      { formatNodeInfo },
      { encodeBase58 },
    ] = await Promise.all([
      import('./bls.js'),
      import('./pop.js'),
      import('./network-key.js'),
      import('./bls-kw.js'),
      import('./bls-key.js'),
      import('../nodeinfo/serialize.js'),
      import('../nodeinfo/base58.js'),
    ])

    let secret: Uint8Array
    if (givenSecret) secret = Uint8Array.from(givenSecret)
    else {
      const material = ikm ?? randomBytes(32)
      secret = blsKeyGen(material)
      if (!ikm) material.fill(0)
    }
    try {
      const publicKey = blsPublicKey(secret)
      const proofOfPossession = signProofOfPossession(secret, address, publicKey)
      const primaryKeys = deriveNetworkKeypair(secret, Buffer.from(PRIMARY_SEED_TEXT))
      const workerKeys = Array.from({ length: workers }, (_, i) =>
        deriveNetworkKeypair(secret, Buffer.from(workerSeed(i).text)),
      )
      for (const k of [primaryKeys, ...workerKeys]) k.secretKey.fill(0)

      let localAddresses = false
      const addressFor = async (external: string | undefined, peerId: string, label: string) => {
        if (external !== undefined) return withPeerId(external, peerId, label)
        localAddresses = true
        return withPeerId(`/ip4/127.0.0.1/udp/${await freeUdpPort()}/quic-v1`, peerId, label)
      }
      const primary = {
        networkAddress: await addressFor(externalPrimaryAddr, primaryKeys.peerId, '--external-primary-addr'),
        networkKey: primaryKeys.networkKey,
      }
      const workerInfos: WorkerInfo[] = []
      for (const [i, k] of workerKeys.entries()) {
        workerInfos.push({
          networkAddress: await addressFor(externalWorkerAddrs?.[i], k.peerId, `--external-worker-addrs[${i}]`),
          networkKey: k.networkKey,
          ...(i === 0 && rpc ? { rpc } : {}),
        })
      }
      /**
       * The key file's text: sealed under the wrapping key once PBKDF2 has finished, and opened
       * again to the same secret before anything is written; or plain. The wrapping key is zeroed.
       */
      const keyFileText = async (): Promise<string> => {
        if (!wrapping) return formatBlsKey(secret)
        const wrappingKey = await wrapping
        try {
          const { salt, nonce } = derivation as WrappingKeyDerivation
          const text = kw.sealBlsSecret({ secret, wrappingKey, salt, nonce })
          const parts = kw.parseBlsKw(text)
          const back = 'salt' in parts ? kw.unsealBlsSecret(parts, wrappingKey) : undefined
          if (!back || Buffer.compare(back, secret) !== 0) throw new Error('the sealed key does not open again') // a bug, never expected
          back.fill(0)
          return text
        } finally {
          wrappingKey.fill(0)
        }
      }
      const info: NodeInfo = {
        name: name ?? `node-${encodeBase58(publicKey.slice(0, 8))}`,
        blsPublicKey: publicKey,
        proofOfPossession,
        executionAddress: address,
        primary,
        workers: workerInfos,
        form,
      }

      // 3. Stage every file beside its target: node-keys/ with the seeds and the key file,
      // node-info.yaml, and the record of which public key the key file holds (so that later
      // commands check it without the passphrase).
      const keyFile = wrapping ? BLS_KW_FILE : BLS_KEY_FILE
      const keyText = await keyFileText()
      const files = [
        { name: PRIMARY_SEED_FILE, data: PRIMARY_SEED_TEXT, mode: KEY_FILE_MODE },
        ...workerInfos.map((_, i) => ({ name: workerSeed(i).file, data: workerSeed(i).text, mode: KEY_FILE_MODE })),
        { name: keyFile, data: keyText, mode: KEY_FILE_MODE },
      ]
      const bindingPath = join(paths.datadir, KEY_BINDING_FILE)
      const stagedKeys = await stageDir(paths.nodeKeys, files, KEY_DIR_MODE)
      const stagedFiles: string[] = []
      try {
        stagedFiles.push(await stageFile(paths.nodeInfo, formatNodeInfo(info), 0o644))
        stagedFiles.push(await stageFile(bindingPath, keyBindingText(publicKey, keyFile, keyText), KEY_FILE_MODE))
      } catch (err) {
        await fs.rm(stagedKeys, { recursive: true, force: true })
        for (const f of stagedFiles) await fs.rm(f, { force: true })
        throw err
      }

      killPoint('generate:staged')
      // 4. Swap it all in (with a backup of what was there); a kill on the way is finished or
      // undone by the next command that opens the data directory (commit-files.ts).
      const { backupDir } = await commitFiles({
        datadir: paths.datadir,
        replacements: [
          { kind: 'dir', target: paths.nodeKeys, staged: stagedKeys },
          { kind: 'file', target: paths.nodeInfo, staged: stagedFiles[0] as string },
          { kind: 'file', target: bindingPath, staged: stagedFiles[1] as string },
        ],
      })
      return {
        info,
        paths,
        keyFile: wrapping ? paths.blsKw : paths.blsKey,
        encrypted: wrapping !== undefined,
        peerIds: { primary: primaryKeys.peerId, workers: workerKeys.map((k) => k.peerId) },
        localAddresses,
        replacedKeys: keysPresent,
        ignoredWorkerAddrs,
        ...(backupDir ? { backupDir } : {}),
      }
    } finally {
      secret.fill(0)
    }
  } catch (err) {
    // a key derived but not used (zeroed after use otherwise)
    if (derivation) discardWrappingKey(derivation)
    if (created) await fs.rmdir(paths.datadir).catch(() => {})
    throw err
  }
}

/**
 * A name the node's YAML writer can write readably: not empty, and without control or
 * line-separator characters (yaml-rust leaves some of them unquoted, and the file would then
 * not load again).
 */
function assertNodeName(name: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: exactly what is refused
  const bad = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.exec(name)
  if (name.trim() === '' || bad)
    throw new BadInputError(
      `--name ${name.trim() === '' ? 'is empty' : `contains the control character U+${(bad?.[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0').toUpperCase()}`}: node-info.yaml could not be read back with it. Nothing was written.`,
      {
        fix: 'Give a name of printable characters, e.g. --name validator-1, or leave --name out for the default node-<key prefix>.',
      },
    )
}

/**
 * Fresh keys have a peer id nobody can know yet: an address that already names one is a
 * mistake (the node's text: "Primary address already contains a different P2P protocol").
 */
function assertNoPeerId(value: string, label: string, what: 'Primary' | 'worker'): void {
  const addr = parseP2pAddress(value, label)
  if (addr.peerId)
    throw new InvalidMultiaddrError(
      label,
      value,
      `${what} address already contains a different P2P protocol: it carries /p2p/${addr.peerId}, which cannot be the peer id of keys that are about to be made`,
    )
}
