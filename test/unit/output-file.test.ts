/**
 * writeOutputFile / writeNewOutputFile (src/lib/fs/output-file.ts), the one way tnv writes a file
 * at a path from the command line: the errors name that path (never the temporary file beside
 * it), carry the exit code docs/ci.md lists, and a failed write leaves the directory as it was.
 */
import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ExitCode, type TnvError } from '../../src/lib/errors.js'
import { writeNewOutputFile, writeOutputFile } from '../../src/lib/fs/output-file.js'
import { tempDir } from '../helpers/cli.js'

async function failure(f: () => Promise<unknown>): Promise<TnvError> {
  try {
    await f()
  } catch (err) {
    return err as TnvError
  }
  throw new Error('expected a failure')
}

describe('writeOutputFile', () => {
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({ dir, cleanup } = tempDir())
  })
  after(() => cleanup())

  it('writes, and replaces a regular file', async () => {
    const p = join(dir, 'a.json')
    await writeOutputFile(p, 'one', { flag: '--out' })
    await writeOutputFile(p, 'two', { flag: '--out' })
    assert.equal(readFileSync(p, 'utf8'), 'two')
  })

  it('a missing directory: OutputDirectoryMissing, exit 5, mkdir -p the directory', async () => {
    const err = await failure(() => writeOutputFile(join(dir, 'no', 'such', 'x.prom'), 'x', { flag: '--prometheus' }))
    assert.equal(err.code, 'OutputDirectoryMissing')
    assert.equal(err.exitCode, ExitCode.Filesystem)
    assert.match(err.render(), new RegExp(`mkdir -p ${join(dir, 'no', 'such')}`))
  })

  it('an existing directory: OutputPathKind, exit 3', async () => {
    const err = await failure(() => writeOutputFile(dir, 'x', { flag: '--out' }))
    assert.equal(err.code, 'OutputPathKind')
    assert.equal(err.exitCode, ExitCode.BadInput)
  })

  it('a device: OutputPathKind, exit 3', async () => {
    const err = await failure(() => writeOutputFile('/dev/null', 'x', { flag: '--out' }))
    assert.equal(err.code, 'OutputPathKind')
    assert.match(err.message, /is a device/)
  })

  it('ENOSPC while writing: names the path, not the temporary file, and leaves nothing', async () => {
    const d = join(dir, 'full')
    mkdirSync(d)
    writeFileSync(join(d, 'keep'), 'old')
    process.env.TNV_INJECT_FAULT = 'write=ENOSPC'
    try {
      const err = await failure(() => writeOutputFile(join(d, 'keep'), 'new', { flag: '--out' }))
      assert.equal(err.code, 'Filesystem')
      assert.equal(err.exitCode, ExitCode.Filesystem)
      assert.match(err.message, new RegExp(`--out ${join(d, 'keep')}: the disk holding ${d} is full \\(ENOSPC\\)`))
      assert.doesNotMatch(err.render(), /\.tmp-/)
    } finally {
      delete process.env.TNV_INJECT_FAULT
    }
    assert.deepEqual(readdirSync(d), ['keep'])
    assert.equal(readFileSync(join(d, 'keep'), 'utf8'), 'old')
  })

  it('writeNewOutputFile: false for an existing file, which stays as it was', async () => {
    const p = join(dir, 'exists')
    writeFileSync(p, 'old')
    assert.equal(await writeNewOutputFile(p, 'new', { flag: '--out', mode: 0o600 }), false)
    assert.equal(readFileSync(p, 'utf8'), 'old')
    assert.equal(await writeNewOutputFile(join(dir, 'fresh'), 'new', { flag: '--out', mode: 0o600 }), true)
  })
})
