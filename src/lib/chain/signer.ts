/**
 * Who sends: a local key (TN_PRIVATE_KEY, --keystore) or nobody (--unsigned:
 * the transaction is printed for a multisig or a hardware wallet). Flag, then environment.
 * A key never appears in output, errors or logs. TN_PRIVATE_KEY and TN_KEYSTORE_PASSWORD are read
 * from the environment the session hands over (src/cli/session.ts `signerEnv`, which has taken
 * them out of the process environment); nothing here changes it.
 */

import type { Address, LocalAccount } from 'viem'
import { UsageError } from '../errors.js'
import type { Prompter } from '../io/prompter.js'
import type { KeystorePasswordSource } from '../options.js'
import { assertUtf8Secret } from '../passphrase/errors.js'
import { parseAddressFlag } from './address.js'
import { InvalidPrivateKeyError, KeystorePasswordRequiredError, SignerRequiredError } from './errors.js'
import { decryptKeystore, readKeystoreFile } from './keystore.js'

export type Signer =
  | { type: 'local'; address: Address; account: LocalAccount; source: string }
  | { type: 'unsigned'; address: Address }
  /** --check: the sender whose step is checked (reads and simulation); nothing is signed or sent. */
  | { type: 'check'; address: Address }

export type ResolveSignerParameters = {
  /** What the signer is for, for messages ("stake", "activate"). */
  action: string
  keystore?: string | undefined
  keystorePasswordSource?: KeystorePasswordSource | undefined
  unsigned?: boolean | undefined
  /** --from: the sender of an --unsigned transaction (or an assertion on the key's address). */
  from?: string | undefined
  /** The sender when nothing else names one (e.g. node-info's execution_address for stake). */
  defaultFrom?: Address | undefined
  /**
   * The session's prompts and its one stdin reader: the keystore password from
   * `--keystore-password-source stdin` is the NEXT line of that reader (the first the command
   * takes), `ask` is a hidden prompt. Without it, neither is possible.
   */
  prompter?: Prompter | undefined
  /** --ledger / --trezor: the account on a hardware wallet (its address read from the device; it signs through cast). */
  hardware?: { device: 'ledger' | 'trezor'; hdPath?: string | undefined; index?: number | undefined } | undefined
  /** A key to use when no signer is given (the devnet's public governance key for `governance mint`). */
  fallbackKey?: { privateKey: `0x${string}`; source: string } | undefined
  /** The environment the session hands over (`session.signerEnv()`: TN_PRIVATE_KEY, TN_KEYSTORE_PASSWORD; cast's PATH). Read only. */
  env: NodeJS.ProcessEnv
}

export type ResolveSignerReturnType = {
  signer: Signer
}

/**
 * @example const { signer } = await resolveSigner({ action: 'stake', keystore: 'wallet.json' })
 */
export async function resolveSigner({
  action,
  keystore,
  keystorePasswordSource = 'env',
  unsigned = false,
  from,
  defaultFrom,
  fallbackKey,
  prompter,
  hardware,
  env,
}: ResolveSignerParameters): Promise<ResolveSignerReturnType> {
  const fromAddress = from === undefined ? undefined : parseAddressFlag(from, '--from')

  let account: LocalAccount | undefined
  let source = ''
  if (hardware !== undefined) {
    if (keystore !== undefined || unsigned)
      throw new UsageError(
        `--${hardware.device} and ${keystore !== undefined ? '--keystore' : '--unsigned'} both name a signer.`,
        {
          fix: 'Pass only one of them.',
        },
      )
    const { hardwareAccount, derivationPath } = await import('../signers/hardware.js')
    account = await hardwareAccount(hardware, env)
    source = `${hardware.device} ${derivationPath(hardware)}`
  } else if (keystore !== undefined) {
    const parsed = await readKeystoreFile(keystore)
    // an unsigned transaction needs only the address, which the keystore states in clear
    if (unsigned && parsed.address !== null)
      return { signer: unsignedSigner(fromAddress ?? parsed.address, parsed.address) }
    const password = await keystorePassword(keystore, keystorePasswordSource, env, prompter)
    account = await accountFromKey(await decryptKeystore(parsed, password, keystore), keystore)
    source = `keystore ${keystore}`
  } else if (env.TN_PRIVATE_KEY !== undefined && env.TN_PRIVATE_KEY !== '') {
    const key = env.TN_PRIVATE_KEY
    account = await accountFromKey(key, 'TN_PRIVATE_KEY')
    source = 'TN_PRIVATE_KEY'
  }

  if (unsigned) {
    const address = fromAddress ?? account?.address ?? defaultFrom
    if (address === undefined)
      throw new UsageError(`--unsigned needs the sender's address to prepare ${action} (nonce, gas).`, {
        fix: 'Pass --from ADDRESS (the account that will sign it).',
      })
    return { signer: unsignedSigner(address, account?.address) }
  }

  if (account === undefined && fallbackKey !== undefined) {
    account = await accountFromKey(fallbackKey.privateKey, fallbackKey.source)
    source = fallbackKey.source
  }
  if (account === undefined) throw new SignerRequiredError(action)
  if (fromAddress !== undefined && fromAddress !== account.address)
    throw new UsageError(`--from ${fromAddress} is not the signer's address ${account.address} (${source}).`, {
      fix: 'Drop --from, or use the key of that address.',
    })
  return { signer: { type: 'local', address: account.address, account, source } }
}

function unsignedSigner(address: Address, keyAddress: Address | undefined): Signer {
  if (keyAddress !== undefined && keyAddress !== address)
    throw new UsageError(`--from ${address} is not the signer's address ${keyAddress}.`, {
      fix: 'Drop --from, or use the key of that address.',
    })
  return { type: 'unsigned', address }
}

async function accountFromKey(key: string, origin: string): Promise<LocalAccount> {
  const hex = key.trim().replace(/^0x/i, '')
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new InvalidPrivateKeyError(origin)
  const { privateKeyToAccount } = await import('viem/accounts')
  try {
    return privateKeyToAccount(`0x${hex.toLowerCase()}`)
  } catch {
    throw new InvalidPrivateKeyError(origin)
  }
}

async function keystorePassword(
  path: string,
  source: KeystorePasswordSource,
  env: NodeJS.ProcessEnv,
  prompter: Prompter | undefined,
): Promise<string> {
  if (source === 'stdin') {
    if (!prompter) throw new KeystorePasswordRequiredError(path)
    const stdin = prompter.stdin()
    if (stdin.isTTY)
      throw new UsageError(
        '--keystore-password-source stdin reads the password from standard input, which is a terminal here, so what you type would be shown.',
        { fix: 'Use --keystore-password-source ask for a hidden prompt, or pipe the password in.' },
      )
    const line = await stdin.next()
    if (line === undefined)
      throw new UsageError(
        `Standard input ended before it gave the password of the keystore ${path} (--keystore-password-source stdin reads one line).`,
        {
          fix: 'Pipe it in, e.g. `printf \'%s\\n\' "$PASSWORD" | tnv …`; when a BLS passphrase comes from stdin too, it is the next line.',
        },
      )
    return line.replace(/\r$/, '')
  }
  if (source === 'env' && env.TN_KEYSTORE_PASSWORD !== undefined) {
    const password = env.TN_KEYSTORE_PASSWORD
    assertUtf8Secret(password, 'keystore password', { kind: 'env', name: 'TN_KEYSTORE_PASSWORD' })
    return password
  }
  if (!prompter?.interactive) throw new KeystorePasswordRequiredError(path)
  const typed = await prompter.secret(`Password for the keystore ${path}:`)
  assertUtf8Secret(typed, 'keystore password', { kind: 'prompt' })
  return typed
}
