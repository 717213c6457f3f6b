// Bundled for the browser by the test (vite): the AI SDK's own Chat, as useChat drives it, on a
// plain state object. `window.nestorChat(id, resume)` makes one; a reload makes another with
// `resume: true`, which is what useChat({ resume: true }) does on mount.
import { AbstractChat, DefaultChatTransport, type ChatState, type ChatStatus, type UIMessage } from 'ai'

class PlainState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready'
  error: Error | undefined = undefined
  messages: UIMessage[] = []
  pushMessage = (message: UIMessage) => void (this.messages = [...this.messages, message])
  popMessage = () => void (this.messages = this.messages.slice(0, -1))
  replaceMessage = (index: number, message: UIMessage) =>
    void (this.messages = [...this.messages.slice(0, index), this.snapshot(message), ...this.messages.slice(index + 1)])
  snapshot = <T>(thing: T): T => structuredClone(thing)
}

class PlainChat extends AbstractChat<UIMessage> {
  readonly plain: PlainState
  constructor(id: string, state = new PlainState()) {
    super({ id, state, transport: new DefaultChatTransport({ api: '/api/chat' }) })
    this.plain = state
  }
}

export function nestorChat(id: string, resume: boolean) {
  const chat = new PlainChat(id)
  if (resume) void chat.resumeStream()
  return chat
}

;(globalThis as unknown as { nestorChat: typeof nestorChat }).nestorChat = nestorChat
