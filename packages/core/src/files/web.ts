import { NestorError } from '../contract/errors.js'
import type * as node from './node.js'

// A browser has no file system: the names the main entry exports stay (an app's import of them
// still bundles), and calling one fails `invalid_options` naming what to use instead.
const noFiles = (name: string, instead: string): NestorError =>
  new NestorError('invalid_options', `${name} needs a file system, which a browser has not: ${instead}`)

export const fileJournal: typeof node.fileJournal = () => {
  throw noFiles('fileJournal()', 'use memoryJournal() or a Journal of your own (load and append over your storage)')
}

export const loadRegistry: typeof node.loadRegistry = () =>
  Promise.reject(
    noFiles('loadRegistry()', 'declare the tools in code (new ToolRegistry().add(...tools), or pass tools to exec)'),
  )
