import { describe, expect, it } from 'vitest'
import { Runtime, suppliedResults } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems } from '../support/run.js'

const specs = [
  { name: 'get_order', description: 'An order by id' },
  { name: 'get_invoice', description: 'An invoice by id' },
]

describe('suppliedResults: a call to a tool without a supplied result', () => {
  it('stops the exec missing_result, answers every call of the turn and asks the model nothing more', async () => {
    const provider = scripted([
      calls({ name: 'get_order', id: 'c1' }, { name: 'get_invoice', id: 'c2' }, { name: 'get_order', id: 'c3' }),
      'never asked',
    ])
    const runtime = new Runtime({ provider, model: 'm', duplicateCalls: 'allow' })
    const { events, result } = await collect(
      runtime.exec('go', { tools: suppliedResults({ get_order: '{"id":1}' }, specs) }),
    )
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('missing_result')
    expect(result.error?.message).toContain('get_invoice')
    expect(provider.requests).toHaveLength(1)
    expect(historyProblems(result.history)).toEqual([])
    const answers = result.history.filter((m) => m.role === 'toolResult')
    expect(answers.map((m) => [m.toolCallId, m.isError])).toEqual([
      ['c1', false],
      ['c2', true],
      ['c3', true],
    ])
    expect(answers[1]?.content[0]).toMatchObject({
      text: expect.stringContaining('no supplied result for tool get_invoice'),
    })
    expect(result.receipts.map((r) => [r.toolName, r.status])).toEqual([
      ['get_order', 'ok'],
      ['get_invoice', 'skipped'],
      ['get_order', 'skipped'],
    ])
    // Every call that started ended before agent_end.
    const ends = events.filter((e) => e.type === 'tool_end').map((e) => e.toolCallId)
    expect(ends).toEqual(['c1', 'c2', 'c3'])
    expect(events.at(-1)?.type).toBe('agent_end')
  })

  it('stops a batch the same way', async () => {
    const runtime = new Runtime({ provider: scripted([]), model: 'm', registry: { list: () => tools } })
    const tools = suppliedResults({ get_order: 'order' }, specs)
    const batch = await runtime.runBatch([
      { tool: 'get_order', args: {} },
      { tool: 'get_invoice', args: {} },
    ])
    expect(batch.error?.code).toBe('missing_result')
    expect(batch.receipts.map((r) => r.status)).toEqual(['ok', 'skipped'])
  })
})
