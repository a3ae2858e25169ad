/**
 * ConsensusRegistry ABI of the "next" generation, generated from networks/abi/consensus-registry-next.json
 * by scripts/gen-registry-abis.mjs (npm run gen:abi). Do not edit by hand.
 */

export const nextRegistryAbi = [
  {
    inputs: [],
    name: 'activate',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [],
    name: 'allocateIssuance',
    outputs: [],
    stateMutability: 'payable',
    type: 'function',
  },
  {
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint256',
            name: 'consensusHeaderCount',
            type: 'uint256',
          },
        ],
        internalType: 'struct RewardInfo[]',
        name: 'rewardInfos',
        type: 'tuple[]',
      },
    ],
    name: 'applyIncentives',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint256',
            name: 'amount',
            type: 'uint256',
          },
        ],
        internalType: 'struct Slash[]',
        name: 'slashes',
        type: 'tuple[]',
      },
    ],
    name: 'applySlashes',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    name: 'approve',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'owner',
        type: 'address',
      },
    ],
    name: 'balanceOf',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'beginExit',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'burn',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'cancelStakeVersionChange',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    name: 'claimableRefunds',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    type: 'function',
    name: 'claimableRewards',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    stateMutability: 'view',
  },
  {
    inputs: [],
    name: 'claimRefund',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'claimStakeRewards',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address[]',
        name: 'futureCommittee',
        type: 'address[]',
      },
    ],
    name: 'concludeEpoch',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'bytes',
        name: 'blsPubkey',
        type: 'bytes',
      },
      {
        components: [
          {
            internalType: 'bytes',
            name: 'signature',
            type: 'bytes',
          },
        ],
        internalType: 'struct IStakeManager.ProofOfPossession',
        name: 'proofOfPossession',
        type: 'tuple',
      },
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        internalType: 'bytes',
        name: 'validatorEIP712Signature',
        type: 'bytes',
      },
      {
        internalType: 'uint256',
        name: 'deadline',
        type: 'uint256',
      },
    ],
    name: 'delegateStake',
    outputs: [],
    stateMutability: 'payable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'bytes',
        name: 'blsPubkey',
        type: 'bytes',
      },
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        internalType: 'address',
        name: 'delegator',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'deadline',
        type: 'uint256',
      },
    ],
    name: 'delegationDigest',
    outputs: [
      {
        internalType: 'bytes32',
        name: '',
        type: 'bytes32',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'eip712Domain',
    outputs: [
      {
        internalType: 'bytes1',
        name: 'fields',
        type: 'bytes1',
      },
      {
        internalType: 'string',
        name: 'name',
        type: 'string',
      },
      {
        internalType: 'string',
        name: 'version',
        type: 'string',
      },
      {
        internalType: 'uint256',
        name: 'chainId',
        type: 'uint256',
      },
      {
        internalType: 'address',
        name: 'verifyingContract',
        type: 'address',
      },
      {
        internalType: 'bytes32',
        name: 'salt',
        type: 'bytes32',
      },
      {
        internalType: 'uint256[]',
        name: 'extensions',
        type: 'uint256[]',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    name: 'epochInfo',
    outputs: [
      {
        internalType: 'uint256',
        name: 'epochIssuance',
        type: 'uint256',
      },
      {
        internalType: 'uint64',
        name: 'blockHeight',
        type: 'uint64',
      },
      {
        internalType: 'uint32',
        name: 'epochId',
        type: 'uint32',
      },
      {
        internalType: 'uint32',
        name: 'epochDuration',
        type: 'uint32',
      },
      {
        internalType: 'uint8',
        name: 'stakeVersion',
        type: 'uint8',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    name: 'futureEpochInfo',
    outputs: [
      {
        internalType: 'uint256',
        name: 'epochIssuance',
        type: 'uint256',
      },
      {
        internalType: 'uint64',
        name: 'blockHeight',
        type: 'uint64',
      },
      {
        internalType: 'uint32',
        name: 'epochId',
        type: 'uint32',
      },
      {
        internalType: 'uint32',
        name: 'epochDuration',
        type: 'uint32',
      },
      {
        internalType: 'uint8',
        name: 'stakeVersion',
        type: 'uint8',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
    ],
    name: 'getApproved',
    outputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'getBalanceBreakdown',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'getBlsPubkey',
    outputs: [
      {
        internalType: 'bytes',
        name: '',
        type: 'bytes',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint32',
        name: 'epoch',
        type: 'uint32',
      },
    ],
    name: 'getCommitteeBlsPubkeys',
    outputs: [
      {
        internalType: 'bytes[]',
        name: '',
        type: 'bytes[]',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint32',
        name: 'epoch',
        type: 'uint32',
      },
    ],
    name: 'getCommitteeValidators',
    outputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        internalType: 'struct IConsensusRegistry.ValidatorInfo[]',
        name: '',
        type: 'tuple[]',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'getCurrentEpoch',
    outputs: [
      {
        internalType: 'uint32',
        name: '',
        type: 'uint32',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'getCurrentEpochInfo',
    outputs: [
      {
        components: [
          {
            internalType: 'address[]',
            name: 'committee',
            type: 'address[]',
          },
          {
            internalType: 'uint256',
            name: 'epochIssuance',
            type: 'uint256',
          },
          {
            internalType: 'uint64',
            name: 'blockHeight',
            type: 'uint64',
          },
          {
            internalType: 'uint32',
            name: 'epochId',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'epochDuration',
            type: 'uint32',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
        ],
        internalType: 'struct IConsensusRegistry.EpochInfo',
        name: '',
        type: 'tuple',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'getCurrentStakeConfig',
    outputs: [
      {
        components: [
          {
            internalType: 'uint256',
            name: 'stakeAmount',
            type: 'uint256',
          },
          {
            internalType: 'uint256',
            name: 'minWithdrawAmount',
            type: 'uint256',
          },
          {
            internalType: 'uint256',
            name: 'epochIssuance',
            type: 'uint256',
          },
          {
            internalType: 'uint32',
            name: 'epochDuration',
            type: 'uint32',
          },
        ],
        internalType: 'struct IStakeManager.StakeConfig',
        name: '',
        type: 'tuple',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'getCurrentStakeVersion',
    outputs: [
      {
        internalType: 'uint8',
        name: '',
        type: 'uint8',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'getEligibleValidatorCount',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint32',
        name: 'epoch',
        type: 'uint32',
      },
    ],
    name: 'getEpochInfo',
    outputs: [
      {
        components: [
          {
            internalType: 'address[]',
            name: 'committee',
            type: 'address[]',
          },
          {
            internalType: 'uint256',
            name: 'epochIssuance',
            type: 'uint256',
          },
          {
            internalType: 'uint64',
            name: 'blockHeight',
            type: 'uint64',
          },
          {
            internalType: 'uint32',
            name: 'epochId',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'epochDuration',
            type: 'uint32',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
        ],
        internalType: 'struct IConsensusRegistry.EpochInfo',
        name: '',
        type: 'tuple',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'getNextCommitteeSize',
    outputs: [
      {
        internalType: 'uint16',
        name: '',
        type: 'uint16',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'getPendingVersionChanges',
    outputs: [
      {
        internalType: 'address[]',
        name: '',
        type: 'address[]',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'getRewards',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'getValidator',
    outputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        name: '',
        type: 'tuple',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'enum IConsensusRegistry.ValidatorStatus',
        name: 'status',
        type: 'uint8',
      },
    ],
    name: 'getValidators',
    outputs: [
      {
        internalType: 'address[]',
        name: '',
        type: 'address[]',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'enum IConsensusRegistry.ValidatorStatus',
        name: 'status',
        type: 'uint8',
      },
    ],
    name: 'getValidatorsInfo',
    outputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        internalType: 'struct IConsensusRegistry.ValidatorInfo[]',
        name: '',
        type: 'tuple[]',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'increaseNonce',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'owner',
        type: 'address',
      },
      {
        internalType: 'address',
        name: 'operator',
        type: 'address',
      },
    ],
    name: 'isApprovedForAll',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'isDelegated',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'isRetired',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'issuance',
    outputs: [
      {
        internalType: 'address payable',
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'amount',
        type: 'uint256',
      },
    ],
    name: 'issuanceWithdrawal',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'bytes',
        name: 'blsPubkey',
        type: 'bytes',
      },
    ],
    name: 'isValidator',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'migrateValidatorSets',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'mint',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [],
    name: 'name',
    outputs: [
      {
        internalType: 'string',
        name: '',
        type: 'string',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'owner',
    outputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
    ],
    name: 'ownerOf',
    outputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'pause',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [],
    name: 'paused',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'renounceOwnership',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        internalType: 'uint8',
        name: 'targetVersion',
        type: 'uint8',
      },
    ],
    name: 'requestStakeVersionChange',
    outputs: [],
    stateMutability: 'payable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'from',
        type: 'address',
      },
      {
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
    ],
    name: 'safeTransferFrom',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'from',
        type: 'address',
      },
      {
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
      {
        internalType: 'bytes',
        name: 'data',
        type: 'bytes',
      },
    ],
    name: 'safeTransferFrom',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    name: 'setApprovalForAll',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint16',
        name: 'newSize',
        type: 'uint16',
      },
    ],
    name: 'setNextCommitteeSize',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'bool',
        name: 'required',
        type: 'bool',
      },
    ],
    name: 'setTopUpAuthorityRequired',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        internalType: 'uint8',
        name: 'region',
        type: 'uint8',
      },
    ],
    name: 'setValidatorRegion',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'bytes',
        name: 'blsPubkey',
        type: 'bytes',
      },
      {
        components: [
          {
            internalType: 'bytes',
            name: 'signature',
            type: 'bytes',
          },
        ],
        internalType: 'struct IStakeManager.ProofOfPossession',
        name: 'proofOfPossession',
        type: 'tuple',
      },
    ],
    name: 'stake',
    outputs: [],
    stateMutability: 'payable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint8',
        name: 'version',
        type: 'uint8',
      },
    ],
    name: 'stakeConfig',
    outputs: [
      {
        components: [
          {
            internalType: 'uint256',
            name: 'stakeAmount',
            type: 'uint256',
          },
          {
            internalType: 'uint256',
            name: 'minWithdrawAmount',
            type: 'uint256',
          },
          {
            internalType: 'uint256',
            name: 'epochIssuance',
            type: 'uint256',
          },
          {
            internalType: 'uint32',
            name: 'epochDuration',
            type: 'uint32',
          },
        ],
        internalType: 'struct IStakeManager.StakeConfig',
        name: '',
        type: 'tuple',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'bytes4',
        name: 'interfaceId',
        type: 'bytes4',
      },
    ],
    name: 'supportsInterface',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'symbol',
    outputs: [
      {
        internalType: 'string',
        name: '',
        type: 'string',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'SYSTEM_ADDRESS',
    outputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'index',
        type: 'uint256',
      },
    ],
    name: 'tokenByIndex',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'owner',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'index',
        type: 'uint256',
      },
    ],
    name: 'tokenOfOwnerByIndex',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
    ],
    name: 'tokenURI',
    outputs: [
      {
        internalType: 'string',
        name: '',
        type: 'string',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'topUpAuthorityRequired',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'topUpSlashedStake',
    outputs: [],
    stateMutability: 'payable',
    type: 'function',
  },
  {
    inputs: [],
    name: 'totalSupply',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    name: 'transferFrom',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'newOwner',
        type: 'address',
      },
    ],
    name: 'transferOwnership',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [],
    name: 'undistributedIssuance',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'unpause',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        internalType: 'bool',
        name: 'acceptRewardShortfall',
        type: 'bool',
      },
    ],
    name: 'unstake',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        components: [
          {
            internalType: 'uint256',
            name: 'stakeAmount',
            type: 'uint256',
          },
          {
            internalType: 'uint256',
            name: 'minWithdrawAmount',
            type: 'uint256',
          },
          {
            internalType: 'uint256',
            name: 'epochIssuance',
            type: 'uint256',
          },
          {
            internalType: 'uint32',
            name: 'epochDuration',
            type: 'uint32',
          },
        ],
        internalType: 'struct IStakeManager.StakeConfig',
        name: 'newConfig',
        type: 'tuple',
      },
    ],
    name: 'upgradeStakeVersion',
    outputs: [
      {
        internalType: 'uint8',
        name: '',
        type: 'uint8',
      },
    ],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    name: 'validators',
    outputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        internalType: 'uint32',
        name: 'activationEpoch',
        type: 'uint32',
      },
      {
        internalType: 'uint32',
        name: 'exitEpoch',
        type: 'uint32',
      },
      {
        internalType: 'enum IConsensusRegistry.ValidatorStatus',
        name: 'currentStatus',
        type: 'uint8',
      },
      {
        internalType: 'bool',
        name: 'isRetired',
        type: 'bool',
      },
      {
        internalType: 'uint8',
        name: 'stakeVersion',
        type: 'uint8',
      },
      {
        internalType: 'uint8',
        name: 'region',
        type: 'uint8',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    name: 'versionChangeRequests',
    outputs: [
      {
        internalType: 'uint8',
        name: 'targetVersion',
        type: 'uint8',
      },
      {
        internalType: 'uint32',
        name: 'requestEpoch',
        type: 'uint32',
      },
      {
        internalType: 'address',
        name: 'funder',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'escrow',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'owner',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'approved',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
    ],
    name: 'Approval',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint64',
        name: 'nonce',
        type: 'uint64',
      },
    ],
    name: 'DelegationNonceIncreased',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        components: [
          {
            internalType: 'address[]',
            name: 'committee',
            type: 'address[]',
          },
          {
            internalType: 'uint256',
            name: 'epochIssuance',
            type: 'uint256',
          },
          {
            internalType: 'uint64',
            name: 'blockHeight',
            type: 'uint64',
          },
          {
            internalType: 'uint32',
            name: 'epochId',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'epochDuration',
            type: 'uint32',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
        ],
        indexed: false,
        internalType: 'struct IConsensusRegistry.EpochInfo',
        name: 'epoch',
        type: 'tuple',
      },
    ],
    name: 'NewEpoch',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        internalType: 'uint16',
        name: 'oldSize',
        type: 'uint16',
      },
      {
        indexed: false,
        internalType: 'uint16',
        name: 'newSize',
        type: 'uint16',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'numActiveValidators',
        type: 'uint256',
      },
    ],
    name: 'NextCommitteeSizeUpdated',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'previousOwner',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'newOwner',
        type: 'address',
      },
    ],
    name: 'OwnershipTransferred',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        internalType: 'address',
        name: 'account',
        type: 'address',
      },
    ],
    name: 'Paused',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'recipient',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'amount',
        type: 'uint256',
      },
    ],
    name: 'RefundClaimed',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'claimant',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'rewards',
        type: 'uint256',
      },
    ],
    name: 'RewardsClaimed',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'StakeVersionChangeCanceled',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint8',
        name: 'targetVersion',
        type: 'uint8',
      },
      {
        indexed: false,
        internalType: 'uint32',
        name: 'requestEpoch',
        type: 'uint32',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'escrow',
        type: 'uint256',
      },
    ],
    name: 'StakeVersionChangeRequested',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        internalType: 'bool',
        name: 'required',
        type: 'bool',
      },
    ],
    name: 'TopUpAuthorityRequirementUpdated',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'from',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
    ],
    name: 'Transfer',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        internalType: 'address',
        name: 'account',
        type: 'address',
      },
    ],
    name: 'Unpaused',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        name: 'validator',
        type: 'tuple',
      },
    ],
    name: 'ValidatorActivated',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        name: 'validator',
        type: 'tuple',
      },
    ],
    name: 'ValidatorExited',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        name: 'validator',
        type: 'tuple',
      },
    ],
    name: 'ValidatorPendingActivation',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        name: 'validator',
        type: 'tuple',
      },
    ],
    name: 'ValidatorPendingExit',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint8',
        name: 'region',
        type: 'uint8',
      },
    ],
    name: 'ValidatorRegionUpdated',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        name: 'validator',
        type: 'tuple',
      },
    ],
    name: 'ValidatorRetired',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: false,
        internalType: 'uint256',
        name: 'eligibleValidatorCount',
        type: 'uint256',
      },
    ],
    name: 'ValidatorSetsMigrated',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint256',
            name: 'amount',
            type: 'uint256',
          },
        ],
        indexed: false,
        internalType: 'struct Slash',
        name: 'slash',
        type: 'tuple',
      },
    ],
    name: 'ValidatorSlashed',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        name: 'validator',
        type: 'tuple',
      },
    ],
    name: 'ValidatorStaked',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'amount',
        type: 'uint256',
      },
    ],
    name: 'ValidatorStakeToppedUp',
    type: 'event',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint8',
        name: 'oldVersion',
        type: 'uint8',
      },
      {
        indexed: false,
        internalType: 'uint8',
        name: 'newVersion',
        type: 'uint8',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'oldStakeAmount',
        type: 'uint256',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'newStakeAmount',
        type: 'uint256',
      },
    ],
    name: 'ValidatorStakeVersionUpgraded',
    type: 'event',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'AlreadyDefined',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'BlsPubkeyNotFound',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'CommitteeRequirement',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'deadline',
        type: 'uint256',
      },
    ],
    name: 'DelegationExpired',
    type: 'error',
  },
  {
    inputs: [],
    name: 'DuplicateBLSPubkey',
    type: 'error',
  },
  {
    inputs: [],
    name: 'EnforcedPause',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'operator',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
    ],
    name: 'ERC721InsufficientApproval',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'approver',
        type: 'address',
      },
    ],
    name: 'ERC721InvalidApprover',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'owner',
        type: 'address',
      },
    ],
    name: 'ERC721InvalidOwner',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'receiver',
        type: 'address',
      },
    ],
    name: 'ERC721InvalidReceiver',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'sender',
        type: 'address',
      },
    ],
    name: 'ERC721InvalidSender',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
    ],
    name: 'ERC721NonexistentToken',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'owner',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'index',
        type: 'uint256',
      },
    ],
    name: 'ERC721OutOfBoundsIndex',
    type: 'error',
  },
  {
    inputs: [],
    name: 'ExpectedPause',
    type: 'error',
  },
  {
    inputs: [
      {
        components: [
          {
            internalType: 'address',
            name: 'validatorAddress',
            type: 'address',
          },
          {
            internalType: 'uint32',
            name: 'activationEpoch',
            type: 'uint32',
          },
          {
            internalType: 'uint32',
            name: 'exitEpoch',
            type: 'uint32',
          },
          {
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
            name: 'currentStatus',
            type: 'uint8',
          },
          {
            internalType: 'bool',
            name: 'isRetired',
            type: 'bool',
          },
          {
            internalType: 'uint8',
            name: 'stakeVersion',
            type: 'uint8',
          },
          {
            internalType: 'uint8',
            name: 'region',
            type: 'uint8',
          },
        ],
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        name: 'validator',
        type: 'tuple',
      },
    ],
    name: 'IneligibleUnstake',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'available',
        type: 'uint256',
      },
      {
        internalType: 'uint256',
        name: 'required',
        type: 'uint256',
      },
    ],
    name: 'InsufficientBalance',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'withdrawAmount',
        type: 'uint256',
      },
    ],
    name: 'InsufficientRewards',
    type: 'error',
  },
  {
    inputs: [],
    name: 'InvalidBLSPubkey',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'minCommitteeSize',
        type: 'uint256',
      },
      {
        internalType: 'uint256',
        name: 'providedCommitteeSize',
        type: 'uint256',
      },
    ],
    name: 'InvalidCommitteeSize',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
      {
        internalType: 'uint8',
        name: 'stakeVersion',
        type: 'uint8',
      },
    ],
    name: 'InvalidDeficitAmount',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint32',
        name: 'duration',
        type: 'uint32',
      },
    ],
    name: 'InvalidDuration',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint32',
        name: 'epoch',
        type: 'uint32',
      },
    ],
    name: 'InvalidEpoch',
    type: 'error',
  },
  {
    inputs: [
      {
        components: [
          {
            internalType: 'bytes',
            name: 'signature',
            type: 'bytes',
          },
        ],
        internalType: 'struct IStakeManager.ProofOfPossession',
        name: 'proof',
        type: 'tuple',
      },
    ],
    name: 'InvalidProofOfPossession',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'stakeAmount',
        type: 'uint256',
      },
    ],
    name: 'InvalidStakeAmount',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint8',
        name: 'currentVersion',
        type: 'uint8',
      },
      {
        internalType: 'uint8',
        name: 'targetVersion',
        type: 'uint8',
      },
    ],
    name: 'InvalidStakeVersion',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'enum IConsensusRegistry.ValidatorStatus',
        name: 'status',
        type: 'uint8',
      },
    ],
    name: 'InvalidStatus',
    type: 'error',
  },
  {
    inputs: [],
    name: 'InvalidSupply',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'tokenId',
        type: 'uint256',
      },
    ],
    name: 'InvalidTokenId',
    type: 'error',
  },
  {
    inputs: [],
    name: 'IssuanceTransferFailed',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'bytes',
        name: 'err',
        type: 'bytes',
      },
    ],
    name: 'LowLevelCallFailure',
    type: 'error',
  },
  {
    inputs: [],
    name: 'NoClaimableRefund',
    type: 'error',
  },
  {
    inputs: [],
    name: 'NoPendingVersionChange',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'recipient',
        type: 'address',
      },
    ],
    name: 'NotRecipient',
    type: 'error',
  },
  {
    inputs: [],
    name: 'NotTransferable',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
    ],
    name: 'NotValidator',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'invalidCaller',
        type: 'address',
      },
    ],
    name: 'OnlySystemCall',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'owner',
        type: 'address',
      },
    ],
    name: 'OwnableInvalidOwner',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'account',
        type: 'address',
      },
    ],
    name: 'OwnableUnauthorizedAccount',
    type: 'error',
  },
  {
    inputs: [],
    name: 'Reentrancy',
    type: 'error',
  },
  {
    inputs: [],
    name: 'RequiresConsensusNFT',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'validatorAddress',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'balance',
        type: 'uint256',
      },
      {
        internalType: 'uint8',
        name: 'stakeVersion',
        type: 'uint8',
      },
    ],
    name: 'StakeNotSlashed',
    type: 'error',
  },
  {
    inputs: [
      {
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
      {
        internalType: 'uint256',
        name: 'length',
        type: 'uint256',
      },
    ],
    name: 'StringsInsufficientHexLength',
    type: 'error',
  },
  {
    inputs: [],
    name: 'TopUpAuthorityRequired',
    type: 'error',
  },
] as const
