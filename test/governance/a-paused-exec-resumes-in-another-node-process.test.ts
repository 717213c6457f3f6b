import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { Runtime, defineTool, type ResumeDecisions, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'

const fixture = fileURLToPath(new URL('./fixtures/resume-in-a-new-process.mjs', import.meta.url))

/** Runs the fixture with `node` (built code, no TypeScript) and parses what it prints. */
function resumeElsewhere(input: {
  state: unknown
  decisions: ResumeDecisions
  secret?: string
}): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixture], { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`fixture exited ${code}: ${err}`))
      resolve(JSON.parse(out) as Record<string, unknown>)
    })
    child.stdin.end(JSON.stringify(input))
  })
}

const ran: string[] = []
const deploy = defineTool({
  name: 'deploy',
  description: 'Deploy a service',
  parameters: {
    type: 'object',
    properties: { service: { type: 'string' } },
    required: ['service'],
    additionalProperties: false,
  },
  needsApproval: true,
  execute: ({ service }) => {
    ran.push(String(service))
    return `deployed ${String(service)}`
  },
})

async function pauseHere(secret?: string) {
  const runtime = new Runtime({
    provider: scripted([calls({ name: 'deploy', args: { service: 'api' }, id: 'd1' })]),
    model: 'm',
    ...(secret && { stateSecret: secret }),
  })
  const result = await runtime.exec('ship it', { tools: [deploy] })
  expect(result.status).toBe('paused')
  return result
}

describe('resuming in another process', () => {
  it('a paused state survives JSON and a spawned node process resumes it to completion with the iteration count continuing', async () => {
    const paused = await pauseHere()
    expect(paused.iterationsUsed).toBe(1)
    expect(paused.pending?.approvals).toEqual([
      expect.objectContaining({ toolCallId: 'd1', toolName: 'deploy', args: { service: 'api' } }),
    ])
    expect(ran).toEqual([]) // nothing ran in this process
    const wire = JSON.stringify(paused.pending!.state)

    const out = await resumeElsewhere({ state: JSON.parse(wire) as RunState, decisions: { approve: ['d1'] } })
    expect(out.status).toBe('completed')
    expect(out.text).toBe('all done')
    expect(out.iterationsUsed).toBe(2)
    expect(out.ran).toEqual(['api'])
    expect(ran).toEqual([])
    // The second process's model saw the original question, the call and its result.
    expect(out.seenByModel).toEqual([['user', 'assistant', 'toolResult']])
    expect(out.toolResults).toEqual([
      expect.objectContaining({ toolCallId: 'd1', isError: false, content: [{ type: 'text', text: 'deployed api' }] }),
    ])
  })

  it('a signed state resumes in another process holding the same secret, and a rejection there answers the call', async () => {
    const paused = await pauseHere('s3cret-key')
    expect(typeof paused.pending!.state.signature).toBe('string')
    const out = await resumeElsewhere({
      state: JSON.parse(JSON.stringify(paused.pending!.state)),
      decisions: { reject: [{ toolCallId: 'd1', reason: 'freeze week' }] },
      secret: 's3cret-key',
    })
    expect(out.status).toBe('completed')
    expect(out.ran).toEqual([])
    expect(out.toolResults).toEqual([
      expect.objectContaining({
        toolCallId: 'd1',
        isError: true,
        content: [{ type: 'text', text: 'rejected: freeze week' }],
      }),
    ])
  })
})
