/**
 * Where the descriptions of each list on a help page start (TOPICS, COMMANDS, ARGUMENTS, FLAGS,
 * GLOBAL FLAGS, any `<GROUP> FLAGS`). A row is a line indented 2 (6 for a flag without a short
 * form): its name, two spaces or more, its description; a name alone on its line has its
 * description on the next line, whose indentation is that row's column. Other lines continue a
 * description and are not rows.
 */
const LISTS = /^(TOPICS|COMMANDS|ARGUMENTS|(?:[A-Z]+ )?FLAGS)$/

export type ListColumn = { section: string; row: string; column: number }

const indentOf = (line: string) => line.length - line.trimStart().length

export function listColumns(page: string): ListColumn[] {
  const found: ListColumn[] = []
  let section: string | undefined
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what is removed
  const lines = page.replace(/\u001b\[[0-9;]*m/g, '').split('\n')
  for (const [i, line] of lines.entries()) {
    if (/^[A-Z][A-Z ]*$/.test(line)) {
      section = LISTS.test(line) ? line : undefined
      continue
    }
    if (!section || !/^( {2}| {6})\S/.test(line)) continue
    const row = /^ +(\S(?:\S| (?! ))*) {2,}\S/.exec(line)
    // the match ends on the description's first character
    if (row?.[1]) found.push({ section, row: row[1], column: row[0].length - 1 })
    else {
      const next = lines[i + 1] ?? ''
      found.push({ section, row: line.trim(), column: next.trim() === '' ? -1 : indentOf(next) })
    }
  }
  return found
}

/** The distinct description columns of a page's lists (one when the page is aligned). */
export function distinctColumns(page: string): number[] {
  return [...new Set(listColumns(page).map((c) => c.column))]
}

/** The list sections a page has rows in. */
export function listSections(page: string): string[] {
  return [...new Set(listColumns(page).map((c) => c.section))]
}
