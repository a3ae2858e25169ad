/**
 * Shell completion (@oclif/plugin-autocomplete, bundled as tnv's `autocomplete` commands):
 * generated into a temporary cache, the line `tnv autocomplete script bash` prints is sourced
 * in bash, and bash's completion function is called as bash calls it on <TAB>: commands,
 * subcommands and flags come back. zsh: the script is generated, parses, and defines `_tnv`.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { BIN, runCli, tempDir } from '../helpers/cli.js'

const hasZsh = spawnSync('zsh', ['--version']).status === 0

describe('shell completion', () => {
  const tmp = tempDir('tnv-completion-')
  const env = { XDG_CACHE_HOME: join(tmp.dir, 'cache') }
  let bashLine = ''
  before(async () => {
    const r = await runCli(['autocomplete', 'bash'], { env })
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /tnv autocomplete script bash/)
    const script = await runCli(['autocomplete', 'script', 'bash'], { env })
    assert.equal(script.code, 0, script.stderr)
    bashLine = script.stdout.trim()
  })
  after(() => tmp.cleanup())

  it('the printed setup line, run as printed, appends the script with its newline', async () => {
    const r = await runCli(['autocomplete', 'bash'], { env })
    const line = r.stdout.split('\n').find((l) => l.includes('>> ~/.bashrc'))
    assert.ok(line, r.stdout)
    const home = join(tmp.dir, 'home')
    mkdirSync(home, { recursive: true })
    writeFileSync(join(home, '.bashrc'), '# existing\n')
    // `tnv` on PATH is the built CLI; `source` is left out (this shell is not interactive)
    const bin = join(tmp.dir, 'bin')
    mkdirSync(bin, { recursive: true })
    writeFileSync(join(bin, 'tnv'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 })
    const run = spawnSync('bash', ['-c', line.trim().replace(/; source .*$/, '')], {
      env: { ...process.env, HOME: home, PATH: `${bin}:${process.env.PATH}`, ...env },
    })
    assert.equal(run.status, 0, String(run.stderr))
    const rc = readFileSync(join(home, '.bashrc'), 'utf8')
    assert.ok(rc.startsWith('# existing\n') && rc.includes(bashLine), rc)
    assert.ok(rc.endsWith('\n'), 'the rc file ends with a newline')
  })

  /** What bash offers after `words` (the last word is the one being completed). */
  const complete = (words: string[]): string[] => {
    const quoted = words.map((w) => `'${w}'`).join(' ')
    const r = spawnSync(
      'bash',
      [
        '--norc',
        '--noprofile',
        '-c',
        `${bashLine}\nCOMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; COMP_LINE="${words.join(' ')}"; COMP_POINT=\${#COMP_LINE}\n_tnv_autocomplete\nprintf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8' },
    )
    assert.equal(r.status, 0, r.stderr)
    return r.stdout.split('\n').filter(Boolean)
  }

  it('bash: the setup line sources, and `tnv <TAB>` lists the topics and commands', () => {
    const all = complete(['tnv', ''])
    for (const c of ['keytool', 'rpc', 'devnet', 'stake', 'autocomplete'])
      assert.ok(all.includes(c), `${c} in ${all.join(' ')}`)
    assert.deepEqual([...new Set(complete(['tnv', 'keyt']))], ['keytool'])
  })

  it('bash: subcommands and flags', () => {
    const sub = complete(['tnv', 'keytool', ''])
    for (const c of ['generate', 'export-staking-args', 'verify'])
      assert.ok(sub.includes(c), `${c} in ${sub.join(' ')}`)
    assert.ok(complete(['tnv', 'keytool', 'generate', 'validator', '--dat']).includes('--datadir'))
    assert.ok(complete(['tnv', 'rpc', 'plan', '--']).includes('--json'))
  })

  it('zsh: generated; it parses and defines _tnv', { skip: !hasZsh && 'zsh is not installed' }, async () => {
    const r = await runCli(['autocomplete', 'script', 'zsh'], { env })
    assert.equal(r.code, 0, r.stderr)
    const setupLine = r.stdout.trim()
    const fn = join(env.XDG_CACHE_HOME, 'tnv', 'autocomplete', 'functions', 'zsh', '_tnv')
    assert.ok(existsSync(fn))
    assert.equal(spawnSync('zsh', ['-n', fn]).status, 0)
    const z = spawnSync(
      'zsh',
      ['-f', '-c', `autoload -U compinit; compinit -u\n${setupLine}\nwhence -w _tnv; print -r -- $_comps[tnv]`],
      {
        encoding: 'utf8',
        env: { ...process.env, HOME: tmp.dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    assert.equal(z.status, 0, z.stderr)
    assert.match(z.stdout, /_tnv: function\n_tnv\n/)
  })
})
