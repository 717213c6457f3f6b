import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { Runtime, type ApprovalDecision, type ApprovalRequest, type RetentionOptions } from '@nestor/core'
import { PLANNER_SYSTEM } from '../../examples/demo/trip-agents.js'
import { tripModel, webTools } from '../../examples/web/trip-model.js'

export const PROMPT = 'Plan a trip to Lisbon'

/** The web example's offline trip (planner → researcher → librarian, depth 2) on a fresh runtime. */
export function tripRuntime(
  options: {
    /** 'pause': no handler, so the run pauses at save_brief with a state to resume. */
    approve?: ((request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>) | 'pause'
    paceMs?: number
    retention?: RetentionOptions
  } = {},
): Runtime {
  return new Runtime({
    provider: tripModel(options.paceMs ?? 0),
    model: 'scripted-demo',
    system: PLANNER_SYSTEM,
    ...(options.approve !== 'pause' && { approve: options.approve ?? (() => true) }),
    ...(options.retention && { retention: options.retention }),
  })
}

export const startTrip = (runtime: Runtime) => runtime.exec(PROMPT, { tools: webTools([]) })

export type SSEFrame = { id?: number; event?: string; data?: string; comment?: string; retry?: number }

/** Splits an SSE text into frames (fields per the WHATWG parsing rules this server uses). */
export function parseFrames(text: string): SSEFrame[] {
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const frame: SSEFrame = {}
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim()
        else {
          const at = line.indexOf(': ')
          const [field, value] = at === -1 ? [line, ''] : [line.slice(0, at), line.slice(at + 2)]
          if (field === 'id') frame.id = Number(value)
          else if (field === 'event') frame.event = value
          else if (field === 'data') frame.data = value
          else if (field === 'retry') frame.retry = Number(value)
        }
      }
      return frame
    })
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = ''
  const decoder = new TextDecoder()
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>)
    text += decoder.decode(chunk, { stream: true })
  return text
}

/** A node:http server on 127.0.0.1 with a random port. */
export async function serve(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A fetch init for a JSON POST (the routes accept JSON bodies only with a JSON content type). */
export const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
