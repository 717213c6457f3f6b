import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { RUN_STATE_VERSION, Runtime, defineTool, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'

// A state written by a paused exec and committed as JSON. If a change to the RunState schema
// stops this file from resuming, stored states in the field would stop resuming too: either keep
// the schema compatible, or bump RUN_STATE_VERSION, add a migration and a fixture of the new version.
const stored = (): RunState =>
  JSON.parse(readFileSync(new URL('./fixtures/run-state-v1.json', import.meta.url), 'utf8')) as RunState

describe('a stored RunState of the current version', () => {
  it('is of the version this runtime reads', () => {
    expect(stored().version).toBe(RUN_STATE_VERSION)
  })

  it('resumes to completion: the approved call runs with its stored arguments and the counters continue', async () => {
    const ran: unknown[] = []
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploy a service',
      parameters: z.object({ service: z.string(), version: z.string() }),
      needsApproval: true,
      execute: (args) => {
        ran.push(args)
        return `deployed ${args.service}@${args.version}`
      },
    })
    const status = defineTool({
      name: 'status',
      description: 'Service status',
      parameters: z.object({ service: z.string() }),
      execute: () => 'healthy',
    })
    const runtime = new Runtime({ provider: scripted(['deployed']), model: 'other-model' })
    const result = await runtime.resume(stored(), { approve: ['d1'] }, { tools: [deploy, status] })
    expect(result.status).toBe('completed')
    expect(ran).toEqual([{ service: 'api', version: '2.4.1' }])
    expect(result.iterationsUsed).toBe(3)
    expect(result.receipts.map((r) => [r.toolName, r.status])).toEqual([
      ['status', 'ok'],
      ['deploy', 'ok'],
    ])
  })
})
