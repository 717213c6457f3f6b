import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'

function failing() {
  let runs = 0
  const tool = defineTool({
    name: 'fetch_page',
    description: 'Fetch a page',
    parameters: z.object({ url: z.string() }),
    execute: ({ url }) => {
      runs++
      if (url.startsWith('bad')) throw new Error(`cannot fetch ${url}`)
      return 'page'
    },
  })
  return { tool, runs: () => runs }
}

const fetchCall = (url: string) => calls({ name: 'fetch_page', args: { url } })

describe('circuit breaker', () => {
  it('the same failing call reaching breakerThreshold fails the exec with circuit_breaker and the documented message', async () => {
    const { tool, runs } = failing()
    const provider = scripted([fetchCall('bad://x'), fetchCall('bad://x'), fetchCall('bad://x'), 'never reached'])
    const result = await new Runtime({ provider, model: 'm', breakerThreshold: 3 }).exec('go', { tools: [tool] })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('circuit_breaker')
    expect(result.error?.message).toBe('tool fetch_page failed 3 consecutive times with identical arguments')
    expect(runs()).toBe(3)
    expect(provider.requests).toHaveLength(3)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('the default threshold is 2', async () => {
    const { tool } = failing()
    const result = await new Runtime({
      provider: scripted([fetchCall('bad://x'), fetchCall('bad://x'), 'no']),
      model: 'm',
    }).exec('go', { tools: [tool] })
    expect(result.error?.message).toBe('tool fetch_page failed 2 consecutive times with identical arguments')
  })

  it('failures with differing arguments each keep their own streak and do not trip it', async () => {
    const { tool, runs } = failing()
    const provider = scripted([
      fetchCall('bad://1'),
      fetchCall('bad://2'),
      fetchCall('bad://3'),
      fetchCall('bad://4'),
      'gave up',
    ])
    const result = await new Runtime({ provider, model: 'm', breakerThreshold: 2 }).exec('go', { tools: [tool] })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('gave up')
    expect(runs()).toBe(4)
  })

  it('a success resets the streak of its signature', async () => {
    let fail = true
    const toggle = defineTool({
      name: 'toggle',
      description: 'Fails while the switch is on',
      parameters: z.object({}),
      execute: () => {
        if (fail) throw new Error('switch on')
        return 'fine'
      },
    })
    const flip = defineTool({
      name: 'flip',
      description: 'Flip the switch',
      parameters: z.object({ to: z.boolean() }),
      execute: ({ to }) => ((fail = to), 'flipped'),
    })
    const provider = scripted([
      calls({ name: 'toggle' }), // fail 1
      calls({ name: 'flip', args: { to: false } }),
      calls({ name: 'toggle' }), // success: streak reset
      calls({ name: 'flip', args: { to: true } }),
      calls({ name: 'toggle' }), // fail 1 again, not 2
      'survived',
    ])
    const result = await new Runtime({ provider, model: 'm', breakerThreshold: 2, duplicateCalls: 'allow' }).exec(
      'go',
      { tools: [toggle, flip] },
    )
    expect(result.status).toBe('completed')
    expect(result.receipts.filter((r) => r.toolName === 'toggle').map((r) => r.status)).toEqual([
      'tool_error',
      'ok',
      'tool_error',
    ])
  })
})
