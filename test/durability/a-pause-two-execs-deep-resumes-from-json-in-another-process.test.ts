import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { Runtime, defineTool, exec, type Message, type ResumeDecisions } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { historyProblems } from '../support/run.js'
import { startNode } from './support/processes.js'
// @ts-expect-error a plain .mjs fixture shared with the spawned process
import { tree } from './fixtures/nested-tree.mjs'

const resumer = fileURLToPath(new URL('./fixtures/nested-resume-process.mjs', import.meta.url))

type Tree = { provider: ReturnType<typeof scripted>; tools: never[]; ran: string[]; asked: [string, number][] }
type Resumed = {
  status: string
  text: string
  ran: string[]
  asked: [string, number][]
  histories: { depth: number; history: Message[] }[]
}

async function pauseHere() {
  const here = (tree as (deps: unknown) => Tree)({ defineTool, exec, scripted })
  const result = await new Runtime({ provider: here.provider, model: 'm' }).exec('ship it', { tools: here.tools })
  expect(result.status).toBe('paused')
  expect(here.ran).toEqual([])
  expect(here.asked).toEqual([
    ['ship it', 0],
    ['release api', 0],
  ])
  const [request] = result.pending!.approvals
  expect(request).toMatchObject({ toolCallId: 'd1', toolName: 'deploy', depth: 1, args: { service: 'api' } })
  expect(request!.path[0]).toBe(result.execId)
  return JSON.parse(JSON.stringify(result.pending!.state)) as unknown
}

async function resumeElsewhere(decisions: ResumeDecisions): Promise<Resumed> {
  const state = await pauseHere()
  const out = (await startNode(resumer, [], JSON.stringify({ state, decisions })).done) as Resumed
  // No model call of the first process is asked again: only the child's second turn and the root's.
  expect(out.asked).toEqual([
    ['release api', 1],
    ['ship it', 1],
  ])
  expect(out.histories.map((h) => h.depth).sort()).toEqual([0, 1])
  for (const { history } of out.histories) expect(historyProblems(history)).toEqual([])
  return out
}

describe('a pause two execs deep, resumed from JSON in a spawned node process', () => {
  it('approve: the child’s call runs there, and both execs finish', async () => {
    const out = await resumeElsewhere({ approve: ['d1'] })
    expect(out.status).toBe('completed')
    expect(out.ran).toEqual(['api'])
    expect(out.text).toBe('root saw: child saw: deployed api')
  })

  it('reject: the child’s call is answered with the reason and never runs', async () => {
    const out = await resumeElsewhere({ reject: [{ toolCallId: 'd1', reason: 'freeze week' }] })
    expect(out.status).toBe('completed')
    expect(out.ran).toEqual([])
    expect(out.text).toBe('root saw: child saw: rejected: freeze week')
  })

  it('edit: the child’s call runs with the edited arguments', async () => {
    const out = await resumeElsewhere({ edit: [{ toolCallId: 'd1', args: { service: 'web' } }] })
    expect(out.status).toBe('completed')
    expect(out.ran).toEqual(['web'])
    expect(out.text).toBe('root saw: child saw: deployed web')
  })
})
