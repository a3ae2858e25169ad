/**
 * The signer question of the wizard: a private key typed at a hidden prompt, a keystore file
 * with its password (hidden), or unsigned transactions for another wallet. A signer the flags
 * or the environment already name (TN_PRIVATE_KEY, --keystore, --unsigned) is used as is.
 * Without a terminal the flags are the answer (SignerRequired names them when none is given).
 */
import type { Address } from 'viem'
import { resolveSigner, type Signer } from '../chain/signer.js'
import type { SignerFlagValues } from '../options.js'
import type { WizardIo } from '../wizard/io.js'

export type PickSignerParameters = {
  action: string
  flags: SignerFlagValues
  /** node-info's execution_address, when known. */
  defaultFrom?: Address | undefined
  env?: NodeJS.ProcessEnv
}

export async function pickSigner(
  io: WizardIo,
  { action, flags, defaultFrom, env = process.env }: PickSignerParameters,
): Promise<Signer> {
  const named =
    flags['private-key'] !== undefined ||
    flags.keystore !== undefined ||
    flags.unsigned === true ||
    (env.TN_PRIVATE_KEY !== undefined && env.TN_PRIVATE_KEY !== '')
  const warn = (lines: string[]) => {
    for (const w of lines) io.emit({ event: 'warning', message: w }, w)
  }
  if (!io.interactive || named) {
    const { signer, warnings } = await resolveSigner({
      action,
      privateKey: flags['private-key'],
      keystore: flags.keystore,
      keystorePasswordSource: flags['keystore-password-source'],
      unsigned: flags.unsigned,
      from: flags.from,
      defaultFrom,
      env,
    })
    warn(warnings)
    return signer
  }
  const kind = await io.select(
    'Who signs the transactions?',
    [
      { value: 'key', name: 'a private key (typed at a hidden prompt)' },
      { value: 'keystore', name: 'a keystore file (Ethereum V3 JSON) and its password' },
      { value: 'unsigned', name: 'nobody here: print unsigned transactions for another wallet' },
    ],
    'key',
  )
  if (kind === 'key') {
    const key = await io.secret('Private key of the validator address (hidden)')
    return (await resolveSigner({ action, defaultFrom, env: { TN_PRIVATE_KEY: key } })).signer
  }
  if (kind === 'keystore') {
    const keystore = await io.input('Keystore file', { ...(flags.keystore ? { default: flags.keystore } : {}) })
    return (await resolveSigner({ action, keystore: keystore.trim(), keystorePasswordSource: 'ask', defaultFrom, env }))
      .signer
  }
  const from =
    defaultFrom ??
    (await io.input('Address that will sign (the validator address)', {
      validate: (v) => (/^0x[0-9a-fA-F]{40}$/.test(v.trim()) ? true : 'A 0x-prefixed 20-byte address'),
    }))
  return (await resolveSigner({ action, unsigned: true, from, defaultFrom, env })).signer
}
