import type { Message } from '@nestor/core'

export const PNG = 'iVBORw0KGgoAAAANSUhEUg=='
export const PDF = 'JVBERi0xLjQK'

export const image = { type: 'image' as const, data: PNG, mimeType: 'image/png' }
export const imageUrl = { type: 'image' as const, url: 'https://example.test/cat.jpg' }
export const pdf = { type: 'file' as const, data: PDF, mimeType: 'application/pdf', name: 'report.pdf' }
export const pdfUrl = { type: 'file' as const, url: 'https://example.test/paper.pdf', mimeType: 'application/pdf' }

/** A user turn with the given parts, a call, and a tool result carrying text and an image. */
export function history(
  parts: Extract<Message, { role: 'user' }>['content'],
  resultParts: Extract<Message, { role: 'toolResult' }>['content'] = [{ type: 'text', text: 'chart' }, image],
): Message[] {
  return [
    { role: 'user', content: parts },
    {
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'call_1', name: 'plot', arguments: {} }],
      stopReason: 'toolUse',
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      provider: 'elsewhere',
      model: 'm',
    },
    { role: 'toolResult', toolCallId: 'call_1', toolName: 'plot', content: resultParts, isError: false },
  ]
}

export const plotTool = { name: 'plot', description: 'Plot', parameters: { type: 'object', properties: {} } }

export { collectModelEvents as collect } from './model-events.js'
