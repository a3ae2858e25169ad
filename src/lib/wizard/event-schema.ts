/**
 * The JSON-lines events of the onboarding flows (`tnv stake|exit --through … --json`), one
 * schema per event: the fields each event carries and their JSON types. docs/ci.md documents
 * the same table (a test checks that the two agree, and the CI tests check every line the flows
 * print against it).
 *
 * Conventions, the same in every event and result:
 * - amounts in wei and block numbers are decimal strings (`decimal`): they exceed 2^53 or come
 *   from uint256 values; epochs, chain ids, counts, seconds and pids are JSON numbers;
 * - addresses are EIP-55 0x strings, hashes and keys 0x hex; a key (BLS public key, proof of
 *   possession, network key) is hex under its plain name (what stake(), explorers and the
 *   deployment docs use) with its base58 form (node-info.yaml's) beside it as `…Base58`: the rule
 *   of every JSON tnv prints (src/lib/keys/identity.ts);
 * - a value that does not exist (yet) is null, never 0, "" or a missing field.
 */

/** A field's JSON type; `?` after it: the field may be absent; `|null`: it may be null. */
export type FieldType = 'string' | 'number' | 'boolean' | 'decimal' | 'address' | 'hex' | 'base58' | 'object' | 'array'

export type FieldSpec = `${FieldType}${'' | '|null'}${'' | '?'}`

/** The stake wizard's offline stop (docs/offline.md): the bundle written, or still waiting for its signature. */
const OFFLINE_STOP_FIELDS = {
  outcome: 'string',
  step: 'string',
  bundle: 'string',
  signed: 'string',
  digest: 'string',
  expiresAt: 'string',
  next: 'object',
} as const satisfies Record<string, FieldSpec>

export const FLOW_EVENTS = {
  keys: { nodeInfo: 'string' },
  'keys-created': { datadir: 'string', nodeInfo: 'string', encrypted: 'boolean', recoveryPhrase: 'boolean' },
  backup: {
    status: 'string',
    how: 'string?',
    at: 'string?',
    file: 'string?',
    keyPath: 'string?',
    checks: 'array?',
    reason: 'string?',
    message: 'string?',
  },
  signer: { address: 'address', type: 'string', network: 'string', rpcUrl: 'string' },
  resume: { step: 'string', hash: 'hex', submittedAt: 'string' },
  resumed: { step: 'string', hash: 'hex', outcome: 'string', blockNumber: 'decimal|null', reason: 'string?' },
  identity: {
    validator: 'address',
    chain: 'object',
    blsPublicKey: 'hex',
    blsPublicKeyBase58: 'base58',
    primary: 'string',
    workers: 'array',
    status: 'string',
    whitelisted: 'boolean',
    epoch: 'number',
    balance: 'decimal',
    stakeAmount: 'decimal',
    prerequisites: 'array',
  },
  'whitelist-needed': {
    validator: 'address',
    nodeInfo: 'string',
    blsPublicKey: 'hex',
    blsPublicKeyBase58: 'base58',
    proofOfPossession: 'hex',
    proofOfPossessionBase58: 'base58',
  },
  whitelisted: { validator: 'address', by: 'string', owner: 'address?', txHash: 'hex|null?' },
  'stake-amount': { stakeVersion: 'number', stakeAmount: 'decimal' },
  check: { step: 'string', message: 'string' },
  warning: { step: 'string?', message: 'string' },
  note: { message: 'string' },
  plan: { step: 'string', title: 'string', irreversible: 'boolean', kind: 'string', rows: 'object' },
  sent: { step: 'string', hash: 'hex' },
  confirmed: { step: 'string', hash: 'hex', blockNumber: 'decimal' },
  staked: { validator: 'address' },
  'node-started': { pid: 'number', rpcUrl: 'string', logFile: 'string|null', args: 'array' },
  node: { rpcUrl: 'string', how: 'string', pid: 'number|null' },
  'sync-progress': { local: 'decimal', network: 'decimal', matching: 'number', needed: 'number' },
  synced: { local: 'decimal', network: 'decimal', polls: 'number', method: 'string', nodeMode: 'string|null' },
  progress: {
    waitingFor: 'string',
    status: 'string',
    epoch: 'number',
    blockNumber: 'decimal',
    secondsToNextEpoch: 'number|null',
    epochSeconds: 'number',
  },
  active: { validator: 'address', epoch: 'number' },
  state: { validator: 'address', chain: 'object', status: 'string', epoch: 'number', exitEpoch: 'number|null' },
  'pending-exit': { validator: 'address', epoch: 'number' },
  exited: { validator: 'address', exitEpoch: 'number|null' },
  paid: {
    recipient: 'address|null',
    stake: 'decimal',
    rewards: 'decimal',
    rewardsForfeited: 'decimal',
    refundCredited: 'decimal',
  },
  unsigned: { step: 'string', transaction: 'object' },
  'offline-bundle': OFFLINE_STOP_FIELDS,
  'offline-waiting': OFFLINE_STOP_FIELDS,
  waiting: {
    endpoint: 'string',
    methods: 'array',
    attempt: 'number',
    attempts: 'number',
    waitedSeconds: 'number',
    timeoutSeconds: 'number',
  },
  interrupted: {},
} as const satisfies Record<string, Record<string, FieldSpec>>

export type FlowEventName = keyof typeof FLOW_EVENTS

const CHECKS: Record<FieldType, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  decimal: (v) => typeof v === 'string' && /^\d+$/.test(v),
  address: (v) => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v),
  hex: (v) => typeof v === 'string' && /^0x[0-9a-fA-F]*$/.test(v),
  base58: (v) => typeof v === 'string' && /^[1-9A-HJ-NP-Za-km-z]+$/.test(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
}

/** What is wrong with one JSON-lines event (empty: it matches its schema exactly). */
export function eventProblems(line: Record<string, unknown>): string[] {
  const name = line.event
  if (typeof name !== 'string') return ['no "event" field']
  const schema = (FLOW_EVENTS as Record<string, Record<string, FieldSpec>>)[name]
  if (!schema) return [`unknown event "${name}"`]
  const problems: string[] = []
  for (const [field, spec] of Object.entries(schema)) {
    const optional = spec.endsWith('?')
    const [type, nullable] = spec.replace(/\?$/, '').split('|') as [FieldType, string | undefined]
    if (!(field in line)) {
      if (!optional) problems.push(`${name}.${field} is missing`)
      continue
    }
    const value = line[field]
    if (value === null ? nullable !== 'null' : !CHECKS[type](value))
      problems.push(`${name}.${field} is ${JSON.stringify(value)}, not ${spec.replace(/\?$/, '')}`)
  }
  for (const field of Object.keys(line))
    if (field !== 'event' && !(field in schema)) problems.push(`${name}.${field} is not in the schema`)
  return problems
}

/** When each event is printed (docs/ci.md's second column). */
export const FLOW_EVENT_WHEN: Record<FlowEventName, string> = {
  keys: 'keys found in the data directory',
  'keys-created': 'keys generated (--create-keys); `recoveryPhrase`: derived from a confirmed recovery phrase',
  backup:
    'the backup gate before staking (`status`: `verified` with `how`, `missing` with `reason`, `written`, `failed`, `rehearsal` on a rehearsal chain, `skipped`)',
  signer: 'signer and network resolved',
  resume: "an earlier run's transaction with no known outcome is settled",
  resumed: 'that transaction settled (`success`, `reverted`, `dropped`)',
  identity: 'before any step (stake)',
  'whitelist-needed': 'no ConsensusNFT and no devnet mint',
  whitelisted: 'the ConsensusNFT is there (by `governance` or the `devnet-rehearsal` mint)',
  'stake-amount': 'before the stake',
  check: 'a registry check passed',
  warning: 'something the operator should know',
  note: 'a side remark',
  plan: 'before a transaction (the preview)',
  sent: 'transaction accepted',
  confirmed: 'transaction mined',
  staked: 'the stake is mined',
  'node-started': 'tnv started the node',
  node: 'the node chosen (`flag`, `running`, `started`)',
  'sync-progress': 'each sync poll',
  synced: 'the node caught up',
  progress: 'waiting at an epoch boundary',
  active: 'the validator is Active',
  state: 'the state read first (exit; an Active validator at `tnv stake`)',
  'pending-exit': 'beginExit mined',
  exited: 'the protocol marked it Exited',
  paid: 'unstake paid out (wei)',
  unsigned: '`--unsigned`: the flow stops here',
  'offline-bundle':
    'the funding key is offline (`--offline-bundle`, or the wizard): the bundle of the step is written (`outcome` `waiting`; `next`: the commands `offline`, `online`, `broadcast`); the flow stops here, exit 32',
  'offline-waiting': 'the bundle an earlier run wrote is not signed yet (its signed file is not beside it); exit 32',
  waiting: 'an endpoint has not answered an attempt for 5 s (`--rpc-timeout` per attempt, 4 attempts)',
  interrupted: 'SIGINT',
}

/** docs/ci.md's event table, generated from the schema (a test keeps the two the same). */
export function formatEventTable(): string {
  const rows = Object.entries(FLOW_EVENTS).map(([name, fields]) => {
    const list = Object.entries(fields as Record<string, FieldSpec>)
      .map(([f, spec]) => `\`${f}\` ${spec.replace('|null', ' or null').replace(/\?$/, ' (optional)')}`)
      .join(', ')
    return `| \`${name}\` | ${FLOW_EVENT_WHEN[name as FlowEventName]} | ${list || '(none)'} |`
  })
  return ['| event | when | fields (JSON type) |', '|---|---|---|', ...rows].join('\n')
}
