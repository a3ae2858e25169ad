// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.28;

import {ConsensusNFT} from "./ConsensusNFT.sol";
import {IBlsVerifier, IIssuance} from "./IConsensusRegistry.sol";

/// @title ConsensusRegistry: validator staking, committees and epochs of the devnet.
/// @notice Implements the registry of docs/devnet-chain.md at 0x07e1…07e1: governance whitelists
/// with `mint`, validators `stake` (or a delegator `delegateStake`s with the validator's EIP-712
/// signature), `activate`, `beginExit` and `unstake`; the protocol (the system address) calls
/// `concludeEpoch` at each epoch boundary, which activates, selects the committee two epochs
/// ahead, completes exits and credits rewards from the Issuance pool.
/// @dev Installed with anvil_setCode (no constructor runs): the installer writes `owner` into its
/// storage slot and the owner calls `initialize` once.
contract ConsensusRegistry is ConsensusNFT {
    address public constant ISSUANCE = 0x07A07A07A07A07a07A07A07a07a07A07a07a07A0;
    address public constant BLS_VERIFIER = 0x000000000000000000000000000000000000B151;

    bytes32 public constant DELEGATION_TYPEHASH = keccak256(
        "Delegation(bytes32 blsPubkeyHash,address validatorAddress,address delegator,uint8 stakeVersion,uint64 nonce,uint256 deadline)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant DOMAIN_NAME_HASH = keccak256("ConsensusRegistry");
    bytes32 private constant DOMAIN_VERSION_HASH = keccak256("1");
    /// secp256k1n / 2: signatures with a larger s are malleable copies and are rejected.
    uint256 private constant SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;
    uint32 private constant MIN_EPOCH_DURATION = 2;

    /// @notice Governance: mints ConsensusNFTs and writes stake configs.
    address public owner;
    /// @notice The protocol's system address, the only caller of `concludeEpoch`.
    address public systemAddress;
    bool public initialized;

    uint32 internal currentEpoch;
    uint8 internal latestStakeVersion;
    /// @notice Issuance left over by the equal split (carried into the next epoch's rewards).
    uint256 public undistributedIssuance;

    mapping(uint8 => StakeConfig) internal stakeConfigs;
    mapping(uint32 => EpochInfo) internal epochs;
    mapping(address => ValidatorInfo) internal validators;
    mapping(address => bytes) internal blsPubkeys;
    mapping(bytes32 => address) internal blsPubkeyOwners;
    mapping(address => uint256) internal stakeBalances;
    mapping(address => uint256) internal rewards;
    mapping(address => address) internal delegators;
    /// @notice The validator's delegation nonce, bound into `delegationDigest`.
    mapping(address => uint64) public delegationNonce;
    /// @notice Amounts credited after a rejected transfer; withdrawn with `claimRefund()`.
    mapping(address => uint256) public refunds;
    /// Every address ever whitelisted, in mint order.
    address[] internal validatorList;

    bool transient locked;

    modifier onlyOwner() {
        if (msg.sender != owner) revert OnlyOwner(msg.sender);
        _;
    }

    modifier onlySystemCall() {
        if (msg.sender != systemAddress) revert OnlySystemCall(msg.sender);
        _;
    }

    modifier nonReentrant() {
        if (locked) revert Reentrancy();
        locked = true;
        _;
        locked = false;
    }

    /// @notice The registry only accepts TEL from the Issuance pool (rewards on their way to a claimant).
    receive() external payable {
        if (msg.sender != ISSUANCE) revert UnexpectedTransfer(msg.sender);
    }

    // ------------------------------------------------------------------ genesis and governance

    /// @notice One-time devnet genesis: stake config version 0, the system address, and the
    /// genesis validators (whitelisted, staked with `msg.value`, PoP checked, Active at epoch 0,
    /// committee of epochs 0, 1 and 2).
    function initialize(StakeConfig calldata config, address system, GenesisValidator[] calldata genesis)
        external
        payable
        onlyOwner
    {
        if (initialized) revert AlreadyInitialized();
        if (genesis.length == 0) revert GenesisValidatorsRequired();
        _checkStakeConfig(config);
        if (msg.value != config.stakeAmount * genesis.length) revert InvalidStakeAmount(msg.value);
        initialized = true;
        systemAddress = system;
        stakeConfigs[0] = config;
        emit StakeConfigWritten(0, config);

        for (uint256 i; i < genesis.length; ++i) {
            GenesisValidator calldata g = genesis[i];
            _mint(g.validatorAddress);
            bytes32 keyHash = _checkNewKey(g.blsPubkey);
            if (!_verifyProofOfPossession(g.blsPubkey, g.proofOfPossession.signature, g.validatorAddress)) {
                revert InvalidProofOfPossession(g.proofOfPossession);
            }
            _recordStake(g.validatorAddress, g.blsPubkey, keyHash, 0, config.stakeAmount, address(0));
            ValidatorInfo storage v = validators[g.validatorAddress];
            v.currentStatus = ValidatorStatus.Active;
            emit ValidatorActivated(v);
        }

        address[] memory committee = _eligibleCommittee();
        for (uint32 e; e < 3; ++e) {
            epochs[e].committee = committee;
            epochs[e].epochId = e;
        }
        EpochInfo storage first = epochs[0];
        first.epochIssuance = config.epochIssuance;
        first.epochDuration = config.epochDuration;
        emit NewEpoch(first);
    }

    /// @notice Whitelists `validatorAddress` (issues its ConsensusNFT). Governance only; a retired
    /// address can never be whitelisted again.
    function mint(address validatorAddress) external onlyOwner {
        _mint(validatorAddress);
    }

    /// @notice Writes the next stake config version. It applies from the next epoch; until then
    /// `getCurrentStakeConfig()` returns it while `getCurrentStakeVersion()` names the current one.
    function setStakeConfig(StakeConfig calldata config) external onlyOwner returns (uint8 version) {
        _checkStakeConfig(config);
        if (latestStakeVersion == type(uint8).max) revert InvalidStakeVersion(latestStakeVersion);
        version = latestStakeVersion + 1;
        stakeConfigs[version] = config;
        latestStakeVersion = version;
        emit StakeConfigWritten(version, config);
    }

    // ------------------------------------------------------------------ protocol

    /// @notice Concludes `epoch` (must be the current one): credits its committee's rewards, starts
    /// epoch + 1 with the newest stake version, activates pending validators, selects the committee
    /// of epoch + 3 and exits pending validators with no committee seat left. System address only.
    function concludeEpoch(uint32 epoch) external onlySystemCall {
        if (epoch != currentEpoch) revert InvalidEpoch(epoch);
        _distributeRewards(epoch);

        uint32 next = epoch + 1;
        currentEpoch = next;
        uint8 version = latestStakeVersion;
        StakeConfig storage config = stakeConfigs[version];
        EpochInfo storage started = epochs[next];
        started.epochIssuance = config.epochIssuance;
        started.blockHeight = uint64(block.number + 1);
        started.epochDuration = config.epochDuration;
        started.stakeVersion = version;

        uint256 count = validatorList.length;
        for (uint256 i; i < count; ++i) {
            ValidatorInfo storage v = validators[validatorList[i]];
            if (v.currentStatus == ValidatorStatus.PendingActivation) {
                v.currentStatus = ValidatorStatus.Active;
                v.activationEpoch = next;
                emit ValidatorActivated(v);
            }
        }

        address[] memory committee = _eligibleCommittee();
        // Committees are never empty: with no eligible validator the last committee serves on.
        if (committee.length == 0) committee = epochs[next + 1].committee;
        EpochInfo storage future = epochs[next + 2];
        future.committee = committee;
        future.epochId = next + 2;

        for (uint256 i; i < count; ++i) {
            address a = validatorList[i];
            ValidatorInfo storage v = validators[a];
            if (
                v.currentStatus == ValidatorStatus.PendingExit && !_inCommittee(a, next)
                    && !_inCommittee(a, next + 1) && !_inCommittee(a, next + 2)
            ) {
                v.currentStatus = ValidatorStatus.Exited;
                v.exitEpoch = next;
                emit ValidatorExited(v);
            }
        }
        emit NewEpoch(started);
    }

    // ------------------------------------------------------------------ validators

    /// @notice Stakes for `msg.sender` (which must hold a ConsensusNFT) with exactly the stake
    /// amount of the current epoch's stake version. The BLS key is registered for good.
    function stake(bytes calldata blsPubkey, ProofOfPossession calldata proofOfPossession) external payable {
        (uint8 version, bytes32 keyHash) = _checkStake(msg.sender, blsPubkey);
        if (!_verifyProofOfPossession(blsPubkey, proofOfPossession.signature, msg.sender)) {
            revert InvalidProofOfPossession(proofOfPossession);
        }
        _recordStake(msg.sender, blsPubkey, keyHash, version, msg.value, address(0));
    }

    /// @notice Stakes for `validatorAddress` with the caller's TEL; the caller becomes the delegator
    /// (receives rewards and the stake back). Needs the validator's EIP-712 signature over
    /// `delegationDigest(blsPubkey, validatorAddress, msg.sender, deadline)`, except when the
    /// caller is the owner.
    function delegateStake(
        bytes calldata blsPubkey,
        ProofOfPossession calldata proofOfPossession,
        address validatorAddress,
        bytes calldata validatorEIP712Signature,
        uint256 deadline
    ) external payable {
        if (block.timestamp > deadline) revert DelegationExpired(deadline);
        (uint8 version, bytes32 keyHash) = _checkStake(validatorAddress, blsPubkey);
        if (msg.sender != owner) {
            bytes32 digest = _delegationDigest(keyHash, validatorAddress, msg.sender, deadline);
            if (_recover(digest, validatorEIP712Signature) != validatorAddress) {
                revert InvalidDelegationSignature(validatorAddress);
            }
        }
        if (!_verifyProofOfPossession(blsPubkey, proofOfPossession.signature, validatorAddress)) {
            revert InvalidProofOfPossession(proofOfPossession);
        }
        uint64 nonce = delegationNonce[validatorAddress] + 1;
        delegationNonce[validatorAddress] = nonce;
        emit DelegationNonceIncreased(validatorAddress, nonce);
        _recordStake(validatorAddress, blsPubkey, keyHash, version, msg.value, msg.sender);
    }

    /// @notice Staked -> PendingActivation; Active from the next epoch boundary. Validator only.
    function activate() external {
        _requireWhitelisted(msg.sender);
        ValidatorInfo storage v = validators[msg.sender];
        if (v.currentStatus != ValidatorStatus.Staked) revert InvalidStatus(v.currentStatus);
        v.currentStatus = ValidatorStatus.PendingActivation;
        v.activationEpoch = currentEpoch + 1;
        emit ValidatorPendingActivation(v);
    }

    /// @notice Active -> PendingExit; the protocol exits the validator once it has no committee
    /// seat in the current and the next two epochs. Validator only.
    function beginExit() external {
        _requireWhitelisted(msg.sender);
        ValidatorInfo storage v = validators[msg.sender];
        if (v.currentStatus != ValidatorStatus.Active) revert InvalidStatus(v.currentStatus);
        v.currentStatus = ValidatorStatus.PendingExit;
        emit ValidatorPendingExit(v);
    }

    /// @notice Pays the stake plus rewards to the validator (self-staked) or its delegator and
    /// retires the address. Caller: the validator or its delegator. Allowed when Staked, or Exited
    /// with current epoch >= exit epoch + 1. With `acceptRewardShortfall` false it reverts
    /// (InsufficientRewards) when the Issuance pool cannot cover the rewards; with true the rewards
    /// are paid up to the pool's balance and the rest is forfeited (the stake is never reduced).
    function unstake(address validatorAddress, bool acceptRewardShortfall) external nonReentrant {
        _requireWhitelisted(validatorAddress);
        address recipient = _recipient(validatorAddress);
        if (msg.sender != validatorAddress && msg.sender != recipient) revert NotRecipient(msg.sender);
        ValidatorInfo storage v = validators[validatorAddress];
        bool eligible = v.currentStatus == ValidatorStatus.Staked
            || (v.currentStatus == ValidatorStatus.Exited && currentEpoch >= v.exitEpoch + 1);
        if (!eligible) revert IneligibleUnstake(v);

        uint256 owed = rewards[validatorAddress];
        uint256 paid = owed;
        if (owed > ISSUANCE.balance) {
            if (!acceptRewardShortfall) revert InsufficientRewards(owed);
            paid = ISSUANCE.balance;
        }
        uint256 stakeAmount = stakeBalances[validatorAddress];
        stakeBalances[validatorAddress] = 0;
        rewards[validatorAddress] = 0;
        v.currentStatus = ValidatorStatus.Exited;
        v.isRetired = true;
        _burnNFT(validatorAddress);
        emit ValidatorRetired(v);
        if (owed > paid) emit RewardsForfeited(validatorAddress, owed - paid);
        if (paid > 0) {
            IIssuance(ISSUANCE).distributeStakeReward(paid);
            emit RewardsClaimed(recipient, paid);
        }
        _pay(recipient, stakeAmount + paid);
    }

    /// @notice Pays the accrued rewards (at least the current minWithdrawAmount) to the validator
    /// (self-staked) or its delegator without exiting. Caller: the validator or its delegator.
    function claimStakeRewards(address validatorAddress) external nonReentrant {
        _requireWhitelisted(validatorAddress);
        address recipient = _recipient(validatorAddress);
        if (msg.sender != validatorAddress && msg.sender != recipient) revert NotRecipient(msg.sender);
        uint256 amount = rewards[validatorAddress];
        uint256 minimum = stakeConfigs[_currentStakeVersion()].minWithdrawAmount;
        if (amount == 0 || amount < minimum) revert RewardsBelowMinimum(amount, minimum);
        if (amount > ISSUANCE.balance) revert InsufficientRewards(amount);
        rewards[validatorAddress] = 0;
        IIssuance(ISSUANCE).distributeStakeReward(amount);
        emit RewardsClaimed(recipient, amount);
        _pay(recipient, amount);
    }

    /// @notice Withdraws what was credited to the caller after a rejected transfer.
    function claimRefund() external nonReentrant {
        uint256 amount = refunds[msg.sender];
        if (amount == 0) revert NoRefund(msg.sender);
        refunds[msg.sender] = 0;
        (bool ok,) = msg.sender.call{value: amount}("");
        if (!ok) revert TransferFailed(msg.sender, amount);
        emit RefundClaimed(msg.sender, amount);
    }

    /// @notice Revokes every delegation signature the caller (a whitelisted validator) has given.
    function increaseNonce() external {
        if (!whitelisted[msg.sender]) revert RequiresConsensusNFT();
        uint64 nonce = delegationNonce[msg.sender] + 1;
        delegationNonce[msg.sender] = nonce;
        emit DelegationNonceIncreased(msg.sender, nonce);
    }

    // ------------------------------------------------------------------ views

    function getCurrentStakeVersion() external view returns (uint8) {
        return _currentStakeVersion();
    }

    function stakeConfig(uint8 version) external view returns (StakeConfig memory) {
        if (version > latestStakeVersion) revert InvalidStakeVersion(version);
        return stakeConfigs[version];
    }

    /// @notice The newest config governance has written (it may apply only from the next epoch).
    function getCurrentStakeConfig() external view returns (StakeConfig memory) {
        return stakeConfigs[latestStakeVersion];
    }

    function getCurrentEpoch() external view returns (uint32) {
        return currentEpoch;
    }

    function getCurrentEpochInfo() external view returns (EpochInfo memory) {
        return epochs[currentEpoch];
    }

    /// @notice Any past epoch, the current one, or the next two (committee known, blockHeight 0).
    function getEpochInfo(uint32 epoch) external view returns (EpochInfo memory) {
        if (epoch > currentEpoch + 2) revert InvalidEpoch(epoch);
        return epochs[epoch];
    }

    /// @notice The record of `validatorAddress`; all zero for an address never whitelisted.
    function getValidator(address validatorAddress) external view returns (ValidatorInfo memory) {
        return validators[validatorAddress];
    }

    /// @notice Unretired validators whose status is `status`; `Any` returns every unretired one.
    function getValidators(ValidatorStatus status) external view returns (ValidatorInfo[] memory list) {
        uint256 count = validatorList.length;
        uint256 matches;
        for (uint256 i; i < count; ++i) {
            if (_matches(validators[validatorList[i]], status)) ++matches;
        }
        list = new ValidatorInfo[](matches);
        uint256 j;
        for (uint256 i; i < count; ++i) {
            ValidatorInfo storage v = validators[validatorList[i]];
            if (_matches(v, status)) list[j++] = v;
        }
    }

    function getRewards(address validatorAddress) external view returns (uint256) {
        return rewards[validatorAddress];
    }

    /// @notice The stake held for the validator (paid back on unstake).
    function getStakeBalance(address validatorAddress) external view returns (uint256) {
        return stakeBalances[validatorAddress];
    }

    /// @notice The delegator of `validatorAddress`, or the zero address when self-staked.
    function getDelegator(address validatorAddress) external view returns (address) {
        return delegators[validatorAddress];
    }

    /// @notice True when `blsPubkey` is registered to a validator that is not retired.
    function isValidator(bytes calldata blsPubkey) external view returns (bool) {
        if (blsPubkey.length != 96) return false;
        address holder = blsPubkeyOwners[keccak256(blsPubkey)];
        return holder != address(0) && !validators[holder].isRetired;
    }

    function isDelegated(address validatorAddress) external view returns (bool) {
        return delegators[validatorAddress] != address(0);
    }

    function isRetired(address validatorAddress) external view returns (bool) {
        return validators[validatorAddress].isRetired;
    }

    function getBlsPubkey(address validatorAddress) external view returns (bytes memory key) {
        key = blsPubkeys[validatorAddress];
        if (key.length == 0) revert BlsPubkeyNotFound(validatorAddress);
    }

    /// @notice The EIP-712 digest the validator signs to let `delegator` stake for it. Binds the
    /// key, both addresses, the current epoch's stake version, the validator's delegation nonce
    /// and the deadline.
    function delegationDigest(bytes calldata blsPubkey, address validatorAddress, address delegator, uint256 deadline)
        external
        view
        returns (bytes32)
    {
        return _delegationDigest(keccak256(blsPubkey), validatorAddress, delegator, deadline);
    }

    function domainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, DOMAIN_NAME_HASH, DOMAIN_VERSION_HASH, block.chainid, address(this)));
    }

    /// @notice EIP-5267 domain description (name "ConsensusRegistry", version "1").
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name_,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", "ConsensusRegistry", "1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    // ------------------------------------------------------------------ internals

    function _mint(address validatorAddress) internal {
        if (validatorAddress == address(0)) revert InvalidTokenId(0);
        if (validators[validatorAddress].isRetired) revert AddressRetired(validatorAddress);
        if (whitelisted[validatorAddress]) revert AlreadyDefined(validatorAddress);
        _mintNFT(validatorAddress);
        validators[validatorAddress].validatorAddress = validatorAddress;
        validatorList.push(validatorAddress);
    }

    function _checkStakeConfig(StakeConfig calldata config) internal pure {
        if (config.stakeAmount == 0 || config.epochDuration < MIN_EPOCH_DURATION) revert InvalidStakeConfig();
    }

    function _checkNewKey(bytes calldata blsPubkey) internal view returns (bytes32 keyHash) {
        if (blsPubkey.length != 96) revert InvalidBLSPubkey();
        keyHash = keccak256(blsPubkey);
        if (blsPubkeyOwners[keyHash] != address(0)) revert DuplicateBLSPubkey();
    }

    /// Checks shared by stake and delegateStake, in the order an operator fixes them.
    function _checkStake(address validatorAddress, bytes calldata blsPubkey)
        internal
        view
        returns (uint8 version, bytes32 keyHash)
    {
        if (blsPubkey.length != 96) revert InvalidBLSPubkey();
        _requireWhitelisted(validatorAddress);
        version = _currentStakeVersion();
        if (msg.value != stakeConfigs[version].stakeAmount) revert InvalidStakeAmount(msg.value);
        keyHash = _checkNewKey(blsPubkey);
        if (validators[validatorAddress].currentStatus != ValidatorStatus.Undefined) {
            revert AlreadyDefined(validatorAddress);
        }
    }

    function _recordStake(
        address validatorAddress,
        bytes calldata blsPubkey,
        bytes32 keyHash,
        uint8 version,
        uint256 amount,
        address delegator
    ) internal {
        blsPubkeyOwners[keyHash] = validatorAddress;
        blsPubkeys[validatorAddress] = blsPubkey;
        stakeBalances[validatorAddress] = amount;
        if (delegator != address(0)) delegators[validatorAddress] = delegator;
        ValidatorInfo storage v = validators[validatorAddress];
        v.currentStatus = ValidatorStatus.Staked;
        v.stakeVersion = version;
        emit ValidatorStaked(v);
    }

    /// PoP message (119 bytes): intent 00 00 00 || 96-byte compressed key || 20-byte address,
    /// verified by the BLS verifier at 0x…b151 (which answers false, never reverts, on bad input).
    function _verifyProofOfPossession(bytes calldata blsPubkey, bytes calldata signature, address validatorAddress)
        internal
        view
        returns (bool)
    {
        bytes memory message = abi.encodePacked(bytes3(0), blsPubkey, validatorAddress);
        (bool ok, bytes memory ret) =
            BLS_VERIFIER.staticcall(abi.encodeCall(IBlsVerifier.blsVerify, (signature, blsPubkey, message)));
        return ok && ret.length == 32 && uint256(bytes32(ret)) == 1;
    }

    function _delegationDigest(bytes32 keyHash, address validatorAddress, address delegator, uint256 deadline)
        internal
        view
        returns (bytes32)
    {
        bytes32 structHash = keccak256(
            abi.encode(
                DELEGATION_TYPEHASH,
                keyHash,
                validatorAddress,
                delegator,
                _currentStakeVersion(),
                delegationNonce[validatorAddress],
                deadline
            )
        );
        return keccak256(abi.encodePacked(hex"1901", domainSeparator(), structHash));
    }

    /// 65-byte (r, s, v) ECDSA signature -> signer, or the zero address when malformed or malleable.
    function _recover(bytes32 digest, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (v != 27 && v != 28) return address(0);
        if (uint256(s) > SECP256K1_HALF_N) return address(0);
        return ecrecover(digest, v, r, s);
    }

    function _currentStakeVersion() internal view returns (uint8) {
        return epochs[currentEpoch].stakeVersion;
    }

    function _recipient(address validatorAddress) internal view returns (address) {
        address delegator = delegators[validatorAddress];
        return delegator == address(0) ? validatorAddress : delegator;
    }

    function _pay(address recipient, uint256 amount) internal {
        if (amount == 0) return;
        (bool ok,) = recipient.call{value: amount}("");
        if (!ok) {
            refunds[recipient] += amount;
            emit RefundCredited(recipient, amount);
        }
    }

    /// Equal split of the epoch's issuance (plus last epoch's remainder) among its committee.
    function _distributeRewards(uint32 epoch) internal {
        EpochInfo storage info = epochs[epoch];
        uint256 total = info.epochIssuance + undistributedIssuance;
        uint256 seats = info.committee.length;
        uint256 eligible;
        for (uint256 i; i < seats; ++i) {
            if (!validators[info.committee[i]].isRetired) ++eligible;
        }
        if (eligible == 0) {
            undistributedIssuance = total;
            return;
        }
        uint256 share = total / eligible;
        for (uint256 i; i < seats; ++i) {
            address member = info.committee[i];
            if (!validators[member].isRetired) rewards[member] += share;
        }
        undistributedIssuance = total - share * eligible;
    }

    /// Every Active validator, sorted by address (the devnet's committee selection).
    function _eligibleCommittee() internal view returns (address[] memory committee) {
        uint256 count = validatorList.length;
        uint256 n;
        for (uint256 i; i < count; ++i) {
            ValidatorInfo storage v = validators[validatorList[i]];
            if (v.currentStatus == ValidatorStatus.Active && !v.isRetired) ++n;
        }
        committee = new address[](n);
        uint256 j;
        for (uint256 i; i < count; ++i) {
            address a = validatorList[i];
            ValidatorInfo storage v = validators[a];
            if (v.currentStatus != ValidatorStatus.Active || v.isRetired) continue;
            // insertion sort: committees are small
            uint256 k = j;
            while (k > 0 && committee[k - 1] > a) {
                committee[k] = committee[k - 1];
                --k;
            }
            committee[k] = a;
            ++j;
        }
    }

    function _inCommittee(address a, uint32 epoch) internal view returns (bool) {
        address[] storage committee = epochs[epoch].committee;
        uint256 n = committee.length;
        for (uint256 i; i < n; ++i) {
            if (committee[i] == a) return true;
        }
        return false;
    }

    function _matches(ValidatorInfo storage v, ValidatorStatus status) internal view returns (bool) {
        if (v.isRetired) return false;
        return status == ValidatorStatus.Any || v.currentStatus == status;
    }
}
