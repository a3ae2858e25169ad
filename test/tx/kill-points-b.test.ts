/** Kill tests (./kill-points.ts) of unstake, delegation stake and delegation revoke. */
import { CASES, killPointSuite } from './kill-points.js'

killPointSuite(
  'killed at every step, then run again (unstake, delegation stake, delegation revoke)',
  CASES.filter((c) => !['stake', 'activate', 'exit (beginExit)'].includes(c.name)),
)
