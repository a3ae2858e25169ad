/** Kill tests (./kill-points.ts) of stake, activate and exit. */
import { CASES, killPointSuite } from './kill-points.js'

killPointSuite(
  'killed at every step, then run again (stake, activate, exit)',
  CASES.filter((c) => ['stake', 'activate', 'exit (beginExit)'].includes(c.name)),
)
