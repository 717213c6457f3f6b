import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { aiSdk, anthropic, gemini, openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { json, scenario, withWire } from '../../support/media-wire.js'
import {
  useBedrockWire,
  provider as bedrockProvider,
  streamResponse,
  text as bedrockText,
} from '../../support/bedrock-wire.js'
import * as chat from '../wire/openai/chat-scenarios.js'
import * as responses from '../wire/openai/responses-scenarios.js'
import { PDF, PNG, collect, history, image, imageUrl, pdf, pdfUrl, plotTool } from '../../support/media-parts.js'

describe('images and files reach each provider in its own shape', () => {
  it('anthropic: image/document blocks by base64 and URL, and an image inside tool_result', () =>
    withWire(async (server) => {
      server.enqueue({ body: scenario('anthropic', 'text.sse') })
      const events = await collect(
        anthropic({ apiKey: 'k', baseURL: server.url }).stream({
          model: 'claude-sonnet-4-6',
          messages: history([{ type: 'text', text: 'Look' }, image, imageUrl, pdf, pdfUrl]),
          tools: [plotTool],
        }),
      )
      expect(events.at(-1)?.type).toBe('done')
      const messages = json(server).messages as { content: unknown[] }[]
      expect(messages[0]?.content).toEqual([
        { type: 'text', text: 'Look' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        { type: 'image', source: { type: 'url', url: imageUrl.url } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf' },
        { type: 'document', source: { type: 'url', url: pdfUrl.url } },
      ])
      expect(messages[2]?.content).toEqual([
        {
          type: 'tool_result',
          tool_use_id: 'call_1',
          content: [
            { type: 'text', text: 'chart' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
      ])
    }))

  it('openai chat: image_url and file parts; tool images follow the tool message as a user message', () =>
    withWire(async (server) => {
      server.enqueue({ body: chat.text() })
      await collect(
        openai({ apiKey: 'k', baseURL: `${server.url}/v1` }).stream({
          model: 'gpt-4o',
          messages: history([image, imageUrl, pdf]),
          tools: [plotTool],
        }),
      )
      const messages = json(server).messages as Record<string, unknown>[]
      expect(messages[0]?.content).toEqual([
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'image_url', image_url: { url: imageUrl.url } },
        { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' } },
      ])
      expect(messages.slice(2)).toEqual([
        { role: 'tool', tool_call_id: 'call_1', content: 'chart' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Images returned by tool plot:' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          ],
        },
      ])
    }))

  it('openai responses: input_image and input_file by data and URL, a file inside function_call_output', () =>
    withWire(async (server) => {
      server.enqueue({ body: responses.textAnswer() })
      await collect(
        openai({ apiKey: 'k', baseURL: `${server.url}/v1`, api: 'responses' }).stream({
          model: 'gpt-5-mini',
          messages: history([imageUrl, pdf, pdfUrl], [{ type: 'text', text: 'see file' }, pdf]),
          tools: [plotTool],
        }),
      )
      const input = json(server).input as Record<string, unknown>[]
      expect(input[0]).toEqual({
        role: 'user',
        content: [
          { type: 'input_image', image_url: imageUrl.url, detail: 'auto' },
          { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' },
          { type: 'input_file', file_url: pdfUrl.url },
        ],
      })
      expect(input.at(-1)).toEqual({
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'see file' },
          { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' },
        ],
      })
    }))

  it('gemini: inlineData for data, fileData for URLs, images after the functionResponse', () =>
    withWire(async (server) => {
      server.enqueue({ body: scenario('gemini', 'text.three-chunks.sse') })
      await collect(
        gemini({ apiKey: 'k', baseURL: server.url }).stream({
          model: 'gemini-2.5-flash',
          messages: history([pdf, { ...imageUrl, mimeType: 'image/jpeg' }]),
          tools: [plotTool],
        }),
      )
      const contents = json(server).contents as { parts: unknown[] }[]
      expect(contents[0]?.parts).toEqual([
        { inlineData: { mimeType: 'application/pdf', data: PDF } },
        { fileData: { mimeType: 'image/jpeg', fileUri: imageUrl.url } },
      ])
      expect(contents[2]?.parts).toEqual([
        { functionResponse: { name: 'plot', id: 'call_1', response: { result: 'chart' } } },
        { inlineData: { mimeType: 'image/png', data: PNG } },
      ])
    }))

  it('aiSdk over openai-compatible: the model maps V3 file parts to image_url', () =>
    withWire(async (server) => {
      server.enqueue({ body: chat.text() })
      const model = createOpenAICompatible({ name: 'local', baseURL: `${server.url}/v1`, apiKey: 'k' }).chatModel('m')
      await collect(
        aiSdk(model).stream({
          model: 'x',
          messages: [{ role: 'user', content: [{ type: 'text', text: 'Look' }, image, imageUrl] }],
          tools: [],
        }),
      )
      expect((json(server).messages as Record<string, unknown>[])[0]?.content).toEqual([
        { type: 'text', text: 'Look' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'image_url', image_url: { url: imageUrl.url } },
      ])
    }))
})

describe('images and files reach Bedrock as bytes and S3 locations', () => {
  const wire = useBedrockWire()
  it('bedrock: image and document blocks (bytes base64 on the wire), s3 documents, images in toolResult', async () => {
    wire.server.enqueue(streamResponse(bedrockText('ok')))
    const s3 = {
      type: 'file' as const,
      url: 's3://bucket/q3 report.pdf',
      mimeType: 'application/pdf',
      name: 'q3 report.pdf',
    }
    const events = await collect(
      bedrockProvider(wire.server).stream({
        model: 'anthropic.claude-sonnet-4-5-v1:0',
        messages: history([image, pdf, s3]),
        tools: [plotTool],
      }),
    )
    expect(events.at(-1)?.type).toBe('done')
    const messages = (wire.server.requests[0]?.json as { messages: { content: unknown[] }[] }).messages
    expect(messages[0]?.content).toEqual([
      { image: { format: 'png', source: { bytes: PNG } } },
      { document: { format: 'pdf', name: 'report', source: { bytes: PDF } } },
      { document: { format: 'pdf', name: 'q3 report', source: { s3Location: { uri: s3.url } } } },
    ])
    expect(messages[2]?.content).toEqual([
      {
        toolResult: {
          toolUseId: 'call_1',
          content: [{ text: 'chart' }, { image: { format: 'png', source: { bytes: PNG } } }],
        },
      },
    ])
  })
})
