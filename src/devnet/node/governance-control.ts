/**
 * The `governance` control operation's arguments (JSON from `tnv devnet governance …`, amounts
 * as decimal strings) checked and turned into a rehearsal governance request.
 */
import { type Address, type Hex, isAddress, isHex } from 'viem'
import { BadInputError } from '../../lib/errors.js'
import type { GovernanceRequest } from '../chain/governance.js'

const address = (v: unknown, what: string): Address => {
  if (typeof v !== 'string' || !isAddress(v, { strict: false }))
    throw new BadInputError(`${what} is not an address: ${JSON.stringify(v)}.`)
  return v as Address
}
const hex = (v: unknown, what: string, bytes?: number): Hex => {
  if (typeof v !== 'string' || !isHex(v) || (bytes !== undefined && v.length !== 2 + 2 * bytes))
    throw new BadInputError(`${what} must be ${bytes ? `${bytes} bytes of ` : ''}0x hex.`)
  return v as Hex
}
const wei = (v: unknown, what: string): bigint => {
  if (typeof v !== 'string' || !/^[0-9]{1,78}$/.test(v))
    throw new BadInputError(`${what} must be a whole number of wei.`)
  return BigInt(v)
}

/** @throws BadInputError naming the field */
export function parseGovernanceRequest(args: Record<string, unknown>): GovernanceRequest {
  switch (args.action) {
    case 'mint':
    case 'burn':
      return { action: args.action, validator: address(args.validator, 'validator') }
    case 'pause':
    case 'unpause':
      return { action: args.action }
    case 'fund':
      return { action: 'fund', amountWei: wei(args.amountWei, 'amountWei') }
    case 'delegate': {
      const pop = (args.proofOfPossession ?? {}) as Record<string, unknown>
      return {
        action: 'delegate',
        validator: address(args.validator, 'validator'),
        blsPubkey: hex(args.blsPubkey, 'blsPubkey', 96),
        proofOfPossession:
          'signature' in pop
            ? { signature: hex(pop.signature, 'proofOfPossession.signature', 48) }
            : {
                uncompressedPubkey: hex(pop.uncompressedPubkey, 'proofOfPossession.uncompressedPubkey', 192),
                uncompressedSignature: hex(pop.uncompressedSignature, 'proofOfPossession.uncompressedSignature', 96),
              },
        valueWei: args.valueWei === undefined ? undefined : wei(args.valueWei, 'valueWei'),
      }
    }
    default:
      throw new BadInputError(`Unknown governance action ${JSON.stringify(args.action)}.`, {
        fix: 'Use mint, burn, pause, unpause, fund or delegate.',
      })
  }
}
