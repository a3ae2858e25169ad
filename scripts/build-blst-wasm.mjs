#!/usr/bin/env node
// Builds wasm/blst/tnv-blst.wasm: blst (BLS12-381, Supranational, Apache-2.0) and tnv's
// operations on it (wasm/blst/tnv-blst.c), with tnv's 12-limb forms of three of blst's field
// operations (wasm/blst/tnv-fp384.h, checked natively against blst's own first:
// wasm/blst/tnv-fp384-check.c), compiled to one WebAssembly module with no imports,
// and src/lib/keys/blst-wasm.generated.ts, which records its SHA-256. A maintainer's tool: both
// files are committed, so neither `npm ci`, the tests nor CI need a C compiler
// (docs/decisions.md, "BLS on blst in WebAssembly").
//
// blst's sources come from the npm registry: the package @chainsafe/blst@0.2.11 ships blst 0.3.10
// in its blst/ folder. The tarball is fetched with `npm pack` and checked against the integrity
// below before anything in it is read. The compiler is Debian's clang-14 and wasm-ld-14
// (`apt-get install clang-14 lld-14`; CLANG and WASM_LD override the commands).
//
//   node scripts/build-blst-wasm.mjs           rebuild and write the generated file
//   node scripts/build-blst-wasm.mjs --check   rebuild and fail unless it equals the committed one
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const OUT = join(root, 'src/lib/keys/blst-wasm.generated.ts')
const WASM_OUT = join(root, 'wasm/blst/tnv-blst.wasm')
const GLUE = join(root, 'wasm/blst/tnv-blst.c')
// tnv's 12-limb field operations, included into blst's src/no_asm.h (specialiseFieldOps)
const FIELD_HEADER = 'tnv-fp384.h'
const FIELD_OPS = ['mul_mont_n', 'add_mod_n', 'sub_mod_n']
const FIELD_CHECK = 'tnv-fp384-check.c'
const SOURCE_PACKAGE = '@chainsafe/blst@0.2.11'
const SOURCE_INTEGRITY =
  'sha512-URyOLq5GtxBoxibOnd2pgLydCy0UZzbiIIBcsRAvGxAsRzjZL04TsQfwRkz5aphU3a1ebeRoMmI/HHyMCiFSQg=='
const BLST_VERSION = '0.3.10'
const CLANG = process.env.CLANG ?? 'clang-14'
const WASM_LD = process.env.WASM_LD ?? 'wasm-ld-14'
// -Os: a command makes one or a few BLS operations in a fresh process, in V8's baseline tier
// (Liftoff), which compiles each function on its first call: the smaller code checks a proof of
// possession about 4 ms sooner than -O2's (19.8 against 23.6 ms, 30 fresh processes each; -O3 and
// more inlining are slower still, docs/decisions.md "Start-up, stop 28").
// -D__BLST_NO_ASM__: blst's portable C (no x86 assembly). -mbulk-memory: struct copies become
// memory.copy/memory.fill, so the module needs no libc. 128 KiB of stack: the pairing's largest
// frames are a few KiB.
const CFLAGS = ['--target=wasm32', '-Os', '-ffreestanding', '-nostdlib', '-mbulk-memory', '-D__BLST_NO_ASM__']
const LDFLAGS = [
  '--no-entry',
  '-z',
  'stack-size=131072',
  '--strip-all',
  '--gc-sections',
  '--export=__data_end',
  '--export=__heap_base',
]

/**
 * blst's generic Montgomery multiplication, modular addition and subtraction take tnv's 12-limb
 * forms for the base field (wasm/blst/tnv-fp384.h, which says why): their three definitions in
 * src/no_asm.h are renamed *_generic, and the header, which calls them for every other size, is
 * included just before the first. Each definition must be found exactly once, as blst 0.3.10
 * writes it, or the build stops.
 */
function specialiseFieldOps(noAsm) {
  let text = readFileSync(noAsm, 'utf8')
  for (const name of FIELD_OPS) {
    const definition = new RegExp(`^static void ${name}\\(`, 'gm')
    const found = text.match(definition)?.length ?? 0
    if (found !== 1) throw new Error(`blst src/no_asm.h: expected one definition of ${name}, found ${found}`)
    text = text.replace(
      definition,
      (line) =>
        `${line === `static void ${FIELD_OPS[0]}(` ? `#include "${FIELD_HEADER}"\n\n` : ''}static void ${name}_generic(`,
    )
  }
  writeFileSync(noAsm, text)
}

/**
 * Runs wasm/blst/tnv-fp384-check.c natively: tnv's 12-limb forms against blst's own three
 * functions (as renamed in `noAsm`) on 3,000,000 pairs of elements; the build stops on any
 * difference.
 */
function checkFieldOps(noAsm, work) {
  const text = readFileSync(noAsm, 'utf8')
  const generic = FIELD_OPS.map((name) => {
    const start = text.indexOf(`static void ${name}_generic(`)
    const end = text.indexOf('\n}\n', start)
    if (start < 0 || end < 0) throw new Error(`blst src/no_asm.h: ${name}_generic not found`)
    return text.slice(start, end + 3)
  })
  writeFileSync(
    join(work, 'fp-generic.h'),
    [
      '#include <stddef.h>',
      '#include <stdint.h>',
      'typedef uint32_t limb_t;',
      'typedef uint64_t llimb_t;',
      '#define LIMB_T_BITS 32',
      '#define launder(var)',
      `#include "${FIELD_HEADER}"`,
      ...generic,
    ].join('\n'),
  )
  const exe = join(work, 'fp384-check')
  execFileSync(CLANG, ['-O2', `-I${work}`, `-I${dirname(GLUE)}`, join(dirname(GLUE), FIELD_CHECK), '-o', exe])
  execFileSync(exe, { stdio: ['ignore', 'inherit', 'inherit'] })
}

const check = process.argv.includes('--check')
const work = mkdtempSync(join(tmpdir(), 'tnv-blst-'))
try {
  execFileSync('npm', ['pack', SOURCE_PACKAGE, '--pack-destination', work, '--silent'], { stdio: 'ignore' })
  const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'))
  if (!tgz) throw new Error(`npm pack ${SOURCE_PACKAGE} wrote no tarball`)
  const tarball = readFileSync(join(work, tgz))
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`
  if (integrity !== SOURCE_INTEGRITY)
    throw new Error(
      `${SOURCE_PACKAGE}: integrity ${integrity}, expected ${SOURCE_INTEGRITY}; refusing to build from it`,
    )
  execFileSync('tar', ['-xzf', join(work, tgz), '-C', work])
  const blst = join(work, 'package/blst')
  const cargo = readFileSync(join(blst, 'bindings/rust/Cargo.toml'), 'utf8')
  if (!cargo.includes(`version = "${BLST_VERSION}"`))
    throw new Error(`${SOURCE_PACKAGE} does not hold blst ${BLST_VERSION}`)

  specialiseFieldOps(join(blst, 'src/no_asm.h'))
  checkFieldOps(join(blst, 'src/no_asm.h'), work)
  const include = `-I${join(blst, 'bindings')}`
  execFileSync(CLANG, [
    ...CFLAGS,
    include,
    `-I${dirname(GLUE)}`,
    '-c',
    join(blst, 'src/server.c'),
    '-o',
    join(work, 'blst.o'),
  ])
  execFileSync(CLANG, [...CFLAGS, '-Wall', '-Wextra', '-Werror', include, '-c', GLUE, '-o', join(work, 'tnv.o')])
  execFileSync(WASM_LD, [...LDFLAGS, join(work, 'blst.o'), join(work, 'tnv.o'), '-o', join(work, 'tnv-blst.wasm')])
  const wasm = readFileSync(join(work, 'tnv-blst.wasm'))
  const module = new WebAssembly.Module(wasm)
  if (WebAssembly.Module.imports(module).length !== 0) throw new Error('the module must have no imports')

  const sha256 = createHash('sha256').update(wasm).digest('hex')
  const clangVersion = execFileSync(CLANG, ['--version'], { encoding: 'utf8' }).split('\n')[0]
  const text = `// Generated by scripts/build-blst-wasm.mjs; do not edit. blst ${BLST_VERSION} (Supranational, Apache-2.0)
// from ${SOURCE_PACKAGE} (${SOURCE_INTEGRITY}) and wasm/blst/tnv-blst.c,
// compiled by ${clangVersion}.
/** The package file holding the module (${wasm.length} bytes). */
export const BLST_WASM_FILE = 'wasm/blst/tnv-blst.wasm'
/** The module's SHA-256 (hex), checked when it is loaded. */
export const BLST_WASM_SHA256 = '${sha256}'
/** The blst version the module was compiled from. */
export const BLST_VERSION = '${BLST_VERSION}'
`
  if (check) {
    const committed = readFileSync(WASM_OUT)
    const was = createHash('sha256').update(committed).digest('hex')
    if (was !== sha256 || readFileSync(OUT, 'utf8') !== text) {
      console.error(`blst wasm: rebuilt module ${sha256} differs from the committed ${was} (or its record does)`)
      process.exit(1)
    }
    console.log(`blst wasm: rebuilt module equals the committed one (${wasm.length} bytes, sha256 ${sha256})`)
  } else {
    writeFileSync(WASM_OUT, wasm)
    writeFileSync(OUT, text)
    console.log(`blst wasm: wrote ${WASM_OUT} (${wasm.length} bytes, sha256 ${sha256}) and ${OUT}`)
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
