/** Moved to the library (src/lib/net/free-port.ts): the devnet uses the library, never the reverse. */
export { freeLoopbackPort } from '../../lib/net/free-port.js'
