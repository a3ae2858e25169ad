/**
 * Helper of keytool.bench.ts: in a fresh process, verifies the PoP of <datadir>/node-info.yaml
 * once with tnv's check, blst in WebAssembly (`tnv`), with noble's shortSignatures.verify (`noble`), or only
 * loads everything (`none`), so the bench can tell the cost of the first verification.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { BLS_DST } from '../src/lib/keys/bls.js'
import { popMessage, verifyProofOfPossession } from '../src/lib/keys/pop.js'
import { readNodeInfo } from '../src/lib/nodeinfo/read.js'

const [datadir, mode] = process.argv.slice(2)
const { info } = await readNodeInfo(datadir ?? '.')
const args = { publicKey: info.blsPublicKey, proof: info.proofOfPossession, address: info.executionAddress }
let ok = true
if (mode === 'tnv') ok = verifyProofOfPossession(args)
else if (mode === 'noble') {
  const s = bls12_381.shortSignatures
  ok = s.verify(args.proof, s.hash(popMessage(args.publicKey, args.address), BLS_DST), args.publicKey)
}
if (!ok) process.exit(1)
