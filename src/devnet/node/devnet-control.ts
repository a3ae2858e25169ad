/** Asks the devnet node running for a directory to do something (status, advance-epoch) over its control socket. */
import { type ControlOp, controlRequest } from './control.js'
import { DevnetControlError, DevnetNotAnsweringError, DevnetNotRunningError } from './errors.js'
import { controlSocketPath, findRunningDevnet } from './runtime-file.js'

export async function askDevnet<T>(dir: string, op: ControlOp, args: Record<string, unknown> = {}): Promise<T> {
  const running = await findRunningDevnet(dir)
  if (!running.info) throw new DevnetNotRunningError(dir)
  let answer: Awaited<ReturnType<typeof controlRequest>>
  try {
    answer = await controlRequest(controlSocketPath(dir), op, args)
  } catch (err) {
    throw new DevnetNotAnsweringError(dir, running.info.pid, (err as Error).message)
  }
  if (!answer.ok)
    throw new DevnetControlError(op === 'advance-epoch' ? 'advance the epoch' : `answer ${op}`, answer.error)
  return answer.result as T
}
