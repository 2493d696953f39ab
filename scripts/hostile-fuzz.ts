/**
 * `npm run fuzz:hostile -- [--cases N] [--seed S] [--seconds T] [--endings lf,cr,crlf,mixed]`: the hostile
 * properties of `test/properties/hostile.ts` (only the live calls run, none
 * from code or a quoted example; conservation; chunk, checkpoint and
 * streamArguments invariance) on N documents from seed S (default: the
 * clock), or for T seconds. Prints `N documents, 0 failures`, or the shrunk
 * counterexample and exits 1.
 */
import { parseArgs } from 'node:util'
import { nonNegativeInt } from './args.js'
import { hostileFuzz, type Ending } from '../test/properties/hostile.js'

const { values } = parseArgs({ options: { cases: { type: 'string', default: '1000' }, seed: { type: 'string' }, seconds: { type: 'string', default: '0' }, endings: { type: 'string', default: 'lf,cr,crlf,mixed' } } })


const seconds = nonNegativeInt('seconds', values.seconds)
const cases = seconds > 0 && values.cases === '1000' ? Number.MAX_SAFE_INTEGER : nonNegativeInt('cases', values.cases)
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : nonNegativeInt('seed', values.seed)
const started = Date.now()
const endings = values.endings.split(',') as Ending[]
if (endings.some((e) => !['lf', 'cr', 'crlf', 'mixed'].includes(e))) {
  console.error(`--endings takes lf, cr, crlf, mixed, got ${values.endings}`)
  process.exit(2)
}
const result = hostileFuzz({ cases, seed, timeLimitMs: seconds * 1000, endings })
const took = ((Date.now() - started) / 1000).toFixed(1)
if (result.failed) {
  console.log(result.report)
  console.log(`seed ${seed}: 1 failure (after ${result.cases} documents, ${took} s)`)
  process.exit(1)
}
console.log(`${result.cases} documents, 0 failures (seed ${seed}, ${took} s)`)
