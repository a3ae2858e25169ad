/**
 * The signer question of the wizard: a private key typed at a hidden prompt, a keystore file
 * with its password (hidden), or unsigned transactions for another wallet. A signer the flags
 * or the environment already name (TN_PRIVATE_KEY, --keystore, --unsigned) is used as is.
 * Without a terminal the flags are the answer (SignerRequired names them when none is given).
 */
import type { Address } from 'viem'
import { resolveSigner, type Signer } from '../chain/signer.js'
import { ExitCode, TnvError } from '../errors.js'
import { type SignerFlagValues, signerOptionsOf } from '../options.js'
import { SignerMismatchError } from '../registry/errors.js'
import type { WizardIo } from '../wizard/io.js'

export type PickSignerParameters = {
  action: string
  flags: SignerFlagValues
  /** node-info's execution_address, when known. */
  defaultFrom?: Address | undefined
  /** The environment the session hands over (TN_PRIVATE_KEY, TN_KEYSTORE_PASSWORD). */
  env: NodeJS.ProcessEnv
}

export async function pickSigner(
  io: WizardIo,
  { action, flags, defaultFrom, env }: PickSignerParameters,
): Promise<Signer> {
  const named =
    flags['private-key'] !== undefined ||
    flags.keystore !== undefined ||
    flags.unsigned === true ||
    flags.ledger === true ||
    flags.trezor === true ||
    (env.TN_PRIVATE_KEY !== undefined && env.TN_PRIVATE_KEY !== '')
  const warn = (lines: string[]) => {
    for (const w of lines) io.emit({ event: 'warning', message: w }, w)
  }
  if (!io.interactive || named) {
    // the wizard's prompts and the session's one stdin reader (--keystore-password-source stdin)
    const { signer, warnings } = await resolveSigner({
      action,
      ...signerOptionsOf(flags),
      defaultFrom,
      prompter: io,
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
      { value: 'ledger', name: 'a Ledger (through foundry’s cast; the address is read from the device)' },
      { value: 'trezor', name: 'a Trezor (through foundry’s cast; the address is read from the device)' },
    ],
    'key',
  )
  if (kind === 'ledger' || kind === 'trezor') {
    const index = await io.input(
      `Account index on the ${kind === 'ledger' ? 'Ledger' : 'Trezor'} (m/44'/60'/0'/0/<index>)`,
      {
        default: '0',
        validate: (v) => (/^[0-9]{1,9}$/.test(v.trim()) ? true : 'A whole number, 0 for the first account'),
      },
    )
    return (await resolveSigner({ action, defaultFrom, hardware: { device: kind, index: Number(index.trim()) }, env }))
      .signer
  }
  if (kind === 'key' || kind === 'keystore')
    return askAgainOnMistake(io, defaultFrom, async () => {
      if (kind === 'key') {
        const key = await io.secret('Private key of the validator address (hidden)')
        return (await resolveSigner({ action, defaultFrom, env: { TN_PRIVATE_KEY: key } })).signer
      }
      const keystore = await io.input('Keystore file', { ...(flags.keystore ? { default: flags.keystore } : {}) })
      return (
        await resolveSigner({ action, keystore: keystore.trim(), keystorePasswordSource: 'ask', defaultFrom, env })
      ).signer
    })
  const from =
    defaultFrom ??
    (await io.input('Address that will sign (the validator address)', {
      validate: (v) => (/^0x[0-9a-fA-F]{40}$/.test(v.trim()) ? true : 'A 0x-prefixed 20-byte address'),
    }))
  return (await resolveSigner({ action, unsigned: true, from, defaultFrom, env })).signer
}

/** How often the wizard asks again for a mistyped key or password before it gives up. */
export const SIGNER_ATTEMPTS = 3

/**
 * A mistyped answer (a malformed key, a wrong keystore password, a key of another address than
 * node-info.yaml's) is explained and asked again, up to SIGNER_ATTEMPTS times, instead of ending
 * the wizard. Nothing secret is ever repeated back.
 */
async function askAgainOnMistake(
  io: WizardIo,
  expected: Address | undefined,
  ask: () => Promise<Signer>,
): Promise<Signer> {
  for (let attempt = 1; ; attempt++) {
    let problem: string
    let last: unknown
    try {
      const signer = await ask()
      if (expected === undefined || signer.address.toLowerCase() === expected.toLowerCase()) return signer
      problem = `That key is for ${signer.address}, but node-info.yaml's execution address (the validator) is ${expected}.`
      last = new SignerMismatchError({ signer: signer.address, executionAddress: expected })
    } catch (err) {
      if (!(err instanceof TnvError) || err.exitCode === ExitCode.Internal) throw err
      problem = err.message
      last = err
    }
    if (attempt >= SIGNER_ATTEMPTS) throw last
    io.emit({ event: 'warning', message: problem }, `${problem} Try again (${SIGNER_ATTEMPTS - attempt} left).`)
  }
}
