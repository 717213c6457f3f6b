import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

export type Session = {
  server: Server
  transport: StreamableHTTPServerTransport
  /** POST requests of this session still being answered: a session is idle only at 0. */
  busy: number
  timer: ReturnType<typeof setTimeout> | undefined
}

/**
 * The live MCP sessions of one HTTP server, bounded in number and in time: a session nobody sent
 * a request to for `idleMs` is closed, so clients that vanish without a DELETE cost nothing after
 * that. A standalone SSE stream (GET) does not keep a session alive; a call still running does.
 */
export class SessionTable {
  readonly #sessions = new Map<string, Session>()
  /** Initialize requests under way: they count against the cap before they get an id. */
  #opening = 0

  constructor(
    private readonly max: number,
    private readonly idleMs: number,
  ) {}

  get size(): number {
    return this.#sessions.size
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id)
  }

  /** Reserves room for a session about to initialize; false when the table is full. */
  reserve(): boolean {
    if (this.#sessions.size + this.#opening >= this.max) return false
    this.#opening++
    return true
  }

  release(): void {
    this.#opening--
  }

  add(id: string, session: Session): void {
    this.#sessions.set(id, session)
    this.#arm(session)
  }

  delete(id: string): void {
    const session = this.#sessions.get(id)
    if (session?.timer) clearTimeout(session.timer)
    this.#sessions.delete(id)
  }

  /** A request of this session begins; `until` settles when it has been answered. */
  track(session: Session, until: Promise<unknown>): void {
    session.busy++
    if (session.timer) clearTimeout(session.timer)
    session.timer = undefined
    void until.finally(() => {
      session.busy--
      if (session.busy === 0) this.#arm(session)
    })
  }

  async closeAll(): Promise<void> {
    const all = [...this.#sessions.values()]
    for (const session of all) if (session.timer) clearTimeout(session.timer)
    await Promise.all(all.map(({ server }) => server.close().catch(() => undefined)))
    this.#sessions.clear()
  }

  #arm(session: Session): void {
    if (!Number.isFinite(this.idleMs)) return
    if (session.timer) clearTimeout(session.timer)
    // Closing the server closes its transport, whose onclose drops it from the table.
    session.timer = setTimeout(() => void session.server.close().catch(() => undefined), this.idleMs)
    session.timer.unref()
  }
}
