/** Checks a requested node-info.yaml form (`--node-info-form`) against the data it must hold. */
import { UsageError } from '../errors.js'
import type { NodeInfoForm } from '../nodeinfo/types.js'

/** Several workers cannot be written as the released node's single `worker:` map. */
export function assertFormFits(path: string, form: NodeInfoForm, workers: number): void {
  if (form === 'worker' && workers !== 1)
    throw new UsageError(
      `${path} lists ${workers} workers, and the released node's form (p2p_info.worker: one map) holds exactly one. Nothing was changed.`,
      {
        fix: "Keep the specification's form (--node-info-form workers); the released node (v0.14.0-adiri) runs one worker only, so a node for it needs keys made with one worker.",
      },
    )
}
