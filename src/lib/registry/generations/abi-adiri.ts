/**
 * ConsensusRegistry ABI of the "adiri" generation, generated from networks/abi/consensus-registry-adiri.json
 * by scripts/gen-registry-abis.mjs (npm run gen:abi). Do not edit by hand.
 */

export const adiriRegistryAbi = [
  {
    type: 'function',
    name: 'SYSTEM_ADDRESS',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'address',
        internalType: 'address',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'activate',
    inputs: [],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'allocateIssuance',
    inputs: [],
    outputs: [],
    stateMutability: 'payable',
  },
  {
    type: 'function',
    name: 'applyIncentives',
    inputs: [
      {
        name: 'rewardInfos',
        type: 'tuple[]',
        internalType: 'struct RewardInfo[]',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'consensusHeaderCount',
            type: 'uint256',
            internalType: 'uint256',
          },
        ],
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'applySlashes',
    inputs: [
      {
        name: 'slashes',
        type: 'tuple[]',
        internalType: 'struct Slash[]',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'amount',
            type: 'uint256',
            internalType: 'uint256',
          },
        ],
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'approve',
    inputs: [
      {
        name: '',
        type: 'address',
        internalType: 'address',
      },
      {
        name: '',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'balanceOf',
    inputs: [
      {
        name: 'owner',
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
    type: 'function',
    name: 'beginExit',
    inputs: [],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'burn',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'claimStakeRewards',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'concludeEpoch',
    inputs: [
      {
        name: 'futureCommittee',
        type: 'address[]',
        internalType: 'address[]',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'delegateStake',
    inputs: [
      {
        name: 'blsPubkey',
        type: 'bytes',
        internalType: 'bytes',
      },
      {
        name: 'proofOfPossession',
        type: 'tuple',
        internalType: 'struct BlsG1.ProofOfPossession',
        components: [
          {
            name: 'uncompressedPubkey',
            type: 'bytes',
            internalType: 'bytes',
          },
          {
            name: 'uncompressedSignature',
            type: 'bytes',
            internalType: 'bytes',
          },
        ],
      },
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'validatorEIP712Signature',
        type: 'bytes',
        internalType: 'bytes',
      },
    ],
    outputs: [],
    stateMutability: 'payable',
  },
  {
    type: 'function',
    name: 'delegationDigest',
    inputs: [
      {
        name: 'blsPubkey',
        type: 'bytes',
        internalType: 'bytes',
      },
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'delegator',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'bytes32',
        internalType: 'bytes32',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'eip712Domain',
    inputs: [],
    outputs: [
      {
        name: 'fields',
        type: 'bytes1',
        internalType: 'bytes1',
      },
      {
        name: 'name',
        type: 'string',
        internalType: 'string',
      },
      {
        name: 'version',
        type: 'string',
        internalType: 'string',
      },
      {
        name: 'chainId',
        type: 'uint256',
        internalType: 'uint256',
      },
      {
        name: 'verifyingContract',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'salt',
        type: 'bytes32',
        internalType: 'bytes32',
      },
      {
        name: 'extensions',
        type: 'uint256[]',
        internalType: 'uint256[]',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'epochInfo',
    inputs: [
      {
        name: '',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    outputs: [
      {
        name: 'epochIssuance',
        type: 'uint256',
        internalType: 'uint256',
      },
      {
        name: 'blockHeight',
        type: 'uint64',
        internalType: 'uint64',
      },
      {
        name: 'epochId',
        type: 'uint32',
        internalType: 'uint32',
      },
      {
        name: 'epochDuration',
        type: 'uint32',
        internalType: 'uint32',
      },
      {
        name: 'stakeVersion',
        type: 'uint8',
        internalType: 'uint8',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'futureEpochInfo',
    inputs: [
      {
        name: '',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    outputs: [
      {
        name: 'epochIssuance',
        type: 'uint256',
        internalType: 'uint256',
      },
      {
        name: 'blockHeight',
        type: 'uint64',
        internalType: 'uint64',
      },
      {
        name: 'epochId',
        type: 'uint32',
        internalType: 'uint32',
      },
      {
        name: 'epochDuration',
        type: 'uint32',
        internalType: 'uint32',
      },
      {
        name: 'stakeVersion',
        type: 'uint8',
        internalType: 'uint8',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getApproved',
    inputs: [
      {
        name: 'tokenId',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'address',
        internalType: 'address',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getBalanceBreakdown',
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
      {
        name: '',
        type: 'uint256',
        internalType: 'uint256',
      },
      {
        name: '',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getBlsPubkey',
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
        type: 'bytes',
        internalType: 'bytes',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getCommitteeBlsPubkeys',
    inputs: [
      {
        name: 'epoch',
        type: 'uint32',
        internalType: 'uint32',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'bytes[]',
        internalType: 'bytes[]',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getCommitteeValidators',
    inputs: [
      {
        name: 'epoch',
        type: 'uint32',
        internalType: 'uint32',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'tuple[]',
        internalType: 'struct IConsensusRegistry.ValidatorInfo[]',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getCurrentEpoch',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'uint32',
        internalType: 'uint32',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getCurrentEpochInfo',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'tuple',
        internalType: 'struct IConsensusRegistry.EpochInfo',
        components: [
          {
            name: 'committee',
            type: 'address[]',
            internalType: 'address[]',
          },
          {
            name: 'epochIssuance',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'blockHeight',
            type: 'uint64',
            internalType: 'uint64',
          },
          {
            name: 'epochId',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'epochDuration',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getCurrentStakeConfig',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'tuple',
        internalType: 'struct IStakeManager.StakeConfig',
        components: [
          {
            name: 'stakeAmount',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'minWithdrawAmount',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'epochIssuance',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'epochDuration',
            type: 'uint32',
            internalType: 'uint32',
          },
        ],
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getCurrentStakeVersion',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'uint8',
        internalType: 'uint8',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getEpochInfo',
    inputs: [
      {
        name: 'epoch',
        type: 'uint32',
        internalType: 'uint32',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'tuple',
        internalType: 'struct IConsensusRegistry.EpochInfo',
        components: [
          {
            name: 'committee',
            type: 'address[]',
            internalType: 'address[]',
          },
          {
            name: 'epochIssuance',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'blockHeight',
            type: 'uint64',
            internalType: 'uint64',
          },
          {
            name: 'epochId',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'epochDuration',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getNextCommitteeSize',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'uint16',
        internalType: 'uint16',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getRewards',
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
    type: 'function',
    name: 'getValidator',
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
        type: 'tuple',
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'getValidators',
    inputs: [
      {
        name: 'status',
        type: 'uint8',
        internalType: 'enum IConsensusRegistry.ValidatorStatus',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'tuple[]',
        internalType: 'struct IConsensusRegistry.ValidatorInfo[]',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'isApprovedForAll',
    inputs: [
      {
        name: 'owner',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'operator',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'bool',
        internalType: 'bool',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'isDelegated',
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
        type: 'bool',
        internalType: 'bool',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'isRetired',
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
        type: 'bool',
        internalType: 'bool',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'isValidator',
    inputs: [
      {
        name: 'blsPubkey',
        type: 'bytes',
        internalType: 'bytes',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'bool',
        internalType: 'bool',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'issuance',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'address',
        internalType: 'address payable',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'mint',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'name',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'string',
        internalType: 'string',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'owner',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'address',
        internalType: 'address',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'ownerOf',
    inputs: [
      {
        name: 'tokenId',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'address',
        internalType: 'address',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'pause',
    inputs: [],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'paused',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'bool',
        internalType: 'bool',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'proofOfPossessionMessage',
    inputs: [
      {
        name: 'blsPubkeyUncompressed',
        type: 'bytes',
        internalType: 'bytes',
      },
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'bytes',
        internalType: 'bytes',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'renounceOwnership',
    inputs: [],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'safeTransferFrom',
    inputs: [
      {
        name: 'from',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'to',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'tokenId',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'safeTransferFrom',
    inputs: [
      {
        name: 'from',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'to',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'tokenId',
        type: 'uint256',
        internalType: 'uint256',
      },
      {
        name: 'data',
        type: 'bytes',
        internalType: 'bytes',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'setApprovalForAll',
    inputs: [
      {
        name: '',
        type: 'address',
        internalType: 'address',
      },
      {
        name: '',
        type: 'bool',
        internalType: 'bool',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'setNextCommitteeSize',
    inputs: [
      {
        name: 'newSize',
        type: 'uint16',
        internalType: 'uint16',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'setValidatorRegion',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'region',
        type: 'uint8',
        internalType: 'uint8',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'stake',
    inputs: [
      {
        name: 'blsPubkey',
        type: 'bytes',
        internalType: 'bytes',
      },
      {
        name: 'proofOfPossession',
        type: 'tuple',
        internalType: 'struct BlsG1.ProofOfPossession',
        components: [
          {
            name: 'uncompressedPubkey',
            type: 'bytes',
            internalType: 'bytes',
          },
          {
            name: 'uncompressedSignature',
            type: 'bytes',
            internalType: 'bytes',
          },
        ],
      },
    ],
    outputs: [],
    stateMutability: 'payable',
  },
  {
    type: 'function',
    name: 'stakeConfig',
    inputs: [
      {
        name: 'version',
        type: 'uint8',
        internalType: 'uint8',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'tuple',
        internalType: 'struct IStakeManager.StakeConfig',
        components: [
          {
            name: 'stakeAmount',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'minWithdrawAmount',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'epochIssuance',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'epochDuration',
            type: 'uint32',
            internalType: 'uint32',
          },
        ],
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'supportsInterface',
    inputs: [
      {
        name: 'interfaceId',
        type: 'bytes4',
        internalType: 'bytes4',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'bool',
        internalType: 'bool',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'symbol',
    inputs: [],
    outputs: [
      {
        name: '',
        type: 'string',
        internalType: 'string',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'tokenByIndex',
    inputs: [
      {
        name: 'index',
        type: 'uint256',
        internalType: 'uint256',
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
    type: 'function',
    name: 'tokenOfOwnerByIndex',
    inputs: [
      {
        name: 'owner',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'index',
        type: 'uint256',
        internalType: 'uint256',
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
    type: 'function',
    name: 'tokenURI',
    inputs: [
      {
        name: 'tokenId',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    outputs: [
      {
        name: '',
        type: 'string',
        internalType: 'string',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'totalSupply',
    inputs: [],
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
    type: 'function',
    name: 'transferFrom',
    inputs: [
      {
        name: '',
        type: 'address',
        internalType: 'address',
      },
      {
        name: '',
        type: 'address',
        internalType: 'address',
      },
      {
        name: '',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'transferOwnership',
    inputs: [
      {
        name: 'newOwner',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'undistributedIssuance',
    inputs: [],
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
    type: 'function',
    name: 'unpause',
    inputs: [],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'unstake',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'upgradeStakeVersion',
    inputs: [
      {
        name: 'newConfig',
        type: 'tuple',
        internalType: 'struct IStakeManager.StakeConfig',
        components: [
          {
            name: 'stakeAmount',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'minWithdrawAmount',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'epochIssuance',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'epochDuration',
            type: 'uint32',
            internalType: 'uint32',
          },
        ],
      },
    ],
    outputs: [
      {
        name: '',
        type: 'uint8',
        internalType: 'uint8',
      },
    ],
    stateMutability: 'nonpayable',
  },
  {
    type: 'function',
    name: 'upgradeValidatorStakeVersion',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'targetVersion',
        type: 'uint8',
        internalType: 'uint8',
      },
    ],
    outputs: [],
    stateMutability: 'payable',
  },
  {
    type: 'function',
    name: 'validators',
    inputs: [
      {
        name: '',
        type: 'address',
        internalType: 'address',
      },
    ],
    outputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'activationEpoch',
        type: 'uint32',
        internalType: 'uint32',
      },
      {
        name: 'exitEpoch',
        type: 'uint32',
        internalType: 'uint32',
      },
      {
        name: 'currentStatus',
        type: 'uint8',
        internalType: 'enum IConsensusRegistry.ValidatorStatus',
      },
      {
        name: 'isRetired',
        type: 'bool',
        internalType: 'bool',
      },
      {
        name: 'stakeVersion',
        type: 'uint8',
        internalType: 'uint8',
      },
      {
        name: 'region',
        type: 'uint8',
        internalType: 'uint8',
      },
    ],
    stateMutability: 'view',
  },
  {
    type: 'event',
    name: 'Approval',
    inputs: [
      {
        name: 'owner',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'approved',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'tokenId',
        type: 'uint256',
        indexed: true,
        internalType: 'uint256',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ApprovalForAll',
    inputs: [
      {
        name: 'owner',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'operator',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'approved',
        type: 'bool',
        indexed: false,
        internalType: 'bool',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'NewEpoch',
    inputs: [
      {
        name: 'epoch',
        type: 'tuple',
        indexed: false,
        internalType: 'struct IConsensusRegistry.EpochInfo',
        components: [
          {
            name: 'committee',
            type: 'address[]',
            internalType: 'address[]',
          },
          {
            name: 'epochIssuance',
            type: 'uint256',
            internalType: 'uint256',
          },
          {
            name: 'blockHeight',
            type: 'uint64',
            internalType: 'uint64',
          },
          {
            name: 'epochId',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'epochDuration',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'NextCommitteeSizeUpdated',
    inputs: [
      {
        name: 'oldSize',
        type: 'uint16',
        indexed: false,
        internalType: 'uint16',
      },
      {
        name: 'newSize',
        type: 'uint16',
        indexed: false,
        internalType: 'uint16',
      },
      {
        name: 'numActiveValidators',
        type: 'uint256',
        indexed: false,
        internalType: 'uint256',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'OwnershipTransferred',
    inputs: [
      {
        name: 'previousOwner',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'newOwner',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'Paused',
    inputs: [
      {
        name: 'account',
        type: 'address',
        indexed: false,
        internalType: 'address',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'RewardsClaimed',
    inputs: [
      {
        name: 'claimant',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'rewards',
        type: 'uint256',
        indexed: false,
        internalType: 'uint256',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'Transfer',
    inputs: [
      {
        name: 'from',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'to',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'tokenId',
        type: 'uint256',
        indexed: true,
        internalType: 'uint256',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'Unpaused',
    inputs: [
      {
        name: 'account',
        type: 'address',
        indexed: false,
        internalType: 'address',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ValidatorActivated',
    inputs: [
      {
        name: 'validator',
        type: 'tuple',
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ValidatorExited',
    inputs: [
      {
        name: 'validator',
        type: 'tuple',
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ValidatorPendingActivation',
    inputs: [
      {
        name: 'validator',
        type: 'tuple',
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ValidatorPendingExit',
    inputs: [
      {
        name: 'validator',
        type: 'tuple',
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ValidatorRegionUpdated',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'region',
        type: 'uint8',
        indexed: false,
        internalType: 'uint8',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ValidatorRetired',
    inputs: [
      {
        name: 'validator',
        type: 'tuple',
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ValidatorSlashed',
    inputs: [
      {
        name: 'slash',
        type: 'tuple',
        indexed: false,
        internalType: 'struct Slash',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'amount',
            type: 'uint256',
            internalType: 'uint256',
          },
        ],
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ValidatorStakeVersionUpgraded',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        indexed: true,
        internalType: 'address',
      },
      {
        name: 'oldVersion',
        type: 'uint8',
        indexed: false,
        internalType: 'uint8',
      },
      {
        name: 'newVersion',
        type: 'uint8',
        indexed: false,
        internalType: 'uint8',
      },
      {
        name: 'oldStakeAmount',
        type: 'uint256',
        indexed: false,
        internalType: 'uint256',
      },
      {
        name: 'newStakeAmount',
        type: 'uint256',
        indexed: false,
        internalType: 'uint256',
      },
    ],
    anonymous: false,
  },
  {
    type: 'event',
    name: 'ValidatorStaked',
    inputs: [
      {
        name: 'validator',
        type: 'tuple',
        indexed: false,
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
    anonymous: false,
  },
  {
    type: 'error',
    name: 'AlreadyDefined',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'BlsPubkeyNotFound',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'CommitteeRequirement',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'DuplicateBLSPubkey',
    inputs: [],
  },
  {
    type: 'error',
    name: 'ERC721EnumerableForbiddenBatchMint',
    inputs: [],
  },
  {
    type: 'error',
    name: 'ERC721IncorrectOwner',
    inputs: [
      {
        name: 'sender',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'tokenId',
        type: 'uint256',
        internalType: 'uint256',
      },
      {
        name: 'owner',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'ERC721InsufficientApproval',
    inputs: [
      {
        name: 'operator',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'tokenId',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'ERC721InvalidApprover',
    inputs: [
      {
        name: 'approver',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'ERC721InvalidOperator',
    inputs: [
      {
        name: 'operator',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'ERC721InvalidOwner',
    inputs: [
      {
        name: 'owner',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'ERC721InvalidReceiver',
    inputs: [
      {
        name: 'receiver',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'ERC721InvalidSender',
    inputs: [
      {
        name: 'sender',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'ERC721NonexistentToken',
    inputs: [
      {
        name: 'tokenId',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'ERC721OutOfBoundsIndex',
    inputs: [
      {
        name: 'owner',
        type: 'address',
        internalType: 'address',
      },
      {
        name: 'index',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'EnforcedPause',
    inputs: [],
  },
  {
    type: 'error',
    name: 'ExpectedPause',
    inputs: [],
  },
  {
    type: 'error',
    name: 'GenesisArityMismatch',
    inputs: [],
  },
  {
    type: 'error',
    name: 'IneligibleUnstake',
    inputs: [
      {
        name: 'validator',
        type: 'tuple',
        internalType: 'struct IConsensusRegistry.ValidatorInfo',
        components: [
          {
            name: 'validatorAddress',
            type: 'address',
            internalType: 'address',
          },
          {
            name: 'activationEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'exitEpoch',
            type: 'uint32',
            internalType: 'uint32',
          },
          {
            name: 'currentStatus',
            type: 'uint8',
            internalType: 'enum IConsensusRegistry.ValidatorStatus',
          },
          {
            name: 'isRetired',
            type: 'bool',
            internalType: 'bool',
          },
          {
            name: 'stakeVersion',
            type: 'uint8',
            internalType: 'uint8',
          },
          {
            name: 'region',
            type: 'uint8',
            internalType: 'uint8',
          },
        ],
      },
    ],
  },
  {
    type: 'error',
    name: 'InsufficientRewards',
    inputs: [
      {
        name: 'withdrawAmount',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidBLSPubkey',
    inputs: [],
  },
  {
    type: 'error',
    name: 'InvalidCommitteeSize',
    inputs: [
      {
        name: 'minCommitteeSize',
        type: 'uint256',
        internalType: 'uint256',
      },
      {
        name: 'providedCommitteeSize',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidDuration',
    inputs: [
      {
        name: 'duration',
        type: 'uint32',
        internalType: 'uint32',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidEpoch',
    inputs: [
      {
        name: 'epoch',
        type: 'uint32',
        internalType: 'uint32',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidProofOfPossession',
    inputs: [
      {
        name: 'proof',
        type: 'tuple',
        internalType: 'struct BlsG1.ProofOfPossession',
        components: [
          {
            name: 'uncompressedPubkey',
            type: 'bytes',
            internalType: 'bytes',
          },
          {
            name: 'uncompressedSignature',
            type: 'bytes',
            internalType: 'bytes',
          },
        ],
      },
      {
        name: 'message',
        type: 'bytes',
        internalType: 'bytes',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidStakeAmount',
    inputs: [
      {
        name: 'stakeAmount',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidStakeVersion',
    inputs: [
      {
        name: 'currentVersion',
        type: 'uint8',
        internalType: 'uint8',
      },
      {
        name: 'targetVersion',
        type: 'uint8',
        internalType: 'uint8',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidStatus',
    inputs: [
      {
        name: 'status',
        type: 'uint8',
        internalType: 'enum IConsensusRegistry.ValidatorStatus',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidSupply',
    inputs: [],
  },
  {
    type: 'error',
    name: 'InvalidTokenId',
    inputs: [
      {
        name: 'tokenId',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidValidatorAddress',
    inputs: [],
  },
  {
    type: 'error',
    name: 'IssuanceTransferFailed',
    inputs: [],
  },
  {
    type: 'error',
    name: 'NotRecipient',
    inputs: [
      {
        name: 'recipient',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'NotTransferable',
    inputs: [],
  },
  {
    type: 'error',
    name: 'NotValidator',
    inputs: [
      {
        name: 'validatorAddress',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'OnlySystemCall',
    inputs: [
      {
        name: 'invalidCaller',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'OwnableInvalidOwner',
    inputs: [
      {
        name: 'owner',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'OwnableUnauthorizedAccount',
    inputs: [
      {
        name: 'account',
        type: 'address',
        internalType: 'address',
      },
    ],
  },
  {
    type: 'error',
    name: 'Reentrancy',
    inputs: [],
  },
  {
    type: 'error',
    name: 'RequiresConsensusNFT',
    inputs: [],
  },
  {
    type: 'error',
    name: 'StringsInsufficientHexLength',
    inputs: [
      {
        name: 'value',
        type: 'uint256',
        internalType: 'uint256',
      },
      {
        name: 'length',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'CountTooLarge',
    inputs: [
      {
        name: 'count',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'DSTTooLong',
    inputs: [
      {
        name: 'dstLen',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'EllTooLarge',
    inputs: [
      {
        name: 'ell',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'I2OSPIntegerTooLarge',
    inputs: [
      {
        name: 'i2ospInteger',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidBLSProof',
    inputs: [],
  },
  {
    type: 'error',
    name: 'InvalidFpOffset',
    inputs: [],
  },
  {
    type: 'error',
    name: 'InvalidPadding',
    inputs: [],
  },
  {
    type: 'error',
    name: 'InvalidPoint',
    inputs: [
      {
        name: 'actualLen',
        type: 'uint256',
        internalType: 'uint256',
      },
      {
        name: 'expectedLen',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'InvalidUncompressedBLSPubkey',
    inputs: [],
  },
  {
    type: 'error',
    name: 'LengthTooLarge',
    inputs: [
      {
        name: 'len',
        type: 'uint256',
        internalType: 'uint256',
      },
    ],
  },
  {
    type: 'error',
    name: 'LowLevelCallFailure',
    inputs: [
      {
        name: 'err',
        type: 'bytes',
        internalType: 'bytes',
      },
    ],
  },
] as const
