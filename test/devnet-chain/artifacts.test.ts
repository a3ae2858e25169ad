/**
 * The build side of the devnet chain: the compile step (skip when unchanged, clear failure that
 * leaves contracts/out alone), the typed ABIs matching the artifacts, the precomputed genesis
 * validators matching their secrets, and the anvil binary lookup.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { type AbiParameter, bytesToHex, hexToBytes } from 'viem'
import * as abis from '../../src/devnet/chain/abi.js'
import {
  devnetDevAccounts,
  devnetGenesisValidators,
  devnetGovernanceAccount,
  devnetSystemAccount,
} from '../../src/devnet/chain/accounts.js'
import { anvilPackageName, resolveAnvilBinary } from '../../src/devnet/chain/anvil-binary.js'
import { contractsOutDir, loadContractArtifact } from '../../src/devnet/chain/artifacts.js'
import { BLS_DST, blsPublicKey, proofOfPossessionMessage } from '../../src/devnet/chain/bls.js'
import { AnvilNotFoundError } from '../../src/devnet/chain/errors.js'
import { GENESIS_VALIDATORS } from '../../src/devnet/chain/genesis-validators.js'
import { ROOT, tempDir } from '../helpers/cli.js'

const COMPILE = join(ROOT, 'scripts/compile-contracts.mjs')
const cleanups: (() => void)[] = []
after(() => {
  for (const c of cleanups) c()
})

function compile(...args: string[]) {
  return spawnSync(process.execPath, [COMPILE, ...args], { cwd: ROOT, encoding: 'utf8' })
}

describe('devnet contracts build', () => {
  it('skips the compile when no source changed, without touching contracts/out', () => {
    const out = contractsOutDir()
    const before = readdirSync(out).map((f) => [f, statSync(join(out, f)).mtimeMs])
    const r = compile()
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stderr, '')
    assert.deepEqual(
      readdirSync(out).map((f) => [f, statSync(join(out, f)).mtimeMs]),
      before,
    )
  })

  it('a compile error exits non-zero with the solc message and the fix, leaving the previous output as it was', () => {
    const { dir, cleanup } = tempDir('tnv-solc-')
    cleanups.push(cleanup)
    const src = join(dir, 'src')
    mkdirSync(src)
    writeFileSync(
      join(src, 'Good.sol'),
      '// SPDX-License-Identifier: Apache-2.0\npragma solidity ^0.8.28;\ncontract Good { function f() external pure returns (uint256) { return 1; } }\n',
    )
    const ok = compile('--contracts', src, '--out', join(dir, 'out'))
    assert.equal(ok.status, 0, ok.stderr)
    const artifact = readFileSync(join(dir, 'out', 'Good.json'), 'utf8')
    assert.ok(JSON.parse(artifact).deployedBytecode.startsWith('0x6'))

    writeFileSync(
      join(src, 'Good.sol'),
      '// SPDX-License-Identifier: Apache-2.0\npragma solidity ^0.8.28;\ncontract Good { function f() external pure returns (uint256) { return x; } }\n',
    )
    const bad = compile('--contracts', src, '--out', join(dir, 'out'))
    assert.equal(bad.status, 1)
    assert.match(bad.stderr, /Undeclared identifier/)
    assert.match(
      bad.stderr,
      /1 error\(s\) compiling .* with solc .*; contracts\/out was left as it was\. Fix the Solidity above/,
    )
    assert.equal(readFileSync(join(dir, 'out', 'Good.json'), 'utf8'), artifact)
  })

  it('src/devnet/chain/abi.ts matches the compiled ABIs (regenerate with --emit-ts)', () => {
    assert.deepEqual(abis.blsVerifierAbi, loadContractArtifact('BlsVerifier').abi)
    assert.deepEqual(abis.consensusRegistryAbi, loadContractArtifact('ConsensusRegistry').abi)
    assert.deepEqual(abis.issuanceAbi, loadContractArtifact('Issuance').abi)
  })

  it('the registry ABI has the documented functions, errors and events', () => {
    const abi = loadContractArtifact('ConsensusRegistry').abi
    const names = (type: string) => new Set(abi.filter((x) => x.type === type).map((x) => ('name' in x ? x.name : '')))
    const functions = names('function')
    for (const f of [
      'stake',
      'delegateStake',
      'delegationDigest',
      'activate',
      'beginExit',
      'unstake',
      'claimStakeRewards',
      'claimRefund',
      'increaseNonce',
      'getCurrentStakeVersion',
      'stakeConfig',
      'getCurrentStakeConfig',
      'getValidator',
      'getCurrentEpochInfo',
      'getCurrentEpoch',
      'getEpochInfo',
      'getValidators',
      'balanceOf',
      'mint',
      'getRewards',
      'isValidator',
      'isDelegated',
      'isRetired',
      'getBlsPubkey',
      'owner',
      'setStakeConfig',
      'concludeEpoch',
      'delegationNonce',
      'refunds',
    ]) {
      assert.ok(functions.has(f), `function ${f}`)
    }
    const errors = names('error')
    for (const e of [
      'InvalidTokenId',
      'InvalidStatus',
      'InvalidStakeAmount',
      'InvalidProofOfPossession',
      'DuplicateBLSPubkey',
      'InvalidBLSPubkey',
      'IneligibleUnstake',
      'NotRecipient',
      'InsufficientRewards',
      'RequiresConsensusNFT',
      'AlreadyDefined',
      'BlsPubkeyNotFound',
      'DelegationExpired',
    ]) {
      assert.ok(errors.has(e), `error ${e}`)
    }
    const events = names('event')
    for (const e of [
      'ValidatorStaked',
      'ValidatorPendingActivation',
      'ValidatorActivated',
      'ValidatorPendingExit',
      'ValidatorExited',
      'ValidatorRetired',
      'NewEpoch',
      'RewardsClaimed',
    ]) {
      assert.ok(events.has(e), `event ${e}`)
    }
    const stakeConfig = abi.find((x) => x.type === 'function' && x.name === 'stakeConfig')
    assert.ok(stakeConfig && 'outputs' in stakeConfig)
    assert.equal(stakeConfig.outputs.length, 1, 'stakeConfig returns one tuple')
    const tuple = stakeConfig.outputs[0] as AbiParameter & { components?: readonly AbiParameter[] }
    assert.equal(tuple.type, 'tuple')
    assert.deepEqual(
      tuple.components?.map((c) => c.type),
      ['uint256', 'uint256', 'uint256', 'uint32'],
    )
  })

  it('the precomputed genesis validators match their fixed secrets, with real proofs of possession', () => {
    const derived = devnetGenesisValidators()
    assert.equal(derived.length, GENESIS_VALIDATORS.length)
    const sigs = bls12_381.shortSignatures
    derived.forEach((v, i) => {
      const entry = GENESIS_VALIDATORS[i]
      assert.ok(entry)
      assert.equal(entry.address, v.address)
      const publicKey = blsPublicKey(v.blsSecretKey)
      assert.equal(entry.blsPublicKey, bytesToHex(publicKey))
      const message = proofOfPossessionMessage(publicKey, v.address)
      assert.equal(sigs.verify(hexToBytes(entry.proofOfPossession), sigs.hash(message, BLS_DST), publicKey), true)
    })
  })

  it('devnet accounts are fixed and distinct', () => {
    const all = [devnetGovernanceAccount(), devnetSystemAccount(), ...devnetDevAccounts(), ...devnetGenesisValidators()]
    assert.equal(new Set(all.map((a) => a.address)).size, all.length)
    assert.equal(devnetGovernanceAccount().address, devnetGovernanceAccount().address)
  })

  it('finds anvil in the platform package, and names a missing override', () => {
    assert.equal(anvilPackageName('linux', 'x64'), '@foundry-rs/anvil-linux-amd64')
    assert.equal(anvilPackageName('darwin', 'arm64'), '@foundry-rs/anvil-darwin-arm64')
    assert.equal(anvilPackageName('win32', 'x64'), '@foundry-rs/anvil-win32-amd64')
    assert.ok(statSync(resolveAnvilBinary({})).isFile())
    assert.throws(() => resolveAnvilBinary({ TNV_ANVIL_BINARY: '/nonexistent/anvil' }), AnvilNotFoundError)
  })
})
