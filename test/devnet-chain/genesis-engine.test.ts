/**
 * The rehearsal engine on the real registry code of the shipped genesis files: boots from the
 * genesis, installs the verifier where the generation needs it, governance by impersonation,
 * and epoch boundaries with the node's system calls. Calls are built here from the fact
 * sheets (registry.md, registry-next.md), not through tnv's registry client, so these tests
 * say whether the engine behaves like the chain, independently of the client.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { type Address, encodeFunctionData, type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardforkOf, InvalidGenesisError, loadGenesis } from '../../src/devnet/chain/genesis.js'
import { type GenesisEngine, startGenesisEngine } from '../../src/devnet/chain/genesis-engine.js'
import { engineReceipt } from '../../src/devnet/chain/receipt.js'
import { chooseCommittee } from '../../src/devnet/chain/system-calls.js'
import { BLS_PRECOMPILE_ADDRESS, DEVNET_CHAIN_ID, REGISTRY_ADDRESS } from '../../src/lib/chain/addresses.js'
import { blsKeyGen, blsPublicKey } from '../../src/lib/keys/bls.js'
import { signProofOfPossession } from '../../src/lib/keys/pop.js'
import { registryAbis } from '../../src/lib/registry/generations/detect.js'
import { tempDir } from '../helpers/cli.js'

const hex = (b: Uint8Array): Hex => `0x${Buffer.from(b).toString('hex')}`
const STATUS = { Undefined: 0, Staked: 1, PendingActivation: 2, Active: 3 } as const

describe('genesis files', () => {
  it('loads both shipped files with their chain ids and generations', () => {
    const adiri = loadGenesis('adiri')
    const next = loadGenesis('next')
    assert.equal(adiri.chainId, 2017)
    assert.equal(adiri.generation, 'adiri')
    assert.equal(next.chainId, 487)
    assert.equal(next.generation, 'next')
    // hardforks as the file says: both activate everything through Prague at genesis
    assert.equal(adiri.hardfork, 'prague')
    assert.equal(next.hardfork, 'prague')
    assert.equal(hardforkOf({ shanghaiTime: '0', cancunTime: '0', pragueTime: '1800000000' }), 'cancun')
    assert.equal(hardforkOf({ londonBlock: '0' }), 'london')
    assert.equal(hardforkOf({}), 'prague')
  })

  it('refuses a file that is not a genesis, or has no registry', () => {
    const { dir, cleanup } = tempDir('tnv-genesis-')
    try {
      writeFileSync(`${dir}/a.yaml`, 'hello: [1, 2')
      assert.throws(() => loadGenesis(`${dir}/a.yaml`), InvalidGenesisError)
      writeFileSync(`${dir}/b.yaml`, 'config:\n  chainId: 5\nalloc: {}\n')
      assert.throws(() => loadGenesis(`${dir}/b.yaml`), /no ConsensusRegistry code/)
      assert.throws(() => loadGenesis(`${dir}/missing.yaml`), /no such file/)
    } finally {
      cleanup()
    }
  })

  it('a committee is sorted, of the next size, and takes PendingExit only when short', () => {
    const v = (n: number, status: number) => ({
      validatorAddress: `0x${n.toString(16).padStart(40, '0')}` as Address,
      activationEpoch: 0,
      exitEpoch: 0,
      currentStatus: status,
      isRetired: false,
      stakeVersion: 0,
      region: 0,
    })
    const seed = `0x${'11'.repeat(32)}` as Hex
    const pool = [v(9, 3), v(3, 3), v(7, 4), v(5, 2), v(1, 3)]
    const four = chooseCommittee(pool, 4, seed)
    assert.deepEqual(four, [...four].sort())
    assert.ok(!four.includes(v(7, 4).validatorAddress))
    const five = chooseCommittee(pool, 5, seed)
    assert.equal(five.length, 5)
    assert.ok(five.includes(v(7, 4).validatorAddress))
  })
})

for (const generation of ['next', 'adiri'] as const) {
  describe(`the ${generation} registry on the rehearsal engine`, { timeout: 120_000 }, () => {
    let engine: GenesisEngine
    let cleanup: () => void
    const operator = privateKeyToAccount(hex(randomBytes(32)))
    const abi = registryAbis[generation]
    const read = <T>(functionName: string, args: readonly unknown[] = []) =>
      engine.client.readContract({ address: REGISTRY_ADDRESS, abi, functionName, args } as never) as Promise<T>

    before(async () => {
      const t = tempDir(`tnv-genesis-engine-${generation}-`)
      cleanup = t.cleanup
      engine = await startGenesisEngine({
        genesis: generation,
        dir: t.dir,
        chainId: DEVNET_CHAIN_ID,
        balances: [{ address: operator.address, wei: parseEther('2000000') }],
      })
    })
    after(async () => {
      await engine?.stop()
      cleanup?.()
    })

    it('serves the genesis state under the rehearsal chain id, the verifier where the generation needs it', async () => {
      assert.equal(await engine.client.getChainId(), DEVNET_CHAIN_ID)
      const verifier = await engine.client.getCode({ address: BLS_PRECOMPILE_ADDRESS })
      // next calls the node's precompile at 0x…b151 (registry-next.md §3); adiri verifies with EIP-2537
      assert.equal(verifier === '0xfe', generation === 'adiri')
      assert.equal(engine.blsVerifier, generation === 'next' ? BLS_PRECOMPILE_ADDRESS : null)
      assert.equal(await read<number>('getCurrentEpoch'), 0)
      const config = await read<{ stakeAmount: bigint; epochDuration: number }>('stakeConfig', [0])
      assert.equal(config.stakeAmount, parseEther('1000000'))
      assert.equal(config.epochDuration, generation === 'next' ? 86400 : 21600)
    })

    it('whitelist (owner impersonated), stake, activate, epoch boundary: Active', async () => {
      await engine.asOwner({ data: encodeFunctionData({ abi, functionName: 'mint', args: [operator.address] }) })
      assert.equal(await read<bigint>('balanceOf', [operator.address]), 1n)

      const secret = blsKeyGen(randomBytes(32))
      const publicKey = blsPublicKey(secret)
      const data =
        generation === 'next'
          ? encodeFunctionData({
              abi: registryAbis.next,
              functionName: 'stake',
              args: [hex(publicKey), { signature: hex(signProofOfPossession(secret, operator.address)) }],
            })
          : await adiriStakeCalldata(secret, publicKey, operator.address)
      const wallet = (await import('viem')).createWalletClient({
        account: operator,
        transport: (await import('viem')).http(engine.httpUrl),
      })
      const send = async (d: Hex, value = 0n) => {
        const hash = await wallet.sendTransaction({ chain: null, to: REGISTRY_ADDRESS, data: d, value })
        const r = await engineReceipt(engine.client, hash)
        assert.equal(r.status, 'success')
      }
      await send(data, parseEther('1000000'))
      let info = await read<{ currentStatus: number; activationEpoch: number }>('getValidator', [operator.address])
      assert.equal(info.currentStatus, STATUS.Staked)
      assert.equal(info.activationEpoch, 2 ** 32 - 1)

      await send(encodeFunctionData({ abi, functionName: 'activate' }))
      info = await read('getValidator', [operator.address])
      assert.equal(info.currentStatus, STATUS.PendingActivation)

      const closed = await engine.closeEpoch()
      assert.equal(closed.concluded, 0)
      assert.equal(await read<number>('getCurrentEpoch'), 1)
      info = await read('getValidator', [operator.address])
      assert.equal(info.currentStatus, STATUS.Active)
      // rewards were credited by applyIncentives to the closing epoch's leaders, none to the others
      const led = closed.incentives.filter((i) => i.consensusHeaderCount > 0n)
      assert.ok(led.length > 0)
      for (const i of closed.incentives)
        assert.equal((await read<bigint>('getRewards', [i.validatorAddress])) > 0n, i.consensusHeaderCount > 0n)
    })
  })
}

/** adiri's stake(bytes,(bytes,bytes)): the 218-byte message with the uncompressed key (registry.md §6). */
async function adiriStakeCalldata(secret: Uint8Array, publicKey: Uint8Array, address: Address): Promise<Hex> {
  const { bls12_381 } = await import('@noble/curves/bls12-381.js')
  const { blsSign } = await import('../../src/lib/keys/bls.js')
  const point = bls12_381.G2.Point.fromBytes(publicKey)
  const uncompressed = point.toBytes(false)
  const message = new Uint8Array([0, 0, 0, 0xd5, 0x01, ...uncompressed, 0x14, ...Buffer.from(address.slice(2), 'hex')])
  assert.equal(message.length, 218)
  const signature = bls12_381.G1.Point.fromBytes(blsSign(secret, message)).toBytes(false)
  return encodeFunctionData({
    abi: registryAbis.adiri,
    functionName: 'stake',
    args: [hex(publicKey), { uncompressedPubkey: hex(uncompressed), uncompressedSignature: hex(signature) }],
  })
}
