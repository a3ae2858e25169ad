/**
 * What `keytool set-rpc` does: sets or clears the RPC endpoints one worker advertises in
 * node-info.yaml, keeping a backup of the old file. Needs no key and no passphrase.
 */
import { UsageError } from '../errors.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import type { NodeInfo, RpcEndpoints } from '../nodeinfo/types.js'
import { writeNodeInfo } from '../nodeinfo/write.js'
import { assertDatadirExists, datadirPaths } from './datadir.js'

export type SetWorkerRpcParameters = {
  datadir: string
  /** Worker index (0 is the first worker). */
  worker: number
  /** The new endpoints (already checked), or null to remove them. */
  rpc: RpcEndpoints | null
}

export type SetWorkerRpcReturnType = {
  nodeInfo: string
  worker: number
  rpc: RpcEndpoints | null
  previous: RpcEndpoints | null
  changed: boolean
  backupDir?: string
}

/** @example await setWorkerRpc({ datadir, worker: 0, rpc: { http: 'https://rpc.example.org' } }) */
export async function setWorkerRpc({ datadir, worker, rpc }: SetWorkerRpcParameters): Promise<SetWorkerRpcReturnType> {
  await assertDatadirExists(datadir)
  const paths = datadirPaths(datadir)
  const { path, info } = await readNodeInfo(paths.nodeInfo)
  const current = info.workers[worker]
  if (!current)
    throw new UsageError(
      `--worker ${worker} does not exist: ${path} lists ${info.workers.length} worker${info.workers.length === 1 ? '' : 's'} (0 to ${info.workers.length - 1}).`,
      {
        fix: 'Pass --worker 0 for the first worker.',
      },
    )
  const { rpc: previous, ...peer } = current
  const { legacyWorkerMap, ...rest } = info
  const next: NodeInfo = {
    ...rest,
    workers: info.workers.map((w, i) => (i === worker ? { ...peer, ...(rpc ? { rpc } : {}) } : w)),
  }
  const { changed, backupDir } = await writeNodeInfo({ datadir: paths.datadir, path, info: next })
  return { nodeInfo: path, worker, rpc, previous: previous ?? null, changed, ...(backupDir ? { backupDir } : {}) }
}
