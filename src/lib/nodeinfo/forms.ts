/**
 * What each node-info.yaml form means for the two node releases (real-network/node.md §3, §9):
 * the released node (v0.14.0-adiri and main) reads and writes only the `p2p_info.worker:` map;
 * the specification's release (branch 554-multi-worker-config-foundation, unmerged) reads the
 * map and the `workers:` list and writes the list. Used by `keytool show`, by every command
 * that rewrites the file, and by the error messages.
 */
import type { NodeInfoForm } from './types.js'

/** How tnv names the two node releases everywhere (docs/decisions.md). */
export const RELEASED_NODE = 'the released node (v0.14.0-adiri and main)'
export const SPEC_RELEASE = "the specification's release (not released yet)"

export type NodeInfoFormView = {
  form: NodeInfoForm
  /** The YAML key that holds the workers. */
  key: 'p2p_info.worker' | 'p2p_info.workers'
  shape: 'one map' | 'a list'
  /** Which node releases read a file in this form. */
  readBy: { releasedNode: boolean; specRelease: boolean }
  /** One line for humans. */
  summary: string
}

export function describeForm(form: NodeInfoForm): NodeInfoFormView {
  if (form === 'worker')
    return {
      form,
      key: 'p2p_info.worker',
      shape: 'one map',
      readBy: { releasedNode: true, specRelease: true },
      summary: `p2p_info.worker (one map): read by ${RELEASED_NODE} and by ${SPEC_RELEASE}`,
    }
  return {
    form,
    key: 'p2p_info.workers',
    shape: 'a list',
    readBy: { releasedNode: false, specRelease: true },
    summary: `p2p_info.workers (a list): read only by ${SPEC_RELEASE}; ${RELEASED_NODE} refuses it ("missing field \`worker\`")`,
  }
}

/** Short label used inside error messages: "the file is in the … form". */
export function formLabel(form: NodeInfoForm | null): string {
  if (form === 'worker') return "the released node's form (p2p_info.worker: one map)"
  if (form === 'workers') return "the specification's form (p2p_info.workers: a list)"
  return 'no known form (p2p_info has neither worker: nor workers:)'
}

/**
 * The form a rewrite uses: the one asked for, else the one the file had. A file with several
 * workers can only be written as a list.
 */
export function formForWrite(current: NodeInfoForm, workers: number, asked?: NodeInfoForm): NodeInfoForm {
  if (asked) return asked
  return workers > 1 ? 'workers' : current
}

/** The YAML path of worker `index` in a file of this form (for messages and check names). */
export function workerField(form: NodeInfoForm, index: number): string {
  return form === 'worker' && index === 0 ? 'p2p_info.worker' : `p2p_info.workers[${index}]`
}
