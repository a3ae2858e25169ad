/**
 * What `keytool show` does: the public identity of a data directory (node-info.yaml), whether
 * its proof of possession verifies, and the state of the key files (encrypted or plain, modes).
 * Reads no secret.
 */
import { promises as fs } from 'node:fs'
import { describeForm, type NodeInfoFormView } from '../nodeinfo/forms.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import { formatNodeInfo, formOf } from '../nodeinfo/serialize.js'
import { assertDatadirExists, datadirPaths, KEY_DIR_MODE, KEY_FILE_MODE } from './datadir.js'
import { type IdentityView, identityView } from './identity.js'
import { plaintextKeyBeside } from './key-files-beside.js'
import { verifyProofOfPossession } from './pop.js'

export type FileState = { path: string; mode: string }

export type DescribeNodeReturnType = IdentityView & {
  nodeInfo: string
  proofOfPossessionValid: boolean
  /** The file's form (`worker` map or `workers` list) and which node releases read it. */
  nodeInfoForm: NodeInfoFormView & {
    /** The file is byte for byte what the node writes for this data (`---`, `rpc: ~`, quoting, lower-case address). */
    writtenAsNodeWrites: boolean
  }
  keyFile: (FileState & { encrypted: boolean }) | null
  /** A plaintext bls.key beside bls.kw (the node reads bls.kw with a passphrase, bls.key without): null when there are not both. */
  plaintextKeyBeside: string | null
  nodeKeysDir: FileState | null
  seedFiles: FileState[]
  /** Problems worth fixing that do not stop the node (file modes, missing key file). */
  warnings: string[]
}

/** @example const d = await describeNode({ datadir }) */
export async function describeNode({ datadir }: { datadir: string }): Promise<DescribeNodeReturnType> {
  await assertDatadirExists(datadir)
  const paths = datadirPaths(datadir)
  const { path, info, text } = await readNodeInfo(paths.nodeInfo)
  const warnings: string[] = []
  const modeOf = async (p: string) => {
    const st = await fs.stat(p).catch(() => undefined)
    return st ? st.mode & 0o777 : undefined
  }
  const dirMode = await modeOf(paths.nodeKeys)
  if (dirMode !== undefined && (dirMode & 0o077) !== 0)
    warnings.push(
      `${paths.nodeKeys} has mode ${octal(dirMode)}; others can read it. Run: chmod ${octal(KEY_DIR_MODE)} ${paths.nodeKeys}`,
    )
  let keyFile: DescribeNodeReturnType['keyFile'] = null
  for (const [p, encrypted] of [
    [paths.blsKw, true],
    [paths.blsKey, false],
  ] as const) {
    const mode = await modeOf(p)
    if (mode === undefined) continue
    keyFile ??= { path: p, encrypted, mode: octal(mode) }
    if ((mode & 0o077) !== 0)
      warnings.push(`${p} has mode ${octal(mode)}; others can read the key. Run: chmod ${octal(KEY_FILE_MODE)} ${p}`)
  }
  const beside = await plaintextKeyBeside(paths)
  if (beside) warnings.push(beside.warning)
  if (!keyFile)
    warnings.push(`${paths.nodeKeys} holds no BLS key (bls.kw or bls.key): this data directory cannot run a node.`)
  else if (!keyFile.encrypted)
    warnings.push(`${keyFile.path} is not encrypted. Encrypt it: tnv keytool change-passphrase --datadir ${datadir}`)
  const seedFiles: FileState[] = []
  for (const p of [paths.primarySeed, ...info.workers.map((_, i) => paths.workerSeed(i))]) {
    const mode = await modeOf(p)
    if (mode === undefined) warnings.push(`${p} is missing: the node cannot derive that network key.`)
    else seedFiles.push({ path: p, mode: octal(mode) })
  }
  return {
    nodeInfo: path,
    ...identityView(info),
    proofOfPossessionValid: verifyProofOfPossession({
      publicKey: info.blsPublicKey,
      proof: info.proofOfPossession,
      address: info.executionAddress,
    }),
    nodeInfoForm: { ...describeForm(formOf(info)), writtenAsNodeWrites: formatNodeInfo(info) === text },
    keyFile,
    plaintextKeyBeside: beside?.path ?? null,
    nodeKeysDir: dirMode === undefined ? null : { path: paths.nodeKeys, mode: octal(dirMode) },
    seedFiles,
    warnings,
  }
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`
}
