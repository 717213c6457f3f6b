import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

export type Session = {
  server: Server
  transport: StreamableHTTPServerTransport
  /** The protocol version its initialize negotiated. */
  protocolVersion: string
  /** POST requests of this session still being answered: a session is idle only at 0. */
  busy: number
  timer: ReturnType<typeof setTimeout> | undefined
  /** A request followed its initialize: a client is there (an SDK client sends one at once). */
  used: boolean
}

/** How long a session nobody came back to after its initialize keeps its place, at most. */
const UNUSED_GRACE_MS = 30_000

/**
 * The live MCP sessions of one HTTP server, bounded in number and in time: a session nobody sent
 * a request to for `idleMs` is closed, so clients that vanish without a DELETE cost nothing after
 * that. A standalone SSE stream (GET) does not keep a session alive; a call still running does.
 * A session no request followed since its initialize (a client that hung up) is closed after a
 * short grace, and gives its place up at once to an initialize that finds the table full: a
 * flood of initializes cannot lock clients out.
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
    if (this.#sessions.size + this.#opening >= this.max && !this.#evictUnused()) return false
    this.#opening++
    return true
  }

  /** A request of the session arrived: its client is there. */
  use(session: Session): void {
    if (session.used) return
    session.used = true
    if (session.busy === 0) this.#arm(session)
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

  /** Closes the oldest session no request followed since its initialize; false when there is none. */
  #evictUnused(): boolean {
    for (const [id, session] of this.#sessions) {
      if (session.used || session.busy > 0) continue
      this.delete(id)
      void session.server.close().catch(() => undefined)
      return true
    }
    return false
  }

  #arm(session: Session): void {
    const ms = session.used ? this.idleMs : Math.min(this.idleMs, UNUSED_GRACE_MS)
    if (!Number.isFinite(ms)) return
    if (session.timer) clearTimeout(session.timer)
    // Closing the server closes its transport, whose onclose drops it from the table.
    session.timer = setTimeout(() => void session.server.close().catch(() => undefined), ms)
    session.timer.unref()
  }
}
