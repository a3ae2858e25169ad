/**
 * A package registry on loopback for the install tests: it serves, in the npm registry's
 * format (packument + tarball), exactly the packages this checkout has installed under
 * node_modules (packed with `npm pack`), so `npm install --global tnv-<version>.tgz` resolves
 * tnv's dependencies as it would against the public registry, without leaving the machine.
 * A package it does not have answers 404 (npm skips an optional dependency that 404s, e.g.
 * another platform's anvil).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

type Served = { name: string; version: string; manifest: Record<string, unknown>; tarball: Buffer }

export type LocalRegistry = { url: string; requests: string[]; close: () => Promise<void> }

/** Packs node_modules/<name> for each name (a dependency tree the caller lists) into `dir`. */
export function packInstalled(root: string, names: string[], dir: string): Served[] {
  return names.map((name) => {
    const pkgDir = join(root, 'node_modules', name)
    const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as Record<string, unknown>
    const out = execFileSync('npm', ['pack', pkgDir, '--pack-destination', dir, '--json', '--ignore-scripts'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    const [{ filename }] = JSON.parse(out) as [{ filename: string }]
    return { name, version: manifest.version as string, manifest, tarball: readFileSync(join(dir, filename)) }
  })
}

export async function startLocalRegistry(packages: Served[]): Promise<LocalRegistry> {
  const requests: string[] = []
  let base = ''
  const byName = new Map(packages.map((p) => [p.name, p]))
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/').slice(1)
    requests.push(path)
    const tarballMatch = /^(.+)\/-\/[^/]+-([^/]+)\.tgz$/.exec(path)
    if (tarballMatch) {
      const p = byName.get(tarballMatch[1] as string)
      if (!p || p.version !== tarballMatch[2]) return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(p.tarball)
      return
    }
    const p = byName.get(path)
    if (!p) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
    const shasum = createHash('sha1').update(p.tarball).digest('hex')
    const integrity = `sha512-${createHash('sha512').update(p.tarball).digest('base64')}`
    const file = `${p.name.split('/').pop()}-${p.version}.tgz`
    const version = { ...p.manifest, dist: { tarball: `${base}${p.name}/-/${file}`, shasum, integrity } }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ name: p.name, 'dist-tags': { latest: p.version }, versions: { [p.version]: version } }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return {
    url: base,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
