/**
 * `tnv --version`: what this tnv is and what it knows, printed without loading oclif or any
 * command (src/entries/cli.ts answers it first). The first line is oclif's user agent
 * (`tnv/<version> <platform>-<arch> node-<version>`), which scripts already parse; then the
 * registry generations tnv recognises, with the keccak256 of their runtime code
 * (src/lib/registry/generations/known-code.ts), and the node releases whose behaviour tnv knows
 * (real-network/node.md: v0.14.0-adiri; the specification's release is not published).
 */
import { readFileSync } from 'node:fs'
import { KNOWN_REGISTRY_CODE } from '../lib/registry/generations/known-code.js'

export type VersionInfo = {
  name: string
  version: string
  platform: string
  node: string
  /** How this tnv runs: `npm` (bin/run.js under Node.js) or `single-executable`. */
  distribution: 'npm' | 'single-executable'
  registryGenerations: { generation: string; codeHash: string; source: string }[]
  nodeReleases: { release: string; status: string; knownAs: string }[]
}

/**
 * The node releases tnv models: the released node (node.md's "TN", tag v0.14.0-adiri, same
 * keytool/node-info/namespace code as main) and the release the specification describes
 * (its number is not published: spec "Release numbering ... not shown").
 */
export const KNOWN_NODE_RELEASES: VersionInfo['nodeReleases'] = [
  { release: 'v0.14.0-adiri', status: 'released', knownAs: 'the released node (v0.14.0-adiri and main)' },
  {
    release: 'next',
    status: 'specified, not released (number not published)',
    knownAs: "the specification's release",
  },
]

/** The package's version: package.json two levels up, from src/entries and from dist/entries alike. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version
}

export async function versionInfo(distribution: VersionInfo['distribution']): Promise<VersionInfo> {
  return {
    name: 'tnv',
    version: packageVersion(),
    platform: `${process.platform}-${process.arch}`,
    node: process.version,
    distribution,
    registryGenerations: Object.entries(KNOWN_REGISTRY_CODE).map(([codeHash, v]) => ({
      generation: v.generation,
      codeHash,
      source: v.source,
    })),
    nodeReleases: KNOWN_NODE_RELEASES,
  }
}

export function formatVersion(v: VersionInfo): string {
  const lines = [
    `${v.name}/${v.version} ${v.platform} node-${v.node}${v.distribution === 'npm' ? '' : ' (single executable)'}`,
  ]
  lines.push('registry generations:')
  for (const g of v.registryGenerations) lines.push(`  ${g.generation.padEnd(6)} code keccak256 ${g.codeHash}`)
  lines.push('node releases:')
  for (const r of v.nodeReleases) lines.push(`  ${r.release.padEnd(14)} ${r.status}`)
  return `${lines.join('\n')}\n`
}

/** True when argv asks only for the version: `--version` or `-v`, optionally with `--json`. */
export function isVersionRequest(argv: string[]): boolean {
  const rest = argv.filter((a) => a !== '--json')
  return rest.length === 1 && (rest[0] === '--version' || rest[0] === '-v') && argv.length - rest.length <= 1
}

/** Prints the version (text, or one JSON object with --json). */
export async function printVersion(argv: string[], distribution: VersionInfo['distribution']): Promise<void> {
  const info = await versionInfo(distribution)
  process.stdout.write(argv.includes('--json') ? `${JSON.stringify(info, null, 2)}\n` : formatVersion(info))
}
