// The server the official MCP conformance suite expects (its tool names), served by serveMcp.
// docs/mcp.md § Conformance. Run: npx tsc -b && node examples/dist/mcp/conformance-server.js [port]
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Runtime, defineTool, type ToolOutput } from '@nestor/core'
import { serveMcp, type McpPrompt, type McpResource, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { z } from 'zod'

// A 1×1 PNG and a 44-byte silent WAV: the smallest valid media of each kind.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const wav = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA='
const resource = {
  uri: 'test://embedded-resource',
  mimeType: 'text/plain',
  text: 'This is an embedded resource content.',
}

const none = z.object({})
const content = (name: string, description: string, output: ToolOutput) =>
  defineTool({ name, description, parameters: none, execute: () => output })

export const conformanceTools = [
  content('test_simple_text', 'Returns text', {
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  }),
  content('test_image_content', 'Returns an image', { content: [{ type: 'image', data: png, mimeType: 'image/png' }] }),
  content('test_audio_content', 'Returns audio', { content: [{ type: 'audio', data: wav, mimeType: 'audio/wav' }] }),
  content('test_embedded_resource', 'Returns an embedded resource', { content: [{ type: 'resource', resource }] }),
  content('test_multiple_content_types', 'Returns text, an image and a resource', {
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: png, mimeType: 'image/png' },
      { type: 'resource', resource: { ...resource, uri: 'test://mixed-content-resource' } },
    ],
  }),
  defineTool({
    name: 'test_tool_with_logging',
    description: 'Logs three lines while it runs',
    parameters: none,
    execute: (_args, ctx) => {
      ctx.log('info', 'Tool execution started')
      ctx.log('info', 'Tool processing data', { step: 1 })
      ctx.log('info', 'Tool execution completed')
      return 'logged'
    },
  }),
  defineTool({
    name: 'test_tool_with_progress',
    description: 'Reports progress three times',
    parameters: none,
    execute: (_args, ctx) => {
      for (const step of [0, 50, 100]) ctx.update(`${step}%`)
      return 'done'
    },
  }),
  asking('test_elicitation', 'Asks the user for a name and an email', {
    type: 'object',
    properties: {
      username: { type: 'string', description: "User's response" },
      email: { type: 'string', description: "User's email address" },
    },
    required: ['username', 'email'],
  }),
  asking('test_elicitation_sep1034_defaults', 'Asks with a default for every primitive type', {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', default: true },
    },
  }),
  asking('test_elicitation_sep1330_enums', 'Asks with every kind of enum', {
    type: 'object',
    properties: {
      untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      titledSingle: {
        type: 'string',
        oneOf: [
          { const: 'value1', title: 'First Option' },
          { const: 'value2', title: 'Second Option' },
        ],
      },
      legacyEnum: {
        type: 'string',
        enum: ['opt1', 'opt2', 'opt3'],
        enumNames: ['Option One', 'Option Two', 'Option Three'],
      },
      untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
      titledMulti: {
        type: 'array',
        items: {
          anyOf: [
            { const: 'value1', title: 'First Choice' },
            { const: 'value2', title: 'Second Choice' },
          ],
        },
      },
    },
  }),
  // JSON Schema 2020-12 keywords ($schema, $defs, $ref) reach the client as written.
  defineTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
    execute: ({ name }) => `hello ${String(name)}`,
  }),
  // SSE polling (SEP-1699): its result arrives on the call's stream, which opens with a priming event.
  content('test_reconnection', 'Answers on a resumable stream', {
    content: [{ type: 'text', text: 'Reconnection test completed' }],
  }),
  defineTool({
    name: 'test_error_handling',
    description: 'Always fails',
    parameters: none,
    execute: () => {
      throw new Error('This tool intentionally returns an error for testing')
    },
  }),
]

/** A tool that asks its question (the `message` argument, or its description) and reports the answer. */
function asking(name: string, description: string, schema: Record<string, unknown>) {
  return defineTool({
    name,
    description,
    parameters: z.object({ message: z.string().optional() }),
    execute: async ({ message }, ctx) => {
      try {
        const answer = await ctx.ask(message ?? description, schema)
        return `Elicitation completed: action=accept, content=${JSON.stringify(answer)}`
      } catch (error) {
        return `Elicitation not completed: ${(error as Error).message}`
      }
    },
  })
}

export const conformanceResources: McpResource[] = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (a PNG)',
    mimeType: 'image/png',
    read: () => Buffer.from(png, 'base64'),
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients subscribe to',
    mimeType: 'text/plain',
    read: () => 'Watched resource content',
  },
  {
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for one id',
    mimeType: 'application/json',
    read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
  },
]

export const conformancePrompts: McpPrompt[] = [
  {
    name: 'test_simple_prompt',
    description: 'A prompt without arguments',
    get: () => 'This is a simple prompt for testing.',
  },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true, complete: (v) => completeFrom(v) },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    get: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri!, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: 'Please process the embedded resource above.' },
    ],
  },
  {
    name: 'test_prompt_with_image',
    description: 'A prompt with an image',
    get: () => [
      { role: 'user', content: { type: 'image', data: png, mimeType: 'image/png' } },
      { role: 'user', content: 'Please analyze the image above.' },
    ],
  },
]

const completeFrom = (value: string) => ['paris', 'park', 'party', 'test'].filter((w) => w.startsWith(value))

export function serveConformance(port = 0): Promise<McpServing> {
  const runtime = new Runtime({ provider: scripted([]), model: 'none' })
  return serveMcp(
    { runtime, tools: conformanceTools, resources: conformanceResources, prompts: conformancePrompts },
    { http: true, port },
  )
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const serving = await serveConformance(Number(process.argv[2] ?? 0))
  console.log(String(serving.url))
}
