/**
 * The devnet's genesis validators as the registry receives them: address, compressed BLS public
 * key and proof of possession, precomputed from the fixed devnet secrets of
 * `devnetGenesisValidators()` (accounts.ts) so a fresh devnet needs no BLS work to start.
 * test/devnet-chain/genesis-validators.test.ts recomputes every entry; `initialize` verifies
 * every proof on chain.
 */
import type { Address, Hex } from 'viem'

export type GenesisValidatorEntry = { address: Address; blsPublicKey: Hex; proofOfPossession: Hex }

export const GENESIS_VALIDATORS: readonly GenesisValidatorEntry[] = [
  {
    address: '0x5a9Cc664f1EC46A0299F0c86e1Dd3Ad171B973eA',
    blsPublicKey:
      '0xa410b2b4e44246ba62393950d52a432619e93b589b3a51ba2eaa7eaf2ff5996dddb7e79aa6c347d1cfb2b0468dd8c88012d06132fc305c6dc733d038dfdba773d4131fa488d537b6a8aae4bd554e9183695a2cd9b1e29838c874d269c64bd577',
    proofOfPossession:
      '0xb0cead39d4ae021b2cdb1bd038d066516e1d640d9137b21ab614220661f384513a496b8edc6de330f97064ddd14196bf',
  },
  {
    address: '0x1222a3CF3bD78f2f9F738C3c4a145c43753777AE',
    blsPublicKey:
      '0xa54eb9af8d1801f3bc68afc3df1ae847764bb0f72f1a8f4934c5c099017d0698300233d0b85692be5eac0cb4fe40e0ba199d41e29ac79dbaf65b210d87b677465ce1ee6f9d000e757d20880acbfd95d7a83b6bd207997412f652af767d731fa6',
    proofOfPossession:
      '0x84db75c3844f3738a7dd6e236708b883f6b7acfc4c55e3a7b1ead84b4ed1eefab4764056dc4eeb68ae56b97f52e8246c',
  },
  {
    address: '0xd2b86D48E3E28EA84c30d3c29e0f7df4Ed1D910b',
    blsPublicKey:
      '0x80d9e27bd95fa3e54e7dfa0e2c3ebca04079f909fdefbcee7ea24f859fbbcb9da463107bc936c310e6e723273dd268500afd92a4db6b8cd36baba31e938b89f4c9a4f47382797a690ac30e3f73b48a2423f601e119805517ed2a242072ea1ffb',
    proofOfPossession:
      '0xb63284acd6e51a72f38ca9eee02b067b398411d637d831f7bb4e9ec58931f520a5223c82b15941120f17b4e9ef1a76ca',
  },
  {
    address: '0x71D083040A1f6a51D8e51382265570d3306D247e',
    blsPublicKey:
      '0x99b0577700a489e180da1b9376ee03c3bb91b0a13406c89f708b700d5fe4196703bb87d95b16a916ebdd4ac6ca0dc1670afb3bfef5c016764b0b9d3a5f97267effcbad65b38f905b75a55fba8c1fa8baf4b91d2b764d458a543df3658016f8ed',
    proofOfPossession:
      '0xad9f19336ac7177f401cf8e9583edf25d14188848775594a90ffa35911763b4edebc178602db5a8233fa0cf17a587f06',
  },
]
