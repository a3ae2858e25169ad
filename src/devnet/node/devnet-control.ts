/** Asks the devnet node running for a directory to do something (status, advance-epoch, governance) over its control socket. */
import { type ExitCodeValue, TnvError } from '../../lib/errors.js'
import { type ControlOp, controlRequest } from './control.js'
import { DevnetControlError, DevnetNodeNotRunningError, DevnetNotAnsweringError } from './errors.js'
import { controlSocketPath, findRunningDevnet } from './runtime-file.js'

/** An error the node raised for the request, with its own code, fix and exit code. */
export class DevnetRequestError extends TnvError {
  override readonly code: string = 'DevnetRequest'
  constructor(e: { code: string; message: string; fix?: string; details?: string[]; exitCode: number }) {
    super(e.message, { fix: e.fix, details: e.details ?? [], exitCode: e.exitCode as ExitCodeValue })
    this.code = e.code
  }
}

const OPERATION: Record<ControlOp, string> = {
  status: 'answer status',
  'advance-epoch': 'advance the epoch',
  governance: 'run the governance rehearsal',
}

export async function askDevnet<T>(dir: string, op: ControlOp, args: Record<string, unknown> = {}): Promise<T> {
  const running = await findRunningDevnet(dir)
  if (!running.info) throw new DevnetNodeNotRunningError(dir)
  let answer: Awaited<ReturnType<typeof controlRequest>>
  try {
    answer = await controlRequest(controlSocketPath(dir), op, args)
  } catch (err) {
    throw new DevnetNotAnsweringError(dir, running.info.pid, (err as Error).message)
  }
  if (!answer.ok) {
    if (answer.tnvError) throw new DevnetRequestError(answer.tnvError)
    throw new DevnetControlError(OPERATION[op], answer.error)
  }
  return answer.result as T
}
