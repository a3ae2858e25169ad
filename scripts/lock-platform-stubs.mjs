#!/usr/bin/env node
// The npm registry reachable from this project's machines serves only the Linux builds of
// packages that ship per-platform binaries (biome, anvil). npm then writes a lock file
// without the other platforms' optional entries, and `npm ci` rejects that lock as out of
// sync. This script adds those optional entries (name, version, os/cpu/libc) so `npm ci`
// validates the lock and skips them on this platform, as it does in any full lock file.
// Run it after `npm install` changes package-lock.json.
import { readFileSync, writeFileSync } from 'node:fs'

const path = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(path, 'utf8'))
const pkgs = lock.packages

const targets = {
  'android-arm64': { os: ['android'], cpu: ['arm64'] },
  'android-x64': { os: ['android'], cpu: ['x64'] },
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'darwin-amd64': { os: ['darwin'], cpu: ['x64'] },
  'linux-arm64': { os: ['linux'], cpu: ['arm64'] },
  'linux-x64': { os: ['linux'], cpu: ['x64'] },
  'linux-amd64': { os: ['linux'], cpu: ['x64'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'win32-arm64': { os: ['win32'], cpu: ['arm64'] },
  'win32-x64': { os: ['win32'], cpu: ['x64'] },
  'win32-amd64': { os: ['win32'], cpu: ['x64'] },
}

let added = 0
for (const [key, entry] of Object.entries(pkgs)) {
  const optional = entry.optionalDependencies
  if (!optional || !key.startsWith('node_modules/')) continue
  for (const [name, version] of Object.entries(optional)) {
    const at = `node_modules/${name}`
    if (pkgs[at]) continue
    const suffix = Object.keys(targets).find((t) => name.endsWith(`-${t}`))
    if (!suffix) continue
    pkgs[at] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...targets[suffix],
    }
    added++
  }
}
// keep npm's key order (sorted paths)
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.error(`added ${added} platform stub entries to package-lock.json`)
