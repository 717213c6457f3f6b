import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Runtime, defineGuardrail, defineTool, exec, fileJournal, type Message, type Tool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { ApprovalGate } from '@nestor/web'
import { z } from 'zod'

const textOf = (m: Message | undefined) =>
  m === undefined
    ? ''
    : typeof m.content === 'string'
      ? m.content
      : m.content.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('')

/**
 * A trip planner two execs deep: the root calls `research`, whose body opens a child that calls
 * `search` and then `book` (which needs approval, with a preview), then each answers from what
 * its tools returned.
 */
export function tripApp(options: { pause?: boolean } = {}) {
  const gate = new ApprovalGate()
  const provider = scripted((request) => {
    const user = textOf(request.messages.findLast((m) => m.role === 'user'))
    const results = request.messages.filter((m) => m.role === 'toolResult')
    if (user.startsWith('Research')) {
      if (results.length === 0)
        return { content: [{ type: 'toolCall', id: 'call_search', name: 'search', arguments: { q: 'lisbon' } }] }
      if (results.length === 1)
        return { content: [{ type: 'toolCall', id: 'call_book', name: 'book', arguments: { hotel: 'Alfama' } }] }
      return `researched: ${textOf(results[0])}; ${textOf(results[1])}`
    }
    if (results.length === 0)
      return { content: [{ type: 'toolCall', id: 'call_research', name: 'research', arguments: { topic: 'lisbon' } }] }
    return `trip: ${textOf(results[0])}`
  })
  const search = defineTool({
    name: 'search',
    description: 'Search the notes',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => `${q} is sunny`,
  })
  const book = defineTool({
    name: 'book',
    description: 'Book a hotel',
    parameters: z.object({ hotel: z.string() }),
    needsApproval: true,
    prepare: ({ hotel }) => `+ booking at ${hotel}`,
    execute: ({ hotel }) => `booked ${hotel}`,
  })
  const research = defineTool({
    name: 'research',
    description: 'Research a topic',
    parameters: z.object({ topic: z.string() }),
    execute: async ({ topic }) => (await exec(`Research ${topic}`, { tools: [search, book] as Tool[] })).text,
  })
  const tools = [research] as Tool[]
  // `pause`: no approve handler, so a call that needs approval pauses the whole run.
  // A tool guardrail that passes every call: its verdicts are events the page draws.
  const notesOnly = defineGuardrail({ name: 'notes_only', before: () => undefined })
  const runtime = new Runtime({
    provider,
    model: 'scripted-trip',
    guardrails: { tools: [notesOnly] },
    ...(!options.pause && { approve: gate.approve }),
  })
  const dir = mkdtempSync(join(tmpdir(), 'nestor-studio-'))
  /** A run recorded in `dir` as `<runId>.ndjson`. */
  const start = (runId: string, input = 'Plan Lisbon') =>
    runtime.exec(input, { tools, runId, journal: fileJournal(join(dir, `${runId}.ndjson`)) })
  return { runtime, gate, tools, dir, start }
}

/** Resolves with the first non-empty list `read` gives, checking every 10 ms (the test's timeout bounds it). */
export async function waitFor<T>(read: () => T[]): Promise<T[]> {
  for (;;) {
    const value = read()
    if (value.length) return value
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** Approves the book call of a run as soon as it waits. */
export async function approveBooking(app: ReturnType<typeof tripApp>, execId: string): Promise<void> {
  const [waiting] = await waitFor(() => app.gate.pending(execId))
  app.gate.decide(execId, waiting!.toolCallId, { approved: true })
}
