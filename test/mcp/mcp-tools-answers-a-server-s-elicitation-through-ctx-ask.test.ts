import { fileURLToPath } from 'node:url'
import { Runtime, type InputRequest, type Message, type RunState } from '@nestor/core'
import { mcpTools, type McpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calls, historyProblems, textOf } from '../support/run.js'

/** What the server's `book` tool said came back from its elicitation, as the model saw it. */
const bookResult = (history: Message[]) => {
  const result = history.find((m) => m.role === 'toolResult' && m.toolName === 'book')
  return result && textOf(result)
}

describe('mcpTools answers a server elicitation with the calling ctx.ask', () => {
  let mcp: McpTools
  beforeAll(async () => {
    const script = fileURLToPath(new URL('./fixtures/elicit-stdio.mjs', import.meta.url))
    mcp = await mcpTools({ command: process.execPath, args: [script] })
  })
  afterAll(() => mcp.close())
  const model = () => scripted([calls({ name: 'book', id: 'call_book' }), 'booked'])

  it('a runtime ask handler answers: the request names the question, the call and its depth', async () => {
    const requests: InputRequest[] = []
    const ask = (request: InputRequest) => {
      requests.push(request)
      return { seats: 2 }
    }
    const runtime = new Runtime({ provider: model(), model: 'm', ask })
    const result = await runtime.exec('book two seats', { tools: mcp.tools })
    // The SDK filled the default of the field the answer left out.
    expect(bookResult(result.history)).toBe('accept {"seats":2,"window":false}')
    expect(requests).toMatchObject([
      {
        question: 'How many seats?',
        toolCallId: 'call_book',
        depth: 0,
        schema: { type: 'object', required: ['seats'] },
      },
    ])
  })

  it('with no handler the tree pauses on the question, and a resume answers the server', async () => {
    const runtime = new Runtime({ provider: model(), model: 'm' })
    const paused = await runtime.exec('book seats', { tools: mcp.tools })
    expect(paused.status).toBe('paused')
    const [input] = paused.pending!.inputs
    expect(input).toMatchObject({ question: 'How many seats?', toolCallId: 'call_book' })
    const state = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
    const done = await runtime.resume(
      state,
      { answers: { [input!.id]: { seats: 3, window: true } } },
      { tools: mcp.tools },
    )
    expect(done.status).toBe('completed')
    expect(bookResult(done.history)).toBe('accept {"seats":3,"window":true}')
    expect(historyProblems(done.history)).toEqual([])
  })

  it('declines when nothing can answer (a batch with no handler) or the answer breaks the schema', async () => {
    const nobody = new Runtime({ provider: scripted([]), model: 'm' })
    const batch = await nobody.runBatch([{ tool: 'book', args: {} }], { tools: mcp.tools })
    expect(batch.results[0]!.result).toMatchObject({ isError: false, content: [{ text: 'decline null' }] })
    const wrong = new Runtime({ provider: model(), model: 'm', ask: () => ({ seats: 0 }) })
    const result = await wrong.exec('book no seats', { tools: mcp.tools })
    expect(bookResult(result.history)).toBe('decline null')
  })
})
