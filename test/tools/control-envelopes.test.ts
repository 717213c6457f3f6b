import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ToolControl } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { tool as toolDecorator } from '@nestor/agents'
import { calls, historyProblems } from '../support/run.js'

const control: ToolControl = {
  statusField: 'status',
  continueStatuses: ['ok', 'retry'],
  stopStatuses: ['needs_human', 'done'],
  diagnosis: { why: 'error.message', code: 'error.code' },
}

/** A tool that returns what the test's table says for the item it is asked about. */
function deploy(results: Record<string, unknown>) {
  const ran: string[] = []
  const tool = defineTool({
    name: 'deploy',
    description: 'Deploys one item',
    parameters: z.object({ item: z.string() }),
    control,
    execute: ({ item }) => {
      ran.push(item)
      return results[item]
    },
  })
  return { tool, ran }
}

async function loop(results: Record<string, unknown>, items: string[]) {
  const { tool, ran } = deploy(results)
  const turns = items.map((item) => calls({ name: 'deploy', args: { item } }))
  const runtime = new Runtime({ provider: scripted([...turns, 'all deployed']), model: 'm' })
  const result = await runtime.exec('deploy them', { tools: [tool] })
  return { result, ran }
}

describe('control envelopes in the loop', () => {
  it('a continue status lets the loop go on, and the receipt says so with its diagnosis', async () => {
    const { result, ran } = await loop({ a: { status: 'ok' }, b: { status: 'retry', error: { code: 7 } } }, ['a', 'b'])
    expect(result.status).toBe('completed')
    expect(result.text).toBe('all deployed')
    expect(result.stopped).toBeUndefined()
    expect(ran).toEqual(['a', 'b'])
    expect(result.receipts.map((r) => r.control)).toEqual([
      { status: 'ok', decision: 'continue', diagnosis: {} },
      { status: 'retry', decision: 'continue', diagnosis: { code: 7 } },
    ])
  })

  it('a stop status ends the exec with control_stop, its result as the text, and no later call runs', async () => {
    const stop = { status: 'needs_human', error: { message: 'quota', code: 'Q1' } }
    const { result, ran } = await loop({ a: stop, b: { status: 'ok' } }, ['a', 'b'])
    expect(ran).toEqual(['a'])
    expect(result.status).toBe('completed')
    expect(result.text).toBe(JSON.stringify(stop))
    expect(result.stopped).toMatchObject({
      reason: 'control_stop',
      toolName: 'deploy',
      control: { status: 'needs_human', decision: 'stop', diagnosis: { why: 'quota', code: 'Q1' } },
    })
    expect(result.receipts[0]?.control?.decision).toBe('stop')
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a stop ends the round: the calls after it in the same message are skipped', async () => {
    const { tool, ran } = deploy({ a: { status: 'done' }, b: { status: 'ok' } })
    const turn = calls({ name: 'deploy', args: { item: 'a' } }, { name: 'deploy', args: { item: 'b' } })
    const runtime = new Runtime({ provider: scripted([turn, 'never']), model: 'm' })
    const result = await runtime.exec('go', { tools: [tool] })
    expect(ran).toEqual(['a'])
    expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'skipped'])
    expect(result.stopped?.reason).toBe('control_stop')
    expect(historyProblems(result.history)).toEqual([])
  })

  it('fails closed: a result without the status field stops, and the receipt says why', async () => {
    const { result, ran } = await loop({ a: { state: 'ok' }, b: { status: 'ok' } }, ['a', 'b'])
    expect(ran).toEqual(['a'])
    expect(result.stopped?.control).toEqual({ decision: 'stop', diagnosis: {}, reason: 'the result has no status' })
    expect(result.receipts[0]?.control?.reason).toBe('the result has no status')
  })

  it('fails closed: a status in neither list stops, naming the status', async () => {
    const { result } = await loop({ a: { status: 'weird' } }, ['a'])
    expect(result.stopped?.control).toMatchObject({ status: 'weird', decision: 'stop' })
    expect(result.stopped?.control.reason).toMatch(/"weird" is in neither continueStatuses nor stopStatuses/)
  })

  it('fails closed: a result that is not an object (or a status that is not a string) stops', async () => {
    const text = await loop({ a: 'all good' }, ['a'])
    expect(text.result.stopped?.control.reason).toMatch(/not an object/)
    const numeric = await loop({ a: { status: 1 } }, ['a'])
    expect(numeric.result.stopped?.control.reason).toMatch(/status is not a string/)
  })

  it('reads a nested status field and a cached result decides as its first call did', async () => {
    let runs = 0
    const nested = defineTool({
      name: 'check',
      description: 'Checks',
      parameters: z.object({}),
      cacheable: true,
      control: { statusField: 'outcome.state', continueStatuses: ['green'], stopStatuses: ['red'] },
      execute: () => {
        runs++
        return { outcome: { state: 'green' } }
      },
    })
    const runtime = new Runtime({ provider: scripted([]), model: 'm' })
    const out = await runtime.runBatch(
      [
        { tool: 'check', args: {} },
        { tool: 'check', args: {} },
      ],
      { tools: [nested] },
    )
    expect(runs).toBe(1)
    expect(out.stopped).toBeUndefined()
    expect(out.receipts.map((r) => [r.cached, r.control?.decision])).toEqual([
      [false, 'continue'],
      [true, 'continue'],
    ])
  })
})

describe('control envelopes across a pause', () => {
  it('a receipt keeps its control decision in the paused state and after the resume', async () => {
    const { tool } = deploy({ a: { status: 'ok' } })
    const approveMe = defineTool({
      name: 'publish',
      description: 'Publishes',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'published',
    })
    const turn = calls({ name: 'deploy', args: { item: 'a' } }, { name: 'publish', id: 'p1' })
    const runtime = new Runtime({ provider: scripted([turn, 'done']), model: 'm' })
    const paused = await runtime.exec('go', { tools: [tool, approveMe] })
    expect(paused.status).toBe('paused')
    const state = JSON.parse(JSON.stringify(paused.pending?.state))
    expect(state.receipts[0].control).toEqual({ status: 'ok', decision: 'continue', diagnosis: {} })
    const resumed = await runtime.resume(state, { approve: ['p1'] }, { tools: [tool, approveMe] })
    expect(resumed.status).toBe('completed')
    expect(resumed.receipts[0]?.control?.decision).toBe('continue')
  })
})

describe('control envelopes in batches', () => {
  it('a lane whose call decides stop ends there; the other lanes go on', async () => {
    const { tool, ran } = deploy({
      a1: { status: 'ok' },
      a2: { status: 'needs_human', error: { message: 'review' } },
      a3: { status: 'ok' },
      b1: { status: 'ok' },
      b2: { status: 'ok' },
    })
    const runtime = new Runtime({ provider: scripted([]), model: 'm' })
    const lane = (itemKey: string, n: number) => ({
      itemKey,
      calls: Array.from({ length: n }, (_, i) => ({
        callKey: `${itemKey}${i + 1}`,
        tool: 'deploy',
        args: { item: `${itemKey}${i + 1}` },
      })),
    })
    const out = await runtime.runParallelBatch([lane('a', 3), lane('b', 2)], { tools: [tool], maxConcurrency: 1 })
    expect(ran).toEqual(['a1', 'a2', 'b1', 'b2'])
    const [a, b] = out.lanes
    expect(a?.results.map((r) => r.callKey)).toEqual(['a1', 'a2'])
    expect(a?.stopped).toMatchObject({
      reason: 'control_stop',
      callKey: 'a2',
      control: { status: 'needs_human', decision: 'stop', diagnosis: { why: 'review' } },
    })
    expect(b?.results.map((r) => r.receipt.control?.decision)).toEqual(['continue', 'continue'])
    expect(b?.stopped).toBeUndefined()
  })

  it('a serial batch stops at a call that decides stop (a missing status fails closed)', async () => {
    const { tool, ran } = deploy({ x: { status: 'ok' }, y: {}, z: { status: 'ok' } })
    const runtime = new Runtime({ provider: scripted([]), model: 'm' })
    const out = await runtime.runBatch(
      ['x', 'y', 'z'].map((item) => ({ tool: 'deploy', args: { item }, callKey: item })),
      { tools: [tool] },
    )
    expect(ran).toEqual(['x', 'y'])
    expect(out.stopped).toMatchObject({
      callKey: 'y',
      control: { decision: 'stop', reason: 'the result has no status' },
    })
  })
})

describe('control envelope declarations', () => {
  const define = (control: unknown) => () =>
    defineTool({
      name: 'deploy',
      description: 'Deploys',
      parameters: z.object({}),
      control: control as ToolControl,
      execute: () => ({ status: 'ok' }),
    })
  const valid = { statusField: 'status', continueStatuses: ['ok'], stopStatuses: ['stop'] }

  it.each([
    ['an empty continueStatuses', { ...valid, continueStatuses: [] }, /control\.continueStatuses of tool deploy/],
    ['an empty stopStatuses', { ...valid, stopStatuses: [] }, /control\.stopStatuses of tool deploy/],
    ['a status in both lists', { ...valid, stopStatuses: ['stop', 'ok'] }, /control\.stopStatuses.*"ok" also in/],
    ['a missing statusField', { continueStatuses: ['ok'], stopStatuses: ['stop'] }, /control\.statusField/],
    ['an empty path segment', { ...valid, statusField: 'a..b' }, /control\.statusField/],
    ['a diagnosis that is not a map', { ...valid, diagnosis: ['why'] }, /control\.diagnosis of tool/],
    ['a diagnosis path that is not a path', { ...valid, diagnosis: { why: 3 } }, /control\.diagnosis\.why/],
    ['an unknown field', { ...valid, stopStatus: ['x'] }, /control\.stopStatus of tool deploy: not a control field/],
    ['a non-string status', { ...valid, stopStatuses: [1] }, /control\.stopStatuses/],
  ])('%s is invalid_options at definition, naming the field', (_, declaration, message) => {
    expect(define(declaration)).toThrow(message)
    expect(define(declaration)).toThrow(expect.objectContaining({ code: 'invalid_options' }))
  })

  it('a plain { spec, execute } tool and an @tool method are checked the same way', async () => {
    const plain = {
      spec: { name: 'deploy', description: 'Deploys', parameters: { type: 'object', properties: {} } },
      control: { ...valid, continueStatuses: [] },
      execute: () => ({ status: 'ok' }),
    }
    const runtime = new Runtime({ provider: scripted(['x']), model: 'm' })
    expect(() => runtime.exec('go', { tools: [plain] })).toThrow(/control\.continueStatuses/)

    class Deployer {
      @toolDecorator({ description: 'Deploys', parameters: z.object({}), control: { ...valid, stopStatuses: ['ok'] } })
      deploy() {
        return { status: 'ok' }
      }
    }
    expect(() => new Deployer()).toThrow(/control\.stopStatuses/)
  })

  it('an @tool method with an envelope stops the loop like defineTool', async () => {
    class Deployer {
      @toolDecorator({ description: 'Deploys', parameters: z.object({}), control: valid })
      deploy() {
        return { status: 'stop' }
      }
    }
    const agent = new Deployer()
    const runtime = new Runtime({ provider: scripted([calls({ name: 'deploy' }), 'never']), model: 'm' })
    const result = await runtime.exec('go', { tools: [agent.deploy] })
    expect(result.stopped?.control.status).toBe('stop')
  })
})
