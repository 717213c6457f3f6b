import type { ImageContent, Message, TextContent, ToolChoice } from '@nestor/core'
import type { ModelRequest, ToolSpec } from '@nestor/core/provider-kit'
import { CALL_OPEN } from './tool-block-parser.js'

/** How a call looks in the text protocol; used in the instructions and to replay past calls. */
export const renderCall = (name: string, args: Record<string, unknown>): string =>
  `${CALL_OPEN}\n${JSON.stringify({ name, arguments: args })}\n\`\`\``

/**
 * The request a model without native tools gets: no `tools` field, the tools described in the
 * system prompt, past calls shown as the blocks the model is asked to write, and tool results as
 * user text messages (consecutive results merged into one message).
 */
export function toTextProtocolRequest(request: ModelRequest): ModelRequest {
  const { tools: _tools, toolChoice: _choice, parallelToolCalls: _parallel, ...rest } = request
  const out: ModelRequest = { ...rest, tools: [], messages: renderHistory(request.messages) }
  const instructions =
    activeTools(request).length > 0
      ? toolInstructions(activeTools(request), request.toolChoice, request.parallelToolCalls)
      : undefined
  const system = [request.system, instructions].filter((s): s is string => Boolean(s)).join('\n\n')
  if (system) out.system = system
  else delete out.system
  return out
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

function renderHistory(messages: Message[]): Message[] {
  const out: Message[] = []
  let results: (TextContent | ImageContent)[] | undefined
  const flush = () => {
    if (!results) return
    const parts = results
    results = undefined
    // All-text results become one string: some local servers accept only string content.
    if (parts.every((p) => p.type === 'text'))
      out.push({ role: 'user', content: parts.map((p) => (p as TextContent).text).join('\n\n') })
    else out.push({ role: 'user', content: parts })
  }
  for (const message of messages) {
    if (message.role === 'toolResult') {
      const body = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('')
      const images = message.content.filter((p): p is ImageContent => p.type === 'image')
      ;(results ??= []).push(
        { type: 'text', text: `Tool ${message.toolName} ${message.isError ? 'failed' : 'returned'}:\n${body}` },
        ...images,
      )
      continue
    }
    flush()
    if (message.role === 'assistant') {
      const text = message.content
        .map((block) =>
          block.type === 'text' ? block.text : block.type === 'toolCall' ? renderCall(block.name, block.arguments) : '',
        )
        .filter(Boolean)
        .join('\n\n')
      out.push({ ...message, content: text ? [{ type: 'text', text }] : [] })
    } else out.push(message)
  }
  flush()
  return out
}
