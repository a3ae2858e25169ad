/**
 * The keys step of the stake wizard: node-info.yaml from --node-info or the data directory,
 * or, when there is none, new validator keys made with the keytool library for the signer's
 * address (asked first on a terminal; --create-keys without one). The passphrase is asked
 * twice at a hidden prompt, or comes from --bls-passphrase-source (TN_BLS_PASSPHRASE).
 */
import { join } from 'node:path'
import type { Address } from 'viem'
import { AbortedError, MissingInputError } from '../errors.js'
import { pathExists } from '../fs/atomic.js'
import type { GenerateNodeKeysReturnType } from '../keys/generate-node-keys.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import { NODE_INFO_FILE, type NodeInfo } from '../nodeinfo/types.js'
import type { PassphraseSource } from '../options.js'
import type { WizardIo } from '../wizard/io.js'

/** The conventional p2p ports (spec: Prerequisites). */
export const PRIMARY_UDP_PORT = 49590
export const WORKER_UDP_PORT = 49594

export type FindKeysReturnType = { path: string; info: NodeInfo } | null

/** node-info.yaml if it exists (a malformed one is an error, not "absent"). */
export async function findKeys({
  datadir,
  nodeInfo,
}: {
  datadir: string
  nodeInfo?: string | undefined
}): Promise<FindKeysReturnType> {
  if (nodeInfo !== undefined) return readNodeInfo(nodeInfo)
  if (!(await pathExists(join(datadir, NODE_INFO_FILE)))) return null
  return readNodeInfo(datadir)
}

export type CreateKeysParameters = {
  datadir: string
  address: Address
  /** --create-keys: allowed to create them without a terminal. */
  create: boolean
  passphraseSource: PassphraseSource
  externalPrimaryAddr?: string | undefined
  /** Comma-separated. */
  externalWorkerAddrs?: string | undefined
  /** TN_BLS_PASSPHRASE as the session hands it (a copy: the read removes it from this object only). */
  env: NodeJS.ProcessEnv
  /**
   * On a terminal, offer (and recommend) a key from a new recovery phrase (issue 18); `terminal`
   * shows the phrase once. Not offered on the rehearsal chain, where keys guard nothing.
   */
  offerPhrase?: boolean | undefined
  terminal?: ((text: string) => void) | undefined
}

export type CreateKeysReturnType = { path: string; info: NodeInfo; passphrase: string | null }

export async function createKeys(io: WizardIo, params: CreateKeysParameters): Promise<CreateKeysReturnType> {
  const inputs = io.interactive ? await askKeyInputs(io, params) : keyInputsWithoutTerminal(params)
  const { r, passphrase } = await generateKeys(io, params, inputs)
  if (inputs.withPhrase) await recordPhraseBackup(r)
  reportKeysCreated(io, r, inputs.withPhrase)
  return { path: r.paths.nodeInfo, info: r.info, passphrase: r.encrypted ? (passphrase ?? null) : null }
}

/** What the keys are made with, settled before anything is made. */
type KeyInputs = {
  primary: string | undefined
  workers: string[] | undefined
  source: PassphraseSource
  /** The BLS key from a new recovery phrase (shown once) rather than random bytes. */
  withPhrase: boolean
}

/** Without a terminal: only with --create-keys, from the flags as given. */
function keyInputsWithoutTerminal({
  datadir,
  create,
  passphraseSource,
  externalPrimaryAddr,
  externalWorkerAddrs,
}: CreateKeysParameters): KeyInputs {
  if (!create)
    throw new MissingInputError(
      `Validator keys (there is no ${NODE_INFO_FILE} in ${datadir})`,
      '--create-keys to generate them there (passphrase from TN_BLS_PASSPHRASE), or --datadir/--node-info naming existing keys',
    )
  return {
    primary: externalPrimaryAddr,
    workers: workerAddrsOf(externalWorkerAddrs),
    source: passphraseSource,
    withPhrase: false,
  }
}

/**
 * On a terminal: consent (unless --create-keys), the host's p2p address when none was given, the
 * passphrase source, and, when offered, a key from a recovery phrase or random bytes.
 */
async function askKeyInputs(io: WizardIo, params: CreateKeysParameters): Promise<KeyInputs> {
  const { datadir, address, create, env, offerPhrase = false, terminal } = params
  if (
    !create &&
    !(await io.confirm(`No ${NODE_INFO_FILE} in ${datadir}. Generate validator keys there for ${address}?`, true))
  )
    throw new AbortedError(
      `Stopped: no validator keys. Point --datadir at the data directory that holds them, or run \`tnv keytool generate validator --address ${address} --datadir DIR\`.`,
    )
  const given = { primary: params.externalPrimaryAddr, workers: workerAddrsOf(params.externalWorkerAddrs) }
  const addresses = given.primary === undefined ? ((await askP2pAddresses(io)) ?? given) : given
  // a passphrase already in the environment is used; otherwise it is asked (twice, hidden)
  let source = params.passphraseSource
  if (source === 'env' && env.TN_BLS_PASSPHRASE === undefined) source = 'ask'
  const withPhrase = offerPhrase && terminal ? await askWithPhrase(io) : false
  return { ...addresses, source, withPhrase }
}

function workerAddrsOf(externalWorkerAddrs: string | undefined): string[] | undefined {
  return externalWorkerAddrs
    ?.split(',')
    .map((a) => a.trim())
    .filter((a) => a.length > 0)
}

/** The p2p addresses on the conventional UDP ports of the host asked for; null (local-only) when empty. */
async function askP2pAddresses(io: WizardIo): Promise<{ primary: string; workers: string[] } | null> {
  const host = (
    await io.input(
      `Public IP address or DNS name of this host (the p2p addresses use UDP ${PRIMARY_UDP_PORT} and ${WORKER_UDP_PORT}; empty: local-only 127.0.0.1 on free ports, for a devnet)`,
      { default: '' },
    )
  ).trim()
  if (host === '') return null
  const proto = /^\d+\.\d+\.\d+\.\d+$/.test(host) ? 'ip4' : host.includes(':') ? 'ip6' : 'dns4'
  return {
    primary: `/${proto}/${host}/udp/${PRIMARY_UDP_PORT}/quic-v1`,
    workers: [`/${proto}/${host}/udp/${WORKER_UDP_PORT}/quic-v1`],
  }
}

async function askWithPhrase(io: WizardIo): Promise<boolean> {
  return (
    (await io.select(
      'How should the BLS key be made?',
      [
        {
          value: 'phrase',
          name: 'From a new 24-word recovery phrase (recommended): shown once, you write it on paper, and the key can be rebuilt from it',
        },
        {
          value: 'random',
          name: 'From random bytes only: the data directory and its passphrase are the only copy (back them up)',
        },
      ],
      'phrase',
    )) === 'phrase'
  )
}

/**
 * The keys written by the keytool library. A recovery phrase is made now and shown and confirmed
 * once every check of generate passed, just before the passphrase is read; the secret is zeroed after.
 * The passphrase is given back: the node tnv may start next reads TN_BLS_PASSPHRASE, which tnv
 * removed from its own environment once read.
 */
async function generateKeys(
  io: WizardIo,
  { datadir, address, env, terminal }: CreateKeysParameters,
  { primary, workers, source, withPhrase }: KeyInputs,
): Promise<{ r: GenerateNodeKeysReturnType; passphrase: string | undefined }> {
  const [{ generateNodeKeys }, { readPassphrase }] = await Promise.all([
    import('../keys/generate-node-keys.js'),
    import('../passphrase/read-passphrase.js'),
  ])
  const stdin = source === 'stdin' ? io.stdin() : undefined
  let { phrase, secret } = withPhrase ? await newRecoveryPhrase() : { phrase: undefined, secret: undefined }
  let passphrase: string | undefined
  const r = await generateNodeKeys({
    datadir,
    address,
    ...(secret ? { secret } : {}),
    ...(primary !== undefined ? { externalPrimaryAddr: primary } : {}),
    ...(workers !== undefined ? { externalWorkerAddrs: workers } : {}),
    passphrase: async () => {
      if (phrase !== undefined && terminal) {
        const { confirmPhraseOnTerminal } = await import('../keys/confirm-phrase.js')
        await confirmPhraseOnTerminal(io, terminal, phrase, 0)
        phrase = undefined
      }
      const value = await readPassphrase({
        source,
        purpose: 'create',
        env,
        ...(stdin ? { stdin } : {}),
        // `say`: the mismatch of the two entries is said before asking again
        io: {
          isTTY: io.interactive,
          ask: (m) => io.secret(m),
          say: (m) => io.emit({ event: 'warning', message: m }, m),
        },
      })
      passphrase = value
      // said before anything is written, while the passphrase can still be changed (Ctrl-C)
      const { weakPassphraseWarning } = await import('../passphrase/strength.js')
      const weak = weakPassphraseWarning(value)
      if (weak) io.emit({ event: 'warning', message: weak }, `Warning: ${weak}`)
      return value
    },
  }).finally(() => secret?.fill(0))
  return { r, passphrase }
}

/** A new 24-word phrase and the BLS secret of its key 0. */
async function newRecoveryPhrase(): Promise<{ phrase: string | undefined; secret: Uint8Array | undefined }> {
  const [{ generateMnemonic }, { blsSecretFromMnemonic }] = await Promise.all([
    import('../keys/mnemonic.js'),
    import('../keys/mnemonic-key.js'),
  ])
  const phrase = generateMnemonic()
  return { phrase, secret: blsSecretFromMnemonic(phrase, 0) }
}

/** The phrase was confirmed on the terminal: recorded as the key's backup. */
async function recordPhraseBackup(r: GenerateNodeKeysReturnType): Promise<void> {
  const [{ recordBackupProof }, { validatorKeyPath }] = await Promise.all([
    import('../keys/backup-record.js'),
    import('../keys/mnemonic-key.js'),
  ])
  await recordBackupProof(r.paths.datadir, {
    how: 'phrase-confirmed',
    blsPublicKey: `0x${Buffer.from(r.info.blsPublicKey).toString('hex')}`,
    keyPath: validatorKeyPath(0),
    at: new Date().toISOString(),
  })
}

/** Where the keys are, how they are backed up, and a warning for local-only p2p addresses. */
function reportKeysCreated(io: WizardIo, r: GenerateNodeKeysReturnType, withPhrase: boolean): void {
  io.emit(
    {
      event: 'keys-created',
      datadir: r.paths.datadir,
      nodeInfo: r.paths.nodeInfo,
      encrypted: r.encrypted,
      recoveryPhrase: withPhrase,
    },
    [
      `Wrote validator keys to ${r.paths.datadir} (node-keys/, node-info.yaml); the BLS key is ${r.encrypted ? 'encrypted with your passphrase' : 'NOT encrypted'}.`,
      withPhrase
        ? 'The key can be rebuilt from the recovery phrase (tnv keytool recover): keep the paper offline; anyone with the words holds the key.'
        : `Back up ${r.paths.datadir} now, above all node-keys/: a lost passphrase cannot be recovered.`,
    ],
  )
  if (r.localAddresses)
    io.emit(
      { event: 'warning', message: 'node-info.yaml holds local-only 127.0.0.1 p2p addresses' },
      'Warning: node-info.yaml holds local-only 127.0.0.1 p2p addresses: fine for the devnet, unreachable for other validators.',
    )
}
