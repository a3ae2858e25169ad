/**
 * Turns a fresh anvil into the devnet: installs the BLS verifier, the registry and the Issuance
 * pool at the real network's addresses (anvil_setCode, no deployment transactions), makes
 * governance the registry's owner (anvil_setStorageAt on the `owner` slot), funds the accounts
 * and the pool (anvil_setBalance), then governance calls `initialize` once: stake config
 * version 0, the system address, and the genesis validators (real proofs of possession,
 * verified on chain), Active at epoch 0.
 */
import { type PublicClient, pad, type WalletClient } from 'viem'
import { consensusRegistryAbi } from './abi.js'
import { anvilSetBalance, anvilSetCode, anvilSetStorageAt } from './anvil-rpc.js'
import { loadContractArtifact, storageSlotOf } from './artifacts.js'
import { DEV_ACCOUNT_BALANCE, GENESIS_STAKE_CONFIG, ISSUANCE_POOL_BALANCE, OPERATOR_GAS_BALANCE } from './defaults.js'
import { GENESIS_VALIDATORS } from './genesis-validators.js'
import { sendDevnetTransaction } from './send-devnet-transaction.js'
import { BLS_VERIFIER_ADDRESS, type DevnetAccount, ISSUANCE_ADDRESS, REGISTRY_ADDRESS } from './types.js'

export type BootstrapDevnetParameters = {
  publicClient: PublicClient
  /** Wallet client of the governance account (the registry owner). */
  governanceWallet: WalletClient
  governance: DevnetAccount
  system: DevnetAccount
  accounts: DevnetAccount[]
  epochBlocks: number
}

/** Installs the contracts at their fixed addresses (also used to upgrade code in place). */
export async function installDevnetCode(publicClient: PublicClient): Promise<void> {
  await Promise.all([
    anvilSetCode(publicClient, BLS_VERIFIER_ADDRESS, loadContractArtifact('BlsVerifier').deployedBytecode),
    anvilSetCode(publicClient, REGISTRY_ADDRESS, loadContractArtifact('ConsensusRegistry').deployedBytecode),
    anvilSetCode(publicClient, ISSUANCE_ADDRESS, loadContractArtifact('Issuance').deployedBytecode),
  ])
}

/**
 * Bootstraps a fresh devnet on `publicClient`'s anvil.
 * @example await bootstrapDevnet({ publicClient, governanceWallet, governance, system, accounts, epochBlocks: 10 })
 */
export async function bootstrapDevnet(params: BootstrapDevnetParameters): Promise<void> {
  const { publicClient, governanceWallet, governance, system, accounts, epochBlocks } = params
  const registry = loadContractArtifact('ConsensusRegistry')
  const genesisStake = GENESIS_STAKE_CONFIG.stakeAmount * BigInt(GENESIS_VALIDATORS.length)
  await Promise.all([
    installDevnetCode(publicClient),
    anvilSetStorageAt(publicClient, REGISTRY_ADDRESS, storageSlotOf(registry, 'owner'), pad(governance.address)),
    // governance keeps a dev account's balance after paying the genesis stakes (white-glove delegations)
    anvilSetBalance(publicClient, governance.address, genesisStake + DEV_ACCOUNT_BALANCE),
    anvilSetBalance(publicClient, system.address, OPERATOR_GAS_BALANCE),
    anvilSetBalance(publicClient, ISSUANCE_ADDRESS, ISSUANCE_POOL_BALANCE),
    ...accounts.map((a) => anvilSetBalance(publicClient, a.address, DEV_ACCOUNT_BALANCE)),
    ...GENESIS_VALIDATORS.map((v) => anvilSetBalance(publicClient, v.address, OPERATOR_GAS_BALANCE)),
  ])

  const genesis = GENESIS_VALIDATORS.map((v) => ({
    validatorAddress: v.address,
    blsPubkey: v.blsPublicKey,
    proofOfPossession: { signature: v.proofOfPossession },
  }))
  await sendDevnetTransaction(publicClient, governanceWallet, {
    what: 'initialize the registry',
    address: REGISTRY_ADDRESS,
    abi: consensusRegistryAbi,
    functionName: 'initialize',
    args: [{ ...GENESIS_STAKE_CONFIG, epochDuration: epochBlocks }, system.address, genesis],
    value: genesisStake,
    gas: 2_000_000n + 500_000n * BigInt(genesis.length),
  })
}
