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

export async function createKeys(
  io: WizardIo,
  {
    datadir,
    address,
    create,
    passphraseSource,
    externalPrimaryAddr,
    externalWorkerAddrs,
    env,
    offerPhrase = false,
    terminal,
  }: CreateKeysParameters,
): Promise<{ path: string; info: NodeInfo; passphrase: string | null }> {
  let withPhrase = false
  let primary = externalPrimaryAddr
  let workers = externalWorkerAddrs
    ?.split(',')
    .map((a) => a.trim())
    .filter((a) => a.length > 0)
  let source = passphraseSource
  if (io.interactive) {
    if (
      !create &&
      !(await io.confirm(`No ${NODE_INFO_FILE} in ${datadir}. Generate validator keys there for ${address}?`, true))
    )
      throw new AbortedError(
        `Stopped: no validator keys. Point --datadir at the data directory that holds them, or run \`tnv keytool generate validator --address ${address} --datadir DIR\`.`,
      )
    if (primary === undefined) {
      const host = (
        await io.input(
          `Public IP address or DNS name of this host (the p2p addresses use UDP ${PRIMARY_UDP_PORT} and ${WORKER_UDP_PORT}; empty: local-only 127.0.0.1 on free ports, for a devnet)`,
          { default: '' },
        )
      ).trim()
      if (host !== '') {
        const proto = /^\d+\.\d+\.\d+\.\d+$/.test(host) ? 'ip4' : host.includes(':') ? 'ip6' : 'dns4'
        primary = `/${proto}/${host}/udp/${PRIMARY_UDP_PORT}/quic-v1`
        workers = [`/${proto}/${host}/udp/${WORKER_UDP_PORT}/quic-v1`]
      }
    }
    // a passphrase already in the environment is used; otherwise it is asked (twice, hidden)
    if (source === 'env' && env.TN_BLS_PASSPHRASE === undefined) source = 'ask'
    if (offerPhrase && terminal)
      withPhrase =
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
  } else if (!create) {
    throw new MissingInputError(
      `Validator keys (there is no ${NODE_INFO_FILE} in ${datadir})`,
      '--create-keys to generate them there (passphrase from TN_BLS_PASSPHRASE), or --datadir/--node-info naming existing keys',
    )
  }
  const [{ generateNodeKeys }, { readPassphrase }] = await Promise.all([
    import('../keys/generate-node-keys.js'),
    import('../passphrase/read-passphrase.js'),
  ])
  const stdin = source === 'stdin' ? io.stdin() : undefined
  // a recovery phrase: made now, shown and confirmed once every check of generate passed
  let phrase: string | undefined
  let secret: Uint8Array | undefined
  if (withPhrase) {
    const [{ generateMnemonic }, { blsSecretFromMnemonic }] = await Promise.all([
      import('../keys/mnemonic.js'),
      import('../keys/mnemonic-key.js'),
    ])
    phrase = generateMnemonic()
    secret = blsSecretFromMnemonic(phrase, 0)
  }
  // Kept in memory for the node tnv may start next: the node reads TN_BLS_PASSPHRASE, which
  // tnv removed from its own environment once read.
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
  if (withPhrase) {
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
  return { path: r.paths.nodeInfo, info: r.info, passphrase: r.encrypted ? (passphrase ?? null) : null }
}
