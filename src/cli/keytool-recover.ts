/**
 * The session side of `tnv keytool recover`: the flags checked and turned into the library's
 * parameters (src/lib/keys/recover-node-keys.ts), with the phrase and the new passphrase read
 * through the session (its one stdin reader, its hidden prompt) only when the library asks.
 */
import type { RecoverNodeKeysParameters } from '../lib/keys/recover-node-keys.js'
import { workerAddrsOf } from '../lib/options.js'
import type { RecoverFlags } from './flags/recover.js'
import type { Session } from './session.js'

/**
 * @param warn a warning line for the operator (stderr): an unchecked key, a phrase file's mode
 */
export async function recoverParameters(
  session: Session,
  flags: RecoverFlags,
  warn: (line: string) => void,
): Promise<RecoverNodeKeysParameters> {
  const [
    { parseExecutionAddress },
    { checkRpcEndpoints },
    { readPassphrase },
    { readMnemonic },
    { checkHexBytes },
    { registeredKeyReader },
  ] = await Promise.all([
    import('../lib/nodeinfo/address.js'),
    import('../lib/nodeinfo/rpc-url.js'),
    import('../lib/passphrase/read-passphrase.js'),
    import('../lib/keys/read-mnemonic.js'),
    import('../lib/registry/stake-checks.js'),
    import('./registered-key.js'),
  ])
  const address = parseExecutionAddress(flags.address, '--address')
  const expectPubkey =
    flags['expect-pubkey'] === undefined ? undefined : checkHexBytes(flags['expect-pubkey'], '--expect-pubkey', 96)
  const rpc = checkRpcEndpoints(
    { http: flags['rpc-http'], ws: flags['rpc-ws'] },
    { http: '--rpc-http', ws: '--rpc-ws' },
  )
  const workerAddrs = workerAddrsOf(flags['external-worker-addrs'])
  const source = flags['bls-passphrase-source']
  const registeredKey = registeredKeyReader(flags)
  if (!registeredKey && expectPubkey === undefined)
    warn(
      'the recovered key is not checked against the registry: pass --chain or --rpc-url (or --expect-pubkey) to have tnv refuse a phrase that does not give the registered key.',
    )
  return {
    datadir: flags.datadir,
    address,
    workers: flags.workers,
    form: flags['node-info-form'] ?? (flags.workers > 1 ? 'workers' : 'worker'),
    index: flags['mnemonic-index'],
    ...(expectPubkey !== undefined ? { expectPubkey } : {}),
    ...(registeredKey ? { registeredKey } : {}),
    ...(flags.name !== undefined ? { name: flags.name } : {}),
    ...(flags['external-primary-addr'] !== undefined ? { externalPrimaryAddr: flags['external-primary-addr'] } : {}),
    ...(workerAddrs !== undefined ? { externalWorkerAddrs: workerAddrs } : {}),
    ...(rpc ? { rpc } : {}),
    phrase: async () => {
      const m = await readMnemonic({ file: flags['mnemonic-file'], stdin: session.stdin(), io: session.passphraseIo() })
      if (m.warning) warn(m.warning)
      return m.phrase
    },
    passphrase: async () =>
      readPassphrase({
        source,
        purpose: 'create',
        ...(source === 'stdin' ? { stdin: session.stdin() } : {}),
        io: session.passphraseIo(),
        env: session.passphraseEnv(source),
      }),
  }
}
