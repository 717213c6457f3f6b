import type { ToolResultContent } from '@nestor/core'
import { anthropic, gemini, openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { json, scenario, withWire } from '../../support/media-wire.js'
import * as chat from '../wire/openai/chat-scenarios.js'
import * as responses from '../wire/openai/responses-scenarios.js'
import { PDF, PNG, collect, history, plotTool } from '../../support/media-parts.js'

// What an MCP tool may return (audio, embedded resources, a resource link), and what each API
// gets: a file or media part where it reads that kind in a tool result, else a line of text.
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA='
const result: ToolResultContent[] = [
  { type: 'audio', data: WAV, mimeType: 'audio/wav' },
  { type: 'resource', resource: { uri: 'test://notes.txt', mimeType: 'text/plain', text: 'buy milk' } },
  { type: 'resource', resource: { uri: 'file:///srv/report.pdf', mimeType: 'application/pdf', blob: PDF } },
  { type: 'resource', resource: { uri: 'test://chart', mimeType: 'image/png', blob: PNG } },
  { type: 'resource', resource: { uri: 'test://dump.bin', blob: 'AAEC' } },
  { type: 'resource_link', uri: 'test://big.csv', name: 'big', description: 'all rows' },
]
const audioText = { type: 'text', text: '[audio audio/wav, not shown]' }
const notesText = { type: 'text', text: '[resource test://notes.txt]\nbuy milk' }
const binText = { type: 'text', text: '[resource test://dump.bin (application/octet-stream), binary, not shown]' }
const linkText = { type: 'text', text: '[resource test://big.csv "big": all rows]' }

describe('audio and resources in a tool result reach each provider as it can take them', () => {
  it('anthropic: the PDF as a document and the image inside tool_result; audio, text and links as text', () =>
    withWire(async (server) => {
      server.enqueue({ body: scenario('anthropic', 'text.sse') })
      const events = await collect(
        anthropic({ apiKey: 'k', baseURL: server.url }).stream({
          model: 'claude-sonnet-4-6',
          messages: history([{ type: 'text', text: 'Look' }], result),
          tools: [plotTool],
        }),
      )
      expect(events.at(-1)?.type).toBe('done')
      const messages = json(server).messages as { content: { content: unknown }[] }[]
      expect(messages[2]?.content[0]?.content).toEqual([
        audioText,
        notesText,
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        binText,
        linkText,
      ])
    }))

  it('gemini: audio, the PDF and the image as inlineData after the functionResponse; an unknown binary as text', () =>
    withWire(async (server) => {
      server.enqueue({ body: scenario('gemini', 'text.three-chunks.sse') })
      await collect(
        gemini({ apiKey: 'k', baseURL: server.url }).stream({
          model: 'gemini-2.5-flash',
          messages: history([{ type: 'text', text: 'Look' }], result),
          tools: [plotTool],
        }),
      )
      const contents = json(server).contents as { parts: unknown[] }[]
      expect(contents[2]?.parts).toEqual([
        {
          functionResponse: {
            name: 'plot',
            id: 'call_1',
            response: { result: [notesText.text, binText.text, linkText.text].join('\n') },
          },
        },
        { inlineData: { mimeType: 'audio/wav', data: WAV } },
        { inlineData: { mimeType: 'application/pdf', data: PDF } },
        { inlineData: { mimeType: 'image/png', data: PNG } },
      ])
    }))

  it('openai chat: the text in the tool message, the PDF and the image in the user message after it', () =>
    withWire(async (server) => {
      server.enqueue({ body: chat.text() })
      await collect(
        openai({ apiKey: 'k', baseURL: `${server.url}/v1` }).stream({
          model: 'gpt-4o',
          messages: history([{ type: 'text', text: 'Look' }], result),
          tools: [plotTool],
        }),
      )
      const messages = json(server).messages as { content: unknown }[]
      expect(messages[2]).toEqual({
        role: 'tool',
        tool_call_id: 'call_1',
        content: [audioText, notesText, binText, linkText].map((t) => t.text).join('\n'),
      })
      expect(messages[3]?.content).toEqual([
        { type: 'text', text: 'Files returned by tool plot:' },
        { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' } },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ])
    }))

  it('openai responses: the PDF as input_file and the image as input_image in function_call_output', () =>
    withWire(async (server) => {
      server.enqueue({ body: responses.textAnswer() })
      await collect(
        openai({ apiKey: 'k', baseURL: `${server.url}/v1`, api: 'responses' }).stream({
          model: 'gpt-5-mini',
          messages: history([{ type: 'text', text: 'Look' }], result),
          tools: [plotTool],
        }),
      )
      const input = json(server).input as Record<string, unknown>[]
      expect(input.at(-1)).toEqual({
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: [audioText, notesText, binText, linkText].map((t) => t.text).join('\n') },
          { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        ],
      })
    }))
})
