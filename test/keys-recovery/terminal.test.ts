/**
 * The recovery phrase on a terminal (pseudo-terminal, test/wizard/pty.ts): shown once, the
 * screen cleared, three chosen words re-typed (hidden); three wrong tries of a word write
 * nothing. The phrase read off the screen then recovers the very same data directory (phrase →
 * data directory → key identical), and the confirmation is on record for the stake gate.
 */
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ExitCode } from '../../src/lib/errors.js'
import { parseJson, runCli, tempDir } from '../helpers/cli.js'
import { ENTER, PYTHON, spawnPty } from '../wizard/pty.js'

const skip = PYTHON ? false : 'python3 is not installed: the pseudo-terminal helper needs its pty module'
const ADDRESS = '0x2222222222222222222222222222222222222222'

/** The 24 numbered words as the terminal showed them. */
function phraseOnScreen(screen: string): string[] {
  const words: string[] = []
  for (const m of screen.matchAll(/(\d{1,2})\. ([a-z]+)/g)) words[Number(m[1]) - 1] = m[2] as string
  assert.equal(words.filter(Boolean).length, 24, screen)
  return words
}

describe('keytool generate --mnemonic on a terminal', { skip }, () => {
  let dir: string
  let cleanup: () => void
  before(() => {
    ;({ dir, cleanup } = tempDir('tnv-phrase-pty-'))
  })
  after(() => cleanup())

  it('shows the phrase once, asks three words back (hidden), writes the keys, records the confirmation; recover gives the same key', async () => {
    const datadir = join(dir, 'v')
    const w = spawnPty(['keytool', 'generate', 'validator', '--datadir', datadir, '--address', ADDRESS, '--mnemonic'], {
      TN_BLS_PASSPHRASE: 'terminal passphrase',
    })
    await w.expect('YOUR RECOVERY PHRASE: shown once.')
    await w.expect('Press Enter once all 24 words are written down')
    const words = phraseOnScreen(w.screen())
    assert.ok(!existsSync(join(datadir, 'node-info.yaml')), 'nothing is written before the phrase is confirmed')
    w.type(ENTER)
    for (let i = 0; i < 3; i++) {
      await w.expect('? Word ')
      const shown = await w.expect(' of your recovery phrase (hidden):')
      const position = Number(/Word (\d+) of your recovery phrase \(hidden\):$/.exec(shown)?.[1])
      if (i === 0) {
        w.type(`wrong${ENTER}`) // one wrong try is allowed
        await w.expect(`That is not word ${position}.`)
        await w.expect(`? Word ${position} of your recovery phrase (hidden):`)
      }
      w.type(`${words[position - 1]}${ENTER}`)
      await w.expect(`✔ Word ${position} of your recovery phrase`)
    }
    await w.expect('Recovery phrase confirmed.')
    assert.equal(await w.exited, 0, w.screen())
    const afterClear = w.screen().split('Press Enter once all 24 words are written down')[1] ?? ''
    assert.doesNotMatch(afterClear, /\b\d{1,2}\. [a-z]+\b/, 'the phrase is not shown again')
    const record = JSON.parse(readFileSync(join(datadir, 'tnv-backup.json'), 'utf8'))
    assert.equal(record.proofs[0].how, 'phrase-confirmed')
    assert.equal(record.proofs[0].keyPath, 'm/12381/5522764/0/0/0')

    // the phrase read off the screen rebuilds the same identity
    const recovered = join(dir, 'recovered')
    const r = await runCli(
      [
        'keytool',
        'recover',
        '--datadir',
        recovered,
        '--address',
        ADDRESS,
        '--mnemonic-file',
        '-',
        '--bls-passphrase-source',
        'stdin',
        '--json',
      ],
      { input: `${words.join(' ')}\nanother passphrase\n` },
    )
    assert.equal(r.code, 0, r.stderr)
    const original = await runCli(['keytool', 'show', '--datadir', datadir, '--json'])
    const again = await runCli(['keytool', 'show', '--datadir', recovered, '--json'])
    type Shown = { blsPublicKey: string; proofOfPossession: string; primary: { peerId: string } }
    const a = parseJson<Shown>(original)
    const b = parseJson<Shown>(again)
    assert.equal(b.blsPublicKey, a.blsPublicKey)
    assert.equal(b.proofOfPossession, a.proofOfPossession)
    assert.equal(b.primary.peerId, a.primary.peerId)
  })

  it('three wrong tries of a word: exit 30, nothing written, the phrase void', async () => {
    const datadir = join(dir, 'w')
    const w = spawnPty(['keytool', 'generate', 'validator', '--datadir', datadir, '--address', ADDRESS, '--mnemonic'], {
      TN_BLS_PASSPHRASE: 'terminal passphrase',
    })
    await w.expect('Press Enter once all 24 words are written down')
    w.type(ENTER)
    await w.expect('? Word ')
    const position = Number(/Word (\d+) of/.exec(await w.expect(' of your recovery phrase (hidden):'))?.[1])
    for (let i = 0; i < 3; i++) {
      if (i > 0) await w.expect(`? Word ${position} of your recovery phrase (hidden):`)
      w.type(`zzzz${ENTER}`)
      await w.expect(`✔ Word ${position} of your recovery phrase`)
    }
    assert.equal(await w.exited, ExitCode.Aborted, w.screen())
    assert.match(w.screen(), /did not match the recovery phrase shown, three times\. Nothing was written/)
    assert.ok(!existsSync(datadir), 'nothing written')
  })
})
