import type * as node from './node.js'
import type * as web from './web.js'

// Compiles only while the browser variant gives every name the Node one does, with its type
// (nothing imports this file: it is a check for tsc).
export type WebMatchesNode = typeof web extends typeof node ? true : never
export const webMatchesNode: WebMatchesNode = true
