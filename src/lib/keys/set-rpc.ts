/**
 * What `keytool set-rpc` does: sets or clears the RPC endpoints one worker advertises in
 * node-info.yaml (the released node: `p2p_info.worker.rpc`), keeping a backup of the old file
 * and the file's form. Needs no key and no passphrase. A damaged `rpc` entry of that worker is
 * what this command repairs, so it does not stop the read.
 */
import { UsageError } from '../errors.js'
import { formForWrite } from '../nodeinfo/forms.js'
import { readNodeInfo } from '../nodeinfo/read.js'
import { formOf } from '../nodeinfo/serialize.js'
import type { NodeInfo, NodeInfoForm, RpcEndpoints } from '../nodeinfo/types.js'
import { writeNodeInfo } from '../nodeinfo/write.js'
import { assertDatadirExists, datadirPaths } from './datadir.js'
import { assertFormFits } from './node-info-form.js'

export type SetWorkerRpcParameters = {
  datadir: string
  /** Worker index (0 is the first worker). */
  worker: number
  /** The new endpoints (already checked and normalised), or null to remove them. */
  rpc: RpcEndpoints | null
  /** Write this form instead of the file's own (`--node-info-form`). */
  form?: NodeInfoForm
  /** --check: every check, then only whether the file would change; nothing is written. */
  check?: boolean | undefined
}

export type SetWorkerRpcReturnType = {
  nodeInfo: string
  worker: number
  rpc: RpcEndpoints | null
  /** What the worker advertised before (null: nothing, or a damaged entry now replaced). */
  previous: RpcEndpoints | null
  changed: boolean
  previousForm: NodeInfoForm
  form: NodeInfoForm
  /** Fields that were damaged and have been rewritten. */
  repaired: string[]
  backupDir?: string
}

/** @example await setWorkerRpc({ datadir, worker: 0, rpc: { http: 'https://rpc.example.org/' } }) */
export async function setWorkerRpc({
  datadir,
  worker,
  rpc,
  form: askedForm,
  check = false,
}: SetWorkerRpcParameters): Promise<SetWorkerRpcReturnType> {
  await assertDatadirExists(datadir)
  const paths = datadirPaths(datadir)
  const skipped: { field: string; problem: string }[] = []
  const { path, info } = await readNodeInfo(paths.nodeInfo, { replacing: { workerRpc: worker }, skipped })
  const current = info.workers[worker]
  if (!current)
    throw new UsageError(
      `--worker ${worker} does not exist: ${path} lists ${info.workers.length} worker${info.workers.length === 1 ? '' : 's'} (0 to ${info.workers.length - 1}).`,
      {
        fix: 'Pass --worker 0 for the first worker (the released node has only that one).',
      },
    )
  if (askedForm) assertFormFits(path, askedForm, info.workers.length)
  const { rpc: previous, ...peer } = current
  const form = formForWrite(formOf(info), info.workers.length, askedForm)
  const next: NodeInfo = {
    ...info,
    form,
    workers: info.workers.map((w, i) => (i === worker ? { ...peer, ...(rpc ? { rpc } : {}) } : w)),
  }
  const { changed, backupDir } = await writeNodeInfo({ datadir: paths.datadir, path, info: next, check })
  return {
    nodeInfo: path,
    worker,
    rpc,
    previous: previous ?? null,
    changed,
    previousForm: formOf(info),
    form,
    repaired: skipped.map((s) => s.field),
    ...(backupDir ? { backupDir } : {}),
  }
}
