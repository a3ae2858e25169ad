// Facts the build bakes into the bundle (esbuild define), shared by scripts/build.mjs and
// scripts/package.mjs.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * Facts `tnv --version` prints without loading the library (src/entries/version.ts): the
 * package version and the registry code hashes of src/lib/registry/generations/detect.ts
 * (read from its source; test/ship/version.test.ts checks them against the module and the
 * genesis files).
 */
export function buildInfo() {
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const detect = readFileSync(join(root, 'src/lib/registry/generations/detect.ts'), 'utf8')
  const registryCode = [
    ...detect.matchAll(/'(0x[0-9a-f]{64})':\s*\{\s*generation:\s*'(\w+)',\s*source:\s*'([^']*)'/g),
  ].map(([, codeHash, generation, source]) => ({ generation, codeHash, source }))
  if (registryCode.length < 2) throw new Error('build: cannot read KNOWN_REGISTRY_CODE from detect.ts')
  return { version: pjson.version, registryCode }
}
