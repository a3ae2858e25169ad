/**
 * The signer question of the wizard: a private key typed at a hidden prompt, a keystore file
 * with its password (hidden), unsigned transactions for another wallet, a hardware wallet, or (the
 * stake wizard only, `offline`) a funding key on an offline machine: bundles to sign there
 * (./offline-step.ts, docs/offline.md). A signer the flags
 * or the environment already name (TN_PRIVATE_KEY, --keystore, --unsigned) is used as is.
 * Without a terminal the flags are the answer (SignerRequired names them when none is given).
 * On a terminal the choice (its kind and a keystore's path, never a secret) is remembered in the
 * data directory (./signer-memory.ts) and offered as the default next time. Ctrl-C at any of these
 * prompts stops at once (exit 30); only a mistyped answer is asked again.
 */
// node builtins are imported statically: the single executable has no dynamic import of them
import { resolve } from 'node:path'
import type { Address } from 'viem'
import { resolveSigner, type Signer } from '../chain/signer.js'
import { ExitCode, TnvError, UsageError } from '../errors.js'
import { type SignerFlagValues, signerOptionsOf } from '../options.js'
import { SignerMismatchError } from '../registry/errors.js'
import type { WizardIo } from '../wizard/io.js'
import { withOfflineBundleFix } from './errors.js'
import { readSignerChoice, rememberSignerChoice, type SignerChoice, type SignerKind } from './signer-memory.js'

export type PickSignerParameters = {
  action: string
  flags: SignerFlagValues
  /** node-info's execution_address, when known. */
  defaultFrom?: Address | undefined
  /** The environment the session hands over (TN_PRIVATE_KEY, TN_KEYSTORE_PASSWORD). */
  env: NodeJS.ProcessEnv
  /** The data directory whose remembered choice is the default, and where the new choice is kept. */
  datadir?: string | undefined
  /** Told the choice made at the prompts (for a caller that makes the data directory afterwards). */
  onChosen?: ((choice: SignerChoice) => void) | undefined
  /**
   * Offers "the funding key is on an offline machine" (the stake wizard); `bundle` is
   * --offline-bundle, which chooses it without a question.
   */
  offline?: { bundle?: string | undefined } | undefined
}

/** The funding key is on an offline machine: nothing signs here; `bundle` is the file given or remembered. */
export type OfflineSigner = { type: 'offline'; address: Address; bundle: string | undefined }

export async function pickSigner(
  io: WizardIo,
  params: PickSignerParameters & { offline: { bundle?: string | undefined } },
): Promise<Signer | OfflineSigner>
export async function pickSigner(io: WizardIo, params: PickSignerParameters): Promise<Signer>
export async function pickSigner(io: WizardIo, params: PickSignerParameters): Promise<Signer | OfflineSigner> {
  const { flags, datadir, env, offline } = params
  const named = signerNamed(flags, env)
  if (offline?.bundle !== undefined) return offlineFromBundle(io, params, offline.bundle, named)
  if (!io.interactive || named) return signerFromFlags(io, params)
  const remembered = datadir === undefined ? null : await readSignerChoice(datadir)
  const kind = await askSignerKind(io, remembered, offline !== undefined)
  const { signer, choice } =
    kind === 'offline'
      ? await askOffline(io, params, remembered)
      : kind === 'ledger' || kind === 'trezor'
        ? await askHardware(io, params, kind, remembered)
        : kind === 'key' || kind === 'keystore'
          ? await askKeyOrKeystore(io, params, kind, remembered)
          : await askUnsigned(io, params)
  await rememberChoice(io, params, choice)
  return signer
}

/** A signer the flags or the environment name: a key, a keystore, unsigned, a hardware wallet. */
function signerNamed(flags: SignerFlagValues, env: NodeJS.ProcessEnv): boolean {
  return (
    flags.keystore !== undefined ||
    flags.unsigned === true ||
    flags.ledger === true ||
    flags.trezor === true ||
    (env.TN_PRIVATE_KEY !== undefined && env.TN_PRIVATE_KEY !== '')
  )
}

/** --offline-bundle: the key is offline (no other signer may be named); the bundle's path is remembered. */
async function offlineFromBundle(
  io: WizardIo,
  { flags, defaultFrom, datadir }: PickSignerParameters,
  bundlePath: string,
  named: boolean,
): Promise<OfflineSigner> {
  if (named)
    throw new UsageError(
      '--offline-bundle says the funding key is on an offline machine, and a signer here is named too.',
      {
        fix: 'Drop --offline-bundle to sign here, or drop --keystore, --unsigned, --ledger, --trezor and TN_PRIVATE_KEY to sign offline.',
      },
    )
  const address = await offlineAddress(io, flags, defaultFrom)
  const bundle = resolve(bundlePath)
  await chosenOffline(datadir, bundle, io)
  return { type: 'offline', address, bundle }
}

/** Without a terminal, or with a signer named: the flags and the environment are the answer. */
async function signerFromFlags(
  io: WizardIo,
  { action, flags, defaultFrom, env, offline }: PickSignerParameters,
): Promise<Signer> {
  // the wizard's prompts and the session's one stdin reader (--keystore-password-source stdin)
  const { signer } = await resolveSigner({
    action,
    ...signerOptionsOf(flags),
    defaultFrom,
    prompter: io,
    env,
  }).catch((err: unknown) => {
    throw offline ? withOfflineBundleFix(err) : err
  })
  return signer
}

/** The question, with the remembered kind as the default (offline only where it is offered). */
async function askSignerKind(io: WizardIo, remembered: SignerChoice | null, offline: boolean): Promise<SignerKind> {
  return io.select<SignerKind>(
    'Who signs the transactions?',
    [
      { value: 'key', name: 'a private key (typed at a hidden prompt)' },
      { value: 'keystore', name: 'a keystore file (Ethereum V3 JSON) and its password' },
      { value: 'unsigned', name: 'nobody here: print unsigned transactions for another wallet' },
      { value: 'ledger', name: 'a Ledger (through foundry’s cast; the address is read from the device)' },
      { value: 'trezor', name: 'a Trezor (through foundry’s cast; the address is read from the device)' },
      ...(offline
        ? [
            {
              value: 'offline' as const,
              name: 'the funding key is on an offline machine: prepare a file to sign there, broadcast it here',
            },
          ]
        : []),
    ],
    remembered !== null && (remembered.kind !== 'offline' || offline) ? remembered.kind : 'key',
  )
}

/** The signer answered at the prompts and the choice to remember (never a secret). */
type Answered<S> = { signer: S; choice: SignerChoice }

async function askOffline(
  io: WizardIo,
  { flags, defaultFrom }: PickSignerParameters,
  remembered: SignerChoice | null,
): Promise<Answered<OfflineSigner>> {
  const address = await offlineAddress(io, flags, defaultFrom)
  const bundle = remembered?.kind === 'offline' ? remembered.bundle : undefined
  return {
    signer: { type: 'offline', address, bundle },
    choice: { kind: 'offline', ...(bundle !== undefined ? { bundle } : {}) },
  }
}

/** The account index on the device (the remembered one by default). */
async function askHardware(
  io: WizardIo,
  { action, defaultFrom, env }: PickSignerParameters,
  kind: 'ledger' | 'trezor',
  remembered: SignerChoice | null,
): Promise<Answered<Signer>> {
  const index = await io.input(
    `Account index on the ${kind === 'ledger' ? 'Ledger' : 'Trezor'} (m/44'/60'/0'/0/<index>)`,
    {
      default: remembered?.kind === kind ? String(remembered.index) : '0',
      validate: (v) => (/^[0-9]{1,9}$/.test(v.trim()) ? true : 'A whole number, 0 for the first account'),
    },
  )
  const signer = (
    await resolveSigner({ action, defaultFrom, hardware: { device: kind, index: Number(index.trim()) }, env })
  ).signer
  return { signer, choice: { kind, index: Number(index.trim()) } }
}

/** A private key at a hidden prompt, or a keystore file and its password; a mistyped answer is asked again. */
async function askKeyOrKeystore(
  io: WizardIo,
  { action, flags, defaultFrom, env }: PickSignerParameters,
  kind: 'key' | 'keystore',
  remembered: SignerChoice | null,
): Promise<Answered<Signer>> {
  let keystorePath = ''
  const signer = await askAgainOnMistake(io, defaultFrom, async () => {
    if (kind === 'key') {
      const key = await io.secret('Private key of the validator address (hidden)')
      return (await resolveSigner({ action, defaultFrom, env: { TN_PRIVATE_KEY: key } })).signer
    }
    const keystoreDefault = flags.keystore ?? (remembered?.kind === 'keystore' ? remembered.keystore : undefined)
    keystorePath = (
      await io.input('Keystore file', { ...(keystoreDefault !== undefined ? { default: keystoreDefault } : {}) })
    ).trim()
    return (
      await resolveSigner({
        action,
        keystore: keystorePath,
        keystorePasswordSource: 'ask',
        prompter: io,
        defaultFrom,
        env,
      })
    ).signer
  })
  return { signer, choice: kind === 'key' ? { kind } : { kind, keystore: resolve(keystorePath) } }
}

/** Unsigned transactions from node-info's execution address, or the address asked. */
async function askUnsigned(
  io: WizardIo,
  { action, defaultFrom, env }: PickSignerParameters,
): Promise<Answered<Signer>> {
  const from =
    defaultFrom ??
    (await io.input('Address that will sign (the validator address)', {
      validate: (v) => (/^0x[0-9a-fA-F]{40}$/.test(v.trim()) ? true : 'A 0x-prefixed 20-byte address'),
    }))
  const signer = (await resolveSigner({ action, unsigned: true, from, defaultFrom, env })).signer
  return { signer, choice: { kind: 'unsigned' } }
}

/** Told to onChosen and kept in the data directory; a failure to keep it is a warning, not an error. */
async function rememberChoice(
  io: WizardIo,
  { datadir, onChosen }: PickSignerParameters,
  choice: SignerChoice,
): Promise<void> {
  onChosen?.(choice)
  if (datadir === undefined) return
  try {
    await rememberSignerChoice(datadir, choice)
  } catch (err) {
    const w = `Warning: could not remember the signer choice in ${datadir} (${err instanceof Error ? err.message : String(err)}); it will be asked again next time.`
    io.emit({ event: 'warning', message: w }, w)
  }
}

/** The address whose key is offline: --from, node-info.yaml's execution address, or asked. */
async function offlineAddress(
  io: WizardIo,
  flags: SignerFlagValues,
  defaultFrom: Address | undefined,
): Promise<Address> {
  const given = flags.from ?? defaultFrom
  if (given === undefined && !io.interactive)
    throw new UsageError(
      'The offline path needs the address whose key is offline, and there is no node-info.yaml to read it from.',
      {
        fix: 'Pass --from ADDRESS (the validator address), or make the keys first: `tnv keytool generate validator --address ADDRESS --datadir DIR`.',
      },
    )
  const text =
    given ??
    (await io.input('Address whose key is on the offline machine (the validator address)', {
      validate: (v) => (/^0x[0-9a-fA-F]{40}$/.test(v.trim()) ? true : 'A 0x-prefixed 20-byte address'),
    }))
  const { parseAddressFlag } = await import('../chain/address.js')
  return parseAddressFlag(text.trim(), '--from')
}

/** --offline-bundle remembered like a choice made at the prompt (its absolute path). */
async function chosenOffline(datadir: string | undefined, bundle: string, io: WizardIo): Promise<void> {
  if (datadir === undefined) return
  await rememberSignerChoice(datadir, { kind: 'offline', bundle }).catch((err: unknown) => {
    const w = `Warning: could not remember the signer choice in ${datadir} (${err instanceof Error ? err.message : String(err)}); it will be asked again next time.`
    io.emit({ event: 'warning', message: w }, w)
  })
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
      // Ctrl-C at the prompt (Aborted) stops at once; only a mistyped answer is asked again
      if (!(err instanceof TnvError) || err.exitCode === ExitCode.Internal || err.exitCode === ExitCode.Aborted)
        throw err
      problem = err.message
      last = err
    }
    if (attempt >= SIGNER_ATTEMPTS) throw last
    io.emit({ event: 'warning', message: problem }, `${problem} Try again (${SIGNER_ATTEMPTS - attempt} left).`)
  }
}
