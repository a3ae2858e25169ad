/**
 * What `keytool recover` does: rebuilds a whole data directory from a recovery phrase. The BLS
 * secret is derived on the phrase's path (./mnemonic-key.ts); its public key is checked against
 * `--expect-pubkey` and, when a network is given, against the key the registry holds for the
 * address, BEFORE anything is written; then the keys are written exactly as `keytool generate`
 * writes them (./generate-node-keys.ts: bls.kw under the new passphrase, the seed files,
 * node-info.yaml with the address and multiaddrs, the proof of possession), and the phrase is
 * recorded as a proof that the key can be restored (./backup-record.ts). It never replaces
 * anything: a data directory that holds node-info.yaml or keys is refused.
 */
import { promises as fs } from 'node:fs'
import { pathExists } from '../fs/atomic.js'
import { recordBackupProof } from './backup-record.js'
import { blsPublicKey } from './bls.js'
import { datadirPaths } from './datadir.js'
import {
  type GenerateNodeKeysParameters,
  type GenerateNodeKeysReturnType,
  generateNodeKeys,
} from './generate-node-keys.js'
import { blsSecretFromMnemonic, validatorKeyPath } from './mnemonic-key.js'
import {
  RecoveredKeyMismatchError,
  RecoveredKeyOtherAddressError,
  RecoverTargetExistsError,
} from './recovery-errors.js'

export type RecoverNodeKeysParameters = Omit<
  GenerateNodeKeysParameters,
  'force' | 'ikm' | 'secret' | 'assertKeyReplaceable'
> & {
  /** A checked phrase (./read-mnemonic.ts), or a function that reads it once the directory checks passed. */
  phrase: () => Promise<string>
  index?: number
  /** --expect-pubkey (0x hex, 96 bytes). */
  expectPubkey?: string | undefined
  /** The registry's key for the address, when a network is given. */
  registeredKey?:
    | ((
        address: `0x${string}`,
        key: `0x${string}`,
      ) => Promise<{ chainId: number; registeredKey: string | null; keyRegistered: boolean | null }>)
    | undefined
}

export type RecoverNodeKeysReturnType = GenerateNodeKeysReturnType & {
  keyPath: string
  blsPublicKey: string
  /** What the key was checked against before anything was written. */
  checkedAgainst: { expectPubkeyFlag: boolean; registry: { chainId: number; registeredKey: string | null } | null }
  recordFile: string
}

/** @throws RecoverTargetExistsError, RecoveredKeyMismatchError, the phrase's and generate's errors */
export async function recoverNodeKeys({
  phrase: readPhrase,
  index = 0,
  expectPubkey,
  registeredKey,
  ...generate
}: RecoverNodeKeysParameters): Promise<RecoverNodeKeysReturnType> {
  const paths = datadirPaths(generate.datadir)
  const existing: string[] = []
  if (await pathExists(paths.nodeInfo)) existing.push(paths.nodeInfo)
  if ((await fs.readdir(paths.nodeKeys).catch((): string[] => [])).length > 0) existing.push(`${paths.nodeKeys}/`)
  if (existing.length) throw new RecoverTargetExistsError(existing)

  const keyPath = validatorKeyPath(index)
  const secret = blsSecretFromMnemonic(await readPhrase(), index)
  try {
    const publicKey = `0x${Buffer.from(blsPublicKey(secret)).toString('hex')}`
    if (expectPubkey !== undefined && expectPubkey.toLowerCase() !== publicKey)
      throw new RecoveredKeyMismatchError({
        derived: publicKey,
        expected: expectPubkey.toLowerCase(),
        where: '--expect-pubkey',
      })
    let registry: RecoverNodeKeysReturnType['checkedAgainst']['registry'] = null
    if (registeredKey) {
      const r = await registeredKey(generate.address, publicKey as `0x${string}`)
      registry = { chainId: r.chainId, registeredKey: r.registeredKey }
      if (r.registeredKey === null && r.keyRegistered === true)
        throw new RecoveredKeyOtherAddressError({ derived: publicKey, address: generate.address, chainId: r.chainId })
      if (registry.registeredKey !== null && registry.registeredKey.toLowerCase() !== publicKey)
        throw new RecoveredKeyMismatchError({
          derived: publicKey,
          expected: registry.registeredKey.toLowerCase(),
          where: `the registry on chain ${registry.chainId} for ${generate.address}`,
        })
    }
    const written = await generateNodeKeys({ ...generate, secret, force: false })
    const recordFile = await recordBackupProof(paths.datadir, {
      how: 'phrase-verified',
      blsPublicKey: publicKey,
      keyPath,
      at: new Date().toISOString(),
    })
    return {
      ...written,
      keyPath,
      blsPublicKey: publicKey,
      checkedAgainst: { expectPubkeyFlag: expectPubkey !== undefined, registry },
      recordFile,
    }
  } finally {
    secret.fill(0)
  }
}
