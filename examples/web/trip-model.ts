import { defineTool, exec, type Message, type Provider, type Tool } from '@nestor/core'
import { sleep, type ModelEvent, type ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { z } from 'zod'
import { demoModel } from '../demo/scripted-model.js'
import { Researcher, plannerTools } from '../demo/trip-agents.js'

// The demo's trip, one level deeper: the researcher hands each note to a librarian (depth 2), so
// the page shows a three-level tree.
export const LIBRARIAN_INSTRUCTIONS =
  'You are the librarian. Fetch the note you are asked for with fetch_note and return its text verbatim.'

const NOTE_TEXT: Record<string, string> = {
  'lisbon-weather':
    'Lisbon weather in May\nSunny, 17–24 °C, rain on about 5 days. Evenings by the river get windy: pack a light jacket.',
  'lisbon-costs':
    'Lisbon costs (2 people)\nGuesthouse in Alfama €130/night. Food about €80/day for two. Metro/tram 24h pass €7.20 per person. Museum pass €35 per person.',
}

const fetchNote: Tool = defineTool({
  name: 'fetch_note',
  description: 'Fetch one travel note by id',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => NOTE_TEXT[id] ?? `no note ${id}`,
}) as unknown as Tool

/** The demo's researcher, whose read_note asks a librarian (a nested exec) for the note. */
class DelegatingResearcher extends Researcher {
  override async read_note({ id }: { id: string }): Promise<string> {
    const result = await exec(`Fetch the note ${id}.`, {
      system: LIBRARIAN_INSTRUCTIONS,
      tools: [fetchNote],
      maxIterations: 3,
    })
    return result.text
  }
}

/**
 * The demo's tools, with a preview for the approval: save_brief shows the brief it would save as
 * a diff against the saved ones, which the page prints next to Approve and Reject.
 */
export function webTools(store: { title: string; body: string }[] = []): Tool[] {
  return plannerTools(store, new DelegatingResearcher()).map((tool) =>
    tool.spec.name === 'save_brief' ? { ...tool, prepare: (args) => briefDiff(store, args) } : tool,
  )
}

function briefDiff(store: { title: string; body: string }[], args: Record<string, unknown>): string {
  const { title, body } = args as { title: string; body: string }
  const old = store.find((brief) => brief.title === title)
  const lines = (text: string, sign: string) => text.split('\n').map((line) => `${sign} ${line}`)
  return [`--- ${old ? title : '/dev/null'}`, `+++ ${title}`, ...lines(old?.body ?? '', '-'), ...lines(body, '+')]
    .filter((line) => line !== '- ')
    .join('\n')
}

const lastUserText = (messages: Message[]) => {
  const last = messages.findLast((m) => m.role === 'user')
  return typeof last?.content === 'string' ? last.content : ''
}

const librarian = scripted((request: ModelRequest) => {
  const done = request.messages.find((m) => m.role === 'toolResult')
  if (done && done.role === 'toolResult') return done.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
  const id = /note (\S+)\./.exec(lastUserText(request.messages))?.[1] ?? 'unknown'
  return { content: [{ type: 'toolCall', name: 'fetch_note', arguments: { id } }] }
})

/**
 * The offline model: the demo's scripted planner, researcher and accountant plus the librarian,
 * told apart by system prompt. It answers any request with the demo's trip. `paceMs` waits before
 * each streamed event so a person (or a browser test) can watch the run grow.
 */
export function tripModel(paceMs = 0): Provider {
  const demo = demoModel()
  return {
    name: 'scripted-trip',
    async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelEvent> {
      const inner = request.system === LIBRARIAN_INSTRUCTIONS ? librarian : demo
      for await (const event of inner.stream(request, signal)) {
        if (paceMs > 0 && (event.type === 'text_delta' || event.type === 'toolcall_delta')) await sleep(paceMs, signal)
        yield event
      }
    },
  }
}
