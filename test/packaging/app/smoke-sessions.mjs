// @nestor/sessions from the packed tarball: two execs on one SQLite file session, the second
// continuing the first's conversation, and another owner seeing nothing of it.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers/testing'
import { sqliteSessions } from '@nestor/sessions/sqlite'

const sessions = sqliteSessions({ path: join(mkdtempSync(join(tmpdir(), 'smoke-sessions-')), 'chats.db') })
const seen = []
const runtime = new Runtime({
  provider: scripted((request) => {
    seen.push(request.messages.length)
    return `answer ${seen.length}`
  }),
  model: 'test-model',
  sessions,
})
const session = { id: 'chat-1', owner: 'ana' }
const first = await runtime.exec('hello', { session })
const second = await runtime.exec('again', { session })
const stored = await sessions.messages('chat-1', { owner: 'ana' })
const foreign = await sessions.messages('chat-1', { owner: 'bob' })
await sessions.close()
console.log(
  JSON.stringify({
    statuses: [first.status, second.status],
    seen,
    stored: stored.map((m) => m.role),
    foreign: foreign.length,
  }),
)
