import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool, type AgentInputItem } from '@openai/agents'
import OpenAI from 'openai'
import { z } from 'zod'
import { ECHO_DESCRIPTION, SYSTEM, promptFor, verify, type HistoryItem, type Outcome } from '../scenario.js'
import type { Runner, Target, Workload } from './types.js'

// OpenAI Agents SDK on Chat Completions (the mock speaks that, not Responses), tracing off so no
// exporter runs. run(..., { stream: true }) is consumed event by event like the other systems.

setTracingDisabled(true)

function toAgentItems(items: HistoryItem[]): AgentInputItem[] {
  return items.map((item): AgentInputItem => {
    switch (item.role) {
      case 'user':
        return { role: 'user', content: item.text }
      case 'assistant':
        return { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: item.text }] }
      case 'assistantCall':
        return { type: 'function_call', callId: item.id, name: item.name, arguments: item.args, status: 'completed' }
      case 'toolResult':
        return {
          type: 'function_call_result',
          callId: item.id,
          name: item.name,
          status: 'completed',
          output: { type: 'text', text: item.text },
        }
    }
  })
}

export function createOpenAIAgentsRunner(target: Target): Runner {
  const client = new OpenAI({ baseURL: target.baseURL, apiKey: target.apiKey })
  const model = new OpenAIChatCompletionsModel(client, target.model)
  const histories = new WeakMap<HistoryItem[], AgentInputItem[]>()
  // Agent and tool are defined once, as an application would; the counter is reset per run.
  const counter = { calls: 0 }
  const echo = tool({
    name: 'echo',
    description: ECHO_DESCRIPTION,
    parameters: z.object({ text: z.string(), pad: z.string() }),
    execute: async ({ text }) => {
      counter.calls++
      return text
    },
  })
  const agent = new Agent({ name: 'bench', instructions: SYSTEM, model, tools: [echo] })

  return {
    name: '@openai/agents',
    supports: (w) => w.scenario.kind === 'tools',
    async run(workload: Workload): Promise<Outcome> {
      const { scenario } = workload
      if (scenario.kind !== 'tools') throw new Error('openai-agents runner: only tool scenarios')
      counter.calls = 0
      let history = histories.get(workload.history)
      if (!history) histories.set(workload.history, (history = toAgentItems(workload.history)))
      const input: AgentInputItem[] = [...history, { role: 'user', content: promptFor(scenario) }]
      const result = await run(agent, input, { stream: true, maxTurns: scenario.t + 2 })
      let text = ''
      for await (const event of result) {
        if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') text += event.data.delta
        else if (event.type === 'raw_model_stream_event' && event.data.type === 'response_started') text = ''
      }
      await result.completed
      if (result.error) throw result.error instanceof Error ? result.error : new Error(String(result.error))
      const final = typeof result.finalOutput === 'string' ? result.finalOutput : ''
      const outcome = { toolCalls: counter.calls, text: final }
      verify('@openai/agents', scenario, outcome)
      if (text !== final) throw new Error('[@openai/agents] streamed text differs from finalOutput')
      return outcome
    },
  }
}
