/**
 * The environment a child process gets: tnv's own, without the secrets tnv reads for itself.
 * A signer key or keystore password is never needed by the node, anvil or a demo step, so it
 * is not handed on. `keep` names the ones a child does need; the node binary gets its BLS
 * passphrase from ./node/node-env.ts only, set explicitly in its own environment.
 */
export const SECRET_ENV_VARS = [
  'TN_PRIVATE_KEY',
  'TN_KEYSTORE_PASSWORD',
  'TN_BLS_PASSPHRASE',
  'TN_NEW_BLS_PASSPHRASE',
  'TNV_JWT_SECRET',
] as const

export type SecretEnvVar = (typeof SECRET_ENV_VARS)[number]

/** @example spawn(bin, args, { env: childEnv(process.env, { keep: ['TN_BLS_PASSPHRASE'] }) }) */
export function childEnv(
  env: NodeJS.ProcessEnv = process.env,
  { keep = [] }: { keep?: readonly SecretEnvVar[] } = {},
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env }
  for (const name of SECRET_ENV_VARS) if (!keep.includes(name)) delete out[name]
  return out
}
