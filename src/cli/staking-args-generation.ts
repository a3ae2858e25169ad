/**
 * The session side of `tnv keytool export-staking-args`: which registry generation the arguments
 * are for. --registry-generation, else the one detected at --chain/--rpc-url (the registry is
 * contacted), else the one TN_CHAIN's network runs (offline, from its preset), else next.
 */
import { CHAIN_NAMES, type ChainName, networkOf, PRESETS } from '../lib/chain/presets.js'
import type { ChainFlagValues } from '../lib/options.js'

/** Which generation the arguments are for, and how it was chosen. */
export type StakingArgsGeneration = {
  generation: 'adiri' | 'next'
  /**
   * How the generation was chosen: `registry` detected at --chain/--rpc-url, `flag`
   * --registry-generation, `environment` the generation TN_CHAIN's network runs, `default` none.
   */
  generationFrom: 'default' | 'flag' | 'registry' | 'environment'
  /** TN_CHAIN as the environment gives it. */
  envChain: string | undefined
}

/**
 * @param say a line for the operator on stderr (which generation, and why)
 */
export async function chooseStakingArgsGeneration(
  flags: ChainFlagValues,
  say: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StakingArgsGeneration> {
  const online = flags.chain !== undefined || flags['rpc-url'] !== undefined
  let generation: 'adiri' | 'next' = flags['registry-generation'] ?? 'next'
  let generationFrom: StakingArgsGeneration['generationFrom'] = flags['registry-generation'] ? 'flag' : 'default'
  // TN_CHAIN is not the --chain flag here: the launcher picks this command's lean bundle (no
  // registry client) from the command line alone, so the environment's network is used offline,
  // by the generation its preset names; --chain detects it from the registry itself
  const envChain = env.TN_CHAIN
  if (!online && generationFrom === 'default' && envChain !== undefined && envChain !== '') {
    const chosen = generationOfChainEnv(envChain)
    if (chosen?.generation) {
      generation = chosen.generation
      generationFrom = 'environment'
    }
    if (chosen) say(chosen.note)
  }
  if (online) {
    const [support, { readFirstBatch }] = await Promise.all([
      import('../lib/registry/command-support.js'),
      import('../lib/registry/first-batch.js'),
    ])
    const ctx = await support.openRegistryContext(flags)
    const { adapter, registry } = await readFirstBatch(
      ctx,
      { purpose: 'write', action: 'stake calldata' },
      async () => [],
    )
    support.noteRegistry(registry, say)
    generation = adapter.generation
    generationFrom = 'registry'
  }
  return { generation, generationFrom, envChain }
}

/**
 * The generation TN_CHAIN's network runs, offline (its preset): testnet → adiri, mainnet → next.
 * The devnet may run either, so it names none (the default stays, and the note says how to
 * detect it). An unknown name is left to the default too.
 */
function generationOfChainEnv(value: string): { generation: 'adiri' | 'next' | null; note: string } | null {
  const name = (CHAIN_NAMES as readonly string[]).includes(value) ? networkOf(value as ChainName) : null
  if (name === null) return null
  const expected = PRESETS[name].generations
  if (expected.length !== 1 || expected[0] === undefined)
    return {
      generation: null,
      note: `TN_CHAIN=${value}: a ${name} may run either registry generation; pass --chain ${value} to make the arguments for the one it runs (it is asked), or --registry-generation adiri|next.`,
    }
  return {
    generation: expected[0],
    note: `TN_CHAIN=${value}: the ${name} runs the ${expected[0]} registry generation (pass --chain ${value} to check its registry, or --registry-generation to choose).`,
  }
}
