#!/usr/bin/env node
// The development and test entry: the same start as the installed `tnv` (bin/tnv.cjs).
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const { installedHost, launch } = createRequire(import.meta.url)('../dist/launch.cjs')
await launch(process.argv.slice(2), installedHost(fileURLToPath(new URL('..', import.meta.url))))
