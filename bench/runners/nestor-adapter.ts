import type { AssistantMessage, Message, Provider } from '@nestor/core'
import type { ModelEvent, ModelRequest } from '@nestor/core/integration-kit'
import { openai } from '@nestor/providers'
import { SYSTEM, promptFor, type Scenario } from '../scenario.js'
import { TOOL_SPECS } from './floor.js'
import { toNestorHistory } from './nestor-loop.js'
import { loopRunner } from './loop-runner.js'
import type { Runner, Target } from './types.js'

// A diagnostic, not a framework: Nestor's OpenAI adapter (request mapping, history cache, SSE
// parsing, retries) driven by the floor's own minimal loop, with no Runtime, no events, no
// validation. Its row splits Nestor's cost in two: the adapter's (this row against the floor) and
// the loop's (nestor against this row). Opt-in: BENCH_SYSTEMS=floor,nestor,nestor-adapter.

/**
 * One model call through the adapter's fast path (openai() always has one, as the loop uses it);
 * resolves with the finished assistant message. A failed call rejects after the stream ended.
 */
async function call(provider: Provider, request: ModelRequest, signal: AbortSignal): Promise<AssistantMessage> {
  let final: AssistantMessage | undefined
  let failure: Error | undefined
  await provider.streamTo!(request, signal, (event: ModelEvent) => {
    if (event.type === 'done') final = event.message
    else if (event.type === 'error') failure = event.error
  })
  if (failure) throw failure
  if (!final) throw new Error('[nestor-adapter] the stream ended without a message')
  return final
}

export function createNestorAdapterRunner(target: Target): Runner {
  const provider = openai({ baseURL: target.baseURL, apiKey: target.apiKey })

  async function loop(scenario: Scenario, history: Message[], counter: { calls: number }): Promise<string> {
    const messages: Message[] = [...history, { role: 'user', content: promptFor(scenario) }]
    const signal = new AbortController().signal
    for (;;) {
      const reply = await call(provider, { model: target.model, system: SYSTEM, messages, tools: TOOL_SPECS }, signal)
      messages.push(reply)
      let text = ''
      let calls = 0
      for (const block of reply.content) {
        if (block.type === 'text') text += block.text
        if (block.type !== 'toolCall') continue
        calls++
        counter.calls++
        const args = block.arguments as { text?: string; depth?: number }
        const result =
          block.name === 'spawn' && scenario.kind === 'nested'
            ? await loop({ ...scenario, depth: args.depth ?? scenario.depth + 1 }, [], counter)
            : String(args.text)
        messages.push({
          role: 'toolResult',
          toolCallId: block.id,
          toolName: block.name,
          content: [{ type: 'text', text: result }],
          isError: false,
        })
      }
      if (calls === 0) return text
    }
  }

  return loopRunner('nestor-adapter', toNestorHistory, loop)
}
