/**
 * `tnv devnet governance …` and the devnet path of `tnv governance mint`: sends a rehearsal
 * governance request to the running devnet node (control socket) and renders its answer.
 * REHEARSAL-ONLY: the node impersonates the registry's owner; no real network allows that.
 */
import type { GovernanceResult } from '../chain/governance.js'
import { askDevnet } from './devnet-control.js'

export type GovernanceRequestJson =
  | { action: 'mint' | 'burn'; validator: string }
  | { action: 'pause' | 'unpause' }
  | { action: 'fund'; amountWei: string }
  | {
      action: 'delegate'
      validator: string
      blsPubkey: string
      proofOfPossession: { signature: string } | { uncompressedPubkey: string; uncompressedSignature: string }
      valueWei?: string
    }

/** @example await rehearseGovernance(dir, { action: 'mint', validator: '0x…' }) */
export function rehearseGovernance(dir: string, request: GovernanceRequestJson): Promise<GovernanceResult> {
  return askDevnet<GovernanceResult>(dir, 'governance', request)
}

/** The lines a person reads (stdout): what happened, the transaction, and the rehearsal label. */
export function governanceLines(r: GovernanceResult): string[] {
  const lines = [`REHEARSAL-ONLY governance (owner ${r.owner} impersonated): ${r.message}`]
  if (r.txHash) lines.push(`  transaction ${r.txHash} in block ${r.blockNumber}`)
  return lines
}
