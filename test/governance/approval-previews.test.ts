import { Agent, tool } from '@nestor/agents'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  NestorError,
  Runtime,
  defineTool,
  type AgentEvent,
  type ApprovalRequest,
  type ExecRun,
  type RunState,
} from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems } from '../support/run.js'
import { resultText, toolResults } from '../support/tool-results.js'

/** A file write that needs approval; its preview is the diff against what `files` holds now. */
function writeTool(files: Map<string, string>, ran: string[]) {
  return defineTool({
    name: 'write',
    description: 'Write a file',
    parameters: z.object({ path: z.string(), text: z.string() }),
    needsApproval: true,
    prepare: ({ path, text }) => {
      if (path.startsWith('/etc')) throw new Error(`${path} is outside the workspace`)
      return { diff: `--- ${path}\n-${files.get(path) ?? ''}\n+${text}` }
    },
    execute: ({ path, text }) => {
      ran.push(path)
      files.set(path, text)
      return `wrote ${path}`
    },
  })
}

class Deployer extends Agent {
  instructions = 'You deploy services.'

  @tool({
    description: 'Deploy a service',
    parameters: z.object({ service: z.string() }),
    needsApproval: true,
    prepare: ({ service }) => ({ plan: [`build ${service}`, `roll out ${service}`] }),
  })
  deploy({ service }: { service: string }) {
    return `deployed ${service}`
  }
}

const approvalEvents = (events: AgentEvent[]): ApprovalRequest[] =>
  events.flatMap((e) => (e.type === 'approval_required' ? e.approvals : []))

describe('approval previews', () => {
  it('the preview of prepare is in the approval event, in pending and in the paused state, and survives a JSON round trip and a resume in another runtime', async () => {
    const files = new Map([['a.txt', 'old']])
    const ran: string[] = []
    const write = writeTool(files, ran)
    const first = new Runtime({
      provider: scripted([calls({ name: 'write', args: { path: 'a.txt', text: 'new' }, id: 'w' })]),
      model: 'm',
    })
    const { events, result: paused } = await collect(first.exec('edit a.txt', { tools: [write] }))
    const preview = { diff: '--- a.txt\n-old\n+new' }
    expect(paused.status).toBe('paused')
    expect(approvalEvents(events).map((a) => a.preview)).toEqual([preview])
    expect(paused.pending!.approvals.map((a) => a.preview)).toEqual([preview])
    const stored = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
    expect(stored.pending.map((a) => a.preview)).toEqual([preview])
    expect(ran).toEqual([])

    const second = new Runtime({ provider: scripted(['written']), model: 'm' })
    const done = await second.resume(stored, { approve: ['w'] }, { tools: [write] })
    expect(done.status).toBe('completed')
    expect(ran).toEqual(['a.txt'])
    expect(files.get('a.txt')).toBe('new')
  })

  it('an approve handler gets the preview in its request', async () => {
    const seen: unknown[] = []
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'write', args: { path: 'b.txt', text: 'x' } }), 'done']),
      model: 'm',
      approve: (request) => (seen.push(request.preview), true),
    })
    const result = await runtime.exec('go', { tools: [writeTool(new Map(), [])] })
    expect(result.status).toBe('completed')
    expect(seen).toEqual([{ diff: '--- b.txt\n-\n+x' }])
  })

  it('a @tool method declares prepare too: its preview is in pending', async () => {
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'deploy', args: { service: 'api' } })]),
      model: 'm',
    })
    const paused = await runtime.exec('deploy', { tools: [new Deployer()] })
    expect(paused.pending!.approvals.map((a) => a.preview)).toEqual([{ plan: ['build api', 'roll out api'] }])
  })

  it('a paused state whose preview is not JSON fails invalid_state on resume, naming the field', async () => {
    const write = writeTool(new Map(), [])
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'write', args: { path: 'a.txt', text: 'x' }, id: 'w' }), 'done']),
      model: 'm',
    })
    const paused = await runtime.exec('go', { tools: [write] })
    const state = paused.pending!.state
    const forged = { ...state, pending: [{ ...state.pending[0]!, preview: () => 'not json' }] }
    let thrown: unknown
    try {
      await runtime.resume(forged as unknown as typeof state, { approve: ['w'] }, { tools: [write] })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(NestorError)
    expect((thrown as NestorError).code).toBe('invalid_state')
    expect((thrown as NestorError).message).toContain('pending.0.preview')
  })

  it('a prepare that throws fails only that call with tool_error; the next call and the exec go on', async () => {
    const ran: string[] = []
    const runtime = new Runtime({
      provider: scripted([
        calls(
          { name: 'write', args: { path: '/etc/passwd', text: 'x' }, id: 'bad' },
          { name: 'write', args: { path: 'ok.txt', text: 'y' }, id: 'good' },
        ),
        'carried on',
      ]),
      model: 'm',
      approve: () => true,
    })
    const { events, result } = await collect(runtime.exec('go', { tools: [writeTool(new Map(), ran)] }))
    expect(result.status).toBe('completed')
    expect(result.text).toBe('carried on')
    expect(result.receipts.map((r) => [r.toolCallId, r.status])).toEqual([
      ['bad', 'tool_error'],
      ['good', 'ok'],
    ])
    expect(resultText(toolResults(result)[0]!)).toBe('prepare of write failed: /etc/passwd is outside the workspace')
    expect(approvalEvents(events).map((a) => a.toolCallId)).toEqual(['good'])
    expect(ran).toEqual(['ok.txt'])
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a prepare that throws before a pause answers that call with tool_error and pauses on the next one', async () => {
    const runtime = new Runtime({
      provider: scripted([
        calls(
          { name: 'write', args: { path: '/etc/hosts', text: 'x' }, id: 'bad' },
          { name: 'write', args: { path: 'ok.txt', text: 'y' }, id: 'good' },
        ),
      ]),
      model: 'm',
    })
    const result = await runtime.exec('go', { tools: [writeTool(new Map(), [])] })
    expect(result.status).toBe('paused')
    expect(result.receipts.map((r) => [r.toolCallId, r.status])).toEqual([['bad', 'tool_error']])
    expect(result.pending!.approvals.map((a) => a.toolCallId)).toEqual(['good'])
  })

  it('aborting the run while prepare never settles ends the call aborted without running it', async () => {
    let ran = false
    let run: ExecRun | undefined
    const stuck = defineTool({
      name: 'stuck',
      description: 's',
      parameters: z.object({}),
      needsApproval: true,
      prepare: () => (run?.abort(), new Promise(() => {})),
      execute: () => ((ran = true), 'ran'),
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'stuck' }), 'never']), model: 'm' })
    run = runtime.exec('go', { tools: [stuck] })
    const result = await run
    expect(result.status).toBe('aborted')
    expect(result.receipts.map((r) => r.status)).toEqual(['aborted'])
    expect(ran).toBe(false)
  })

  it('a policy that changed while the approver decided denies the approved call: blocked, not executed', async () => {
    const ran: string[] = []
    let frozen = false
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'write', args: { path: 'a.txt', text: 'x' } }), 'noted']),
      model: 'm',
      hooks: { beforeToolCall: () => (frozen ? { block: true, reason: 'change freeze' } : undefined) },
      // The freeze starts while the person looks at the preview.
      approve: () => ((frozen = true), true),
    })
    const result = await runtime.exec('go', { tools: [writeTool(new Map(), ran)] })
    expect(result.status).toBe('completed')
    expect(ran).toEqual([])
    expect(result.receipts.map((r) => r.status)).toEqual(['rejected'])
    expect(resultText(toolResults(result)[0]!)).toBe('blocked: change freeze')
  })

  it('after a resume, prepare runs again and a preview that can no longer be made fails the approved call', async () => {
    const files = new Map<string, string>()
    const ran: string[] = []
    let gone = false
    const write = defineTool({
      name: 'write',
      description: 'Write a file',
      parameters: z.object({ path: z.string(), text: z.string() }),
      needsApproval: true,
      prepare: ({ path, text }) => {
        if (gone) throw new Error(`${path} was deleted`)
        return `+${text}`
      },
      execute: ({ path, text }) => (ran.push(path), files.set(path, text), 'ok'),
    })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'write', args: { path: 'a.txt', text: 'x' }, id: 'w' }), 'noted']),
      model: 'm',
    })
    const paused = await runtime.exec('go', { tools: [write] })
    expect(paused.pending!.approvals[0]!.preview).toBe('+x')
    gone = true
    const state = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
    const result = await runtime.resume(state, { approve: ['w'] }, { tools: [write] })
    expect(result.status).toBe('completed')
    expect(ran).toEqual([])
    expect(result.receipts.map((r) => r.status)).toEqual(['tool_error'])
    expect(resultText(toolResults(result)[0]!)).toBe('prepare of write failed: a.txt was deleted')
  })

  it('receipts carry approval: required and approved, required and rejected, required and edited, not required', async () => {
    const read = defineTool({
      name: 'read',
      description: 'Read a file',
      parameters: z.object({ path: z.string() }),
      execute: () => 'text',
    })
    const write = writeTool(new Map(), [])
    const runtime = new Runtime({
      provider: scripted([
        calls(
          { name: 'read', args: { path: 'a.txt' }, id: 'r' },
          { name: 'write', args: { path: 'a.txt', text: 'x' }, id: 'yes' },
          { name: 'write', args: { path: 'b.txt', text: 'x' }, id: 'no' },
          { name: 'write', args: { path: 'c.txt', text: 'x' }, id: 'edit' },
        ),
        'done',
      ]),
      model: 'm',
    })
    const paused = await runtime.exec('go', { tools: [read, write] })
    expect(paused.status).toBe('paused')
    const state = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
    const result = await runtime.resume(
      state,
      {
        approve: ['yes'],
        reject: [{ toolCallId: 'no', reason: 'not b' }],
        edit: [{ toolCallId: 'edit', args: { path: 'c.txt', text: 'y' } }],
      },
      { tools: [read, write] },
    )
    expect(result.status).toBe('completed')
    expect(result.receipts.map((r) => [r.toolCallId, r.status, r.approval])).toEqual([
      ['r', 'ok', { required: false }],
      ['yes', 'ok', { required: true, decision: 'approved' }],
      ['no', 'rejected', { required: true, decision: 'rejected' }],
      ['edit', 'ok', { required: true, decision: 'edited' }],
    ])
  })

  it('an approve handler decision is on the receipt too', async () => {
    const runtime = new Runtime({
      provider: scripted([
        calls(
          { name: 'write', args: { path: 'a.txt', text: 'x' }, id: 'yes' },
          { name: 'write', args: { path: 'b.txt', text: 'x' }, id: 'no' },
        ),
        'done',
      ]),
      model: 'm',
      approve: (request) => request.toolCallId === 'yes',
    })
    const result = await runtime.exec('go', { tools: [writeTool(new Map(), [])] })
    expect(result.receipts.map((r) => r.approval)).toEqual([
      { required: true, decision: 'approved' },
      { required: true, decision: 'rejected' },
    ])
  })

  it('prepare that is not a function is invalid_options naming it', () => {
    let thrown: unknown
    try {
      defineTool({
        name: 'w',
        description: 'w',
        parameters: z.object({}),
        needsApproval: true,
        prepare: 'diff' as unknown as () => string,
        execute: () => 'ok',
      })
    } catch (error) {
      thrown = error
    }
    expect((thrown as NestorError).code).toBe('invalid_options')
    expect((thrown as NestorError).message).toContain('prepare')
  })
})
