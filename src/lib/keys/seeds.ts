/**
 * Seed files of the network keys (reference-facts: Data directory, Network keys). Only these
 * texts are stored; the keys are re-derived from the BLS key (see network-key.ts).
 */

export const PRIMARY_SEED_FILE = 'primary.seed'
export const PRIMARY_SEED_TEXT = 'primary network keypair'

/**
 * Seed file and text of worker `index`. Worker 0 is exactly the reference's (`worker.seed`,
 * "worker network keypair"); tnv gives each further worker its own file and text
 * (`worker-<i>.seed`, "worker network keypair <i>"), see docs/decisions.md.
 */
export function workerSeed(index: number): { file: string; text: string } {
  if (!Number.isInteger(index) || index < 0)
    throw new RangeError(`worker index: expected an integer >= 0, got ${index}`)
  return index === 0
    ? { file: 'worker.seed', text: 'worker network keypair' }
    : { file: `worker-${index}.seed`, text: `worker network keypair ${index}` }
}
