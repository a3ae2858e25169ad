/** The argument and description shared by the `tnv devnet governance` commands. */
export const GOVERNANCE_DESCRIPTION_TAIL =
  'REHEARSAL-ONLY: the devnet node sends it by impersonating the registry’s current owner() (the governance Safe on adiri, a placeholder EOA on the next generation). On a real network only the owner’s own signers can do this. The call is simulated first: when the registry would revert, nothing is sent and the error is the registry’s own (exit 22).'
