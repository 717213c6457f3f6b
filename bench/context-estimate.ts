import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { estimateTokens, type AssistantMessage, type Message } from '@nestor/core'
import type { ToolSpec } from '@nestor/core/integration-kit'

// How far Nestor's token estimate (docs/context.md) is from what providers report: each recorded
// wire fixture with a request body and a verified usage is converted to Nestor messages, system
// prompt and tool specs (a small converter per wire format), estimated with `estimateTokens`, and
// set against the input tokens the provider reported. `pnpm bench:context-estimate`; the fixtures
// live outside the repo (../shared/fixtures/wire) and nothing of them is copied in.

type Json = Record<string, unknown>
type Request = { messages: Message[]; system?: string; tools: ToolSpec[] }
type Row = { fixture: string; provider: string; reported: number; estimated: number; ratio: number }

// Beside the checkout: relative to bench/dist/ when compiled, to bench/ from source.
const up = import.meta.url.includes('/bench/dist/') ? '../../../' : '../../'
const root = fileURLToPath(new URL(`${up}shared/fixtures/wire/`, import.meta.url))

const assistant = (content: AssistantMessage['content']): AssistantMessage => ({
  role: 'assistant',
  content,
  stopReason: 'stop',
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  provider: 'fixture',
  model: 'fixture',
})
const result = (toolCallId: string, toolName: string, output: unknown): Message => ({
  role: 'toolResult',
  toolCallId,
  toolName,
  content: [{ type: 'text', text: typeof output === 'string' ? output : JSON.stringify(output) }],
  isError: false,
})
const args = (raw: unknown): Record<string, unknown> =>
  typeof raw === 'string'
    ? (JSON.parse(raw || '{}') as Record<string, unknown>)
    : ((raw ?? {}) as Record<string, unknown>)
const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p: Json) => String(p.text ?? '')).join('')
      : ''
const spec = (name: unknown, description: unknown, parameters: unknown): ToolSpec => ({
  name: String(name),
  description: String(description ?? ''),
  parameters: (parameters ?? {}) as Json,
})

function openaiChat(body: Json): Request {
  const messages: Message[] = []
  let system: string | undefined
  const names = new Map<string, string>()
  for (const m of body.messages as Json[]) {
    if (m.role === 'system' || m.role === 'developer') system = (system ?? '') + textOf(m.content)
    else if (m.role === 'user') messages.push({ role: 'user', content: textOf(m.content) })
    else if (m.role === 'tool')
      messages.push(result(String(m.tool_call_id), names.get(String(m.tool_call_id)) ?? '', m.content))
    else {
      const calls = ((m.tool_calls as Json[] | undefined) ?? []).map((c) => {
        const fn = c.function as Json
        names.set(String(c.id), String(fn.name))
        return { type: 'toolCall' as const, id: String(c.id), name: String(fn.name), arguments: args(fn.arguments) }
      })
      const text = textOf(m.content)
      messages.push(assistant([...(text ? [{ type: 'text' as const, text }] : []), ...calls]))
    }
  }
  const tools = ((body.tools as Json[] | undefined) ?? []).map((t) => {
    const fn = t.function as Json
    return spec(fn.name, fn.description, fn.parameters)
  })
  return { messages, tools, ...(system ? { system } : {}) }
}

function openaiResponses(body: Json): Request {
  const messages: Message[] = []
  const names = new Map<string, string>()
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input as Json[])
  for (const item of input) {
    if (item.type === 'function_call') {
      names.set(String(item.call_id), String(item.name))
      const call = {
        type: 'toolCall' as const,
        id: String(item.call_id),
        name: String(item.name),
        arguments: args(item.arguments),
      }
      messages.push(assistant([call]))
    } else if (item.type === 'function_call_output')
      messages.push(result(String(item.call_id), names.get(String(item.call_id)) ?? '', item.output))
    else if (item.role === 'assistant') messages.push(assistant([{ type: 'text', text: textOf(item.content) }]))
    else if (item.type === undefined || item.type === 'message')
      messages.push({ role: 'user', content: textOf(item.content) })
  }
  const tools = ((body.tools as Json[] | undefined) ?? []).map((t) => spec(t.name, t.description, t.parameters))
  const system = typeof body.instructions === 'string' && body.instructions ? body.instructions : undefined
  return { messages, tools, ...(system ? { system } : {}) }
}

function anthropic(body: Json): Request {
  const messages: Message[] = []
  const names = new Map<string, string>()
  for (const m of body.messages as Json[]) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Json[])
    if (m.role === 'assistant') {
      const content: AssistantMessage['content'] = []
      for (const b of blocks) {
        if (b.type === 'text') content.push({ type: 'text', text: String(b.text) })
        else if (b.type === 'thinking') content.push({ type: 'thinking', thinking: String(b.thinking) })
        else if (b.type === 'tool_use') {
          names.set(String(b.id), String(b.name))
          content.push({ type: 'toolCall', id: String(b.id), name: String(b.name), arguments: args(b.input) })
        }
      }
      messages.push(assistant(content))
      continue
    }
    const text = blocks.filter((b) => b.type === 'text').map((b) => String(b.text))
    for (const b of blocks.filter((b) => b.type === 'tool_result'))
      messages.push(result(String(b.tool_use_id), names.get(String(b.tool_use_id)) ?? '', textOf(b.content)))
    if (text.length > 0) messages.push({ role: 'user', content: text.join('\n') })
  }
  const tools = ((body.tools as Json[] | undefined) ?? []).map((t) => spec(t.name, t.description, t.input_schema))
  const system = textOf(body.system)
  return { messages, tools, ...(system ? { system } : {}) }
}

function gemini(body: Json): Request {
  const messages: Message[] = []
  for (const c of body.contents as Json[]) {
    const parts = c.parts as Json[]
    if (c.role === 'model') {
      const content: AssistantMessage['content'] = []
      for (const p of parts) {
        const call = p.functionCall as Json | undefined
        if (call)
          content.push({
            type: 'toolCall',
            id: String(call.id ?? call.name),
            name: String(call.name),
            arguments: args(call.args),
          })
        else if (typeof p.text === 'string')
          content.push(p.thought ? { type: 'thinking', thinking: p.text } : { type: 'text', text: p.text })
      }
      messages.push(assistant(content))
      continue
    }
    for (const p of parts) {
      const response = p.functionResponse as Json | undefined
      if (response)
        messages.push(result(String(response.id ?? response.name), String(response.name), response.response))
      else if (typeof p.text === 'string') messages.push({ role: 'user', content: p.text })
    }
  }
  const declarations = ((body.tools as Json[] | undefined) ?? []).flatMap(
    (t) => (t.functionDeclarations as Json[] | undefined) ?? [],
  )
  const tools = declarations.map((d) => spec(d.name, d.description, d.parameters))
  const system = textOf((body.systemInstruction as Json | undefined)?.parts)
  return { messages, tools, ...(system ? { system } : {}) }
}

const converters: Record<string, (body: Json) => Request> = {
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  anthropic,
  gemini,
}

const reportedOf = (usage: Json): number | undefined => {
  const tokens = usage.prompt_tokens ?? usage.input_tokens ?? usage.promptTokenCount
  return typeof tokens === 'number' ? tokens : undefined
}

export function measure(dir = root): Row[] | undefined {
  if (!existsSync(`${dir}index.json`)) return undefined
  const index = JSON.parse(readFileSync(`${dir}index.json`, 'utf8')) as { fixtures: Json[] }
  const rows: Row[] = []
  for (const fixture of index.fixtures) {
    const usage = (fixture.verified_sdk_result as Json | undefined)?.usage as Json | undefined
    const reported = usage && reportedOf(usage)
    if (typeof fixture.request !== 'string' || !reported) continue
    const provider = fixture.request.split('/')[0] as string
    const convert = converters[provider]
    if (!convert) continue
    const request = convert(JSON.parse(readFileSync(`${dir}${fixture.request}`, 'utf8')) as Json)
    const estimated = estimateTokens(request.messages, {
      tools: request.tools,
      ...(request.system ? { system: request.system } : {}),
    })
    rows.push({ fixture: String(fixture.file), provider, reported, estimated, ratio: estimated / reported })
  }
  return rows
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}
/** The ratio furthest from 1, either way. */
const worst = (values: number[]): number =>
  values.reduce((w, r) => (Math.abs(Math.log(r)) > Math.abs(Math.log(w)) ? r : w), 1)

export function report(rows: Row[]): string {
  const lines = ['| fixture | reported | estimated | ratio |', '|---|---:|---:|---:|']
  for (const r of rows) lines.push(`| ${r.fixture} | ${r.reported} | ${r.estimated} | ${r.ratio.toFixed(2)} |`)
  lines.push('', '| provider | fixtures | median ratio | worst ratio |', '|---|---:|---:|---:|')
  for (const provider of [...new Set(rows.map((r) => r.provider))]) {
    const ratios = rows.filter((r) => r.provider === provider).map((r) => r.ratio)
    lines.push(`| ${provider} | ${ratios.length} | ${median(ratios).toFixed(2)} | ${worst(ratios).toFixed(2)} |`)
  }
  return lines.join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = measure()
  if (!rows)
    console.log(`no recorded fixtures at ${root}: nothing to measure (they live outside the repo, in ../shared)`)
  else console.log(report(rows))
}
