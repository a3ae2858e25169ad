/**
 * What `keytool verify` does: with the opened BLS key, checks that node-info.yaml is the one
 * these keys wrote: the public key, the proof of possession for its address, and each network
 * key (re-derived from the seed files) and with it each peer id.
 */

import { promises as fs } from 'node:fs'
import { workerField } from '../nodeinfo/forms.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import { formOf } from '../nodeinfo/serialize.js'
import { blsPublicKey } from './bls.js'
import { assertDatadirExists, datadirPaths } from './datadir.js'
import { plaintextKeyBeside } from './key-files-beside.js'
import { peerIdFromNetworkKey } from './libp2p.js'
import { deriveNetworkKeypair } from './network-key.js'
import type { OpenBlsKeyReturnType } from './open-key.js'
import { verifyProofOfPossession } from './pop.js'
import { PRIMARY_SEED_FILE, workerSeed } from './seeds.js'

export type KeyCheck = {
  /** What was checked, e.g. `bls_public_key`, `p2p_info.worker.network_key`. */
  field: string
  ok: boolean
  /** One line for humans: what matched, or what differs. */
  detail: string
}

export type VerifyNodeKeysReturnType = {
  nodeInfo: string
  keyFile: string
  checks: KeyCheck[]
  ok: boolean
  iterations?: number
  /** A plaintext bls.key beside bls.kw: null when there are not both. */
  plaintextKeyBeside: string | null
  /** Lines for the operator (the plaintext key beside the encrypted one). */
  warnings: string[]
}

/** @example const { ok, checks } = await verifyNodeKeys({ datadir, openKey: () => openBlsKey({ datadir, source }) }) */
export async function verifyNodeKeys({
  datadir,
  openKey,
}: {
  datadir: string
  openKey: () => Promise<OpenBlsKeyReturnType>
}): Promise<VerifyNodeKeysReturnType> {
  await assertDatadirExists(datadir)
  const paths = datadirPaths(datadir)
  const { path, info } = await readNodeInfo(paths.nodeInfo)
  const key = await openKey()
  const checks: KeyCheck[] = []
  try {
    const publicKey = blsPublicKey(key.secret)
    const pkOk = Buffer.compare(publicKey, info.blsPublicKey) === 0
    checks.push({
      field: 'bls_public_key',
      ok: pkOk,
      detail: pkOk ? 'matches the key in node-keys/' : 'differs from the public key of the key in node-keys/',
    })
    const popOk = verifyProofOfPossession({
      publicKey: info.blsPublicKey,
      proof: info.proofOfPossession,
      address: info.executionAddress,
    })
    checks.push({
      field: 'proof_of_possession',
      ok: popOk,
      detail: popOk
        ? `valid for ${info.executionAddress}`
        : `does not verify for bls_public_key and execution_address ${info.executionAddress}`,
    })
    const peers = [
      {
        field: 'p2p_info.primary',
        seedFile: PRIMARY_SEED_FILE,
        seedPath: paths.primarySeed,
        networkKey: info.primary.networkKey,
      },
      ...info.workers.map((w, i) => ({
        field: workerField(formOf(info), i),
        seedFile: workerSeed(i).file,
        seedPath: paths.workerSeed(i),
        networkKey: w.networkKey,
      })),
    ]
    for (const p of peers) {
      const seed = await fs.readFile(p.seedPath).catch(() => undefined)
      if (!seed) {
        checks.push({
          field: `${p.field}.network_key`,
          ok: false,
          detail: `node-keys/${p.seedFile} is missing, so the network key cannot be re-derived`,
        })
        continue
      }
      const derived = deriveNetworkKeypair(key.secret, seed)
      derived.secretKey.fill(0)
      const ok = derived.networkKey === p.networkKey
      checks.push({
        field: `${p.field}.network_key`,
        ok,
        detail: ok
          ? `matches node-keys/${p.seedFile} (peer id ${derived.peerId})`
          : `is peer id ${peerIdFromNetworkKey(p.networkKey)}, but node-keys/${p.seedFile} gives ${derived.peerId}`,
      })
    }
  } finally {
    key.secret.fill(0)
  }
  const beside = await plaintextKeyBeside(paths)
  return {
    nodeInfo: path,
    keyFile: key.path,
    checks,
    ok: checks.every((c) => c.ok),
    plaintextKeyBeside: beside?.path ?? null,
    warnings: beside ? [beside.warning] : [],
    ...(key.iterations !== undefined ? { iterations: key.iterations } : {}),
  }
}
