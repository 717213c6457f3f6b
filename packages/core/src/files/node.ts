// What needs a file system, as Node, Bun, Deno and Workers have one (the `#files` import of
// package.json); a browser bundle gets ./web.ts, whose same names fail saying so.
export { fileJournal } from '../state/file-journal.js'
export { loadRegistry } from '../tools/load-registry.js'
