/** The reference node's process entry (bin/tnv-node.js): `tnv-node node <flags>`; see node-main.ts. */
import { main } from './node-main.js'

await main(process.argv.slice(2))
