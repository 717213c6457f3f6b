// A durable run: every finished step of the exec tree goes to a file journal. Running the same
// run id again (here in the same process; after a crash, in a new one) replays the recorded steps:
// no model call, no leaf tool body, events marked `replayed: true`.
// Run: npx tsc -b && node examples/dist/durability/replay.js
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Runtime, fileJournal, type ExecResult } from '@nestor/core'
import { trip } from './trip.js'

export async function main(log: (line: string) => void = console.log) {
  const dir = mkdtempSync(join(tmpdir(), 'nestor-durable-'))
  const path = join(dir, 'trip-42.ndjson')
  try {
    const { tools, provider, charged, modelCalls } = trip()
    const runtime = new Runtime({ provider, model: 'demo' })

    const first = await runtime.exec('Plan my Lisbon trip', { tools, journal: fileJournal(path), runId: 'trip-42' })
    log(`first run: ${first.text} (${modelCalls.length} model calls, charged ${charged.length}×)`)

    // The same run id on the same journal: everything comes back from the file.
    const again = runtime.exec('Plan my Lisbon trip', { tools, journal: fileJournal(path), runId: 'trip-42' })
    for await (const event of again)
      if (event.type === 'tool_end' || (event.type === 'message_end' && event.message.role === 'assistant'))
        log(`${'  '.repeat(event.depth)}${event.type}${event.replayed ? ' (replayed)' : ''}`)
    const second: ExecResult = await again
    log(`second run: ${second.text} (${modelCalls.length} model calls in all, charged ${charged.length}×)`)
    return { first, second, modelCalls, charged }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
