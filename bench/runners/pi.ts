import { Agent, type AgentMessage, type AgentTool } from '@mariozechner/pi-agent-core'
import { Type, type Model } from '@mariozechner/pi-ai'
import { ECHO_DESCRIPTION, SYSTEM, promptFor, verify, type HistoryItem, type Outcome } from '../scenario.js'
import type { Runner, Target, Workload } from './types.js'

// pi-agent-core: a fresh Agent per run (its transcript is state), tools executed sequentially to
// match the other systems, the model object pointing the openai-completions API at the mock.

function toPiMessages(items: HistoryItem[], model: Model<'openai-completions'>): AgentMessage[] {
  const usage = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  }
  const assistant = { api: model.api, provider: model.provider, model: model.id, usage, timestamp: 0 }
  return items.map((item): AgentMessage => {
    switch (item.role) {
      case 'user':
        return { role: 'user', content: item.text, timestamp: 0 }
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
          timestamp: 0,
        }
    }
  })
}

export function createPiRunner(target: Target): Runner {
  const model: Model<'openai-completions'> = {
    id: target.model,
    name: target.model,
    api: 'openai-completions',
    provider: 'openai',
    baseUrl: target.baseURL,
    reasoning: false,
    input: ['text'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128_000,
    maxTokens: 4096,
  }
  const histories = new WeakMap<HistoryItem[], AgentMessage[]>()
  // The tool is defined once, as an application would; the counter is reset per run. The Agent
  // is per run because it owns the transcript.
  const counter = { calls: 0 }
  const echo: AgentTool = {
    name: 'echo',
    label: 'Echo',
    description: ECHO_DESCRIPTION,
    parameters: Type.Object({ text: Type.String(), pad: Type.String() }),
    execute: async (_id, params) => {
      counter.calls++
      return { content: [{ type: 'text', text: (params as { text: string }).text }], details: undefined }
    },
  }

  return {
    name: 'pi-agent-core',
    supports: (w) => w.scenario.kind === 'tools',
    async run(workload: Workload): Promise<Outcome> {
      const { scenario } = workload
      if (scenario.kind !== 'tools') throw new Error('pi runner: only tool scenarios')
      counter.calls = 0
      let history = histories.get(workload.history)
      if (!history) histories.set(workload.history, (history = toPiMessages(workload.history, model)))
      const agent = new Agent({
        initialState: { systemPrompt: SYSTEM, model, tools: [echo], messages: history },
        getApiKey: () => target.apiKey,
        toolExecution: 'sequential',
      })
      let text = ''
      let failure: string | undefined
      agent.subscribe((event) => {
        if (event.type === 'message_update' && event.assistantMessageEvent.type === 'text_delta')
          text += event.assistantMessageEvent.delta
        else if (event.type === 'message_start' && event.message.role === 'assistant') text = ''
        else if (
          event.type === 'message_end' &&
          event.message.role === 'assistant' &&
          event.message.stopReason === 'error'
        ) {
          failure = event.message.errorMessage ?? 'error'
        }
      })
      await agent.prompt(promptFor(scenario))
      if (failure !== undefined) throw new Error(`[pi-agent-core] model error: ${failure}`)
      const outcome = { toolCalls: counter.calls, text }
      verify('pi-agent-core', scenario, outcome)
      return outcome
    },
  }
}
