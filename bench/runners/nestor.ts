import { Runtime, defineTool, exec, type Message, type Tool } from '@nestor/core'
import { emptyUsage } from '@nestor/core/provider-kit'
import { openai } from '@nestor/providers'
import { z } from 'zod'
import {
  ECHO_DESCRIPTION,
  SPAWN_DESCRIPTION,
  SYSTEM,
  promptFor,
  verify,
  type HistoryItem,
  type Outcome,
  type Scenario,
} from '../scenario.js'
import type { Runner, Target, Workload } from './types.js'

// Nestor as a user would write it: one Runtime, tools from defineTool, runtime.exec() consumed
// as an event stream. The nested workload's `spawn` body opens a child with the plain exec(),
// which finds its parent through AsyncLocalStorage.

export function toNestorHistory(items: HistoryItem[]): Message[] {
  const assistant = { usage: emptyUsage(), provider: 'openai', model: 'bench-model' }
  return items.map((item): Message => {
    switch (item.role) {
      case 'user':
        return { role: 'user', content: item.text }
      case 'assistant':
        return { role: 'assistant', content: [{ type: 'text', text: item.text }], stopReason: 'stop', ...assistant }
      case 'assistantCall':
        return {
          role: 'assistant',
          content: [
            {
              type: 'toolCall',
              id: item.id,
              name: item.name,
              arguments: JSON.parse(item.args) as Record<string, unknown>,
            },
          ],
          stopReason: 'toolUse',
          ...assistant,
        }
      case 'toolResult':
        return {
          role: 'toolResult',
          toolCallId: item.id,
          toolName: item.name,
          content: [{ type: 'text', text: item.text }],
          isError: false,
        }
    }
  })
}

/**
 * How the tools are written: `zod` is `defineTool` with zod schemas; `json` is the other common
 * style, plain `{ spec, execute }` objects with raw JSON Schema (validated by Ajv) on a runtime with
 * `duplicateCalls: 'allow'` (a model may repeat a call), as an independent harness writes it.
 */
export type ToolStyle = 'zod' | 'json'

const ECHO_JSON = {
  type: 'object',
  properties: { text: { type: 'string' }, pad: { type: 'string' } },
  required: ['text', 'pad'],
  additionalProperties: false,
}
const SPAWN_JSON = {
  type: 'object',
  properties: { depth: { type: 'integer' } },
  required: ['depth'],
  additionalProperties: false,
}

/** `configure` sees the runtime before any run (the traced variant instruments it there). */
export function createNestorRunner(
  target: Target,
  configure?: (runtime: Runtime) => void,
  style: ToolStyle = 'zod',
): Runner {
  const runtime = new Runtime({
    provider: openai({ baseURL: target.baseURL, apiKey: target.apiKey }),
    model: target.model,
    system: SYSTEM,
    ...(style === 'json' && { duplicateCalls: 'allow' as const }),
  })
  configure?.(runtime)
  const histories = new WeakMap<HistoryItem[], Message[]>()
  const counter = { calls: 0 }
  let current: Scenario = { kind: 'tools', t: 0, c: 0 }

  const echoBody = async ({ text }: { text: string }): Promise<string> => {
    counter.calls++
    return text
  }
  const spawnBody = async ({ depth }: { depth: number }): Promise<string> => {
    counter.calls++
    if (current.kind !== 'nested') throw new Error('spawn outside the nested scenario')
    const child = await exec(promptFor({ ...current, depth }), { tools: [spawn] })
    if (child.status !== 'completed')
      throw new Error(`child exec at depth ${depth} ${child.status}: ${child.error?.message}`)
    return child.text
  }
  const echo: Tool =
    style === 'zod'
      ? (defineTool({
          name: 'echo',
          description: ECHO_DESCRIPTION,
          parameters: z.object({ text: z.string(), pad: z.string() }),
          execute: echoBody,
        }) as unknown as Tool)
      : ({
          spec: { name: 'echo', description: ECHO_DESCRIPTION, parameters: ECHO_JSON },
          execute: (args: Record<string, unknown>) => echoBody(args as { text: string }),
        } as Tool)
  const spawn: Tool =
    style === 'zod'
      ? (defineTool({
          name: 'spawn',
          description: SPAWN_DESCRIPTION,
          parameters: z.object({ depth: z.number().int() }),
          execute: spawnBody,
        }) as unknown as Tool)
      : ({
          spec: { name: 'spawn', description: SPAWN_DESCRIPTION, parameters: SPAWN_JSON },
          execute: (args: Record<string, unknown>) => spawnBody(args as { depth: number }),
        } as Tool)

  const name = style === 'zod' ? 'nestor' : 'nestor-json'
  return {
    name,
    supports: () => true,
    async run(workload: Workload): Promise<Outcome> {
      const { scenario } = workload
      counter.calls = 0
      current = scenario
      let history = histories.get(workload.history)
      if (!history) histories.set(workload.history, (history = toNestorHistory(workload.history)))
      const run = runtime.exec(promptFor(scenario), {
        tools: scenario.kind === 'tools' ? [echo] : [spawn],
        history,
        maxIterations: scenario.kind === 'tools' ? scenario.t + 1 : 2,
      })
      let streamed = ''
      for await (const event of run) {
        if (event.depth !== 0) continue
        if (event.type === 'turn_start') streamed = ''
        else if (event.type === 'message_delta' && event.delta.kind === 'text') streamed += event.delta.text
      }
      const result = await run
      if (result.status !== 'completed') throw new Error(`[${name}] exec ${result.status}: ${result.error?.message}`)
      const outcome = { toolCalls: counter.calls, text: result.text }
      verify(name, scenario, outcome)
      if (streamed !== result.text) throw new Error(`[${name}] streamed text differs from result.text`)
      return outcome
    },
  }
}
