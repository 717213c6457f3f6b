import { NestorError, type ExecRun, type Runtime, type SessionOptions, type SessionStore } from '@nestor/core'
import { allowed, callerOf, checkAccess, notFound, recordOwner, type OwnerOf, type RunAccess } from './access.js'
import { errorResponse, jsonBody } from './http-errors.js'
import { decodeSegments } from './routes.js'
import { RunMap } from './run-map.js'
import { toStoredUIMessages } from './stored-chat.js'
import { toUIMessageStreamResponse } from './ui-stream.js'

/**
 * What `useChat`'s transport posts: the chat id, its UI messages (with `sessions`, only the new
 * one), and the last user message's text. With `sessions`, `session` is the chat's stored
 * conversation for this caller: pass it to `exec(text, { session })`.
 */
export type ChatRequest = {
  id: string
  messages: unknown[]
  text: string
  body: Record<string, unknown>
  session?: SessionOptions
}

export type ChatRoutesOptions = RunAccess & {
  /** Required: chats are kept per owner (`authorize`, when given, is asked too). */
  owner: OwnerOf
  runtime: Runtime
  /** The endpoint the AI SDK transport posts to (`DefaultChatTransport({ api })`). Default '/api/chat'. */
  api?: string
  /** Opens the run answering a chat message. */
  start: (chat: ChatRequest, request: Request) => ExecRun
  /** Heartbeat comments on the UI stream. Default 15000; 0 turns them off. */
  heartbeatMs?: number
  /** Request bodies over this many bytes answer 413. Default 1 MiB. */
  maxBodyBytes?: number
  /**
   * Keeps chats on the server (the runtime's `sessions` store, docs/sessions.md): the page posts
   * only its new message (`{ id, message }`), and `GET {api}/{chatId}/messages` returns the
   * stored chat as UI messages. Needs `owner`: a chat belongs to the caller who wrote it.
   */
  sessions?: SessionStore
}

const MAX_CHAT_ID = 200

/**
 * The AI SDK `useChat` backend, resumable (`useChat({ resume: true })`):
 * - `POST {api}` `{ id, messages }` → the run as a UI message stream; it becomes the chat's live run
 * - `GET {api}/{chatId}/stream` → the chat's live run replayed from its first event (the
 *   transport's default `resumeStreamIsReplay`), so a reloaded page ends with the same message as
 *   one that never left; 204 when the chat has no live run the caller may read.
 * Chats are per owner: another owner's chat id is unknown to the caller, so the answer is 204.
 * `owner` is required: `authorize` answers yes or no, and names no one to keep chats apart by.
 */
export function chatRoutes(options: ChatRoutesOptions): (request: Request) => Promise<Response | undefined> {
  checkAccess(options, 'chatRoutes')
  if (!options.owner)
    throw new NestorError(
      'invalid_options',
      "chatRoutes needs owner(request): chats are kept per owner, and authorize alone cannot tell two users' " +
        "chats apart (one user could resume another's). A single-user app says so with owner: () => 'me'",
    )
  if (typeof options.start !== 'function')
    throw new NestorError('invalid_options', 'chatRoutes needs start(chat, request) => ExecRun')
  const { sessions } = options
  const api = (options.api ?? '/api/chat').replace(/\/$/, '')
  const chats = new RunMap<undefined>(options.runtime)
  const stream = (run: Parameters<typeof toUIMessageStreamResponse>[0]) =>
    toUIMessageStreamResponse(run, options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs })

  return async (request) => {
    const path = new URL(request.url).pathname
    if (path === api) {
      if (request.method !== 'POST') return errorResponse(405, 'method_not_allowed', `use POST ${api}`)
      const body = await jsonBody(request, options.maxBodyBytes)
      if (body instanceof Response) return body
      const access = await allowed(request, options, options.runtime, 'start')
      if (!access.ok) return notFound(undefined)
      const chat = chatOf(body)
      if (typeof chat === 'string') return errorResponse(400, 'bad_request', chat)
      if (sessions) {
        if (access.owner === undefined) return notFound(undefined)
        chat.session = { id: chat.id, owner: access.owner }
      }
      let run: ExecRun
      try {
        run = options.start(chat, request)
      } catch {
        return errorResponse(500, 'internal', 'the run could not be started')
      }
      if (!options.runtime.attach(run.execId, { after: 'latest' }))
        return errorResponse(503, 'too_many_runs', 'the server runs as many runs as it keeps; try again later')
      recordOwner(options.runtime, run.execId, access.owner)
      chats.set(chatKey(access.owner, chat.id), run.execId, undefined)
      return stream(run)
    }
    if (!path.startsWith(`${api}/`)) return undefined
    const segments = decodeSegments(path.slice(api.length + 1))
    if (!segments) return errorResponse(400, 'bad_path', 'the path is not valid percent-encoding')
    const [chatId, what, ...rest] = segments
    if (what === 'messages' && sessions && chatId && !rest.length) return storedChat(request, chatId, sessions, options)
    if (what !== 'stream' || rest.length || !chatId) return undefined
    if (request.method !== 'GET') return errorResponse(405, 'method_not_allowed', 'use GET to resume a chat stream')
    const caller = await callerOf(request, options)
    const execId = caller.ok ? chats.get(chatKey(caller.owner, chatId))?.execId : undefined
    if (!execId || !(await allowed(request, options, options.runtime, 'events', execId, caller)).ok)
      return nothingLive()
    let run
    try {
      run = options.runtime.attach(execId, { after: 0 })
    } catch (error) {
      // The run is live but its first events left the replay window: it cannot be replayed whole.
      if (NestorError.isInstance(error) && error.code === 'events_expired')
        return errorResponse(410, 'events_expired', error.message)
      return errorResponse(500, 'internal', 'the run could not be attached')
    }
    return run?.live ? stream(run) : nothingLive()
  }
}

/**
 * `GET {api}/{chatId}/messages`: the caller's stored chat as UI messages. Another owner's chat
 * reads like an unknown one (an empty list), so chat ids cannot be probed.
 */
async function storedChat(
  request: Request,
  chatId: string,
  sessions: SessionStore,
  options: ChatRoutesOptions,
): Promise<Response> {
  if (request.method !== 'GET') return errorResponse(405, 'method_not_allowed', 'use GET to read a chat')
  if (chatId.length > MAX_CHAT_ID) return errorResponse(400, 'bad_request', `a chat id is 1..${MAX_CHAT_ID} characters`)
  const { owner } = await callerOf(request, options)
  if (owner === undefined) return Response.json([])
  try {
    return Response.json(toStoredUIMessages(await sessions.messages(chatId, { owner })))
  } catch (error) {
    // A corrupted chat says so (invalid_state names it); a store that is down is a 503.
    if (NestorError.isInstance(error) && error.code === 'invalid_state')
      return errorResponse(500, 'invalid_state', error.message)
    return errorResponse(503, 'store_error', 'the chat store is not available')
  }
}

const chatKey = (owner: string | undefined, chatId: string) => `${owner ?? ''}\u0000${chatId}`

// The AI SDK's answer for "nothing to resume": the client keeps what it has.
const nothingLive = () => new Response(null, { status: 204 })

/** The chat of a transport POST, or what is wrong with it. */
function chatOf(body: Record<string, unknown>): ChatRequest | string {
  const { id } = body
  // A page whose chat is kept on the server posts only its new message.
  const messages = body.message !== undefined && body.messages === undefined ? [body.message] : body.messages
  if (typeof id !== 'string' || id === '' || id.length > MAX_CHAT_ID)
    return `post { "id": the chat id (1..${MAX_CHAT_ID} characters), "messages": [...] }`
  if (!Array.isArray(messages) || messages.length === 0)
    return 'post { "id", "messages": a non-empty array of UI messages }'
  const last = messages.at(-1) as { role?: unknown; parts?: unknown } | null
  const parts = last && typeof last === 'object' && Array.isArray(last.parts) ? (last.parts as unknown[]) : []
  const text = parts
    .map((p) =>
      p && typeof p === 'object' && (p as { type?: unknown }).type === 'text' ? (p as { text?: unknown }).text : '',
    )
    .filter((t): t is string => typeof t === 'string')
    .join('')
  return { id, messages, text, body }
}
