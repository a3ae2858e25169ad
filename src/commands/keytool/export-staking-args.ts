// node builtins are imported statically: a dynamic import() of one is left as is by the bundler and
// fails inside the single executable (no dynamic import callback there)
import { dirname } from 'node:path'
import { Flags } from '@oclif/core'
import { chainFlags, REGISTRY_GENERATION_NAMES } from '../../cli/flags/chain.js'
import { datadirFlag, passphraseFlags, quietFlag } from '../../cli/flags/common.js'
import { KeytoolCommand } from '../../cli/keytool-command.js'
import type { StakingArgsGeneration } from '../../cli/staking-args-generation.js'
import { CHAIN_NAMES } from '../../lib/chain/presets.js'
import { UsageError } from '../../lib/errors.js'
import type { ReadNodeInfoReturnType } from '../../lib/nodeinfo/read.js'
import type { Hex } from '../../lib/nodeinfo/types.js'
import type { PassphraseSource } from '../../lib/options.js'

/** Exactly what the real keytool's --json prints (node.md §1), in that order. */
export type ExportStakingArgsJson = { blsPubkey: Hex; signature: Hex }
/** The adiri registry's arguments (tnv only: the real keytool has no adiri form). */
export type AdiriStakingArgsJson = { blsPubkey: Hex; uncompressedPubkey: Hex; uncompressedSignature: Hex }
/** tnv's extra fields, only with --details, kept apart from the real keytool's. */
export type ExportStakingArgsDetails = {
  tnv: {
    generation: 'adiri' | 'next'
    /**
     * How the generation was chosen: `registry` detected at --chain/--rpc-url, `flag`
     * --registry-generation, `environment` the generation TN_CHAIN's network runs, `default` none.
     */
    generationFrom: 'default' | 'flag' | 'registry' | 'environment'
    stakeFunction: string
    calldata: Hex
    executionAddress: Hex
    nodeInfo: string
  }
}
export type ExportStakingArgsResult = (ExportStakingArgsJson | AdiriStakingArgsJson) & Partial<ExportStakingArgsDetails>

export default class ExportStakingArgs extends KeytoolCommand {
  static override summary =
    'Print the stake() arguments (BLS public key, proof of possession) for a registry generation.'
  static override description =
    `With --chain (or TN_CHAIN) or --rpc-url (TN_RPC_URL), for the generation of the registry found on that network (the test network runs the adiri generation). Without a network, for the next-generation registry (the specification's, and the real keytool's only form), and it says so on stderr. The next form reads only node-info.yaml, never the BLS key, and prints what the real keytool prints. Before printing, it checks that the proof of possession verifies for the file's public key and execution address (the registry rejects a stake whose proof does not; the real keytool does not check). --calldata prints the complete calldata of stake(bytes,(bytes)) and nothing else; --json prints exactly {"blsPubkey", "signature"} like the real keytool (add --details for tnv's fields under "tnv").

The adiri registry (the test network's) takes another proof: the uncompressed key and a signature over its own 218-byte message, which node-info.yaml does not hold. With --registry-generation adiri, or when --rpc-url/--chain reaches a registry whose code is adiri, tnv opens the BLS key in the data directory of node-info.yaml to sign it (this is the only case that uses the passphrase source), and prints stake(bytes,(bytes,bytes)) arguments or calldata. Which generation it made is said on stderr.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> --node-info ~/.local/share/telcoin-network',
    'cast send 0x07e17e17e17e17e17e17e17e17e17e17e17e17e1 --value 1000000ether "$(<%= config.bin %> <%= command.id %> --node-info ./node1 --calldata)"',
    'TN_BLS_PASSPHRASE=… <%= config.bin %> <%= command.id %> --node-info ./node1 --registry-generation adiri --calldata',
    '<%= config.bin %> <%= command.id %> --node-info ./node1 --chain testnet --calldata   # the generation of the registry found there',
  ]
  static override flags = {
    'node-info': Flags.string({
      summary: 'node-info.yaml, or the directory holding it (default: --datadir).',
      helpValue: '<path>',
    }),
    calldata: Flags.boolean({ summary: 'Print only the complete stake() calldata (not with --json).' }),
    details: Flags.boolean({
      summary: 'With --json: add tnv’s fields (generation, calldata, execution address, file) under "tnv".',
    }),
    'registry-generation': Flags.option({
      options: REGISTRY_GENERATION_NAMES,
      summary: 'The registry generation to make the arguments for: next (default) or adiri.',
    })(),
    chain: Flags.option({
      options: CHAIN_NAMES,
      summary:
        'Make the arguments for the registry generation of this network, detected from its registry (contacts its endpoint). Without it, TN_CHAIN names the network, offline.',
    })(),
    'rpc-url': Flags.string({
      helpValue: '<url>',
      summary: 'Make the arguments for the registry generation behind this endpoint.',
    }),
    registry: Flags.string({ helpValue: '<address>', summary: 'Registry address (with --chain/--rpc-url).' }),
    'chain-id': Flags.integer({ min: 1, summary: 'Chain id the --rpc-url must report.' }),
    'accept-registry-code': Flags.string({
      helpValue: '<0x code hash>',
      summary: 'Accept an unknown registry build with a known interface (see `tnv stake --help`).',
    }),
    'devnet-dir': chainFlags['devnet-dir'],
    ...datadirFlag,
    ...passphraseFlags,
    ...quietFlag,
  }

  async run(): Promise<ExportStakingArgsResult> {
    const { flags } = await this.parse(ExportStakingArgs)
    this.quiet = flags.quiet || flags.calldata
    if (flags.calldata && flags.json)
      throw new UsageError(
        '--calldata and --json cannot be used together: --calldata prints only the calldata, --json prints the arguments.',
        { fix: 'Pass one of them.' },
      )
    // stderr only, so with --json too: stdout keeps the result alone, and which generation the
    // arguments are for is always said (-q silences it)
    const say = (line: string) => {
      if (!flags.quiet) process.stderr.write(`${line}\n`)
    }
    const [{ chooseStakingArgsGeneration }, { readNodeInfoOfKeyOnDisk }] = await Promise.all([
      import('../../cli/staking-args-generation.js'),
      import('../../lib/keys/node-info-on-disk.js'),
    ])
    const chosen = await chooseStakingArgsGeneration(flags, say)
    const read = await readNodeInfoOfKeyOnDisk({
      nodeInfoPath: flags['node-info'] ?? flags.datadir,
      lockDatadir: (datadir) => this.lockDatadir(datadir),
      // the next form never opens the key; the adiri form opens it, which checks it
      onUnknown: chosen.generation === 'next' ? (text) => this.warnLine(text) : undefined,
    })
    const made =
      chosen.generation === 'next'
        ? await nextArgs(read, chosen, say)
        : await this.adiriArgs(read, chosen, flags['bls-passphrase-source'], say)
    this.out(flags.calldata ? made.details.calldata : made.text)
    return flags.details ? { ...made.result, tnv: made.details } : made.result
  }

  /** The adiri registry's arguments: its proof is signed with the BLS key, opened here. */
  private async adiriArgs(
    { path, info }: NodeInfoRead,
    { generation, generationFrom, envChain }: Chosen,
    source: PassphraseSource,
    say: (line: string) => void,
  ): Promise<Made> {
    const { adiriStakingArgs } = await import('../../lib/keys/export-staking-args.js')
    const keyDir = dirname(path)
    say(
      `For the adiri registry (${generationFrom === 'flag' ? '--registry-generation adiri' : generationFrom === 'environment' ? `TN_CHAIN=${envChain}` : 'found at the registry'}): stake(bytes,(bytes,bytes)), selector 0xb5184324. Its proof of possession is over its own 218-byte message with the uncompressed key, which node-info.yaml does not hold: opening the BLS key in ${keyDir} to sign it for ${info.executionAddress}.`,
    )
    const key = await this.openKey(keyDir, source)
    let r: Awaited<ReturnType<typeof adiriStakingArgs>>
    try {
      r = await adiriStakingArgs(info, key.secret)
    } finally {
      key.secret.fill(0)
    }
    return {
      result: {
        blsPubkey: r.blsPubkey,
        uncompressedPubkey: r.uncompressedPubkey,
        uncompressedSignature: r.uncompressedSignature,
      },
      details: {
        generation,
        generationFrom,
        stakeFunction: 'stake(bytes,(bytes,bytes))',
        calldata: r.calldata,
        executionAddress: info.executionAddress,
        nodeInfo: path,
      },
      text: argsText('Staking arguments for ConsensusRegistry.stake() (adiri registry: stake(bytes,(bytes,bytes))):', [
        ['blsPubkey (compressed, 96 bytes):', r.blsPubkey],
        ['proofOfPossession.uncompressedPubkey (uncompressed, 192 bytes):', r.uncompressedPubkey],
        ['proofOfPossession.uncompressedSignature (uncompressed, 96 bytes):', r.uncompressedSignature],
      ]),
    }
  }
}

type Chosen = StakingArgsGeneration
type NodeInfoRead = ReadNodeInfoReturnType
/** The arguments (the real keytool's --json), tnv's details and the text stdout shows. */
type Made = {
  result: ExportStakingArgsJson | AdiriStakingArgsJson
  details: ExportStakingArgsDetails['tnv']
  text: string
}

/**
 * The next-generation registry's arguments, from node-info.yaml only: no passphrase source is
 * demanded (issue 16 item 1; the real keytool's demand for one protects nothing here).
 */
async function nextArgs(
  read: NodeInfoRead,
  { generation, generationFrom, envChain }: Chosen,
  say: (line: string) => void,
): Promise<Made> {
  const { exportStakingArgs } = await import('../../lib/keys/export-staking-args.js')
  const r = await exportStakingArgs({ nodeInfo: read })
  say(
    `${generationFrom === 'default' ? 'For the next-generation registry (the default: no --chain, TN_CHAIN or --rpc-url names a network; the test network runs the adiri registry, which takes another form: --chain testnet, or --registry-generation adiri offline)' : generationFrom === 'environment' ? `For the next-generation registry (TN_CHAIN=${envChain})` : 'For the next-generation registry'}: stake(bytes,(bytes)), selector 0x2fb0d025. The proof of possession in ${r.nodeInfo} verifies for ${r.executionAddress}.`,
  )
  return {
    result: { blsPubkey: r.blsPubkey, signature: r.proofOfPossession },
    details: {
      generation,
      generationFrom,
      stakeFunction: 'stake(bytes,(bytes))',
      calldata: r.calldata,
      executionAddress: r.executionAddress,
      nodeInfo: r.nodeInfo,
    },
    text: argsText('Staking arguments for ConsensusRegistry.stake():', [
      ['blsPubkey (compressed, 96 bytes):', r.blsPubkey],
      ['proofOfPossession.signature (compressed, 48 bytes):', r.proofOfPossession],
    ]),
  }
}

/** The text stdout shows: the title, then each argument's label and value, a blank line before each. */
function argsText(title: string, args: readonly (readonly [label: string, value: string])[]): string {
  return [title, ...args.flatMap(([label, value]) => ['', label, value])].join('\n')
}
