/**
 * The ConsensusRegistry ABI tnv uses (spec: Endpoints; reference-facts: Registry shapes).
 * Hand-written `as const` so viem infers argument and return types; test/registry/abi.test.ts
 * compares every function, error and event here with the compiled contract
 * (contracts/out), so a divergence fails the build instead of a transaction.
 * `getDelegator` and `getStakeBalance` are views of the devnet contract the facts page does
 * not list; tnv reads them only as optional extras (a revert reads as "unknown").
 */

const proofOfPossession = {
  name: 'proofOfPossession',
  type: 'tuple',
  internalType: 'struct ProofOfPossession',
  components: [{ name: 'signature', type: 'bytes', internalType: 'bytes' }],
} as const

const validatorInfoComponents = [
  { name: 'validatorAddress', type: 'address', internalType: 'address' },
  { name: 'activationEpoch', type: 'uint32', internalType: 'uint32' },
  { name: 'exitEpoch', type: 'uint32', internalType: 'uint32' },
  { name: 'currentStatus', type: 'uint8', internalType: 'enum ValidatorStatus' },
  { name: 'isRetired', type: 'bool', internalType: 'bool' },
  { name: 'stakeVersion', type: 'uint8', internalType: 'uint8' },
  { name: 'region', type: 'uint8', internalType: 'uint8' },
] as const

const stakeConfigComponents = [
  { name: 'stakeAmount', type: 'uint256', internalType: 'uint256' },
  { name: 'minWithdrawAmount', type: 'uint256', internalType: 'uint256' },
  { name: 'epochIssuance', type: 'uint256', internalType: 'uint256' },
  { name: 'epochDuration', type: 'uint32', internalType: 'uint32' },
] as const

const epochInfoComponents = [
  { name: 'committee', type: 'address[]', internalType: 'address[]' },
  { name: 'epochIssuance', type: 'uint256', internalType: 'uint256' },
  { name: 'blockHeight', type: 'uint64', internalType: 'uint64' },
  { name: 'epochId', type: 'uint32', internalType: 'uint32' },
  { name: 'epochDuration', type: 'uint32', internalType: 'uint32' },
  { name: 'stakeVersion', type: 'uint8', internalType: 'uint8' },
] as const

export const registryAbi = [
  // --- state-changing -------------------------------------------------------------------
  {
    type: 'function',
    name: 'stake',
    stateMutability: 'payable',
    inputs: [{ name: 'blsPubkey', type: 'bytes', internalType: 'bytes' }, proofOfPossession],
    outputs: [],
  },
  {
    type: 'function',
    name: 'delegateStake',
    stateMutability: 'payable',
    inputs: [
      { name: 'blsPubkey', type: 'bytes', internalType: 'bytes' },
      proofOfPossession,
      { name: 'validatorAddress', type: 'address', internalType: 'address' },
      { name: 'validatorEIP712Signature', type: 'bytes', internalType: 'bytes' },
      { name: 'deadline', type: 'uint256', internalType: 'uint256' },
    ],
    outputs: [],
  },
  { type: 'function', name: 'activate', stateMutability: 'nonpayable', inputs: [], outputs: [] },
  { type: 'function', name: 'beginExit', stateMutability: 'nonpayable', inputs: [], outputs: [] },
  {
    type: 'function',
    name: 'unstake',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'validatorAddress', type: 'address', internalType: 'address' },
      { name: 'acceptRewardShortfall', type: 'bool', internalType: 'bool' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'claimStakeRewards',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [],
  },
  { type: 'function', name: 'claimRefund', stateMutability: 'nonpayable', inputs: [], outputs: [] },
  { type: 'function', name: 'increaseNonce', stateMutability: 'nonpayable', inputs: [], outputs: [] },
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [],
  },
  // --- views ----------------------------------------------------------------------------
  {
    type: 'function',
    name: 'delegationDigest',
    stateMutability: 'view',
    inputs: [
      { name: 'blsPubkey', type: 'bytes', internalType: 'bytes' },
      { name: 'validatorAddress', type: 'address', internalType: 'address' },
      { name: 'delegator', type: 'address', internalType: 'address' },
      { name: 'deadline', type: 'uint256', internalType: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bytes32', internalType: 'bytes32' }],
  },
  {
    type: 'function',
    name: 'getCurrentStakeVersion',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint8', internalType: 'uint8' }],
  },
  {
    type: 'function',
    name: 'stakeConfig',
    stateMutability: 'view',
    inputs: [{ name: 'version', type: 'uint8', internalType: 'uint8' }],
    outputs: [{ name: '', type: 'tuple', internalType: 'struct StakeConfig', components: stakeConfigComponents }],
  },
  {
    type: 'function',
    name: 'getCurrentStakeConfig',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'tuple', internalType: 'struct StakeConfig', components: stakeConfigComponents }],
  },
  {
    type: 'function',
    name: 'getValidator',
    stateMutability: 'view',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'tuple', internalType: 'struct ValidatorInfo', components: validatorInfoComponents }],
  },
  {
    type: 'function',
    name: 'getCurrentEpochInfo',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'tuple', internalType: 'struct EpochInfo', components: epochInfoComponents }],
  },
  {
    type: 'function',
    name: 'getEpochInfo',
    stateMutability: 'view',
    inputs: [{ name: 'epoch', type: 'uint32', internalType: 'uint32' }],
    outputs: [{ name: '', type: 'tuple', internalType: 'struct EpochInfo', components: epochInfoComponents }],
  },
  {
    type: 'function',
    name: 'getCurrentEpoch',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint32', internalType: 'uint32' }],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'owner', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'uint256', internalType: 'uint256' }],
  },
  {
    type: 'function',
    name: 'owner',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address', internalType: 'address' }],
  },
  {
    type: 'function',
    name: 'getRewards',
    stateMutability: 'view',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'uint256', internalType: 'uint256' }],
  },
  {
    type: 'function',
    name: 'getDelegator',
    stateMutability: 'view',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'address', internalType: 'address' }],
  },
  {
    type: 'function',
    name: 'getStakeBalance',
    stateMutability: 'view',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'uint256', internalType: 'uint256' }],
  },
  {
    type: 'function',
    name: 'isDelegated',
    stateMutability: 'view',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'bool', internalType: 'bool' }],
  },
  {
    type: 'function',
    name: 'isRetired',
    stateMutability: 'view',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'bool', internalType: 'bool' }],
  },
  {
    type: 'function',
    name: 'getBlsPubkey',
    stateMutability: 'view',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'bytes', internalType: 'bytes' }],
  },
  {
    type: 'function',
    name: 'isValidator',
    stateMutability: 'view',
    inputs: [{ name: 'blsPubkey', type: 'bytes', internalType: 'bytes' }],
    outputs: [{ name: '', type: 'bool', internalType: 'bool' }],
  },
  {
    type: 'function',
    name: 'delegationNonce',
    stateMutability: 'view',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'uint64', internalType: 'uint64' }],
  },
  {
    type: 'function',
    name: 'refunds',
    stateMutability: 'view',
    inputs: [{ name: 'recipient', type: 'address', internalType: 'address' }],
    outputs: [{ name: '', type: 'uint256', internalType: 'uint256' }],
  },
  // --- custom errors (spec: Errors; reference-facts: custom errors) ----------------------
  {
    type: 'error',
    name: 'InvalidTokenId',
    inputs: [{ name: 'tokenId', type: 'uint256', internalType: 'uint256' }],
  },
  {
    type: 'error',
    name: 'InvalidStatus',
    inputs: [{ name: 'status', type: 'uint8', internalType: 'enum ValidatorStatus' }],
  },
  {
    type: 'error',
    name: 'InvalidStakeAmount',
    inputs: [{ name: 'stakeAmount', type: 'uint256', internalType: 'uint256' }],
  },
  { type: 'error', name: 'InvalidProofOfPossession', inputs: [proofOfPossession] },
  { type: 'error', name: 'DuplicateBLSPubkey', inputs: [] },
  { type: 'error', name: 'InvalidBLSPubkey', inputs: [] },
  {
    type: 'error',
    name: 'IneligibleUnstake',
    inputs: [
      { name: 'validator', type: 'tuple', internalType: 'struct ValidatorInfo', components: validatorInfoComponents },
    ],
  },
  {
    type: 'error',
    name: 'NotRecipient',
    inputs: [{ name: 'recipient', type: 'address', internalType: 'address' }],
  },
  {
    type: 'error',
    name: 'InsufficientRewards',
    inputs: [{ name: 'withdrawAmount', type: 'uint256', internalType: 'uint256' }],
  },
  { type: 'error', name: 'RequiresConsensusNFT', inputs: [] },
  {
    type: 'error',
    name: 'AlreadyDefined',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
  },
  {
    type: 'error',
    name: 'BlsPubkeyNotFound',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
  },
  {
    type: 'error',
    name: 'DelegationExpired',
    inputs: [{ name: 'deadline', type: 'uint256', internalType: 'uint256' }],
  },
  // --- errors the devnet contract adds where the spec and the facts name none ---------------
  {
    type: 'error',
    name: 'InvalidDelegationSignature',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
  },
  {
    type: 'error',
    name: 'AddressRetired',
    inputs: [{ name: 'validatorAddress', type: 'address', internalType: 'address' }],
  },
  { type: 'error', name: 'NotTransferable', inputs: [] },
  { type: 'error', name: 'OnlyOwner', inputs: [{ name: 'caller', type: 'address', internalType: 'address' }] },
  { type: 'error', name: 'OnlySystemCall', inputs: [{ name: 'caller', type: 'address', internalType: 'address' }] },
  { type: 'error', name: 'InvalidEpoch', inputs: [{ name: 'epoch', type: 'uint32', internalType: 'uint32' }] },
  { type: 'error', name: 'InvalidStakeVersion', inputs: [{ name: 'version', type: 'uint8', internalType: 'uint8' }] },
  { type: 'error', name: 'InvalidStakeConfig', inputs: [] },
  {
    type: 'error',
    name: 'RewardsBelowMinimum',
    inputs: [
      { name: 'rewards', type: 'uint256', internalType: 'uint256' },
      { name: 'minWithdrawAmount', type: 'uint256', internalType: 'uint256' },
    ],
  },
  { type: 'error', name: 'NoRefund', inputs: [{ name: 'account', type: 'address', internalType: 'address' }] },
  {
    type: 'error',
    name: 'TransferFailed',
    inputs: [
      { name: 'recipient', type: 'address', internalType: 'address' },
      { name: 'amount', type: 'uint256', internalType: 'uint256' },
    ],
  },
  { type: 'error', name: 'UnexpectedTransfer', inputs: [{ name: 'sender', type: 'address', internalType: 'address' }] },
  { type: 'error', name: 'AlreadyInitialized', inputs: [] },
  { type: 'error', name: 'GenesisValidatorsRequired', inputs: [] },
  { type: 'error', name: 'Reentrancy', inputs: [] },
  // --- events tnv reads from receipts ---------------------------------------------------
  {
    type: 'event',
    name: 'RewardsClaimed',
    anonymous: false,
    inputs: [
      { name: 'claimant', type: 'address', indexed: true, internalType: 'address' },
      { name: 'rewards', type: 'uint256', indexed: false, internalType: 'uint256' },
    ],
  },
  {
    type: 'event',
    name: 'RewardsForfeited',
    anonymous: false,
    inputs: [
      { name: 'validatorAddress', type: 'address', indexed: true, internalType: 'address' },
      { name: 'shortfall', type: 'uint256', indexed: false, internalType: 'uint256' },
    ],
  },
  {
    type: 'event',
    name: 'RefundCredited',
    anonymous: false,
    inputs: [
      { name: 'recipient', type: 'address', indexed: true, internalType: 'address' },
      { name: 'amount', type: 'uint256', indexed: false, internalType: 'uint256' },
    ],
  },
  {
    type: 'event',
    name: 'RefundClaimed',
    anonymous: false,
    inputs: [
      { name: 'recipient', type: 'address', indexed: true, internalType: 'address' },
      { name: 'amount', type: 'uint256', indexed: false, internalType: 'uint256' },
    ],
  },
  {
    type: 'event',
    name: 'DelegationNonceIncreased',
    anonymous: false,
    inputs: [
      { name: 'validatorAddress', type: 'address', indexed: true, internalType: 'address' },
      { name: 'nonce', type: 'uint64', indexed: false, internalType: 'uint64' },
    ],
  },
] as const

/** Status enum order (reference-facts). `Any` is a query wildcard, never a validator's status. */
export const VALIDATOR_STATUSES = [
  'Undefined',
  'Staked',
  'PendingActivation',
  'Active',
  'PendingExit',
  'Exited',
  'Any',
] as const
export type ValidatorStatusName = (typeof VALIDATOR_STATUSES)[number]

export function statusName(code: number): ValidatorStatusName {
  const name = VALIDATOR_STATUSES[code]
  if (name === undefined) throw new RangeError(`unknown validator status code ${code}`)
  return name
}
