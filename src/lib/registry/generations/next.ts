/**
 * The next generation: the registry the specification describes (the node's mainnet genesis,
 * tn-contracts 0fb6b01; registry-next.md). Compressed proof over the 119-byte message checked
 * through the precompile at 0x…b151, delegation with a deadline, `unstake(address,bool)`,
 * refunds (`claimableRefunds` + `claimRefund`), `increaseNonce`.
 */
import { encodeFunctionData, type Hex, keccak256 } from 'viem'
import { nextRegistryAbi } from './abi-next.js'
import type { RegistryAdapter, StakeProof } from './adapter.js'
import { issuanceErrorsAbi } from './extra-errors.js'

function compressed(proof: StakeProof) {
  if (proof.format !== 'compressed')
    throw new RangeError('the next registry takes the compressed proof (48-byte signature over the 119-byte message)')
  return { signature: proof.signature }
}

/** keccak256 of the key with the top 3 flag bits of byte 0 cleared (registry-next.md §4). */
export function maskedKeyHash(blsPubkey: Hex): Hex {
  const bytes = Uint8Array.from(Buffer.from(blsPubkey.slice(2), 'hex'))
  bytes[0] = (bytes[0] as number) & 0x1f
  return keccak256(bytes)
}

export const nextAdapter: RegistryAdapter = {
  generation: 'next',
  label: 'next (the generation the specification describes, tn-contracts 0fb6b01)',
  abi: nextRegistryAbi,
  // next declares its own InsufficientBalance(uint256,uint256); the Issuance errors add the other two
  errorAbi: [
    ...nextRegistryAbi.filter((e) => e.type === 'error'),
    ...issuanceErrorsAbi.filter((e) => e.name !== 'InsufficientBalance'),
  ],
  proofFormat: 'compressed',
  features: {
    deadline: true,
    increaseNonce: true,
    refunds: true,
    unstakeShortfallChoice: true,
    claimableRewards: true,
  },
  delegationType: {
    type: 'Delegation(bytes32 blsPubkeyHash,address validatorAddress,address delegator,uint8 validatorVersion,uint64 nonce,uint256 deadline)',
    keyHash: maskedKeyHash,
    withDeadline: true,
  },
  signatures: {
    stake: 'stake(bytes,(bytes))',
    delegateStake: 'delegateStake(bytes,(bytes),address,bytes,uint256)',
    unstake: 'unstake(address,bool)',
    delegationDigest: 'delegationDigest(bytes,address,address,uint256)',
  },
  stakeData: (blsPubkey, proof) =>
    encodeFunctionData({ abi: nextRegistryAbi, functionName: 'stake', args: [blsPubkey, compressed(proof)] }),
  delegateStakeData: ({ blsPubkey, proof, validator, signature, deadline }) =>
    encodeFunctionData({
      abi: nextRegistryAbi,
      functionName: 'delegateStake',
      args: [blsPubkey, compressed(proof), validator, signature, deadline ?? 0n],
    }),
  activateData: () => encodeFunctionData({ abi: nextRegistryAbi, functionName: 'activate' }),
  unstakeData: (validator, acceptRewardShortfall) =>
    encodeFunctionData({ abi: nextRegistryAbi, functionName: 'unstake', args: [validator, acceptRewardShortfall] }),
  claimRefundData: () => encodeFunctionData({ abi: nextRegistryAbi, functionName: 'claimRefund' }),
  increaseNonceData: () => encodeFunctionData({ abi: nextRegistryAbi, functionName: 'increaseNonce' }),
  readDelegationDigest: (client, registry, { blsPubkey, validator, delegator, deadline }) =>
    client.readContract({
      address: registry,
      abi: nextRegistryAbi,
      functionName: 'delegationDigest',
      args: [blsPubkey, validator, delegator, deadline ?? 0n],
    }),
}
