/**
 * Where the local devnet lives, from the environment the caller hands over (the command layer's
 * flag defaults, the session). Light on purpose: the chain flags import it at top level.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'

/** Default devnet directory: $TNV_DEVNET_DIR, else $XDG_DATA_HOME/tnv/devnet, else ~/.local/share/tnv/devnet. */
export function defaultDevnetDir(env: NodeJS.ProcessEnv): string {
  if (env.TNV_DEVNET_DIR) return env.TNV_DEVNET_DIR
  const base =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.length > 0 ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share')
  return join(base, 'tnv', 'devnet')
}
