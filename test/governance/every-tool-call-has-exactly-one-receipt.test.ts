import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { type ReceiptStatus } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems } from '../support/run.js'
import { toolEnds } from '../support/tool-results.js'

describe('receipts', () => {
  it('every call gets one receipt in result.receipts and the same one on its tool_end, with the status docs/design.md names for its outcome', async () => {
    const ok = defineTool({
      name: 'ok_tool',
      description: 'Works',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => `n=${n}`,
    })
    const boom = defineTool({
      name: 'boom',
      description: 'Throws',
      parameters: z.object({}),
      execute: () => Promise.reject(new Error('boom')),
    })
    const slow = defineTool({
      name: 'slow',
      description: 'Hangs',
      parameters: z.object({}),
      timeoutMs: 30,
      execute: () => new Promise<never>(() => {}),
    })
    const guarded = defineTool({
      name: 'guarded',
      description: 'Needs approval',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'ran',
    })
    const provider = scripted([
      calls(
        { name: 'ok_tool', args: { n: 1 }, id: 'c-ok' },
        { name: 'boom', id: 'c-error' },
        { name: 'nope', id: 'c-unknown' },
        { name: 'ok_tool', args: { n: 'one' }, id: 'c-invalid' },
        { name: 'ok_tool', args: { n: 1 }, id: 'c-duplicate' },
        { name: 'guarded', id: 'c-rejected' },
        { name: 'slow', id: 'c-timeout' },
      ),
      // Cut off by the length limit: its call is answered without running.
      { content: [{ type: 'toolCall', name: 'ok_tool', arguments: '{"n": 2', id: 'c-skipped' }], stopReason: 'length' },
      'end',
    ])
    const runtime = new Runtime({ provider, model: 'm', approve: () => ({ approved: false, reason: 'no' }) })
    const { events, result } = await collect(runtime.exec('go', { tools: [ok, boom, slow, guarded] }))
    expect(result.status).toBe('completed')
    const expected: [string, ReceiptStatus][] = [
      ['c-ok', 'ok'],
      ['c-error', 'tool_error'],
      ['c-unknown', 'unknown_tool'],
      ['c-invalid', 'invalid_arguments'],
      ['c-duplicate', 'duplicate_call'],
      ['c-rejected', 'rejected'],
      ['c-timeout', 'timeout'],
      ['c-skipped', 'skipped'],
    ]
    expect(result.receipts.map((r) => [r.toolCallId, r.status])).toEqual(expected)
    // One tool_end per call, carrying the same receipt.
    const ends = toolEnds(events)
    expect(ends.map((e) => e.toolCallId)).toEqual(expected.map(([id]) => id))
    for (const [i, end] of ends.entries()) {
      expect(end.receipt).toEqual(result.receipts[i])
      expect(end.isError).toBe(end.receipt.status !== 'ok')
      expect(end.durationMs).toBe(end.receipt.durationMs)
    }
    for (const r of result.receipts) {
      expect(r).toMatchObject({ execId: result.execId, depth: 0, cached: false })
      expect(r.signature.startsWith(`${r.toolName}:`)).toBe(true)
      expect(r.startedAt).toBeGreaterThan(0)
      expect(r.durationMs).toBeGreaterThanOrEqual(0)
    }
    expect(result.receipts.find((r) => r.status === 'ok')!.attempts).toBe(1)
    expect(result.receipts.find((r) => r.status === 'unknown_tool')!.attempts).toBe(0)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('calls skipped for steering and calls cut by an abort get skipped and aborted receipts', async () => {
    let run: ReturnType<Runtime['exec']>
    const steerer = defineTool({
      name: 'steerer',
      description: 'Steers its own run',
      parameters: z.object({ i: z.number() }),
      execute: ({ i }) => {
        if (i === 1) run.steer('change of plan')
        return 'ok'
      },
    })
    const provider = scripted([calls({ name: 'steerer', args: { i: 1 } }, { name: 'steerer', args: { i: 2 } }), 'fine'])
    run = new Runtime({ provider, model: 'm' }).exec('go', { tools: [steerer] })
    const steered = await run
    expect(steered.receipts.map((r) => r.status)).toEqual(['ok', 'skipped'])

    let aborting: ReturnType<Runtime['exec']>
    const stopper = defineTool({
      name: 'stopper',
      description: 'Aborts its run',
      parameters: z.object({ i: z.number() }),
      execute: () => (aborting.abort(), 'stopping'),
    })
    aborting = new Runtime({
      provider: scripted([calls({ name: 'stopper', args: { i: 1 } }, { name: 'stopper', args: { i: 2 } })]),
      model: 'm',
    }).exec('go', { tools: [stopper] })
    const { events, result } = await collect(aborting)
    expect(result.status).toBe('aborted')
    expect(result.receipts.map((r) => r.status).at(-1)).toBe('aborted')
    expect(events.filter((e): e is Extract<AgentEvent, { type: 'tool_end' }> => e.type === 'tool_end')).toHaveLength(
      result.receipts.length,
    )
    expect(historyProblems(result.history)).toEqual([])
  })
})
