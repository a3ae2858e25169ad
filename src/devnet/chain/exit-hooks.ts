/**
 * Synchronous clean-ups run when this process exits (normally or by an uncaught error): one
 * `exit` listener for all devnet chains of the process, however many are started.
 */
const hooks = new Set<() => void>()
let installed = false

function runAll(): void {
  for (const hook of hooks) {
    try {
      hook()
    } catch {
      // best effort: the process is exiting
    }
  }
}

/** Registers `hook`; returns its removal. */
export function onProcessExit(hook: () => void): () => void {
  if (!installed) {
    process.on('exit', runAll)
    installed = true
  }
  hooks.add(hook)
  return () => {
    hooks.delete(hook)
  }
}
