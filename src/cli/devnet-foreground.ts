/**
 * The session side of a foreground `tnv devnet start`: tnv stays until the devnet node stops.
 * Ctrl-C reaches the node directly (the terminal's process group); a SIGTERM to tnv is passed on.
 */

/**
 * @returns the node's exit code (null when a signal ended it)
 */
export async function waitForDevnetNode(
  child: { kill(signal: NodeJS.Signals): unknown },
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  note: (line: string) => void,
): Promise<number | null> {
  const forward = () => child.kill('SIGTERM')
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  const { code, signal } = await exited
  note(`devnet node exited (${signal ?? `exit code ${code}`})`)
  return code
}
