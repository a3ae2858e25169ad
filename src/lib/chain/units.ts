/** Amounts as operators read them: TEL with thousands separators, and the exact wei. */
import { formatEther, formatGwei } from 'viem'

/** `1,000,000 TEL` (18 decimals, trailing zeros trimmed). */
export function formatTel(wei: bigint): string {
  const [int = '0', frac] = formatEther(wei).split('.')
  const negative = int.startsWith('-')
  const digits = negative ? int.slice(1) : int
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${grouped}${frac ? `.${frac}` : ''} TEL`
}

/** `1,000,000 TEL (1000000000000000000000000 wei)`: the form shown before anything is sent. */
export function formatTelAndWei(wei: bigint): string {
  return `${formatTel(wei)} (${wei} wei)`
}

export function formatGasPrice(wei: bigint): string {
  return `${formatGwei(wei)} gwei`
}
