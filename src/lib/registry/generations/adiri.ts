/**
 * The adiri generation: the registry live on the test network (tn-contracts 8d4cb03;
 * registry.md). Proof of possession over the 218-byte message with the uncompressed key,
 * delegation without deadline, `unstake(address)`, no refunds, no `increaseNonce`.
 */
import { encodeFunctionData, type Hex, keccak256 } from 'viem'
import { adiriRegistryAbi } from './abi-adiri.js'
import { type RegistryAdapter, type StakeProof, UnsupportedCallError } from './adapter.js'
import { issuanceErrorsAbi } from './extra-errors.js'

function uncompressed(proof: StakeProof) {
  if (proof.format !== 'uncompressed')
    throw new RangeError(
      'the adiri registry takes the uncompressed proof (key and signature over the 218-byte message)',
    )
  return { uncompressedPubkey: proof.uncompressedPubkey, uncompressedSignature: proof.uncompressedSignature }
}

export const adiriAdapter: RegistryAdapter = {
  generation: 'adiri',
  label: 'adiri (the test network registry, tn-contracts 8d4cb03)',
  abi: adiriRegistryAbi,
  errorAbi: [...adiriRegistryAbi.filter((e) => e.type === 'error'), ...issuanceErrorsAbi],
  proofFormat: 'uncompressed',
  features: {
    deadline: false,
    increaseNonce: false,
    refunds: false,
    unstakeShortfallChoice: false,
    claimableRewards: false,
  },
  delegationType: {
    type: 'Delegation(bytes32 blsPubkeyHash,address validatorAddress,address delegator,uint8 validatorVersion,uint64 nonce)',
    // keccak256 of the raw 96-byte compressed key (registry.md §7)
    keyHash: (blsPubkey: Hex) => keccak256(blsPubkey),
    withDeadline: false,
  },
  signatures: {
    stake: 'stake(bytes,(bytes,bytes))',
    delegateStake: 'delegateStake(bytes,(bytes,bytes),address,bytes)',
    unstake: 'unstake(address)',
    delegationDigest: 'delegationDigest(bytes,address,address)',
  },
  stakeData: (blsPubkey, proof) =>
    encodeFunctionData({ abi: adiriRegistryAbi, functionName: 'stake', args: [blsPubkey, uncompressed(proof)] }),
  delegateStakeData: ({ blsPubkey, proof, validator, signature }) =>
    encodeFunctionData({
      abi: adiriRegistryAbi,
      functionName: 'delegateStake',
      args: [blsPubkey, uncompressed(proof), validator, signature],
    }),
  activateData: () => encodeFunctionData({ abi: adiriRegistryAbi, functionName: 'activate' }),
  unstakeData: (validator) => encodeFunctionData({ abi: adiriRegistryAbi, functionName: 'unstake', args: [validator] }),
  claimRefundData: () => {
    throw new UnsupportedCallError('adiri', 'claimRefund()')
  },
  increaseNonceData: () => {
    throw new UnsupportedCallError('adiri', 'increaseNonce()')
  },
  readDelegationDigest: (client, registry, { blsPubkey, validator, delegator }) =>
    client.readContract({
      address: registry,
      abi: adiriRegistryAbi,
      functionName: 'delegationDigest',
      args: [blsPubkey, validator, delegator],
    }),
}
