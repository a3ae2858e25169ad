/** Amounts as shown before sending, fee choice, and the --unsigned output. */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { decodeFunctionData, parseEther } from 'viem'
import {
  eip1559Fees,
  feesFromGasPrice,
  gasWithMargin,
  maxCost,
  toUnsignedTransaction,
} from '../../src/lib/chain/transaction.js'
import { formatTel, formatTelAndWei } from '../../src/lib/chain/units.js'
import { sharedRegistryAbi as registryAbi } from '../../src/lib/registry/generations/shared-abi.js'

describe('transaction helpers', () => {
  it('formats TEL with separators and the exact wei', () => {
    assert.equal(formatTel(parseEther('1000000')), '1,000,000 TEL')
    assert.equal(formatTel(1n), '0.000000000000000001 TEL')
    assert.equal(formatTelAndWei(parseEther('1234.5')), '1,234.5 TEL (1234500000000000000000 wei)')
  })

  it('picks EIP-1559 fees when the block has a base fee, legacy otherwise', () => {
    assert.deepEqual(eip1559Fees(10n, 1n), { type: 'eip1559', maxFeePerGas: 21n, maxPriorityFeePerGas: 1n })
    assert.equal(eip1559Fees(null, 1n), null)
    assert.equal(eip1559Fees(10n, null), null)
    assert.deepEqual(feesFromGasPrice(null, 7n), { type: 'legacy', gasPrice: 7n })
    assert.deepEqual(feesFromGasPrice(10n, 13n), { type: 'eip1559', maxFeePerGas: 23n, maxPriorityFeePerGas: 3n })
    assert.deepEqual(feesFromGasPrice(10n, 5n), { type: 'eip1559', maxFeePerGas: 20n, maxPriorityFeePerGas: 0n })
    assert.equal(gasWithMargin(100_000n), 120_000n)
  })

  it('prints an unsigned transaction as JSON-safe strings and a cast send line with the same fields', () => {
    const data = '0x0f15f4c0' as const // activate()
    const tx = {
      chainId: 2017,
      from: '0x1111111111111111111111111111111111111111' as const,
      to: '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1' as const,
      value: parseEther('1000000'),
      data,
      gas: 120_000n,
      nonce: 4,
      fees: { type: 'eip1559' as const, maxFeePerGas: 3n, maxPriorityFeePerGas: 1n },
    }
    assert.equal(maxCost(tx), parseEther('1000000') + 360_000n)
    const u = toUnsignedTransaction(tx, 'https://rpc.adiri.tel')
    assert.deepEqual(JSON.parse(JSON.stringify(u)), u)
    assert.equal(u.value, '1000000000000000000000000')
    assert.equal(u.gas, '120000')
    assert.equal(
      u.cast,
      'cast send 0x07E17e17E17e17E17e17E17E17E17e17e17E17e1 0x0f15f4c0 --value 1000000000000000000000000 --gas-limit 120000 --nonce 4 --chain 2017 --rpc-url https://rpc.adiri.tel --from 0x1111111111111111111111111111111111111111',
    )
    assert.equal(decodeFunctionData({ abi: registryAbi, data: u.data }).functionName, 'activate')
  })
})
