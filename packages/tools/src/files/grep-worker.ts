import { Worker } from 'node:worker_threads'
import { ToolRefusal } from '../define.js'
import type { WalkEntry } from './walk.js'

export type GrepJob = {
  files: WalkEntry[]
  pattern: string
  flags: string
  maxFileBytes: number
  /** The real root: an opened file whose descriptor is elsewhere is skipped. */
  root: string
  maxLineChars: number
  concurrency: number
}

// The search runs in a worker thread, so a pattern that backtracks without end (`(a+)+$`) stalls
// the worker, which is terminated, and never the app's event loop. The worker is this source
// (no imports of this package, so it runs the same from src/, dist/ or a bundle); it repeats two
// small checks of the main thread: the descriptor's path (Root.checkOpened) and the binary sniff.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { open, readlink } = require('node:fs/promises')
const { files, pattern, flags, maxFileBytes, root, maxLineChars, concurrency } = workerData
const line = new RegExp(pattern, flags)
const whole = new RegExp(pattern, flags + 'm')
const prefix = root.endsWith('/') ? root : root + '/'
async function search(file) {
  const handle = await open(file.real, 'r').catch(() => undefined)
  if (!handle) return []
  try {
    const held = await readlink('/proc/self/fd/' + handle.fd).catch(() => undefined)
    if (held !== undefined && held !== root && !held.startsWith(prefix)) return []
    const size = (await handle.stat()).size
    if (size > maxFileBytes) return []
    // Read into a buffer of the size just seen (readFile would ask for it again).
    const buffer = Buffer.allocUnsafe(size)
    let filled = 0
    for (let n = 1; filled < size && n > 0; filled += n) n = (await handle.read(buffer, filled, size - filled, filled)).bytesRead
    const bytes = buffer.subarray(0, filled)
    if (bytes.subarray(0, 8000).includes(0)) return []
    const text = bytes.toString('utf8')
    if (!whole.test(text)) return []
    const out = []
    const lines = text.split('\\n')
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]
      if (!line.test(l)) continue
      const shown = l.length > maxLineChars ? l.slice(0, maxLineChars) + '…' : l
      out.push(file.rel + ':' + (i + 1) + ':' + shown.replace(/\\r$/, ''))
    }
    return out
  } finally {
    await handle.close()
  }
}
const found = new Array(files.length)
let next = 0
const lane = async () => {
  while (next < files.length) {
    const i = next++
    found[i] = await search(files[i])
  }
}
Promise.all(Array.from({ length: concurrency }, lane)).then(() => parentPort.postMessage(found))
`

/** Each file's matching lines (`path:line:text`), in order; refused when it takes longer than `timeoutMs`. */
export function grepInWorker(job: GrepJob, signal: AbortSignal, timeoutMs: number): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: job })
    let done = false
    const finish = (error: unknown, found?: string[][]) => {
      if (done) return
      done = true
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      void worker.terminate()
      if (found) resolve(found)
      else reject(error)
    }
    const timer = setTimeout(
      () =>
        finish(
          new ToolRefusal(
            `grep stopped after ${timeoutMs} ms: narrow the path, or simplify the pattern (one that backtracks, like (a+)+, can run for ever)`,
          ),
        ),
      timeoutMs,
    )
    const onAbort = () => finish(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    if (signal.aborted) onAbort()
    worker.once('message', (found: string[][]) => finish(undefined, found))
    worker.once('error', (error) => finish(error))
    worker.once('exit', (code) => finish(new Error(`the grep worker stopped (exit code ${code})`)))
  })
}
