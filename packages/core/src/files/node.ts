// What needs a file system, as Node, Bun, Deno and Workers have one; the browser build of core
// (bundle/browser/, scripts/bundle.mjs) takes ./web.ts instead, whose same names fail saying so.
export { fileJournal } from '../state/file-journal.js'
export { loadRegistry } from '../tools/load-registry.js'
