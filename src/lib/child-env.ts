/**
 * The environment a child process gets: tnv's own, without the secrets tnv reads for itself.
 * A signer key or keystore password is never needed by the node, anvil or a demo step, so it
 * is not handed on. `keep` names the ones a child does need. A child that needs a secret gets it
 * set explicitly by its starter, never by inheritance: the node binary its BLS passphrase from
 * ./node/node-env.ts, the devnet node its fork URL and JWT secret; anvil gets an environment of
 * its own (src/devnet/chain/spawn-anvil.ts).
 */
export const SECRET_ENV_VARS = [
  'TN_PRIVATE_KEY',
  'TN_KEYSTORE_PASSWORD',
  'TN_BLS_PASSPHRASE',
  'TN_NEW_BLS_PASSPHRASE',
  'TNV_JWT_SECRET',
  /** the reference node's JWT secret (src/devnet/node/start-node.ts) */
  'TNV_NODE_JWT_SECRET',
  /** a fork URL may carry an API key */
  'TNV_DEVNET_FORK_URL',
] as const

export type SecretEnvVar = (typeof SECRET_ENV_VARS)[number]

/** @example spawn(bin, args, { env: childEnv(process.env, { keep: ['TN_BLS_PASSPHRASE'] }) }) */
export function childEnv(
  env: NodeJS.ProcessEnv,
  { keep = [] }: { keep?: readonly SecretEnvVar[] } = {},
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env }
  for (const name of SECRET_ENV_VARS) if (!keep.includes(name)) delete out[name]
  return out
}
