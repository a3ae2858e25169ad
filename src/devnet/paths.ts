/**
 * Where the local devnet lives, and the runtime file a running devnet node writes so other
 * commands (`--chain devnet`, `tnv devnet status|stop`) can find it. Defined in the library
 * (src/lib/chain/devnet-runtime-file.ts, the one reader); re-exported here for the devnet's code.
 */
export {
  type DevnetRuntimeInfo,
  defaultDevnetDir,
} from '../lib/chain/devnet-runtime-file.js'
