import { Type, complete, type Context, type Model } from '@mariozechner/pi-ai'
import { API_KEY, MODEL, echoArguments, echoResult, promptFor } from './scenario.js'

// A check that the mock's Anthropic Messages dialect is real enough for the official Anthropic SDK
// (pi-ai drives it): a tool_use turn whose input arrives as input_json_delta fragments, then text.

export type AnthropicCheck = {
  firstStop: string
  args: unknown
  expectedArgs: unknown
  secondStop: string
  text: string
}

export async function anthropicRoundTrip(serverUrl: string, c: number): Promise<AnthropicCheck> {
  const model: Model<'anthropic-messages'> = {
    id: MODEL,
    name: MODEL,
    api: 'anthropic-messages',
    provider: 'anthropic',
    baseUrl: serverUrl,
    reasoning: false,
    input: ['text'],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 100_000,
    maxTokens: 1024,
  }
  const echo = {
    name: 'echo',
    description: 'echo',
    parameters: Type.Object({ text: Type.String(), pad: Type.String() }),
  }
  const context: Context = {
    systemPrompt: 'bench',
    messages: [{ role: 'user', content: promptFor({ kind: 'tools', t: 1, c }), timestamp: 0 }],
    tools: [echo],
  }
  const first = await complete(model, context, { apiKey: API_KEY })
  const call = first.content.find((block) => block.type === 'toolCall')
  if (call?.type !== 'toolCall')
    throw new Error(`anthropic dialect: no tool call (${first.stopReason}: ${first.errorMessage ?? ''})`)
  context.messages.push(first, {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: 'echo',
    content: [{ type: 'text', text: echoResult(0) }],
    isError: false,
    timestamp: 0,
  })
  const second = await complete(model, context, { apiKey: API_KEY })
  return {
    firstStop: first.stopReason,
    args: call.arguments,
    expectedArgs: JSON.parse(echoArguments(0)) as unknown,
    secondStop: second.stopReason,
    text: second.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
  }
}
