/**
 * The keys part of `tnv demo`: in a given directory, makes a validator's keys with a
 * passphrase given through the env source, shows them, verifies them with the key, and exports
 * the staking arguments and calldata, reporting each step through `log` (library code never
 * prints). Returns everything it made, so a longer demo can go on (e.g. to stake on a devnet).
 */
import { join } from 'node:path'
import type { Hex } from '../nodeinfo/types.js'
import { readPassphrase } from '../passphrase/read-passphrase.js'
import { type DescribeNodeReturnType, describeNode } from './describe-node.js'
import { type ExportStakingArgsReturnType, exportStakingArgs } from './export-staking-args.js'
import { type GenerateNodeKeysReturnType, generateNodeKeys } from './generate-node-keys.js'
import { formatIdentity } from './identity.js'
import { openBlsKey } from './open-key.js'
import { type VerifyNodeKeysReturnType, verifyNodeKeys } from './verify-node-keys.js'

export type RunKeysDemoParameters = {
  /** An empty working directory; the data directory is made inside it. */
  dir: string
  /** Execution address the proof of possession commits to. */
  address: Hex
  /** The demo passphrase (given to the key code through the env source, as TN_BLS_PASSPHRASE). */
  passphrase?: string
  /** Receives one human line per step. */
  log?: (line: string) => void
}

export type RunKeysDemoReturnType = {
  datadir: string
  generated: GenerateNodeKeysReturnType
  identity: DescribeNodeReturnType
  verification: VerifyNodeKeysReturnType
  staking: ExportStakingArgsReturnType
}

/** @example const { staking } = await runKeysDemo({ dir, address, log: console.log }) */
export async function runKeysDemo({
  dir,
  address,
  passphrase = 'tnv demo passphrase',
  log = () => {},
}: RunKeysDemoParameters): Promise<RunKeysDemoReturnType> {
  const datadir = join(dir, 'validator-1')
  // The env source reads TN_BLS_PASSPHRASE and removes it, here from a private environment.
  const env = (): NodeJS.ProcessEnv => ({ TN_BLS_PASSPHRASE: passphrase })

  log(`$ TN_BLS_PASSPHRASE=… tnv keytool generate validator --address ${address} --datadir ${datadir}`)
  const generated = await generateNodeKeys({
    datadir,
    address,
    externalPrimaryAddr: '/ip4/127.0.0.1/udp/49590/quic-v1',
    externalWorkerAddrs: ['/ip4/127.0.0.1/udp/49594/quic-v1'],
    passphrase: () => readPassphrase({ source: 'env', purpose: 'create', env: env() }),
  })
  log(`  wrote ${generated.keyFile} (encrypted), primary.seed, worker.seed and ${generated.paths.nodeInfo}`)

  log(`$ tnv keytool show --datadir ${datadir}`)
  const identity = await describeNode({ datadir })
  for (const line of formatIdentity(identity, [
    ['PoP valid', identity.proofOfPossessionValid ? `yes, for ${identity.executionAddress}` : 'NO'],
    [
      'key file',
      identity.keyFile
        ? `${identity.keyFile.encrypted ? 'encrypted' : 'NOT encrypted'}, mode ${identity.keyFile.mode}`
        : 'none',
    ],
  ]))
    log(`  ${line}`)

  log(`$ TN_BLS_PASSPHRASE=… tnv keytool verify --datadir ${datadir}`)
  const verification = await verifyNodeKeys({
    datadir,
    openKey: () => openBlsKey({ datadir, source: 'env', env: env() }),
  })
  const width = Math.max(...verification.checks.map((c) => c.field.length))
  for (const c of verification.checks) log(`  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.field.padEnd(width)}  ${c.detail}`)

  log(`$ tnv keytool export-staking-args --node-info ${datadir}`)
  const staking = await exportStakingArgs({ nodeInfo: datadir })
  log(`  blsPubkey: ${staking.blsPubkey}`)
  log(`  proofOfPossession: ${staking.proofOfPossession}`)
  log(`$ tnv keytool export-staking-args --node-info ${datadir} --calldata`)
  log(`  ${staking.calldata}`)
  return { datadir, generated, identity, verification, staking }
}
