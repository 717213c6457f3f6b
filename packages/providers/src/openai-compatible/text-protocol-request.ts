import type {
  AssistantMessage,
  ImageContent,
  Message,
  TextContent,
  ToolChoice,
  ToolResultMessage,
  UserMessage,
} from '@nestor/core'
import type { ModelRequest, ToolSpec } from '@nestor/core/integration-kit'
import { plainToolContent } from '@nestor/core/integration-kit'
import { perMessage } from '../shared/per-message.js'
import { CALL_OPEN } from './tool-block-parser.js'

/** How a call looks in the text protocol; used in the instructions and to replay past calls. */
export const renderCall = (name: string, args: Record<string, unknown>): string =>
  `${CALL_OPEN}\n${JSON.stringify({ name, arguments: args })}\n\`\`\``

/**
 * The request a model without native tools gets: no `tools` field, the tools described in the
 * system prompt, past calls shown as the blocks the model is asked to write, and tool results as
 * user text messages (consecutive results merged into one message). Also returns the tool
 * instructions it added, if any.
 */
export function toTextProtocolRequest(request: ModelRequest): { request: ModelRequest; instructions?: string } {
  const { tools: _tools, toolChoice: _choice, parallelToolCalls: _parallel, ...rest } = request
  const out: ModelRequest = { ...rest, tools: [], messages: renderHistory(request.messages) }
  const instructions =
    activeTools(request).length > 0
      ? toolInstructions(activeTools(request), request.toolChoice, request.parallelToolCalls)
      : undefined
  const system = [request.system, instructions].filter((s): s is string => Boolean(s)).join('\n\n')
  if (system) out.system = system
  else delete out.system
  // The instructions are returned too: the stream's start event shows them (message_start).
  return instructions ? { request: out, instructions } : { request: out }
}

/** The tools the model may call this round ('none' hides them all). */
export const activeTools = (request: ModelRequest): ToolSpec[] => (request.toolChoice === 'none' ? [] : request.tools)

function toolInstructions(tools: ToolSpec[], choice: ToolChoice | undefined, parallel: boolean | undefined): string {
  const lines = [
    'You can call tools. To call a tool, write a fenced block exactly like this, with one JSON object holding "name" and "arguments":',
    '',
    renderCall('tool_name', { argument: 'value' }),
    '',
    'Rules: the JSON must be valid and "arguments" must match the tool\'s parameters schema. Write nothing after your tool_call blocks: stop and wait. Each result comes back in a user message starting with "Tool <name> returned:" or "Tool <name> failed:". When you need no more tools, answer in plain text without any tool_call block.',
  ]
  if (parallel === false) lines.push('Call at most one tool per reply.')
  if (choice === 'required') lines.push('You must call at least one tool in this reply.')
  else if (typeof choice === 'object') lines.push(`You must call the tool "${choice.name}" in this reply.`)
  lines.push('', 'Available tools:')
  for (const tool of tools) {
    lines.push(`- ${tool.name}: ${tool.description}`, `  parameters: ${JSON.stringify(tool.parameters)}`)
  }
  return lines.join('\n')
}

/**
 * The history as the text protocol shows it. Each past assistant message and each run of tool
 * results is rendered once and the same object is given back on later calls, so the chat
 * adapter underneath, which converts a message object once and a resent history incrementally
 * (docs/providers.md), sees the same messages turn after turn instead of a fresh copy each time.
 */
function renderHistory(messages: Message[]): Message[] {
  const out: Message[] = []
  let run: ToolResultMessage[] = []
  const flush = () => {
    if (run.length === 0) return
    out.push(renderResults(run))
    run = []
  }
  for (const message of messages) {
    if (message.role === 'toolResult') {
      run.push(message)
      continue
    }
    flush()
    out.push(message.role === 'assistant' ? renderAssistant(message) : message)
  }
  flush()
  return out
}

/** A past reply with its calls written as the blocks the model is asked to write. */
const renderAssistant = perMessage((message: AssistantMessage): Message => {
  const text = message.content
    .map((block) =>
      block.type === 'text' ? block.text : block.type === 'toolCall' ? renderCall(block.name, block.arguments) : '',
    )
    .filter(Boolean)
    .join('\n\n')
  return { ...message, content: text ? [{ type: 'text', text }] : [] }
})

/** Rendered runs of tool results, keyed by a run's first result; reused while the run has the same members. */
const renderedRuns = new WeakMap<ToolResultMessage, { run: ToolResultMessage[]; message: UserMessage }>()

/** Consecutive tool results as one user message: a run grows one result at a time, so it is checked whole. */
function renderResults(run: ToolResultMessage[]): UserMessage {
  const first = run[0]!
  const known = renderedRuns.get(first)
  if (known && known.run.length === run.length && known.run.every((m, i) => m === run[i])) return known.message
  const parts: (TextContent | ImageContent)[] = []
  for (const message of run) {
    // Local servers read text and images: audio and binary resources are named in the text.
    const content = plainToolContent(message, () => false)
    const body = content.map((p) => (p.type === 'text' ? p.text : '')).join('')
    parts.push({ type: 'text', text: `Tool ${message.toolName} ${message.isError ? 'failed' : 'returned'}:\n${body}` })
    for (const p of content) if (p.type === 'image') parts.push(p)
  }
  // All-text results become one string: some local servers accept only string content.
  const message: UserMessage = parts.every((p) => p.type === 'text')
    ? { role: 'user', content: parts.map((p) => (p as TextContent).text).join('\n\n') }
    : { role: 'user', content: parts }
  renderedRuns.set(first, { run, message })
  return message
}
