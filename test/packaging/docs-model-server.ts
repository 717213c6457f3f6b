import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A Chat Completions request as the openai SDK sends it (the fields this server reads). */
export type ChatRequest = {
  messages: { role: string; content: unknown; tool_calls?: unknown[] }[]
  tools?: { function: { name: string; parameters?: JsonSchema } }[]
  response_format?: { type: string; json_schema?: { schema: JsonSchema } }
}
type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  minimum?: number
}

export type DocsModelServer = { baseURL: string; requests: ChatRequest[]; close(): Promise<void> }

/**
 * A model that follows the tool workflow, speaking the Chat Completions wire protocol on
 * 127.0.0.1, so the docs' programs run with `openai()` unchanged (OPENAI_BASE_URL points here):
 * it calls the first tool it is offered once, with arguments built from its schema, then answers
 * with the tool results; asked for typed output, it answers a value of the schema.
 */
export async function startDocsModel(): Promise<DocsModelServer> {
  const requests: ChatRequest[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      let body: ChatRequest
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"not JSON"}}')
        return
      }
      requests.push(body)
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(answer(body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function answer(body: ChatRequest): string {
  const last = body.messages.at(-1)
  const tool = body.tools?.[0]
  if (last?.role !== 'tool' && tool) {
    const args = JSON.stringify(valueOf(tool.function.parameters ?? { type: 'object' }))
    return stream(
      [
        {
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: `call_${body.messages.length}`,
              type: 'function',
              function: { name: tool.function.name, arguments: args },
            },
          ],
        },
      ],
      'tool_calls',
    )
  }
  const schema = body.response_format?.json_schema?.schema
  if (schema) return stream([{ role: 'assistant', content: JSON.stringify(valueOf(schema)) }], 'stop')
  const results = body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content))
  const text = results.length ? `The tools said: ${results.join('; ')}.` : 'Hello from the local model.'
  return stream([{ role: 'assistant', content: text.slice(0, 12) }, { content: text.slice(12) }], 'stop')
}

function stream(deltas: Record<string, unknown>[], finish: string): string {
  const base = { id: 'chatcmpl-docs', object: 'chat.completion.chunk', created: 1780000000, model: 'docs-model' }
  const chunks = [
    ...deltas.map((delta) => ({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })),
    { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] },
    { ...base, choices: [], usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 } },
  ]
  return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'].join('')
}

/** A value of the schema: required properties only, the first enum value, 2 for numbers. */
function valueOf(schema: JsonSchema): unknown {
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return schema.enum[0]
  if (schema.anyOf?.[0]) return valueOf(schema.anyOf[0])
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type
  switch (type) {
    case 'string':
      return 'Lisbon'
    case 'number':
    case 'integer':
      return Math.max(2, schema.minimum ?? 2)
    case 'boolean':
      return true
    case 'array':
      return schema.items ? [valueOf(schema.items)] : []
    default: {
      const out: Record<string, unknown> = {}
      for (const key of schema.required ?? Object.keys(schema.properties ?? {}))
        out[key] = valueOf(schema.properties?.[key] ?? {})
      return out
    }
  }
}
