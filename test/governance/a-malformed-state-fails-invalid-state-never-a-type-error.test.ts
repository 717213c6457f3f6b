import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, defineTool, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploy',
  parameters: z.object({ service: z.string() }),
  needsApproval: true,
  execute: ({ service }) => `deployed ${service}`,
})

let template: RunState | undefined
async function validState(): Promise<RunState> {
  if (!template) {
    const runtime = new Runtime({
      provider: scripted([
        {
          content: [
            { type: 'thinking', thinking: 'plan' },
            { type: 'text', text: 'deploying' },
            { type: 'toolCall', id: 'd1', name: 'deploy', arguments: { service: 'api' } },
          ],
        },
      ]),
      model: 'm',
      system: 'ops',
    })
    const result = await runtime.exec('deploy api', { tools: [deploy] })
    template = result.pending!.state
  }
  // A fresh id each time, so a state that resumes does not make its siblings "already resumed".
  return { ...structuredClone(template), stateId: randomUUID() }
}

/** Resumes and returns the error it throws, or undefined after the run settled. */
async function attempt(state: unknown): Promise<unknown> {
  let run
  try {
    run = new Runtime({ provider: scripted(['done']), model: 'm' }).resume(
      state as RunState,
      { approve: ['d1'] },
      { tools: [deploy] },
    )
  } catch (error) {
    return error
  }
  const result = await run
  expect(['completed', 'failed', 'paused', 'aborted']).toContain(result.status)
  return undefined
}

/** Every path in a JSON value, as key lists. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix]
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])))
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]))
  return out
}

function replaceAt(root: unknown, path: (string | number)[], replacement: unknown, remove: boolean): unknown {
  if (path.length === 0) return replacement
  const copy = structuredClone(root) as Record<string | number, unknown>
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  const last = path[path.length - 1]!
  if (remove && !Array.isArray(node)) delete node[last]
  else node[last] = replacement
  return copy
}

describe('a malformed RunState', () => {
  it('an assistant message with content null fails invalid_state naming the field, not a TypeError', async () => {
    const state = await validState()
    state.history.push({ role: 'assistant', content: null } as unknown as RunState['history'][number])
    const error = await attempt(state)
    expect(NestorError.isInstance(error) && error.code).toBe('invalid_state')
    expect((error as Error).message).toMatch(/history\.2\.content/)
  })

  it('a wrong type deep inside fails invalid_state with the path of the first bad field', async () => {
    const state = await validState()
    ;(state.receipts as unknown[]).push({ toolCallId: 'x', status: 'ok' })
    const error = await attempt(state)
    expect(NestorError.isInstance(error) && error.code).toBe('invalid_state')
    expect((error as Error).message).toMatch(/field receipts\.0\.toolName/)
  })

  it('any field of a valid state replaced by any JSON value, or removed, either resumes or fails invalid_state; nothing else is thrown', async () => {
    const base = await validState()
    const allPaths = paths(base)
    const value = fc.oneof(
      fc.constantFrom(
        null,
        0,
        -1,
        1.5,
        '',
        'x',
        true,
        [],
        {},
        [null],
        { role: 'assistant', content: null },
        { type: 'toolCall' },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...allPaths), value, fc.boolean(), async (path, replacement, remove) => {
        const mutated = replaceAt(
          { ...base, stateId: path[0] === 'stateId' ? base.stateId : randomUUID() },
          path,
          replacement,
          remove,
        )
        const error = await attempt(mutated)
        if (error !== undefined) {
          expect(NestorError.isInstance(error) ? error.code : error).toBe('invalid_state')
        }
      }),
      { numRuns: 400 },
    )
  })
})
