/**
 * Decodes a registry revert (from a simulation, a view, or the replay of a reverted receipt)
 * into the operator-facing error with a remedy in the specification's style. The error table is
 * the detected generation's (./generations/*: the registry's own errors, the BlsG1 library's on
 * adiri, the Issuance contract's), or both generations' when the code is not recognised. Every
 * error either generation can raise has a case below (test/registry/decode-revert.test.ts walks
 * both tables); anything else is reported with its raw selector and data, never dropped.
 */
import { type Abi, type Address, BaseError, decodeErrorResult, type Hex } from 'viem'
import { ExitCode, type TnvError } from '../errors.js'
import {
  AdiriProofMismatchError,
  BlsKeyAlreadyRegisteredError,
  DelegationExpiredError,
  InvalidBlsPubkeyError,
  InvalidDelegationSignatureError,
  NoRefundError,
  NotRecipientError,
  NotRegistryOwnerError,
  NotStakedError,
  NotWhitelistedError,
  RegistryRevertedError,
  RewardPoolShortError,
  RewardShortfallError,
  RewardsBelowMinimumError,
  StakeProofOfPossessionInvalidError,
  UnknownRevertError,
  UnstakeNotEligibleError,
  WrongStakeAmountError,
  WrongStatusError,
} from './errors.js'
import { anyGenerationErrorAbi } from './generations/adapters.js'
import { UNIDENTIFIED_NEXT_ERROR_SELECTORS } from './generations/extra-errors.js'
import { RETIRED_STATUS_CODE, statusName } from './generations/status.js'

export type RevertContext = {
  /** What was attempted, for messages: "stake", "unstake", ... */
  action: string
  /** The validator the step is about. */
  validator: Address
  /** The sender. */
  signer: Address
  /** The value sent, when there is one. */
  value?: bigint | undefined
  /** The stake amount tnv read (for InvalidStakeAmount). */
  stakeAmount?: bigint | undefined
  /** Rewards and pool balance read before (the unstake shortfall, a claim the pool cannot pay). */
  shortfall?: { rewards: bigint; pool: bigint } | undefined
  /** The transaction hash when the revert comes from a mined receipt. */
  txHash?: Hex | undefined
  /** The detected generation's error table (default: both generations'). */
  errorAbi?: Abi | undefined
  /** The detected generation, for generation-specific remedies. */
  generation?: 'adiri' | 'next' | null | undefined
}

/** The revert data carried anywhere along a viem error's cause chain. */
export function extractRevertData(err: unknown): Hex | undefined {
  let cur: unknown = err
  for (let depth = 0; cur && depth < 12; depth++) {
    const data = (cur as { data?: unknown }).data
    if (typeof data === 'string' && /^0x[0-9a-fA-F]*$/.test(data) && data.length >= 10) return data as Hex
    if (data && typeof data === 'object') {
      const inner = (data as { data?: unknown }).data
      if (typeof inner === 'string' && /^0x[0-9a-fA-F]*$/.test(inner) && inner.length >= 10) return inner as Hex
      const raw = (data as { raw?: unknown }).raw
      if (typeof raw === 'string' && /^0x[0-9a-fA-F]*$/.test(raw) && raw.length >= 10) return raw as Hex
    }
    const raw = (cur as { raw?: unknown }).raw
    if (typeof raw === 'string' && /^0x[0-9a-fA-F]*$/.test(raw) && raw.length >= 10) return raw as Hex
    cur = (cur as { cause?: unknown }).cause
  }
  return undefined
}

/** True when the error is an execution revert (as opposed to a transport fault). */
export function isRevert(err: unknown): boolean {
  if (extractRevertData(err) !== undefined) return true
  const text = err instanceof BaseError ? `${err.shortMessage} ${err.details}` : String(err)
  return /revert|execution reverted/i.test(text)
}

type Extra = { details: string[]; cause: unknown }
type Decoded = { errorName: string; args: readonly unknown[] }
type Remedy = (args: readonly unknown[], ctx: RevertContext, extra: Extra, decoded: Decoded) => TnvError

const big = (v: unknown): bigint | null => (typeof v === 'bigint' ? v : null)
const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback)

/** A remedy in one line, for the errors that have no class of their own. */
function reverted(message: (ctx: RevertContext, args: readonly unknown[]) => string, fix: string, exitCode?: number) {
  return ((args, ctx, extra, decoded) => {
    const err = new RegistryRevertedError({ action: ctx.action, error: describe(decoded) }, extra)
    err.message = message(ctx, args)
    err.fix = fix
    if (exitCode !== undefined) err.exitCode = exitCode as TnvError['exitCode']
    return err
  }) satisfies Remedy
}

const GOVERNANCE_ONLY = reverted(
  (ctx) => `The registry refuses ${ctx.action}: only governance (the registry owner) may do this.`,
  'Sign with the governance key, or send the request to governance.',
)
const SYSTEM_ONLY = reverted(
  (ctx) =>
    `The registry refuses ${ctx.action}: only the node's system calls (from 0xffff…fffe, at an epoch boundary) may do this.`,
  'Nothing to do as an operator: the node makes these calls itself.',
)
const SOULBOUND = reverted(
  (ctx) => `The registry refuses ${ctx.action}: a ConsensusNFT is soulbound and cannot be transferred or approved.`,
  'Nothing to do: the NFT stays with its validator address until unstake burns it.',
)
const BLS_LIBRARY = reverted(
  (ctx, args) =>
    `The adiri registry's BLS library rejected the proof of possession of ${ctx.validator}${args.length ? ` (${args.map(stringify).join(', ')})` : ''}: the uncompressed key or signature is malformed.`,
  'Let tnv sign the adiri proof with the BLS key (`tnv stake --datadir DIR`, or `tnv keytool export-staking-args --registry-generation adiri`); do not edit the proof by hand.',
  ExitCode.BadKeys,
)

/** Every error name either generation (and what it calls) can raise, with its remedy. */
const REMEDIES: Record<string, Remedy> = {
  // --- whitelist and status -------------------------------------------------------------
  InvalidTokenId: (_a, ctx, extra) => new NotWhitelistedError(ctx.validator, extra),
  RequiresConsensusNFT: (_a, ctx, extra) => new NotWhitelistedError(ctx.validator, extra),
  AlreadyDefined: (args, ctx, extra) =>
    ctx.action === 'mint'
      ? new WrongStatusError(
          `The registry refuses to whitelist ${str(args[0], ctx.validator)}: it already holds a ConsensusNFT, or it is retired (a retired address is never whitelisted again).`,
          'Check it with `tnv validator status --address ADDRESS`.',
          extra,
        )
      : new WrongStatusError(
          `The registry refuses ${ctx.action}: ${str(args[0], ctx.validator)} is already defined (it staked before).`,
          'Check its state with `tnv validator status`; a validator address stakes once.',
          extra,
        ),
  InvalidStatus: (args, ctx, extra) => {
    const code = typeof args[0] === 'number' ? args[0] : null
    const status = code === null ? 'unknown' : code === RETIRED_STATUS_CODE ? 'retired' : statusName(code)
    return new WrongStatusError(
      `The registry refuses ${ctx.action} for ${ctx.validator}: the validator's status (${status}) does not allow it.`,
      "Check the state with `tnv validator status` (the registry's `getValidator()`), and run the step that status calls for.",
      extra,
    )
  },
  IneligibleUnstake: (_a, ctx, extra) =>
    new UnstakeNotEligibleError(
      `The registry refuses to unstake ${ctx.validator} yet: it accepts unstake only when the status is Staked, or Exited with the current epoch at least exit epoch + 1.`,
      'See when it becomes possible with `tnv validator status` (unstakeEpoch), then run `tnv unstake` again.',
      extra,
    ),
  InvalidEpoch: (args, ctx, extra) =>
    ctx.action === 'beginExit'
      ? new WrongStatusError(
          `The registry refuses to begin the exit of ${ctx.validator} in this epoch: an activated validator may exit only from its activation epoch on.`,
          'Wait for the next epoch boundary (`tnv validator status` shows the activation epoch), then run `tnv exit` again.',
          extra,
        )
      : new WrongStatusError(
          `The registry refuses ${ctx.action}: epoch ${String(args[0] ?? '?')} is outside the epochs it keeps (current − 3 … current + 2).`,
          'Ask about an epoch in that window.',
          extra,
        ),
  InvalidCommitteeSize: (args, ctx, extra) =>
    ctx.action === 'beginExit'
      ? new WrongStatusError(
          `The registry refuses the exit of ${ctx.validator} now: it would leave fewer eligible validators than the committee needs (${String(args[0] ?? '?')}).`,
          'Wait until more validators are Active (or governance lowers the committee size), then run `tnv exit` again.',
          extra,
        )
      : new WrongStatusError(
          `The registry refuses ${ctx.action}: the committee size would be wrong (expected ${String(args[0] ?? '?')}, got ${String(args[1] ?? '?')}).`,
          'Only the node and governance set committees; check the step.',
          extra,
        ),
  InvalidSupply: reverted(
    (ctx) =>
      `The registry refuses to unstake ${ctx.validator}: it would burn the last ConsensusNFT, and the registry keeps at least one validator.`,
    'Wait until another validator is whitelisted, then run `tnv unstake` again.',
    ExitCode.WrongState,
  ),
  // --- stake ----------------------------------------------------------------------------
  InvalidStakeAmount: (_a, ctx, extra) =>
    new WrongStakeAmountError({ sent: ctx.value ?? null, expected: ctx.stakeAmount ?? null }, extra),
  InvalidProofOfPossession: (_a, ctx, extra) =>
    ctx.generation === 'adiri'
      ? new AdiriProofMismatchError(
          `The adiri registry rejects the proof of possession of ${ctx.validator}: its signature over the 218-byte message (uncompressed key ‖ address) does not verify.`,
          'Let tnv sign it with the BLS key of this validator (`tnv stake --datadir DIR` asks for the passphrase), for this exact validator address.',
          extra,
        )
      : new StakeProofOfPossessionInvalidError(ctx.validator, extra),
  DuplicateBLSPubkey: (_a, _c, extra) => new BlsKeyAlreadyRegisteredError(extra),
  InvalidBLSPubkey: (_a, _c, extra) => new InvalidBlsPubkeyError(extra),
  BlsPubkeyNotFound: (args, ctx, extra) => new NotStakedError(str(args[0], ctx.validator), extra),
  LowLevelCallFailure: reverted(
    (ctx) =>
      ctx.generation === 'adiri'
        ? `The adiri registry's BLS library could not call the EIP-2537 precompiles while checking the proof for ${ctx.action}: this chain lacks them (it is not a Prague chain).`
        : `The registry could not call the node's BLS verify precompile at 0x…b151 for ${ctx.action}: this chain has no BLS precompile there.`,
    'Use an endpoint of a Telcoin Network node (a rehearsal chain needs the EVM verifier that `tnv devnet start` installs); nothing was sent.',
  ),
  // --- delegation -----------------------------------------------------------------------
  NotValidator: (args, ctx, extra) =>
    new InvalidDelegationSignatureError(
      `The registry rejects the delegation signature: it does not recover to ${str(args[0], ctx.validator)} over the registry's delegation digest (key, validator, delegator, stake version, the validator's nonce${ctx.generation === 'next' ? ', deadline' : ''}).`,
      extra,
    ),
  DelegationExpired: (args, _c, extra) => new DelegationExpiredError(big(args[0]) ?? 0n, extra),
  // --- rewards, refunds, unstake --------------------------------------------------------
  InsufficientRewards: (args, ctx, extra) =>
    ctx.action === 'unstake'
      ? new RewardShortfallError(ctx.shortfall ?? null, extra)
      : new RewardsBelowMinimumError({ rewards: big(args[0]), minimum: null }, extra),
  InsufficientBalance: (args, ctx, extra) => {
    const amounts = { pool: big(args[0]) ?? 0n, rewards: big(args[1]) ?? 0n }
    return ctx.action === 'unstake'
      ? new RewardShortfallError(amounts, extra)
      : new RewardPoolShortError(amounts, extra)
  },
  IssuanceTransferFailed: reverted(
    (ctx) => `The registry could not move TEL to the Issuance contract during ${ctx.action}.`,
    'Try again later; if it persists, report it to governance (the Issuance contract refused the transfer).',
  ),
  RewardDistributionFailure: reverted(
    (ctx, args) =>
      `The Issuance contract could not pay ${str(args[0], 'the recipient')} during ${ctx.action}: the recipient rejected the TEL, and on this registry a rejected payout reverts the whole call.`,
    'Pay to an address that accepts TEL (an EOA, or a contract with a payable receive), then run the command again.',
  ),
  OnlyStakeManager: reverted(
    (ctx) => `The Issuance contract refuses ${ctx.action}: only the registry may ask it to pay.`,
    'Nothing to do as an operator: send the step to the registry, not to the Issuance contract.',
  ),
  NotRecipient: (_a, ctx, extra) => new NotRecipientError({ caller: ctx.signer, validator: ctx.validator }, extra),
  NoClaimableRefund: (_a, ctx, extra) => new NoRefundError(ctx.signer, extra),
  // --- stake versions and top-ups (next) ------------------------------------------------
  InvalidStakeVersion: reverted(
    (ctx, args) =>
      `The registry refuses ${ctx.action}: stake version ${String(args[1] ?? '?')} is not allowed from version ${String(args[0] ?? '?')}.`,
    'Check the current stake version with `tnv validator status`.',
  ),
  InvalidDeficitAmount: reverted(
    (ctx) => `The registry refuses ${ctx.action}: the value does not match the stake version change's deficit.`,
    'Send exactly the difference between the two versions’ stake amounts.',
  ),
  NoPendingVersionChange: reverted(
    (ctx) => `The registry refuses ${ctx.action}: there is no pending stake version change to cancel.`,
    'Nothing to cancel.',
    ExitCode.WrongState,
  ),
  StakeNotSlashed: reverted(
    (ctx) =>
      `The registry refuses ${ctx.action}: the stake is not below its stake amount, so there is nothing to top up.`,
    'Nothing to top up.',
    ExitCode.WrongState,
  ),
  TopUpAuthorityRequired: GOVERNANCE_ONLY,
  // --- governance, system, pause, ownership ---------------------------------------------
  OwnableUnauthorizedAccount: (_a, ctx, extra) =>
    new NotRegistryOwnerError({ signer: ctx.signer, owner: 'the governance address', action: ctx.action }, extra),
  OwnableInvalidOwner: GOVERNANCE_ONLY,
  InvalidDuration: GOVERNANCE_ONLY,
  OnlySystemCall: SYSTEM_ONLY,
  CommitteeRequirement: SYSTEM_ONLY,
  EnforcedPause: reverted(
    (ctx) => `The registry is paused by governance: ${ctx.action} is refused until it is unpaused.`,
    'Wait until governance unpauses the registry, then run the command again.',
    ExitCode.WrongState,
  ),
  ExpectedPause: GOVERNANCE_ONLY,
  Reentrancy: reverted(
    (ctx) => `The registry refused a re-entrant call during ${ctx.action}.`,
    'Send the step from an EOA, not from a contract that calls back into the registry.',
  ),
  NotTransferable: SOULBOUND,
  ERC721InsufficientApproval: SOULBOUND,
  ERC721InvalidApprover: SOULBOUND,
  ERC721InvalidOperator: SOULBOUND,
  ERC721InvalidOwner: SOULBOUND,
  ERC721InvalidReceiver: SOULBOUND,
  ERC721InvalidSender: SOULBOUND,
  ERC721IncorrectOwner: SOULBOUND,
  ERC721NonexistentToken: (_a, ctx, extra) => new NotWhitelistedError(ctx.validator, extra),
  ERC721OutOfBoundsIndex: reverted(
    (ctx) => `The registry refuses ${ctx.action}: there is no ConsensusNFT at that index.`,
    'Ask for an index below totalSupply().',
  ),
  ERC721EnumerableForbiddenBatchMint: GOVERNANCE_ONLY,
  StringsInsufficientHexLength: reverted(
    (ctx) => `The registry failed to format a token URI during ${ctx.action}.`,
    'Nothing to do as an operator; report it.',
  ),
  // constructor-only (adiri): never from deployed code, kept so every declared error has a case
  GenesisArityMismatch: SYSTEM_ONLY,
  InvalidValidatorAddress: SYSTEM_ONLY,
  // BlsG1 library (adiri), bubbling up from the proof check
  InvalidPoint: BLS_LIBRARY,
  InvalidPadding: BLS_LIBRARY,
  InvalidUncompressedBLSPubkey: BLS_LIBRARY,
  InvalidFpOffset: BLS_LIBRARY,
  InvalidBLSProof: BLS_LIBRARY,
  EllTooLarge: BLS_LIBRARY,
  LengthTooLarge: BLS_LIBRARY,
  CountTooLarge: BLS_LIBRARY,
  DSTTooLong: BLS_LIBRARY,
  I2OSPIntegerTooLarge: BLS_LIBRARY,
}

/** Names with a remedy (for the test that every declared error has one). */
export const DECODED_ERROR_NAMES: readonly string[] = Object.keys(REMEDIES)

/**
 * @example throw registryErrorFromRevert(err, { action: 'stake', validator, signer, errorAbi: adapter.errorAbi })
 */
export function registryErrorFromRevert(err: unknown, ctx: RevertContext): TnvError {
  const data = extractRevertData(err)
  const details = [...(ctx.txHash ? [`transaction ${ctx.txHash} reverted on chain`] : [])]
  if (data === undefined) {
    const reason = err instanceof BaseError ? err.details || err.shortMessage : String(err)
    return new UnknownRevertError({ action: ctx.action, reason: reason || 'no reason given' }, { details, cause: err })
  }
  let decoded: Decoded
  try {
    const result = decodeErrorResult({ abi: ctx.errorAbi ?? anyGenerationErrorAbi, data })
    decoded = { errorName: result.errorName, args: result.args ?? [] }
  } catch {
    return unknownSelector(data, ctx, details, err)
  }
  const extra: Extra = { details: [`revert: ${describe(decoded)}`, ...details], cause: err }
  if (decoded.errorName === 'Error')
    return new RegistryRevertedError({ action: ctx.action, error: `"${str(decoded.args[0], '')}"` }, extra)
  if (decoded.errorName === 'Panic')
    return new RegistryRevertedError(
      { action: ctx.action, error: `a Solidity panic (code ${stringify(decoded.args[0])})` },
      extra,
    )
  const remedy = REMEDIES[decoded.errorName]
  if (remedy) return remedy(decoded.args, ctx, extra, decoded)
  return new RegistryRevertedError({ action: ctx.action, error: describe(decoded) }, extra)
}

function unknownSelector(data: Hex, ctx: RevertContext, details: string[], cause: unknown): TnvError {
  const selector = data.slice(0, 10).toLowerCase() as Hex
  const note = UNIDENTIFIED_NEXT_ERROR_SELECTORS.includes(selector)
    ? ' This selector is in the next registry’s code, but its name is not public (one of three unidentified errors, probably added by tn-contracts #165/#169).'
    : ''
  return new UnknownRevertError(
    {
      action: ctx.action,
      reason: `error ${selector}, which tnv does not know${note}`,
    },
    {
      details: [
        `selector: ${selector}`,
        `data: ${data.length > 202 ? `${data.slice(0, 202)}…` : data}`,
        `look it up: cast 4byte ${selector}   (or: cast decode-error ${data.length > 202 ? '<data>' : data})`,
        ...details,
      ],
      cause,
    },
  )
}

function describe(decoded: Decoded): string {
  return `${decoded.errorName}(${decoded.args.map((a) => stringify(a)).join(', ')})`
}

function stringify(v: unknown): string {
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'string') return v
  if (Array.isArray(v)) return `[${v.map(stringify).join(', ')}]`
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${stringify(x)}`)
      .join(', ')}}`
  return String(v)
}
