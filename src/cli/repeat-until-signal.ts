/**
 * The loop of a `--watch` command: runs `step`, waits `intervalSeconds`, and again, until SIGINT or
 * SIGTERM. A signal during the wait ends it at once; a signal during a step lets that step finish
 * (its result is printed), then ends. The handlers are removed afterwards.
 *
 * @example await repeatUntilSignal(60, async () => print(await checkOnce()))
 */
export async function repeatUntilSignal(intervalSeconds: number, step: () => Promise<void>): Promise<void> {
  let stop = false
  let wake: () => void = () => {}
  const onSignal = () => {
    stop = true
    wake()
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    while (!stop) {
      await step()
      if (stop) break
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalSeconds * 1000)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}
