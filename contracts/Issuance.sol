// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.28;

/// @title Issuance: the stake reward pool at 0x07a0…07a0.
/// @notice Holds native TEL for staking rewards. Anyone may fund it by sending TEL; only the
/// registry can draw from it, and only into the registry, which pays the claimant (or credits
/// a refund when the claimant rejects the transfer). An underfunded pool is how the devnet
/// exercises `unstake(…, acceptRewardShortfall)`.
contract Issuance {
    address public constant REGISTRY = 0x07E17e17E17e17E17e17E17E17E17e17e17E17e1;

    error OnlyRegistry(address caller);
    error InsufficientBalance(uint256 requested, uint256 available);
    error TransferFailed(address recipient, uint256 amount);

    event IssuanceFunded(address indexed from, uint256 amount);
    event StakeRewardDistributed(uint256 amount);

    receive() external payable {
        emit IssuanceFunded(msg.sender, msg.value);
    }

    /// @notice Sends `amount` to the registry. Registry only.
    function distributeStakeReward(uint256 amount) external {
        if (msg.sender != REGISTRY) revert OnlyRegistry(msg.sender);
        if (amount > address(this).balance) revert InsufficientBalance(amount, address(this).balance);
        (bool ok,) = REGISTRY.call{value: amount}("");
        if (!ok) revert TransferFailed(REGISTRY, amount);
        emit StakeRewardDistributed(amount);
    }
}
