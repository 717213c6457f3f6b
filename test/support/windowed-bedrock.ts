// A Bedrock ConverseStream server (HTTP/2, AWS event-stream framing) with a context window (the
// shared part is windowed-wire.ts): past its limit it answers HTTP 400 ValidationException "Input
// is too long for requested model.", as the service does.
import { errorResponse, provider, streamResponse, type Frame } from './bedrock-wire.js'
import { startH2Server, type H2Server } from './h2-server.js'
import { emptyLog, windowedModel, turn, type Framing, type WindowLog, type WindowOptions } from './windowed-wire.js'

type Block = { text?: string; toolUse?: { toolUseId: string }; toolResult?: { toolUseId: string } }
type Body = { messages: { role: string; content: Block[] }[]; system?: Block[]; toolConfig?: unknown }

const metadata = (prompt: number): Frame => ({
  event: 'metadata',
  body: { usage: { inputTokens: prompt, outputTokens: 12, totalTokens: prompt + 12 }, metrics: { latencyMs: 1 } },
})

export const bedrockFraming: Framing = {
  read(body) {
    const request = body as Body
    const system = request.system?.map((b) => b.text ?? '').join('')
    return {
      ...(system ? { system } : {}),
      chars:
        JSON.stringify(request.system ?? []).length +
        JSON.stringify(request.messages).length +
        JSON.stringify(request.toolConfig ?? {}).length,
      turns: request.messages.map((m) =>
        turn(
          m,
          m.content.flatMap((b) => (b.toolUse ? [b.toolUse.toolUseId] : [])),
          m.content.flatMap((b) => (b.toolResult ? [b.toolResult.toolUseId] : [])),
        ),
      ),
    }
  },
  answer: (prompt, text) =>
    streamResponse(
      [
        { event: 'messageStart', body: { role: 'assistant' } },
        { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { text } } },
        { event: 'contentBlockStop', body: { contentBlockIndex: 0 } },
        { event: 'messageStop', body: { stopReason: 'end_turn' } },
        metadata(prompt),
      ],
      { chunkSize: 4096 },
    ),
  call: (prompt, n) =>
    streamResponse(
      [
        { event: 'messageStart', body: { role: 'assistant' } },
        {
          event: 'contentBlockStart',
          body: { contentBlockIndex: 0, start: { toolUse: { toolUseId: `tooluse_${n}`, name: 'read_page' } } },
        },
        { event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { toolUse: { input: `{"n":${n}}` } } } },
        { event: 'contentBlockStop', body: { contentBlockIndex: 0 } },
        { event: 'messageStop', body: { stopReason: 'tool_use' } },
        metadata(prompt),
      ],
      { chunkSize: 4096 },
    ),
  overflow: () => errorResponse(400, 'ValidationException', 'Input is too long for requested model.'),
}

export type WindowedServer = H2Server & WindowLog

export async function startWindowedBedrock(options: WindowOptions): Promise<WindowedServer> {
  const server = Object.assign(await startH2Server(), emptyLog())
  server.fallback = windowedModel(bedrockFraming, options, server)
  return server
}

export const windowedBedrock = (server: H2Server) => provider(server, { maxRetries: 0 })
