/**
 * `npm run fuzz -- --streams N --seed S [--seconds T] [--default-limit-only]`:
 * runs the stream properties of `test/properties/check.ts` (conservation,
 * chunk invariance, checkpoint resume, no throw, no internal error) on N
 * random streams from seed S (default: the clock), and prints
 * `N streams, 0 failures`, or the shrunk counterexample and exits 1.
 * `--seconds T` stops after T seconds; `--default-limit-only` leaves out the
 * streams with capture limits of 64 and 200.
 */
import { parseArgs } from 'node:util'
import { nonNegativeInt } from './args.js'
import { fuzz } from '../test/properties/check.js'

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    seconds: { type: 'string', default: '0' },
    'default-limit-only': { type: 'boolean', default: false },
  },
})


const streams = nonNegativeInt('streams', values.streams)
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : nonNegativeInt('seed', values.seed)
const seconds = nonNegativeInt('seconds', values.seconds)
const started = Date.now()
const result = fuzz({ streams, seed, timeLimitMs: seconds * 1000, smallLimits: !values['default-limit-only'] })
const took = ((Date.now() - started) / 1000).toFixed(1)
if (result.failed) {
  console.log(result.report)
  console.log(`seed ${seed}: 1 failure (after ${result.streams} streams, ${took} s)`)
  process.exit(1)
}
console.log(`${result.streams} streams, 0 failures (seed ${seed}, ${took} s)`)
