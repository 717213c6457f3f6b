import { createOpenAI } from '@ai-sdk/openai'
import { stepCountIs, streamText, tool, type ModelMessage } from 'ai'
import { z } from 'zod'
import { ECHO_DESCRIPTION, SYSTEM, promptFor, verify, type HistoryItem, type Outcome } from '../scenario.js'
import type { Runner, Target, Workload } from './types.js'

// Vercel AI SDK: streamText runs the tool loop itself; stopWhen bounds it to T tool steps + 1.

globalThis.AI_SDK_LOG_WARNINGS = false

function toModelMessages(items: HistoryItem[]): ModelMessage[] {
  return items.map((item): ModelMessage => {
    switch (item.role) {
      case 'user':
        return { role: 'user', content: item.text }
      case 'assistant':
        return { role: 'assistant', content: item.text }
      case 'assistantCall':
        return {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: item.id, toolName: item.name, input: JSON.parse(item.args) }],
        }
      case 'toolResult':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: item.id,
              toolName: item.name,
              output: { type: 'text', value: item.text },
            },
          ],
        }
    }
  })
}

export function createAiSdkRunner(target: Target): Runner {
  const provider = createOpenAI({ baseURL: target.baseURL, apiKey: target.apiKey })
  const model = provider.chat(target.model)
  const histories = new WeakMap<HistoryItem[], ModelMessage[]>()
  // Tools are defined once, as an application would; the counter is reset per run.
  const counter = { calls: 0 }
  const tools = {
    echo: tool({
      description: ECHO_DESCRIPTION,
      inputSchema: z.object({ text: z.string(), pad: z.string() }),
      execute: async ({ text }) => {
        counter.calls++
        return text
      },
    }),
  }

  return {
    name: 'ai-sdk',
    supports: (w) => w.scenario.kind === 'tools',
    async run(workload: Workload): Promise<Outcome> {
      const { scenario } = workload
      if (scenario.kind !== 'tools') throw new Error('ai-sdk runner: only tool scenarios')
      counter.calls = 0
      let history = histories.get(workload.history)
      if (!history) histories.set(workload.history, (history = toModelMessages(workload.history)))
      const result = streamText({
        model,
        system: SYSTEM,
        messages: [...history, { role: 'user', content: promptFor(scenario) }],
        tools,
        stopWhen: stepCountIs(scenario.t + 1),
        maxRetries: 0,
      })
      let text = ''
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') text += part.text
        else if (part.type === 'start-step') text = ''
        else if (part.type === 'error') throw part.error instanceof Error ? part.error : new Error(String(part.error))
      }
      const outcome = { toolCalls: counter.calls, text }
      verify('ai-sdk', scenario, outcome)
      return outcome
    },
  }
}
