/**
 * Issue 16 item 12: every help page draws its lists (TOPICS, COMMANDS, ARGUMENTS, FLAGS, GLOBAL
 * FLAGS) with one column width, so the descriptions start at one offset. Every page is rendered
 * in-process with tnv's help class (and, to show the check can fail, some with oclif's own);
 * then through the CLI's entry, which must hand help to that class (`--help`, a topic alone,
 * `tnv help …`). test/ship/sea.test.ts checks the single executable the same way.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { Config, Help } from '@oclif/core'
import { fitToWidth, TnvHelp } from '../../src/cli/help.js'
import { runCli } from '../helpers/cli.js'
import { distinctColumns, listSections } from '../helpers/help-columns.js'
import { ROOT } from '../helpers/paths.js'

/** One page, rendered by `HelpClass` on a fresh config (oclif's help rewrites command ids as it renders). */
async function page(HelpClass: typeof Help, argv: string[]): Promise<string> {
  const config = await Config.load(ROOT)
  const lines: string[] = []
  // TnvHelp fits what it logs to the width, then emits it; oclif's Help only logs
  const help =
    HelpClass === TnvHelp
      ? new (class extends TnvHelp {
          protected override emit(text: string) {
            lines.push(text)
          }
        })(config, { maxWidth: 80, stripAnsi: true })
      : new (class extends HelpClass {
          override log(...args: string[]) {
            lines.push(args.join(' '))
          }
        })(config, { maxWidth: 80, stripAnsi: true })
  await help.showHelp(argv)
  return lines.join('\n')
}

async function allPages(): Promise<string[][]> {
  const config = await Config.load(ROOT)
  const topics = config.topics.filter((t) => !t.hidden).map((t) => t.name)
  const commands = config.commands.filter((c) => !c.hidden).map((c) => c.id)
  return [[], ...[...new Set([...topics, ...commands])].sort().map((id) => id.split(':'))]
}

describe('help pages: one column width per page', () => {
  it('oclif’s own help draws TOPICS and COMMANDS at different columns (what the check must catch)', async () => {
    for (const argv of [['devnet'], ['keytool'], ['keytool', 'backup']]) {
      const text = await page(Help, argv)
      assert.ok(distinctColumns(text).length > 1, `oclif's help of ${argv.join(' ')} was aligned already:\n${text}`)
    }
  })

  it('every page, root, topics and commands: every list starts its descriptions at one column', async () => {
    const pages = await allPages()
    assert.ok(pages.length > 40, `only ${pages.length} pages`)
    let multiList = 0
    for (const argv of pages) {
      const text = await page(TnvHelp, argv)
      const where = `tnv ${argv.join(' ')} --help`
      assert.ok(listSections(text).length > 0, `${where}: no list found\n${text}`)
      assert.equal(distinctColumns(text).length, 1, `${where}: columns ${distinctColumns(text)}\n${text}`)
      if (listSections(text).length > 1) multiList++
    }
    // the pages this is about: a topic with subtopics, the root, commands with global flags
    assert.ok(multiList > 30, `only ${multiList} pages with more than one list`)
  })

  it('every page fits 80 columns; an example broken over lines reads, joined as a shell joins it, as the example', async () => {
    const width = (line: string) => [...line].length
    let wrappedExamples = 0
    for (const argv of await allPages()) {
      const text = await page(TnvHelp, argv)
      const where = `tnv ${argv.join(' ')} --help`
      for (const line of text.split('\n')) assert.ok(width(line) <= 80, `${where}: ${width(line)} columns: ${line}`)
      const config = await Config.load(ROOT)
      const command = config.findCommand(argv.join(':'))
      for (const example of command?.examples ?? []) {
        const raw = (typeof example === 'string' ? example : example.command)
          .replaceAll('<%= config.bin %>', 'tnv')
          .replaceAll('<%= command.id %>', argv.join(' '))
        const code = raw.replace(/\s+#.*$/, '').trim()
        if (width(raw) + 4 <= 80) continue
        wrappedExamples++
        // the page holds the example's words in order, its lines joined at each trailing backslash
        const joined = text.replaceAll(/ \\\n +/g, ' ')
        assert.ok(joined.includes(code), `${where}: the example does not read back:\n${code}\n${text}`)
      }
    }
    assert.ok(wrappedExamples >= 3, `only ${wrappedExamples} examples longer than a line`)
  })

  it('fitToWidth: prose keeps its indentation, usage breaks between groups, a command with a backslash and its comment above', () => {
    assert.equal(fitToWidth('short line', 20), 'short line')
    assert.equal(
      fitToWidth("  printf 'one two three four' | tnv keytool x --flag", 30),
      "  printf \\\n      'one two three four' | \\\n      tnv keytool x --flag",
      'a quoted argument stays whole',
    )
    assert.equal(fitToWidth('  one two three four five', 14), '  one two\n  three four\n  five')
    assert.equal(
      fitToWidth('  $ tnv x FILE [--json] [--datadir <path>]', 30),
      '  $ tnv x FILE [--json]\n    [--datadir <path>]',
    )
    assert.equal(
      fitToWidth('  $ tnv node start --http.port 8555 --chain adiri   # a comment here', 40),
      '  # a comment here\n  $ tnv node start --http.port 8555 \\\n      --chain adiri',
    )
  })

  it('the CLI hands every help request to that class: --help, a topic alone, tnv help …, no argument', async () => {
    for (const args of [
      ['devnet', '--help'],
      ['devnet'],
      ['help', 'devnet'],
      ['help', 'keytool', 'backup'],
      ['keytool', '--help'],
      ['--help'],
      [],
      ['devnet', 'start', '--help'],
    ]) {
      const r = await runCli(args)
      const where = `tnv ${args.join(' ')}`
      assert.equal(r.code, 0, `${where}: ${r.stderr}`)
      assert.equal(r.stderr, '', where)
      assert.ok(listSections(r.stdout).length > 1, `${where}: ${r.stdout}`)
      assert.deepEqual(distinctColumns(r.stdout).length, 1, `${where}:\n${r.stdout}`)
    }
  })

  it('-h is --help (package.json oclif.additionalHelpFlags), not after --', async () => {
    const short = await runCli(['devnet', 'start', '-h'])
    const long = await runCli(['devnet', 'start', '--help'])
    assert.equal(short.code, 0, short.stderr)
    assert.equal(short.stdout, long.stdout)
  })

  it('tnv help <typo>: the closest command, exit 2', async () => {
    const r = await runCli(['help', 'devnet', 'strat'])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /`tnv devnet strat` is not a tnv command\. Did you mean `tnv devnet start`\?/)
    assert.equal(r.stdout, '')
  })
})
