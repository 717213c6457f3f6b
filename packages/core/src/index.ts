export * from './types.js'
export { NestorError, messageOf } from './errors.js'
export { emptyUsage, addUsage } from './usage.js'
export { redactString, redactDeep } from './redact.js'
