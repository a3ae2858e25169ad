/**
 * QR transport: the code `tnv offline sign --qr` prints decodes (the library's own decoder, run
 * on the pixels the terminal would show) to the very signed transaction, stake-sized; and text
 * that is not a signed transaction is refused.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import decodeQR from '@paulmillr/qr/decode.js'
import { privateKeyToAccount } from 'viem/accounts'
import type { TnvError } from '../../src/lib/errors.js'
import { signedTransactionQr } from '../../src/lib/offline/qr.js'

/** The terminal text back to pixels: █ both halves light, ▀ top light, ▄ bottom light, space dark. */
function pixels(text: string, scale = 4) {
  const rows: boolean[][] = []
  for (const line of text.split('\n').filter((l) => l.length > 0)) {
    const chars = [...line]
    rows.push(chars.map((c) => c === '█' || c === '▀'))
    rows.push(chars.map((c) => c === '█' || c === '▄'))
  }
  const height = rows.length * scale
  const width = (rows[0]?.length ?? 0) * scale
  const data = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const light = rows[Math.floor(y / scale)]?.[Math.floor(x / scale)] ?? true
      data.set([light ? 255 : 0, light ? 255 : 0, light ? 255 : 0, 255], (y * width + x) * 4)
    }
  return { height, width, data }
}

describe('offline QR transport', () => {
  it('a stake-sized signed transaction shown as a QR code decodes to the same bytes', async () => {
    const account = privateKeyToAccount(`0x${'11'.repeat(32)}`)
    const raw = await account.signTransaction({
      chainId: 2017,
      nonce: 0,
      to: '0x07E17e17E17e17E17e17E17E17E17e17e17E17e1',
      value: 10n ** 24n,
      data: `0x${'5a'.repeat(324)}`,
      gas: 400_000n,
      maxFeePerGas: 200_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      type: 'eip1559',
    })
    const text = signedTransactionQr(raw)
    const width = [...(text.split('\n')[0] ?? '')].length
    assert.ok(width <= 110, `${width} columns`)
    assert.equal(decodeQR(pixels(text)), raw)
  })

  it('text that is not a signed transaction is refused as bad input', async () => {
    const { signedFromRaw } = await import('../../src/lib/offline/qr.js')
    const bundle = { digest: `sha256:${'0'.repeat(64)}` } as Parameters<typeof signedFromRaw>[0]
    for (const text of ['', 'hello', '0x12', '0xzz'])
      await assert.rejects(signedFromRaw(bundle, text, '--signed-raw'), (err: TnvError) => err.code === 'InvalidBundle')
  })
})
