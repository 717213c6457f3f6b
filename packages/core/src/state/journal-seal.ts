import { hmacSha256Hex, sameDigest } from '../platform/node.js'
import { canonicalJson } from '../base/canonical.js'
import { NestorError } from '../contract/errors.js'
import type { Journal, JournalEntry } from '../contract/journal.js'

// With the runtime's `stateSecret`, each journal entry carries `mac`: HMAC-SHA256 (hex) of its run
// id and its other fields, as paused RunStates are signed. Whoever can write the store but does
// not hold the secret can then drop steps from the end (as a crash does) but not forge, change or
// move one: a replay never takes a decision or a result the runtime did not record.

const sealed = new WeakSet<Journal>()

/** The journal with its entries signed on append and verified on load; unchanged without a secret. */
export function sealedJournal(journal: Journal, secret: string | undefined): Journal {
  if (secret === undefined || sealed.has(journal)) return journal
  const seal: Journal = {
    async load(runId) {
      const entries: unknown = await journal.load(runId)
      // What is no list is refused by the entry check, which names the problem.
      return (Array.isArray(entries) ? entries.map((entry) => opened(entry, runId, secret)) : entries) as JournalEntry[]
    },
    append: (runId, entry) => journal.append(runId, { ...entry, mac: macOf(runId, entry, secret) }),
  }
  return markSealed(journal.id === undefined ? seal : { ...seal, id: journal.id })
}

/** A journal whose entries already pass through sealed ones (a fork's): not sealed twice. */
export function markSealed(journal: Journal): Journal {
  sealed.add(journal)
  return journal
}

function macOf(runId: string, entry: JournalEntry, secret: string): string {
  const { mac: _mac, ...body } = entry
  return hmacSha256Hex(secret, canonicalJson([runId, body]))
}

/** The entry without its `mac`, once the mac is checked; `invalid_state` naming the key if not. */
function opened(entry: unknown, runId: string, secret: string): unknown {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry
  const { mac, ...body } = entry as JournalEntry
  const refuse = (why: string) =>
    new NestorError('invalid_state', `journal entry ${String(body.key)} of run ${runId} ${why}`)
  if (typeof mac !== 'string') throw refuse('is not signed, and this runtime has a stateSecret')
  if (!sameDigest(mac, macOf(runId, body, secret)))
    throw refuse('does not match its signature: it was changed, moved from another run, or signed with another secret')
  return body
}
