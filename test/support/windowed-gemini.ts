// A Gemini streamGenerateContent server with a context window (the shared part is
// windowed-wire.ts): past its limit it answers HTTP 400 INVALID_ARGUMENT "The input token count (N)
// exceeds the maximum number of tokens allowed (M).", as the API does.
import { gemini } from '@nestor/providers'
import { geminiSse, googleError } from './gemini-wire.js'
import { emptyLog, windowedModel, turn, type Framing, type WindowLog, type WindowOptions } from './windowed-wire.js'
import { startWireServer, type WireServer } from './wire-server.js'

type Part = {
  text?: string
  functionCall?: { id?: string; name: string }
  functionResponse?: { id?: string; name: string }
}
type Body = { contents: { role: string; parts: Part[] }[]; systemInstruction?: { parts: Part[] }; tools?: unknown[] }

const usage = (prompt: number) => ({ promptTokenCount: prompt, candidatesTokenCount: 12, totalTokenCount: prompt + 12 })
const reply = (prompt: number, part: Part) => ({
  body: geminiSse([
    {
      candidates: [{ content: { parts: [part], role: 'model' }, index: 0, finishReason: 'STOP' }],
      usageMetadata: usage(prompt),
    },
  ]),
  chunkSize: 4096,
})

export const geminiFraming: Framing = {
  read(body) {
    const request = body as Body
    const system = request.systemInstruction?.parts.map((p) => p.text ?? '').join('')
    return {
      ...(system ? { system } : {}),
      chars:
        JSON.stringify(request.systemInstruction ?? '').length +
        JSON.stringify(request.contents).length +
        JSON.stringify(request.tools ?? []).length,
      turns: request.contents.map((c) =>
        turn(
          c,
          c.parts.flatMap((p) => (p.functionCall ? [p.functionCall.id ?? p.functionCall.name] : [])),
          c.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.id ?? p.functionResponse.name] : [])),
        ),
      ),
    }
  },
  answer: (prompt, text) => reply(prompt, { text }),
  call: (prompt, n) => reply(prompt, { functionCall: { name: 'read_page', args: { n } } } as Part),
  overflow: (limit, tokens) =>
    googleError(
      400,
      'INVALID_ARGUMENT',
      `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${limit}).`,
    ),
}

export type WindowedServer = WireServer & WindowLog

export async function startWindowedGemini(options: WindowOptions): Promise<WindowedServer> {
  const server = Object.assign(await startWireServer(), emptyLog())
  server.fallback = windowedModel(geminiFraming, options, server)
  return server
}

export const windowedGemini = (server: WireServer) =>
  gemini({ baseURL: server.url, apiKey: 'window-test', maxRetries: 0 })
