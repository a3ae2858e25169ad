/** Addresses given by the user: checked once at the edge, returned checksummed. */
import { type Address, getAddress, isAddress } from 'viem'
import { BadInputError } from '../errors.js'

/** Parses an address given on the command line; mixed case must carry a valid EIP-55 checksum. */
export function parseAddressFlag(value: string, flag: string): Address {
  if (!isAddress(value, { strict: true })) {
    // `flag` may be a phrase ("the address"): the message starts a sentence.
    const subject = flag.charAt(0).toUpperCase() + flag.slice(1)
    throw new BadInputError(
      isAddress(value, { strict: false })
        ? `${subject} ${value} has a wrong EIP-55 checksum (mixed case that does not match).`
        : `${subject} ${value} is not a 20-byte 0x address.`,
      { fix: `Pass ${flag} as 0x followed by 40 hex digits (all lower case, or correctly checksummed).` },
    )
  }
  return getAddress(value)
}
