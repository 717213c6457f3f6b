export { instrument } from './instrument.js'
export type { InstrumentOptions, Instrumentable } from './instrument.js'
