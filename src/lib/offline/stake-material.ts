/**
 * The key material a stake or a delegation signature bundle records, read as `tnv stake` reads
 * it: node-info.yaml (its data directory locked first) or the hex flags, and the key on disk
 * checked to be node-info.yaml's key (src/lib/keys/key-binding.ts), opening it only when nothing
 * else tells and the passphrase is at hand. On adiri the proof is signed with the BLS key later,
 * only if the registry found needs it.
 */
import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { KeyMaterialFlagValues, PassphraseSource } from '../options.js'
import type { PassphraseEnv, PromptIo } from '../passphrase/read-passphrase.js'
import type { StdinLines } from '../passphrase/stdin-lines.js'
import type { StakeBundleMaterial } from './prepare-bundle.js'

export type ReadStakeMaterialParameters = {
  flags: KeyMaterialFlagValues
  passphrase: {
    source: PassphraseSource
    stdin?: StdinLines | undefined
    io?: PromptIo | undefined
    env: PassphraseEnv
  }
  /** Locks a data directory for the rest of the run (the session's lock). */
  lockDatadir: (datadir: string) => Promise<unknown>
  /** Progress lines (stderr). */
  note: (line: string) => void
}

/**
 * @example const stake = await readStakeMaterial({ flags, passphrase, lockDatadir: (d) => session.openDatadir(d), note })
 */
export async function readStakeMaterial({
  flags,
  passphrase,
  lockDatadir,
  note,
}: ReadStakeMaterialParameters): Promise<StakeBundleMaterial> {
  const [{ keyMaterialFromFlags }, { adiriProofSigner }, { assertKeyOnDisk }] = await Promise.all([
    import('../registry/key-material.js'),
    import('../registry/adiri-proof-signer.js'),
    import('../keys/key-binding.js'),
  ])
  // node-info.yaml's directory is locked before it is read, and held until the run ends
  if (flags['bls-pubkey'] === undefined) {
    const given = flags['node-info'] ?? flags.datadir
    const isFile = await stat(given).then(
      (s) => s.isFile(),
      () => false,
    )
    await lockDatadir(isFile ? dirname(given) : given)
  }
  const keys = await keyMaterialFromFlags(flags)
  let keyOnDisk: StakeBundleMaterial['keyOnDisk'] = 'not-checked'
  if (keys.nodeInfoPath) {
    note(`Key material from ${keys.nodeInfoPath} (execution address ${keys.executionAddress}).`)
    const how = await assertKeyOnDisk({
      datadir: keys.keyDir,
      nodeInfoKey: Buffer.from(keys.blsPubkey.slice(2), 'hex'),
      ...passphrase,
    })
    keyOnDisk = how === 'match' ? 'match' : 'absent'
    if (how === 'match') note(`- the key in ${keys.keyDir}/node-keys is the key node-info.yaml records`)
  }
  return {
    blsPubkey: keys.blsPubkey,
    proofOfPossession: keys.proofOfPossession,
    adiriSignature: keys.adiriSignature,
    executionAddress: keys.executionAddress,
    signAdiriProof: adiriProofSigner({ datadir: keys.keyDir, ...passphrase, note }),
    nodeInfo: keys.nodeInfoPath ?? null,
    keyOnDisk,
  }
}

/**
 * `90m` → 5400: a whole number with one unit (s, m, h, d), for --expires-in.
 * @returns null when the text is not such a duration
 */
export function parseDurationSeconds(value: string): number | null {
  const m = /^([1-9][0-9]{0,6})([smhd])$/.exec(value.trim())
  if (!m) return null
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd']
}
