// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.28;

import {IConsensusRegistry} from "./IConsensusRegistry.sol";

/// @title ConsensusNFT: the validator whitelist, part of the registry.
/// @notice One non-transferable token per whitelisted validator address; the token id is the
/// address itself. `balanceOf` answers 1 or 0. Governance mints (ConsensusRegistry.mint);
/// unstaking burns the token and retires the address for good.
abstract contract ConsensusNFT is IConsensusRegistry {
    mapping(address => bool) internal whitelisted;
    uint256 internal supply;

    function name() external pure returns (string memory) {
        return "ConsensusNFT";
    }

    function symbol() external pure returns (string memory) {
        return "CNFT";
    }

    function totalSupply() external view returns (uint256) {
        return supply;
    }

    /// @notice 1 if `account` holds a ConsensusNFT (is whitelisted), else 0.
    function balanceOf(address account) public view returns (uint256) {
        return whitelisted[account] ? 1 : 0;
    }

    function ownerOf(uint256 tokenId) external view returns (address) {
        address holder = address(uint160(tokenId));
        if (tokenId >> 160 != 0 || !whitelisted[holder]) revert InvalidTokenId(tokenId);
        return holder;
    }

    function getApproved(uint256) external pure returns (address) {
        return address(0);
    }

    function isApprovedForAll(address, address) external pure returns (bool) {
        return false;
    }

    function transferFrom(address, address, uint256) external pure {
        revert NotTransferable();
    }

    function safeTransferFrom(address, address, uint256) external pure {
        revert NotTransferable();
    }

    function safeTransferFrom(address, address, uint256, bytes calldata) external pure {
        revert NotTransferable();
    }

    function approve(address, uint256) external pure {
        revert NotTransferable();
    }

    function setApprovalForAll(address, bool) external pure {
        revert NotTransferable();
    }

    function _tokenId(address account) internal pure returns (uint256) {
        return uint256(uint160(account));
    }

    function _mintNFT(address to) internal {
        whitelisted[to] = true;
        supply += 1;
        emit Transfer(address(0), to, _tokenId(to));
    }

    function _burnNFT(address from) internal {
        whitelisted[from] = false;
        supply -= 1;
        emit Transfer(from, address(0), _tokenId(from));
    }

    /// @dev Reverts with InvalidTokenId when `account` holds no ConsensusNFT (never whitelisted, or retired).
    function _requireWhitelisted(address account) internal view {
        if (!whitelisted[account]) revert InvalidTokenId(_tokenId(account));
    }
}
