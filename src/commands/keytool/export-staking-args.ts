// node builtins are imported statically: a dynamic import() of one is left as is by the bundler and
// fails inside the single executable (no dynamic import callback there)
import { dirname } from 'node:path'
import { Flags } from '@oclif/core'
import { REGISTRY_GENERATION_NAMES } from '../../cli/flags/chain.js'
import { datadirFlag, passphraseFlags, quietFlag } from '../../cli/flags/common.js'
import { KeytoolCommand } from '../../cli/keytool-command.js'
import { CHAIN_NAMES } from '../../lib/chain/presets.js'
import { UsageError } from '../../lib/errors.js'
import type { Hex } from '../../lib/nodeinfo/types.js'

/** Exactly what the real keytool's --json prints (node.md §1), in that order. */
export type ExportStakingArgsJson = { blsPubkey: Hex; signature: Hex }
/** The adiri registry's arguments (tnv only: the real keytool has no adiri form). */
export type AdiriStakingArgsJson = { blsPubkey: Hex; uncompressedPubkey: Hex; uncompressedSignature: Hex }
/** tnv's extra fields, only with --details, kept apart from the real keytool's. */
export type ExportStakingArgsDetails = {
  tnv: {
    generation: 'adiri' | 'next'
    /** How the generation was chosen. */
    generationFrom: 'default' | 'flag' | 'registry'
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
    `By default, for the next-generation registry (the specification's, and the real keytool's only form): reads only node-info.yaml, never the BLS key, and prints what the real keytool prints. Before printing, it checks that the proof of possession verifies for the file's public key and execution address (the registry rejects a stake whose proof does not; the real keytool does not check). --calldata prints the complete calldata of stake(bytes,(bytes)) and nothing else; --json prints exactly {"blsPubkey", "signature"} like the real keytool (add --details for tnv's fields under "tnv").

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
      summary: 'Detect the generation from the registry of this network (contacts its endpoint).',
    })(),
    'rpc-url': Flags.string({
      helpValue: '<url>',
      summary: 'Detect the generation from the registry behind this endpoint.',
    }),
    registry: Flags.string({ helpValue: '<address>', summary: 'Registry address (with --chain/--rpc-url).' }),
    'chain-id': Flags.integer({ min: 1, summary: 'Chain id the --rpc-url must report.' }),
    'accept-registry-code': Flags.string({
      helpValue: '<0x code hash>',
      summary: 'Accept an unknown registry build with a known interface (see `tnv stake --help`).',
    }),
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
    const say = (line: string) => {
      if (!flags.quiet && !flags.json) process.stderr.write(`${line}\n`)
    }
    const nodeInfoPath = flags['node-info'] ?? flags.datadir
    const online = flags.chain !== undefined || flags['rpc-url'] !== undefined
    let generation: 'adiri' | 'next' = flags['registry-generation'] ?? 'next'
    let generationFrom: 'default' | 'flag' | 'registry' = flags['registry-generation'] ? 'flag' : 'default'
    if (online) {
      const [support, { readFirstBatch }] = await Promise.all([
        import('../../lib/registry/command-support.js'),
        import('../../lib/registry/first-batch.js'),
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

    // the key on disk (when there is one) must be the key node-info.yaml records
    const [{ readNodeInfo }, { checkKeyOnDisk }, { KeyOnDiskMismatchError }] = await Promise.all([
      import('../../lib/nodeinfo/read.js'),
      import('../../lib/keys/key-binding.js'),
      import('../../lib/keys/errors.js'),
    ])
    // read once, and again only when opening the data directory repaired an interrupted key write
    let read = await readNodeInfo(nodeInfoPath)
    if (await this.lockDatadir(dirname(read.path))) read = await readNodeInfo(nodeInfoPath)
    {
      const { path, info } = read
      const keyDir = dirname(path)
      const check = await checkKeyOnDisk(keyDir, info.blsPublicKey)
      if (check.status === 'mismatch')
        throw new KeyOnDiskMismatchError({
          datadir: keyDir,
          nodeInfoKey: info.blsPublicKey,
          onDisk: check.onDisk,
          keyFile: check.keyFile,
        })
      if (check.status === 'unknown' && generation === 'next')
        this.warnLine(
          `tnv has no record of which key ${check.keyFile} holds, so it could not check that it is the key in ${path} without the passphrase; run \`tnv keytool verify --datadir ${keyDir}\` once to check and record it.`,
        )
    }
    let result: ExportStakingArgsJson | AdiriStakingArgsJson
    let details: ExportStakingArgsDetails['tnv']
    if (generation === 'next') {
      // reads node-info.yaml only: no passphrase source is demanded (issue 16 item 1; the
      // real keytool's demand for one protects nothing here)
      const { exportStakingArgs } = await import('../../lib/keys/export-staking-args.js')
      const r = await exportStakingArgs({ nodeInfo: read })
      say(
        `${generationFrom === 'default' ? 'For the next-generation registry (the default; the adiri registry of the test network takes another form: --registry-generation adiri)' : 'For the next-generation registry'}: stake(bytes,(bytes)), selector 0x2fb0d025. The proof of possession in ${r.nodeInfo} verifies for ${r.executionAddress}.`,
      )
      result = { blsPubkey: r.blsPubkey, signature: r.proofOfPossession }
      details = {
        generation,
        generationFrom,
        stakeFunction: 'stake(bytes,(bytes))',
        calldata: r.calldata,
        executionAddress: r.executionAddress,
        nodeInfo: r.nodeInfo,
      }
      if (flags.calldata) this.out(r.calldata)
      else
        this.out(
          [
            'Staking arguments for ConsensusRegistry.stake():',
            '',
            'blsPubkey (compressed, 96 bytes):',
            r.blsPubkey,
            '',
            'proofOfPossession.signature (compressed, 48 bytes):',
            r.proofOfPossession,
          ].join('\n'),
        )
    } else {
      const [{ readNodeInfo }, { adiriStakingArgs }] = await Promise.all([
        import('../../lib/nodeinfo/read.js'),
        import('../../lib/keys/export-staking-args.js'),
      ])
      const { path, info } = await readNodeInfo(nodeInfoPath)
      const keyDir = dirname(path)
      say(
        `For the adiri registry (${generationFrom === 'flag' ? '--registry-generation adiri' : 'found at the registry'}): stake(bytes,(bytes,bytes)), selector 0xb5184324. Its proof of possession is over its own 218-byte message with the uncompressed key, which node-info.yaml does not hold: opening the BLS key in ${keyDir} to sign it for ${info.executionAddress}.`,
      )
      const key = await this.openKey(keyDir, flags['bls-passphrase-source'])
      let r: Awaited<ReturnType<typeof adiriStakingArgs>>
      try {
        r = await adiriStakingArgs(info, key.secret)
      } finally {
        key.secret.fill(0)
      }
      result = {
        blsPubkey: r.blsPubkey,
        uncompressedPubkey: r.uncompressedPubkey,
        uncompressedSignature: r.uncompressedSignature,
      }
      details = {
        generation,
        generationFrom,
        stakeFunction: 'stake(bytes,(bytes,bytes))',
        calldata: r.calldata,
        executionAddress: info.executionAddress,
        nodeInfo: path,
      }
      if (flags.calldata) this.out(r.calldata)
      else
        this.out(
          [
            'Staking arguments for ConsensusRegistry.stake() (adiri registry: stake(bytes,(bytes,bytes))):',
            '',
            'blsPubkey (compressed, 96 bytes):',
            r.blsPubkey,
            '',
            'proofOfPossession.uncompressedPubkey (uncompressed, 192 bytes):',
            r.uncompressedPubkey,
            '',
            'proofOfPossession.uncompressedSignature (uncompressed, 96 bytes):',
            r.uncompressedSignature,
          ].join('\n'),
        )
    }
    return flags.details ? { ...result, tnv: details } : result
  }
}
