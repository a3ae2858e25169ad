/**
 * Ledger and Trezor signers through foundry's cast (./cast.ts). tnv keeps everything around the
 * device: its checks, the simulation, the journal and the broadcast (src/lib/tx/run-step.ts);
 * the device only signs. The signer is a viem account (`toAccount`) whose signTransaction runs
 * `cast mktx --ledger|--trezor` with every field tnv prepared (nonce, gas, fees, chain id), so
 * cast fills nothing in, and then checks what came back: the signed transaction must decode to
 * exactly those fields and recover to the device address read before. The address is read from
 * the device first (`cast wallet address`), so a wrong derivation path is caught before anything
 * is signed. Messages and typed data are refused (tnv needs none from a device; the delegation
 * digest is a raw hash that these devices do not sign: HardwareCannotSignDigestError).
 */
import {
  type Address,
  getAddress,
  type Hex,
  type LocalAccount,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerializable,
} from 'viem'
import { toAccount } from 'viem/accounts'
import { castComplaint, runCast } from './cast.js'
import {
  HardwareCannotSignDigestError,
  HardwareSignatureMismatchError,
  HardwareWalletUnavailableError,
} from './errors.js'

export type HardwareDevice = 'ledger' | 'trezor'

export type HardwareSignerOptions = {
  device: HardwareDevice
  /** A full BIP-32 path (`m/44'/60'/0'/0/0`); default: the device's Ethereum account at `index`. */
  hdPath?: string | undefined
  /** The account index on the default path (`m/44'/60'/0'/0/<index>` on both devices in cast); default 0. */
  index?: number | undefined
}

/** The path the device is asked for, as the operator should read it. */
export function derivationPath({ hdPath, index = 0 }: Pick<HardwareSignerOptions, 'hdPath' | 'index'>): string {
  return hdPath ?? `m/44'/60'/0'/0/${index}`
}

/** cast's options naming the device and the account on it. */
export function deviceArgs({ device, hdPath, index }: HardwareSignerOptions): string[] {
  return [
    `--${device}`,
    ...(hdPath !== undefined ? ['--mnemonic-derivation-path', hdPath] : []),
    ...(hdPath === undefined && index !== undefined ? ['--mnemonic-index', String(index)] : []),
  ]
}

/** `cast mktx` arguments for a transaction tnv prepared: every field given, none left to cast. */
export function mktxArgs(tx: TransactionSerializable, signer: HardwareSignerOptions & { from: Address }): string[] {
  if (!tx.to) throw new Error('a hardware-signed transaction needs a recipient')
  const fees =
    tx.type === 'legacy' || (tx.gasPrice !== undefined && tx.maxFeePerGas === undefined)
      ? ['--legacy', '--gas-price', String(tx.gasPrice ?? 0n)]
      : ['--gas-price', String(tx.maxFeePerGas ?? 0n), '--priority-gas-price', String(tx.maxPriorityFeePerGas ?? 0n)]
  return [
    'mktx',
    tx.to,
    tx.data ?? '0x',
    '--value',
    String(tx.value ?? 0n),
    '--nonce',
    String(tx.nonce ?? 0),
    '--gas-limit',
    String(tx.gas ?? 0n),
    ...fees,
    '--chain',
    String(tx.chainId ?? 0),
    '--from',
    signer.from,
    ...deviceArgs(signer),
  ]
}

/**
 * Reads the address of the account on the device.
 * @throws HardwareWalletUnavailableError when no device answers (the message names what cast said)
 */
export async function readHardwareAddress(options: HardwareSignerOptions, env: NodeJS.ProcessEnv): Promise<Address> {
  const run = await runCast(['wallet', 'address', ...deviceArgs(options)], { env })
  const found = /0x[0-9a-fA-F]{40}/.exec(run.stdout)?.[0]
  if (run.code !== 0 || !found)
    throw new HardwareWalletUnavailableError(options.device, derivationPath(options), castComplaint(run))
  return getAddress(found)
}

/** Checks a signed transaction against what was asked: every field, and the signer. */
export async function checkSignedTransaction(raw: Hex, asked: TransactionSerializable, from: Address): Promise<void> {
  let parsed: TransactionSerializable
  try {
    parsed = parseTransaction(raw)
  } catch {
    throw new HardwareSignatureMismatchError('it is not a signed transaction')
  }
  const same = (a: unknown, b: unknown) => String(a ?? '').toLowerCase() === String(b ?? '').toLowerCase()
  const fields: (keyof TransactionSerializable)[] = ['to', 'value', 'data', 'nonce', 'gas', 'chainId']
  if (asked.maxFeePerGas !== undefined) fields.push('maxFeePerGas', 'maxPriorityFeePerGas')
  else fields.push('gasPrice')
  const differ = fields.filter(
    (f) =>
      !same(
        parsed[f] ?? (f === 'data' ? '0x' : f === 'value' ? 0n : undefined),
        asked[f] ?? (f === 'data' ? '0x' : f === 'value' ? 0n : undefined),
      ),
  )
  if (differ.length) throw new HardwareSignatureMismatchError(`${differ.join(', ')} differ`)
  const signer = await recoverTransactionAddress({
    serializedTransaction: raw as Parameters<typeof recoverTransactionAddress>[0]['serializedTransaction'],
  })
  if (signer.toLowerCase() !== from.toLowerCase())
    throw new HardwareSignatureMismatchError(`it is signed by ${signer}, not by ${from}`)
}

/**
 * A viem account for the device: the address read from it, transactions signed by it through
 * `cast mktx` and checked before they are returned.
 * @example const account = await hardwareAccount({ device: 'ledger', index: 0 }, env)
 */
/** `env`: tnv's environment as the session hands it (TNV_CAST, PATH); cast runs with it. */
export async function hardwareAccount(options: HardwareSignerOptions, env: NodeJS.ProcessEnv): Promise<LocalAccount> {
  const address = await readHardwareAddress(options, env)
  const refuse = async (): Promise<never> => {
    throw new HardwareCannotSignDigestError(options.device)
  }
  const account = toAccount({
    address,
    signMessage: refuse,
    signTypedData: refuse,
    async signTransaction(tx) {
      const run = await runCast(mktxArgs(tx, { ...options, from: address }), { env })
      const raw = /0x[0-9a-fA-F]+/.exec(run.stdout.trim())?.[0] as Hex | undefined
      if (run.code !== 0 || !raw)
        throw new HardwareWalletUnavailableError(options.device, derivationPath(options), castComplaint(run))
      await checkSignedTransaction(raw, tx, address)
      return raw
    },
  })
  return account
}
