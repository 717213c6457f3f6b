import { Runtime, exec, type Message, type Tool } from '@nestor/core'
import { emptyUsage } from '@nestor/core/integration-kit'
import { openai } from '@nestor/providers/openai'
import { SYSTEM, promptFor, verify, type HistoryItem, type Outcome, type Scenario } from '../scenario.js'
import type { Runner, Target, Workload } from './types.js'

// Nestor as a user would write it: one Runtime, runtime.exec() consumed as an event stream. The
// nested workload's `spawn` body opens a child with the plain exec(), which finds its parent
// through AsyncLocalStorage. The tools come from a style (nestor.ts: zod; nestor-json.ts: raw JSON
// Schema), each in its own module so that a cold process of one style loads only its own modules.

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

/** The bodies the runner counts; a tool style wraps them into the `echo` and `spawn` tools. */
export type ToolBodies = {
  echo: (args: { text: string }) => Promise<string>
  spawn: (args: { depth: number }) => Promise<string>
}
/** How the tools are written (zod in nestor.ts, raw JSON Schema in nestor-json.ts). */
export type ToolStyle = {
  name: string
  /** Runtime options the style implies (the JSON style allows duplicate calls, as an independent harness writes it). */
  runtime?: { duplicateCalls?: 'allow' }
  tools(bodies: ToolBodies): { echo: Tool; spawn: Tool }
}

/**
 * `configure` sees the runtime before any run (the traced variant instruments it there); `adapter`
 * is the openai() factory, from the adapter's own path unless a row imports it from elsewhere.
 */
export function createNestorRunnerWith(
  target: Target,
  style: ToolStyle,
  configure?: (runtime: Runtime) => void,
  adapter: typeof openai = openai,
): Runner {
  const runtime = new Runtime({
    provider: adapter({ baseURL: target.baseURL, apiKey: target.apiKey }),
    model: target.model,
    system: SYSTEM,
    ...style.runtime,
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
  const { echo, spawn } = style.tools({ echo: echoBody, spawn: spawnBody })
  const name = style.name
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
