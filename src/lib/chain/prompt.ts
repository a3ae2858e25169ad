/**
 * Interactive input for the chain commands, on stderr (stdout carries results only), and only
 * on a TTY: callers check `isInteractive()` first and otherwise name the flag to pass.
 */
import { AbortedError } from '../errors.js'

export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY)
}

/** A hidden prompt (nothing echoed). Ctrl-C aborts without changing anything. */
export async function askSecret(message: string): Promise<string> {
  const { password } = await import('@inquirer/prompts')
  try {
    return await password({ message, mask: false }, { output: process.stderr })
  } catch (err) {
    if (err instanceof Error && err.name === 'ExitPromptError') throw new AbortedError()
    throw err
  }
}

/** Yes/no with a default; Ctrl-C counts as No. */
export async function askConfirm(message: string, defaultYes: boolean): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts')
  try {
    return await confirm({ message, default: defaultYes }, { output: process.stderr })
  } catch (err) {
    if (err instanceof Error && err.name === 'ExitPromptError') return false
    throw err
  }
}

/** The first line of standard input (a password piped in), without its line ending. */
export async function readFirstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) {
    chunks.push(Buffer.from(chunk))
    if (chunk.includes(0x0a)) break
  }
  const text = Buffer.concat(chunks).toString('utf8')
  return text.split(/\r?\n/)[0] ?? ''
}
