import { NestorError } from '@nestor/core'
import type * as node from './node.js'

// A page has no file system: scripted() works there; replay() and requestKey() fail
// `invalid_options` saying so (a cassette is a file named by a SHA-256 node:crypto computes).
const noFiles = (): NestorError =>
  new NestorError(
    'invalid_options',
    'cassettes (replay(), requestKey()) are files, which a browser has not: use scripted() in a page',
  )
const refuse = (): Promise<never> => Promise.reject(noFiles())

export const mkdir: typeof node.mkdir = refuse
export const readFile: typeof node.readFile = refuse
export const rename: typeof node.rename = refuse
export const writeFile: typeof node.writeFile = refuse
export const join: typeof node.join = (...parts) => parts.join('/')
export const sha256Hex: typeof node.sha256Hex = () => {
  throw noFiles()
}
