// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.28;

/// @notice Shapes of the Telcoin Network registry (ConsensusRegistry at 0x07e1…07e1), as the
/// specification and the reference contract define them. Docs: docs/devnet-chain.md.
interface IConsensusRegistry {
    /// Undefined: whitelisted (holds a ConsensusNFT) but not staked. `Any` is a query value only.
    enum ValidatorStatus {
        Undefined,
        Staked,
        PendingActivation,
        Active,
        PendingExit,
        Exited,
        Any
    }

    struct ValidatorInfo {
        address validatorAddress;
        uint32 activationEpoch;
        uint32 exitEpoch;
        ValidatorStatus currentStatus;
        bool isRetired;
        uint8 stakeVersion;
        uint8 region;
    }

    struct EpochInfo {
        address[] committee;
        uint256 epochIssuance;
        uint64 blockHeight;
        uint32 epochId;
        uint32 epochDuration;
        uint8 stakeVersion;
    }

    /// @dev On the devnet `epochDuration` counts blocks.
    struct StakeConfig {
        uint256 stakeAmount;
        uint256 minWithdrawAmount;
        uint256 epochIssuance;
        uint32 epochDuration;
    }

    struct ProofOfPossession {
        bytes signature;
    }

    /// A validator registered by `initialize` (devnet genesis), already Active at epoch 0.
    struct GenesisValidator {
        address validatorAddress;
        bytes blsPubkey;
        ProofOfPossession proofOfPossession;
    }

    // ---- errors of the reference (facts page) ----
    error InvalidTokenId(uint256 tokenId);
    error InvalidStatus(ValidatorStatus status);
    error InvalidStakeAmount(uint256 stakeAmount);
    error InvalidProofOfPossession(ProofOfPossession proofOfPossession);
    error DuplicateBLSPubkey();
    error InvalidBLSPubkey();
    error IneligibleUnstake(ValidatorInfo validator);
    error NotRecipient(address caller);
    error InsufficientRewards(uint256 rewards);
    error RequiresConsensusNFT();
    error AlreadyDefined(address validatorAddress);
    error BlsPubkeyNotFound(address validatorAddress);
    // ---- errors of the specification ----
    error DelegationExpired(uint256 deadline);
    // ---- devnet errors for cases the spec and the facts leave unnamed ----
    error InvalidDelegationSignature(address validatorAddress);
    error AddressRetired(address validatorAddress);
    error NotTransferable();
    error OnlyOwner(address caller);
    error OnlySystemCall(address caller);
    error InvalidEpoch(uint32 epoch);
    error InvalidStakeVersion(uint8 version);
    error InvalidStakeConfig();
    error RewardsBelowMinimum(uint256 rewards, uint256 minWithdrawAmount);
    error NoRefund(address account);
    error TransferFailed(address recipient, uint256 amount);
    error UnexpectedTransfer(address sender);
    error AlreadyInitialized();
    error GenesisValidatorsRequired();
    error Reentrancy();

    // ---- events of the reference (facts page) ----
    event ValidatorStaked(ValidatorInfo validator);
    event ValidatorPendingActivation(ValidatorInfo validator);
    event ValidatorActivated(ValidatorInfo validator);
    event ValidatorPendingExit(ValidatorInfo validator);
    event ValidatorExited(ValidatorInfo validator);
    event ValidatorRetired(ValidatorInfo validator);
    event NewEpoch(EpochInfo epoch);
    event RewardsClaimed(address indexed claimant, uint256 rewards);
    // ---- devnet events ----
    event StakeConfigWritten(uint8 indexed version, StakeConfig config);
    event RewardsForfeited(address indexed validatorAddress, uint256 shortfall);
    event RefundCredited(address indexed recipient, uint256 amount);
    event RefundClaimed(address indexed recipient, uint256 amount);
    event DelegationNonceIncreased(address indexed validatorAddress, uint64 nonce);
    /// ERC-721 Transfer for ConsensusNFT mint (from 0) and retirement burn (to 0).
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
}

interface IBlsVerifier {
    function blsVerify(bytes calldata signature, bytes calldata pubkey, bytes calldata message)
        external
        view
        returns (bool);
}

interface IIssuance {
    function distributeStakeReward(uint256 amount) external;
}
