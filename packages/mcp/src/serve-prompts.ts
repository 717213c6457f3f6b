import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  type CompleteResult,
  type GetPromptResult,
} from '@modelcontextprotocol/sdk/types.js'
import { invalidOption } from '@nestor/core/integration-kit'
import { toMcpContent } from './content.js'
import type { ResourceCatalog } from './serve-resources.js'
import type { McpCompleter, McpPrompt, McpPromptMessage } from './serve-types.js'

/** MCP's cap on the values one completion answer carries. */
const MAX_COMPLETIONS = 100

/** The served prompts by name, checked once: unique names, unique argument names. */
export function promptTable(prompts: McpPrompt[]): Map<string, McpPrompt> {
  const table = new Map<string, McpPrompt>()
  for (const p of prompts) {
    if (table.has(p.name)) throw invalidOption('prompts', 'unique prompt names', p.name)
    const names = (p.arguments ?? []).map((a) => a.name)
    if (new Set(names).size !== names.length) throw invalidOption('prompts', 'unique argument names', p.name)
    table.set(p.name, p)
  }
  return table
}

/** Answers prompts/list and prompts/get on one session's server. */
export function servePrompts(server: Server, prompts: Map<string, McpPrompt>): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [...prompts.values()].map((p) => ({
      name: p.name,
      ...(p.title !== undefined && { title: p.title }),
      ...(p.description !== undefined && { description: p.description }),
      arguments: (p.arguments ?? []).map(({ name, description, required }) => ({
        name,
        ...(description !== undefined && { description }),
        required: required === true,
      })),
    })),
  }))
  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const prompt = prompts.get(request.params.name)
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${request.params.name}`)
    const args = checkedArguments(prompt, request.params.arguments ?? {})
    const got = await prompt.get(args)
    const messages = typeof got === 'string' ? [{ role: 'user' as const, content: got }] : got
    return {
      ...(prompt.description !== undefined && { description: prompt.description }),
      messages: messages.map(toPromptMessage),
    }
  })
}

/** Required arguments present, no argument the prompt does not declare. */
function checkedArguments(prompt: McpPrompt, given: Record<string, string>): Record<string, string> {
  const declared = prompt.arguments ?? []
  const unknown = Object.keys(given).filter((k) => !declared.some((a) => a.name === k))
  if (unknown.length > 0)
    throw new McpError(ErrorCode.InvalidParams, `prompt ${prompt.name} has no argument ${unknown.join(', ')}`)
  const missing = declared.filter((a) => a.required === true && given[a.name] === undefined).map((a) => a.name)
  if (missing.length > 0)
    throw new McpError(ErrorCode.InvalidParams, `prompt ${prompt.name} needs argument ${missing.join(', ')}`)
  return given
}

function toPromptMessage(message: McpPromptMessage): GetPromptResult['messages'][number] {
  const part = typeof message.content === 'string' ? { type: 'text' as const, text: message.content } : message.content
  return { role: message.role, content: toMcpContent([part])[0]! }
}

/** Answers completion/complete for prompt arguments and resource template variables. */
export function serveCompletions(server: Server, prompts: Map<string, McpPrompt>, resources: ResourceCatalog): void {
  server.setRequestHandler(CompleteRequestSchema, async (request): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params
    let completer: McpCompleter | undefined
    if (ref.type === 'ref/prompt') {
      const prompt = prompts.get(ref.name)
      if (!prompt) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${ref.name}`)
      completer = prompt.arguments?.find((a) => a.name === argument.name)?.complete
    } else {
      const template = resources.template(ref.uri)
      // A fixed resource has nothing to complete; a URI that names neither is the client's mistake.
      if (!template && !resources.statics.has(ref.uri))
        throw new McpError(ErrorCode.InvalidParams, `unknown resource template ${ref.uri}`)
      completer = template?.complete?.[argument.name]
    }
    const values = completer ? await completer(argument.value, { arguments: context?.arguments ?? {} }) : []
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETIONS),
        total: values.length,
        hasMore: values.length > MAX_COMPLETIONS,
      },
    }
  })
}
