import { NestorError, type Message, type SessionStore } from '@nestor/core'
import { generateId } from '@nestor/core/integration-kit'

/** One check of the kit: its name, and why it failed (absent when it passed). */
export type SessionConformanceCheck = { name: string; error?: string }
export type SessionConformanceReport = {
  passed: number
  failed: SessionConformanceCheck[]
  checks: SessionConformanceCheck[]
}

type Ctx = { store: SessionStore; owner: string; other: string; id: () => string }

const user = (text: string): Message => ({ role: 'user', content: text })
const assistant = (text: string, calls: string[] = []): Message => ({
  role: 'assistant',
  content: [
    { type: 'text', text },
    ...calls.map((id) => ({ type: 'toolCall' as const, id, name: 'lookup', arguments: { q: id } })),
  ],
  provider: 'conformance',
  model: 'conformance',
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  stopReason: calls.length > 0 ? 'toolUse' : 'stop',
})
const result = (id: string): Message => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'lookup',
  content: [{ type: 'text', text: `found ${id}` }],
  isError: false,
})
const lease = (c: Ctx, holder: string, leaseMs = 30_000) => ({ owner: c.owner, holder, leaseMs })
const write = (c: Ctx, holder: string, turn: number, messages: Message[], run = 'run-a') => ({
  owner: c.owner,
  holder,
  run,
  turn,
  messages,
})

function check(ok: unknown, why: string): asserts ok {
  if (!ok) throw new Error(why)
}
const same = (a: unknown, b: unknown, what: string) =>
  check(JSON.stringify(a) === JSON.stringify(b), `${what}: expected ${JSON.stringify(b)}, got ${JSON.stringify(a)}`)
async function fails(work: Promise<unknown>, code: string, what: string): Promise<void> {
  try {
    await work
  } catch (error) {
    check(NestorError.isInstance(error) && error.code === code, `${what}: expected ${code}, got ${String(error)}`)
    return
  }
  throw new Error(`${what}: expected ${code}, it succeeded`)
}
const texts = (messages: Message[]) =>
  messages.map((m) =>
    m.role === 'user' ? String(m.content) : m.role === 'assistant' ? m.content[0]?.type : m.toolCallId,
  )

const CHECKS: [string, (c: Ctx) => Promise<void>][] = [
  [
    'one writer at a time: a second holder is busy until the first releases',
    async (c) => {
      const id = c.id()
      same(await c.store.acquire(id, lease(c, 'h1')), 'acquired', 'first acquire')
      same(await c.store.acquire(id, lease(c, 'h2')), 'busy', 'second holder')
      same(await c.store.acquire(id, lease(c, 'h1')), 'acquired', 'the holder renewing')
      await c.store.release(id, lease(c, 'h1'))
      same(await c.store.acquire(id, lease(c, 'h2')), 'acquired', 'after release')
    },
  ],
  [
    'racing acquires: exactly one wins',
    async (c) => {
      const id = c.id()
      const got = await Promise.all(Array.from({ length: 8 }, (_, i) => c.store.acquire(id, lease(c, `h${i}`))))
      same(got.filter((g) => g === 'acquired').length, 1, 'winners')
    },
  ],
  [
    'a lease that ran out can be taken, and its old holder can no longer write',
    async (c) => {
      const id = c.id()
      await c.store.acquire(id, lease(c, 'old', 1))
      await new Promise((r) => setTimeout(r, 20))
      same(await c.store.acquire(id, lease(c, 'new')), 'acquired', 'after expiry')
      await fails(c.store.append(id, write(c, 'old', 1, [user('late')])), 'session_busy', 'stale writer')
      same(await c.store.messages(id, { owner: c.owner }), [], 'nothing written')
    },
  ],
  [
    'appends keep order, are whole, and a write repeated (same run and turn) is applied once',
    async (c) => {
      const id = c.id()
      await c.store.acquire(id, lease(c, 'h'))
      await c.store.append(id, write(c, 'h', 1, [user('q'), assistant('a', ['c1']), result('c1')]))
      await c.store.append(id, write(c, 'h', 2, [assistant('done')]))
      await c.store.append(id, write(c, 'h', 2, [assistant('done')]))
      const stored = await c.store.messages(id, { owner: c.owner })
      same(texts(stored), ['q', 'text', 'c1', 'text'], 'stored')
      same(stored[0], user('q'), 'a message read back')
    },
  ],
  [
    'load with a run leaves out what that run wrote and everything after',
    async (c) => {
      const id = c.id()
      await c.store.acquire(id, lease(c, 'h'))
      await c.store.append(id, write(c, 'h', 1, [user('before'), assistant('a')], 'run-1'))
      await c.store.append(id, write(c, 'h', 1, [user('mine'), assistant('b')], 'run-2'))
      same((await c.store.load(id, { owner: c.owner, run: 'run-2' })).length, 2, 'loaded for run-2')
      same((await c.store.load(id, { owner: c.owner })).length, 4, 'loaded whole')
    },
  ],
  [
    'a replacing write (a compaction) is the new conversation; the replaced messages stay listable with all',
    async (c) => {
      const id = c.id()
      await c.store.acquire(id, lease(c, 'h'))
      await c.store.append(id, write(c, 'h', 1, [user('long'), assistant('story')]))
      await c.store.append(id, { ...write(c, 'h', 2, [user('summary'), assistant('next')]), replace: true })
      same(texts(await c.store.messages(id, { owner: c.owner })), ['summary', 'text'], 'active')
      same((await c.store.messages(id, { owner: c.owner, all: true })).length, 4, 'all')
    },
  ],
  [
    "another owner's session answers like an unknown one",
    async (c) => {
      const id = c.id()
      await c.store.acquire(id, lease(c, 'h'))
      await c.store.append(id, write(c, 'h', 1, [user('private')]))
      const foreign = { owner: c.other, holder: 'x', leaseMs: 30_000 }
      same(await c.store.acquire(id, foreign), 'not_found', 'acquire')
      same(await c.store.messages(id, { owner: c.other }), [], 'messages')
      same(await c.store.load(id, { owner: c.other }), [], 'load')
      same((await c.store.list({ owner: c.other })).sessions, [], 'list')
      await fails(c.store.fork(id, { owner: c.other, at: 1 }), 'not_found', 'fork')
      await fails(c.store.fork(c.id(), { owner: c.other, at: 1 }), 'not_found', 'fork of an unknown id')
      same(await c.store.delete(id, { owner: c.other }), false, 'delete')
      await fails(c.store.append(id, { ...write(c, 'x', 1, [user('in')]), owner: c.other }), 'session_busy', 'append')
      same((await c.store.messages(id, { owner: c.owner })).length, 1, "the owner's session untouched")
    },
  ],
  [
    'list: newest first, a page at a time, every session once',
    async (c) => {
      const ids = [c.id(), c.id(), c.id(), c.id(), c.id()]
      for (const id of ids) {
        await c.store.acquire(id, lease(c, 'h'))
        await c.store.append(id, write(c, 'h', 1, [user(id)]))
        await new Promise((r) => setTimeout(r, 2))
      }
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await c.store.list({ owner: c.owner, limit: 2, ...(cursor !== undefined && { cursor }) })
        check(page.sessions.length <= 2, 'a page is at most limit long')
        seen.push(...page.sessions.map((s) => s.id))
        cursor = page.cursor
      } while (cursor !== undefined)
      const mine = seen.filter((id) => ids.includes(id))
      same(mine, [...ids].reverse(), 'order')
      same(new Set(seen).size, seen.length, 'no session twice')
      await fails(c.store.list({ owner: c.owner, limit: 0 }), 'invalid_options', 'limit 0')
    },
  ],
  [
    'fork copies the first messages into a new session, and refuses a cut inside a tool round',
    async (c) => {
      const id = c.id()
      await c.store.acquire(id, lease(c, 'h'))
      await c.store.append(id, write(c, 'h', 1, [user('q'), assistant('a', ['c1']), result('c1'), assistant('b')]))
      const copy = await c.store.fork(id, { owner: c.owner, at: 3, id: c.id() })
      same(copy.messageCount, 3, 'messageCount')
      same(texts(await c.store.messages(copy.id, { owner: c.owner })), ['q', 'text', 'c1'], 'the copy')
      same((await c.store.messages(id, { owner: c.owner })).length, 4, 'the source unchanged')
      await fails(c.store.fork(id, { owner: c.owner, at: 2 }), 'invalid_options', 'cut inside a round')
      await fails(c.store.fork(id, { owner: c.owner, at: 1, id: copy.id }), 'invalid_options', 'an id in use')
      const random = await c.store.fork(id, { owner: c.owner, at: 1 })
      check(random.id.length >= 20, 'a fork without an id gets a random one')
    },
  ],
  [
    'delete removes a session and its messages',
    async (c) => {
      const id = c.id()
      await c.store.acquire(id, lease(c, 'h'))
      await c.store.append(id, write(c, 'h', 1, [user('bye')]))
      same(await c.store.delete(id, { owner: c.owner }), true, 'delete')
      same(await c.store.messages(id, { owner: c.owner }), [], 'messages after')
      same(await c.store.delete(id, { owner: c.owner }), false, 'delete again')
    },
  ],
]

/**
 * Checks a session store against the contract of `SessionStore` (docs/sessions.md): leases,
 * whole and once-only writes, owners, compaction, paging, fork and delete. It makes sessions
 * with random ids and owners, so it can run against a database in use. Resolves to a report.
 */
export async function runSessionStoreConformance(store: SessionStore): Promise<SessionConformanceReport> {
  const checks: SessionConformanceCheck[] = []
  const c: Ctx = { store, owner: generateId('owner'), other: generateId('owner'), id: () => generateId('session') }
  for (const [name, body] of CHECKS) {
    try {
      await body(c)
      checks.push({ name })
    } catch (error) {
      checks.push({ name, error: error instanceof Error ? error.message : String(error) })
    }
  }
  const failed = checks.filter((x) => x.error !== undefined)
  return { passed: checks.length - failed.length, failed, checks }
}
