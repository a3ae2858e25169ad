/**
 * Registry failures, each with the remedy of the spec's Errors table. The same class is
 * thrown whether a local check, a simulation or a mined receipt found the problem, so an
 * operator (and a CI pipeline, through the exit code) sees one answer per cause.
 */

import { formatTelAndWei } from '../chain/units.js'
import { ExitCode, TnvError, type TnvErrorOptions, UsageError } from '../errors.js'

type Extra = Pick<TnvErrorOptions, 'details' | 'cause'>

/** InvalidTokenId / RequiresConsensusNFT: the address holds no ConsensusNFT. */
export class NotWhitelistedError extends TnvError {
  override readonly code: string = 'NotWhitelisted'
  constructor(address: string, extra: Extra = {}) {
    super(`Address ${address} holds no ConsensusNFT: governance has not whitelisted it (or it is retired).`, {
      fix: `Request governance approval for ${address} (governance runs \`tnv governance mint ${address}\`); a retired address cannot be whitelisted again.`,
      exitCode: ExitCode.NotWhitelisted,
      ...extra,
    })
  }
}

/** The address unstaked once and is retired for good. */
export class AddressRetiredError extends TnvError {
  override readonly code: string = 'AddressRetired'
  constructor(address: string, extra: Extra = {}) {
    super(`Address ${address} is retired (it has unstaked): governance can never whitelist it again.`, {
      fix: 'Onboard a new validator address with new keys: `tnv keytool generate validator --address NEW_ADDRESS --datadir NEW_DIR`, then ask governance to whitelist NEW_ADDRESS.',
      exitCode: ExitCode.NotWhitelisted,
      ...extra,
    })
  }
}

/** InvalidStatus and local status checks: the validator is in the wrong state for the step. */
export class WrongStatusError extends TnvError {
  override readonly code: string = 'WrongStatus'
  constructor(message: string, fix: string, extra: Extra = {}) {
    super(message, { fix, exitCode: ExitCode.WrongState, ...extra })
  }
}

/** InvalidStakeAmount: the value is not the current epoch's stake amount. */
export class WrongStakeAmountError extends TnvError {
  override readonly code: string = 'WrongStakeAmount'
  constructor(params: { sent: bigint | null; expected: bigint | null }, extra: Extra = {}) {
    const sent = params.sent === null ? 'The value sent' : `The value sent, ${formatTelAndWei(params.sent)},`
    const expected = params.expected === null ? '' : ` (${formatTelAndWei(params.expected)})`
    super(`${sent} is not the stake amount of the current epoch's stake version${expected}.`, {
      fix: 'Send `stakeAmount` of `stakeConfig(getCurrentStakeVersion())`, which `tnv stake` reads for you (never `getCurrentStakeConfig()`: a new config applies only from the next epoch).',
      exitCode: ExitCode.Reverted,
      ...extra,
    })
  }
}

/** InvalidProofOfPossession: the proof does not verify for this key and address. */
export class StakeProofOfPossessionInvalidError extends TnvError {
  override readonly code: string = 'InvalidProofOfPossession'
  constructor(address: string, extra: Extra = {}) {
    super(
      `The proof of possession does not verify for address ${address}: it was signed for a different address (or is corrupt).`,
      {
        fix: `Re-sign it with \`tnv keytool generate pop --address ${address}\`, then export the staking args again (\`tnv keytool export-staking-args\`).`,
        exitCode: ExitCode.BadKeys,
        ...extra,
      },
    )
  }
}

/** The signer is not node-info's execution_address (the address the PoP commits to). */
export class SignerMismatchError extends TnvError {
  override readonly code: string = 'SignerMismatch'
  constructor(params: { signer: string; executionAddress: string }) {
    super(
      `node-info.yaml names execution_address ${params.executionAddress}, but the signer is ${params.signer}; the proof of possession commits to the execution address, and the stake must come from it.`,
      {
        fix: `Sign with the key of ${params.executionAddress}, or, if ${params.signer} is the whitelisted address, re-sign the proof with \`tnv keytool generate pop --address ${params.signer}\`.`,
        exitCode: ExitCode.BadKeys,
      },
    )
  }
}

/** DuplicateBLSPubkey: the BLS key is registered already (keys are never released). */
export class BlsKeyAlreadyRegisteredError extends TnvError {
  override readonly code: string = 'BlsKeyAlreadyRegistered'
  constructor(extra: Extra = {}) {
    super('This BLS public key is already registered in the registry.', {
      fix: "If this same address staked with this key, the earlier stake succeeded: check `tnv validator status`. Otherwise a registered key is never released, even after unstaking: generate a new validator's keys in a new data directory (`tnv keytool generate validator --datadir NEW_DIR`).",
      exitCode: ExitCode.BadKeys,
      ...extra,
    })
  }
}

/** InvalidBLSPubkey: the key bytes are not a valid compressed G2 point. */
export class InvalidBlsPubkeyError extends TnvError {
  override readonly code: string = 'InvalidBlsPubkey'
  constructor(extra: Extra = {}) {
    super('The registry rejected the BLS public key as invalid (expected a 96-byte compressed G2 point).', {
      fix: 'Check node-info.yaml or --bls-pubkey; regenerate the keys if the file is corrupt.',
      exitCode: ExitCode.BadKeys,
      ...extra,
    })
  }
}

/** DelegationExpired: the delegation signature's deadline has passed. */
export class DelegationExpiredError extends TnvError {
  override readonly code: string = 'DelegationExpired'
  constructor(deadline: bigint, extra: Extra = {}) {
    super(
      `The delegation signature expired at ${new Date(Number(deadline) * 1000).toISOString()} (deadline ${deadline}).`,
      {
        fix: 'Obtain a new signature with a later deadline from the validator (`tnv delegation sign --delegator YOUR_ADDRESS --deadline 7d`).',
        exitCode: ExitCode.Reverted,
        ...extra,
      },
    )
  }
}

/** The validator's nonce moved on since it signed (increaseNonce, or another delegation used it). */
export class DelegationRevokedError extends TnvError {
  override readonly code: string = 'DelegationRevoked'
  constructor(params: { signedNonce: bigint; currentNonce: bigint; validator: string; revocable: boolean }) {
    super(
      `The delegation signature was made with nonce ${params.signedNonce}, but validator ${params.validator} now has nonce ${params.currentNonce}: ${params.revocable ? 'it revoked earlier signatures (increaseNonce), or another delegation used the nonce' : 'another delegation used the nonce'}, so the registry would reject it.`,
      {
        fix: 'Ask the validator for a new signature (`tnv delegation sign`). Nothing was sent.',
        exitCode: ExitCode.Reverted,
      },
    )
  }
}

/** The stake version changed since the validator signed (the digest binds it). */
export class DelegationStakeVersionError extends TnvError {
  override readonly code: string = 'DelegationStakeVersion'
  constructor(params: { signedVersion: number; currentVersion: number }) {
    super(
      `The delegation signature is bound to stake version ${params.signedVersion}, but the current epoch's stake version is ${params.currentVersion}.`,
      {
        fix: 'Ask the validator for a new signature made in the current epoch (`tnv delegation sign`).',
        exitCode: ExitCode.Reverted,
      },
    )
  }
}

/** The signature does not recover to the validator for this digest. */
export class InvalidDelegationSignatureError extends TnvError {
  override readonly code: string = 'InvalidDelegationSignature'
  constructor(message: string, extra: Extra = {}) {
    super(message, {
      fix: 'Ask the validator to sign again for your address with `tnv delegation sign --delegator YOUR_ADDRESS`, and pass that file.',
      exitCode: ExitCode.Reverted,
      ...extra,
    })
  }
}

/** Unstake is not accepted yet (IneligibleUnstake, or a local eligibility check). */
export class UnstakeNotEligibleError extends TnvError {
  override readonly code: string = 'UnstakeNotEligible'
  constructor(message: string, fix: string, extra: Extra = {}) {
    super(message, { fix, exitCode: ExitCode.WrongState, ...extra })
  }
}

/** What an empty or short Issuance pool means, in one sentence. */
function poolText(pool: bigint): string {
  return pool === 0n
    ? 'The Issuance pool (0x07a0…07a0), which pays rewards, is empty: the epoch system call credits rewards in the registry, but TEL moves only when governance funds the pool (allocateIssuance), and at genesis it holds nothing.'
    : `The Issuance pool (0x07a0…07a0), which pays rewards, holds ${formatTelAndWei(pool)}.`
}

/**
 * On the devnet, how to fill the pool (REHEARSAL-ONLY governance by impersonation): the TEL
 * missing, rounded up to whole TEL.
 */
function devnetFundText(amounts: { rewards: bigint; pool: bigint } | null): string {
  const missing = amounts ? (amounts.rewards - amounts.pool + 10n ** 18n - 1n) / 10n ** 18n : null
  return ` On the devnet, \`tnv devnet governance fund ${missing ?? '<TEL>'}\` fills the pool (REHEARSAL-ONLY).`
}

/** The issuance pool cannot cover the accrued rewards and the shortfall was not (or cannot be) accepted. */
export class RewardShortfallError extends TnvError {
  override readonly code: string = 'RewardShortfall'
  /** false on adiri: its unstake(address) cannot forfeit rewards, so accepting the shortfall does not help. */
  canForfeit: boolean
  /** On the devnet: the command that fills the pool (REHEARSAL-ONLY), to say before any question. */
  devnetFund: string | null
  constructor(
    amounts: { rewards: bigint; pool: bigint } | null,
    extra: Extra = {},
    { canForfeit = true, devnet = false }: { canForfeit?: boolean; devnet?: boolean } = {},
  ) {
    super(
      amounts
        ? `${poolText(amounts.pool)} It owes ${formatTelAndWei(amounts.rewards)} of rewards, so ${canForfeit ? 'unstake without accepting the shortfall reverts' : "the adiri registry's unstake(address), which cannot forfeit rewards, reverts"}.`
        : `The issuance pool cannot cover the accrued rewards: ${canForfeit ? 'unstake without accepting the shortfall reverts' : "the adiri registry's unstake(address) reverts"}.`,
      {
        fix: canForfeit
          ? `Run again with --accept-reward-shortfall to forfeit ${amounts ? formatTelAndWei(amounts.rewards - amounts.pool) : 'the unpaid rewards'} (the stake itself is paid in full), or wait until the pool is refilled.${devnet ? devnetFundText(amounts) : ''}`
          : `Wait until governance funds the pool with at least the rewards owed, then run \`tnv unstake\` again; nothing was sent.${devnet ? devnetFundText(amounts) : ''}`,
        exitCode: ExitCode.Reverted,
        ...extra,
      },
    )
    this.canForfeit = canForfeit
    this.devnetFund = devnet ? devnetFundText(amounts).trim() : null
  }
}

/** A claim the issuance pool cannot pay now (explained before anything is sent). */
export class RewardPoolShortError extends TnvError {
  override readonly code: string = 'RewardPoolShort'
  constructor(
    amounts: { rewards: bigint; pool: bigint } | null,
    extra: Extra = {},
    { devnet = false }: { devnet?: boolean } = {},
  ) {
    super(
      amounts
        ? `${poolText(amounts.pool)} That is less than the ${formatTelAndWei(amounts.rewards)} of rewards to claim, so the claim would revert.`
        : 'The issuance pool cannot pay the accrued rewards now.',
      {
        fix: `Claim later, once governance has funded the pool; the rewards stay credited to the validator. Nothing was sent.${devnet ? devnetFundText(amounts) : ''}`,
        exitCode: ExitCode.Reverted,
        ...extra,
      },
    )
  }
}

/** RewardsBelowMinimum on a claim: less than the minimum withdrawal. */
export class RewardsBelowMinimumError extends TnvError {
  override readonly code: string = 'RewardsBelowMinimum'
  constructor(params: { rewards: bigint | null; minimum: bigint | null }, extra: Extra = {}) {
    super(
      params.rewards !== null && params.minimum !== null
        ? `Accrued rewards of ${formatTelAndWei(params.rewards)} are below the minimum withdrawal of ${formatTelAndWei(params.minimum)}.`
        : 'Accrued rewards are below the minimum withdrawal amount.',
      {
        fix: 'Claim later, once more rewards have accrued (`tnv validator status` shows them).',
        exitCode: ExitCode.Reverted,
        ...extra,
      },
    )
  }
}

/** The signer is not the registry owner (governance-only step). */
export class NotRegistryOwnerError extends TnvError {
  override readonly code: string = 'NotRegistryOwner'
  constructor(params: { signer: string; owner: string; action: string }, extra: Extra = {}) {
    super(`Only the registry owner (${params.owner}) may ${params.action}; the signer is ${params.signer}.`, {
      fix: 'Sign with the governance key, or send the request to governance (a Safe: --unsigned --from SAFE). On the devnet, governance is rehearsed without a key: `tnv devnet governance --help`.',
      exitCode: ExitCode.BadKeys,
      ...extra,
    })
  }
}

/** NotRecipient: the caller is neither the validator nor its delegator. */
export class NotRecipientError extends TnvError {
  override readonly code: string = 'NotRecipient'
  constructor(params: { caller: string; validator?: string | undefined }, extra: Extra = {}) {
    super(
      `The registry refused the caller ${params.caller}: only the validator${params.validator ? ` ${params.validator}` : ''} or its delegator may do this.`,
      { fix: "Sign with the validator's key (or the delegator's).", exitCode: ExitCode.Reverted, ...extra },
    )
  }
}

/** BlsPubkeyNotFound: the validator has no BLS key registered (it never staked). */
export class NotStakedError extends TnvError {
  override readonly code: string = 'NotStaked'
  constructor(address: string, extra: Extra = {}) {
    super(`Address ${address} has not staked: no BLS key is registered for it.`, {
      fix: 'Stake first with `tnv stake`.',
      exitCode: ExitCode.WrongState,
      ...extra,
    })
  }
}

/** NoRefund: nothing is credited to the account. */
export class NoRefundError extends TnvError {
  override readonly code: string = 'NoRefund'
  constructor(account: string, extra: Extra = {}) {
    super(`No refund is credited to ${account}.`, {
      fix: 'Nothing to claim: a refund is credited only when a payout to the recipient was rejected (`tnv validator status` shows it). Nothing was sent.',
      exitCode: ExitCode.WrongState,
      ...extra,
    })
  }
}

/** A custom error tnv has no specific remedy for (the contract added one). */
export class RegistryRevertedError extends TnvError {
  override readonly code: string = 'RegistryReverted'
  constructor(params: { action: string; error: string }, extra: Extra = {}) {
    super(`The registry rejects ${params.action}: ${params.error}.`, {
      fix: "Check the validator's state with `tnv validator status`; the error name above says which rule failed.",
      exitCode: ExitCode.Reverted,
      ...extra,
    })
  }
}

/** A revert without decodable data (out of gas, a require without message, a non-registry failure). */
export class UnknownRevertError extends TnvError {
  override readonly code: string = 'UnknownRevert'
  constructor(params: { action: string; reason: string }, extra: Extra = {}) {
    super(`The simulation says ${params.action} reverts: ${params.reason}.`, {
      fix: 'Nothing was sent. Check the state with `tnv validator status` and the endpoint with --rpc-url; run with DEBUG=1 for the raw error.',
      exitCode: ExitCode.Reverted,
      ...extra,
    })
  }
}

/** An irreversible step without --yes and without a terminal to confirm on. */
export class ConfirmationRequiredError extends UsageError {
  override readonly code: string = 'ConfirmationRequired'
  constructor(action: string, kind: 'money' | 'irreversible' = 'irreversible') {
    super(
      `${action} ${kind === 'money' ? 'sends your TEL' : 'cannot be undone'}, and there is no terminal to confirm on.`,
      { fix: 'Pass --yes to confirm it.' },
    )
  }
}

/** `delegation stake` without the validator's signature file (and not as governance). */
export class DelegationSignatureRequiredError extends UsageError {
  override readonly code: string = 'DelegationSignatureRequired'
  constructor() {
    super("delegateStake needs the validator's signature file.", {
      fix: 'Ask the validator to run `tnv delegation sign --delegator YOUR_ADDRESS --out delegation.json`, then pass --signature delegation.json (governance: --validator ADDRESS instead).',
    })
  }
}

/** Up to `n` items of a list, and how many more. */
function some(items: readonly string[], n = 4): string {
  if (items.length <= n) return items.join(', ')
  return `${items.slice(0, n).join(', ')} and ${items.length - n} more`
}

/** What was found at the registry address, for the drift guard's messages. */
export type FoundCode = {
  address: string
  network: string
  codeHash: string | null
  codeSize: number
  missing: { adiri: readonly string[]; next: readonly string[] }
}

function describeFound(found: FoundCode): string {
  if (found.codeHash === null) return `There is no contract at ${found.address} on ${found.network}.`
  return `The code at ${found.address} on ${found.network} (${found.codeSize} bytes, code hash ${found.codeHash}) is neither registry generation tnv knows: it lacks ${found.missing.adiri.length} functions of adiri (${some(found.missing.adiri)}) and ${found.missing.next.length} of next (${some(found.missing.next)}).`
}

const CHECK_TARGET =
  'Check --registry (the registry is 0x07e17e17e17e17e17e17e17e17e17e17e17e17e1 on every network) and --rpc-url/--chain; if the network upgraded its registry, update tnv.'

/** Drift guard: code that is neither generation stops every command that builds calldata or signs. */
export class UnknownRegistryCodeError extends TnvError {
  override readonly code: string = 'UnknownRegistryCode'
  constructor(found: FoundCode, action: string) {
    super(`${describeFound(found)} tnv will not build calldata for it or sign ${action}; nothing was sent.`, {
      fix: CHECK_TARGET,
      exitCode: ExitCode.UnknownRegistry,
    })
  }
}

/** A read-only command on code that is neither generation: what it can and cannot read. */
export class UnreadableRegistryError extends TnvError {
  override readonly code: string = 'UnreadableRegistry'
  constructor(found: FoundCode, reads: { can: readonly string[]; cannot: readonly string[] }) {
    super(
      `${describeFound(found)} Of the views this command reads, the code has ${reads.can.length ? some(reads.can, 6) : 'none'}; it lacks ${some(reads.cannot, 6)}, so tnv cannot show this.`,
      { fix: CHECK_TARGET, exitCode: ExitCode.UnknownRegistry },
    )
  }
}

/** Code with a known generation's full interface but an unknown build: refused for signing unless accepted by hash. */
export class RegistryCodeNotAcceptedError extends TnvError {
  override readonly code: string = 'RegistryCodeNotAccepted'
  constructor(p: {
    address: string
    network: string
    generation: string
    codeHash: string
    accepted: string | undefined
    action: string
  }) {
    super(
      `The code at ${p.address} on ${p.network} has the full interface of the ${p.generation} registry, but it is not a build tnv knows (code hash ${p.codeHash})${p.accepted ? `, and --accept-registry-code names another hash (${p.accepted})` : ''}. tnv will not build calldata for it or sign ${p.action}; nothing was sent.`,
      {
        fix: `If this is the network's registry, compare ${p.codeHash} with its published build, then accept this exact code with --accept-registry-code ${p.codeHash} (or TN_ACCEPT_REGISTRY_CODE); otherwise check --registry and --rpc-url/--chain.`,
        exitCode: ExitCode.UnknownRegistry,
      },
    )
  }
}

/** --registry-generation names another generation than the code found. */
export class RegistryGenerationMismatchError extends TnvError {
  override readonly code: string = 'RegistryGenerationMismatch'
  constructor(p: {
    address: string
    network: string
    expected: string
    found: string | null
    missing: readonly string[]
  }) {
    super(
      p.found
        ? `--registry-generation says ${p.expected}, but the code at ${p.address} on ${p.network} is the ${p.found} registry.`
        : `--registry-generation says ${p.expected}, but the code at ${p.address} on ${p.network} is not that registry: it lacks ${some(p.missing)}.`,
      {
        fix: p.found
          ? `Drop --registry-generation (tnv detects it), or point --rpc-url/--chain at the network whose registry is ${p.expected}.`
          : `Point --rpc-url/--chain and --registry at a network whose registry is ${p.expected}.`,
        exitCode: ExitCode.UnknownRegistry,
      },
    )
  }
}

/** The endpoint answered a registry view with data that is not what the view returns. */
export class RegistryAnswerError extends TnvError {
  override readonly code: string = 'RegistryAnswer'
  constructor(p: { rpcUrl: string; what: string; reason: string }, extra: Extra = {}) {
    super(
      `The endpoint ${p.rpcUrl} answered ${p.what} with data that is not a valid answer (${p.reason.replace(/\.$/, '')}).`,
      {
        fix: 'The endpoint or the contract behind it is not behaving like a node serving the registry: use another endpoint (your own node), and check --registry.',
        exitCode: ExitCode.RpcUnreachable,
        ...extra,
      },
    )
  }
}

/** The step needs a function the detected generation does not have. */
export class NotInThisGenerationError extends UsageError {
  override readonly code: string = 'NotInThisGeneration'
  constructor(message: string, fix: string) {
    super(message, { fix })
  }
}

/** The adiri proof (218-byte message) does not verify for the key and address, or was made with another key. */
export class AdiriProofMismatchError extends TnvError {
  override readonly code: string = 'AdiriProofMismatch'
  constructor(message: string, fix: string, extra: Extra = {}) {
    super(message, { fix, exitCode: ExitCode.BadKeys, ...extra })
  }
}

/** The registry's delegation digest cannot be reproduced: its domain or type is not what tnv knows. */
export class DelegationDigestMismatchError extends TnvError {
  override readonly code: string = 'DelegationDigestMismatch'
  constructor(p: { registry: string; generation: string; onChain: string; local?: string | undefined }) {
    super(
      p.local
        ? `The registry at ${p.registry} computes delegation digest ${p.onChain}, but tnv computes ${p.local} for the same inputs (${p.generation} generation).`
        : `tnv cannot reproduce the delegation digest ${p.onChain} of the registry at ${p.registry} for any nonce it tried (${p.generation} generation): the registry's EIP-712 domain or type is not the one tnv knows.`,
      {
        fix: 'Nothing was signed. Do not sign a digest you cannot check; check --registry and the network, and report it.',
        exitCode: ExitCode.UnknownRegistry,
      },
    )
  }
}
