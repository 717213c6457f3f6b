import OpenAI from 'openai'
import type {
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions'
import { ECHO_DESCRIPTION, SPAWN_DESCRIPTION, SYSTEM, promptFor, type HistoryItem, type Scenario } from '../scenario.js'
import { loopRunner } from './loop-runner.js'
import type { Runner, Target } from './types.js'

// The floor: the least work any framework could do on top of the official SDK. Stream, gather
// tool-call fragments by index, run the tool, append, repeat. No events, no validation, no
// bookkeeping. Every other system's time is reported as a ratio to this one.

/** The two tools in provider-neutral form (nestor-adapter sends these through Nestor's adapter). */
export const TOOL_SPECS = [
  {
    name: 'echo',
    description: ECHO_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' }, pad: { type: 'string' } },
      required: ['text', 'pad'],
    },
  },
  {
    name: 'spawn',
    description: SPAWN_DESCRIPTION,
    parameters: { type: 'object', properties: { depth: { type: 'integer' } }, required: ['depth'] },
  },
]

const tools: ChatCompletionTool[] = TOOL_SPECS.map((spec) => ({ type: 'function', function: spec }))

export function toOpenAIHistory(items: HistoryItem[]): ChatCompletionMessageParam[] {
  return items.map((item): ChatCompletionMessageParam => {
    switch (item.role) {
      case 'user':
        return { role: 'user', content: item.text }
      case 'assistant':
        return { role: 'assistant', content: item.text }
      case 'assistantCall':
        return {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: item.id, type: 'function', function: { name: item.name, arguments: item.args } }],
        }
      case 'toolResult':
        return { role: 'tool', tool_call_id: item.id, content: item.text }
    }
  })
}

export function createFloorRunner(target: Target): Runner {
  const client = new OpenAI({ baseURL: target.baseURL, apiKey: target.apiKey })

  async function loop(
    scenario: Scenario,
    history: ChatCompletionMessageParam[],
    counter: { calls: number },
  ): Promise<string> {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: SYSTEM },
      ...history,
      { role: 'user', content: promptFor(scenario) },
    ]
    for (;;) {
      const stream = await client.chat.completions.create({
        model: target.model,
        messages,
        tools,
        stream: true,
        stream_options: { include_usage: true },
      })
      let text = ''
      const calls: ChatCompletionMessageFunctionToolCall[] = []
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta
        if (!delta) continue
        if (delta.content) text += delta.content
        for (const tc of delta.tool_calls ?? []) {
          const call = (calls[tc.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } })
          if (tc.id) call.id = tc.id
          if (tc.function?.name) call.function.name = tc.function.name
          if (tc.function?.arguments) call.function.arguments += tc.function.arguments
        }
      }
      if (calls.length === 0) return text
      messages.push({ role: 'assistant', content: text || null, tool_calls: calls })
      for (const call of calls) {
        const args = JSON.parse(call.function.arguments) as { text?: string; depth?: number }
        counter.calls++
        const result =
          call.function.name === 'spawn' && scenario.kind === 'nested'
            ? await loop({ ...scenario, depth: args.depth ?? scenario.depth + 1 }, [], counter)
            : String(args.text)
        messages.push({ role: 'tool', tool_call_id: call.id, content: result })
      }
    }
  }

  return loopRunner('floor', toOpenAIHistory, loop)
}
